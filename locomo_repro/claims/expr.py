"""Expressions over other claims' values: ``{claim-id}`` references, + - * /, numbers, min max abs range each mean.

A claim of kind ``expr`` computes its value from other claims' unrounded
measurements (a difference of two table cells, a share).  The expression is
checked node by node before it is evaluated: nothing but arithmetic and the
listed functions can run.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from typing import Any

_REF = re.compile(r"\{([a-z0-9][a-z0-9.+\-]*)\}")

#: The functions an expression may call.
FUNCTIONS: dict[str, Callable[..., Any]] = {
    "min": min,
    "max": max,
    "abs": abs,
    "range": lambda *xs: (min(xs), max(xs)),
    "each": lambda *xs: tuple(xs),
    "mean": lambda *xs: sum(xs) / len(xs),
}

_ALLOWED = (
    ast.Expression, ast.BinOp, ast.UnaryOp, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.USub, ast.UAdd,
    ast.Constant, ast.Name, ast.Load, ast.Call,
)


def refs(expr: str) -> list[str]:
    """The claim ids an expression refers to, in order."""
    return _REF.findall(expr)


def parse(expr: str) -> tuple[ast.Expression, list[str]]:
    """The checked syntax tree of an expression and its references; ValueError names a node that is not allowed."""
    found = refs(expr)
    source = _REF.sub(lambda m: f"_{found.index(m.group(1))}", expr)
    tree = ast.parse(source, mode="eval")
    for node in ast.walk(tree):
        ok = isinstance(node, _ALLOWED)
        if isinstance(node, ast.Constant) and not isinstance(node.value, (int, float)):
            ok = False
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS):
            ok = False
        if isinstance(node, ast.Name) and not (node.id in FUNCTIONS or re.fullmatch(r"_\d+", node.id)):
            ok = False
        if not ok:
            raise ValueError(f"{type(node).__name__} is not allowed")
    return tree, found


def evaluate(expr: str, values: Mapping[str, Any]) -> Any:
    """The expression's value, each ``{claim-id}`` replaced by ``values[claim-id]``."""
    tree, found = parse(expr)
    scope = {f"_{i}": values[r] for i, r in enumerate(found)}
    return eval(compile(tree, "<claim>", "eval"), {"__builtins__": {}, **FUNCTIONS}, scope)  # noqa: S307 - checked above
