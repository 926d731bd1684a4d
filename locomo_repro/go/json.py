"""JSON written the way Go's ``encoding/json`` encoder writes it.

The reference writes its predictions with ``json.Encoder`` and
``SetIndent("", " ")``: one-space indentation (Go sorts map keys: callers pass
dicts already in key order), ``<``, ``>``,
``&``, U+2028 and U+2029 escaped, floats in their shortest round-trip form
without an exponent between 1e-6 and 1e21, and a final newline.  Writing the
same bytes lets a predictions file be compared with ``cmp``.
"""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal

_HTML = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"})


_SURROGATE = re.compile("[\ud800-\udfff]")


def _string(s: str) -> str:
    if not s.isascii():
        s = _SURROGATE.sub("\ufffd", s)  # Go holds no lone surrogate: it decoded one as U+FFFD
    return json.dumps(s, ensure_ascii=False).translate(_HTML)


def _float(x: float) -> str:
    if not math.isfinite(x):
        raise ValueError(f"JSON cannot hold {x!r}")
    if x == 0:
        return "-0" if math.copysign(1.0, x) < 0 else "0"
    if 1e-6 <= abs(x) < 1e21:
        text = format(Decimal(repr(x)), "f")
        return text[:-2] if text.endswith(".0") else text
    mantissa, _, exponent = repr(x).partition("e")
    power = int(exponent)
    # Go pads the exponent to two digits, then drops the pad of a negative one.
    return f"{mantissa.removesuffix('.0')}e{'-' if power < 0 else '+'}{abs(power):0{1 if power < 0 else 2}d}"


def dumps(value: object, indent: str = " ") -> str:
    """Encode ``value`` (dicts, lists, tuples, str, int, float, bool, None) as Go would, with a final newline."""
    out: list[str] = []

    def emit(v: object, depth: int) -> None:
        pad = "\n" + indent * (depth + 1)
        if isinstance(v, str):
            out.append(_string(v))
        elif isinstance(v, bool) or v is None:
            out.append(json.dumps(v))
        elif isinstance(v, int):
            out.append(str(v))
        elif isinstance(v, float):
            out.append(_float(v))
        elif isinstance(v, dict):
            if not v:
                out.append("{}")
                return
            out.append("{")
            for i, (k, item) in enumerate(v.items()):
                out.append(("," if i else "") + pad + _string(k) + ": ")
                emit(item, depth + 1)
            out.append("\n" + indent * depth + "}")
        elif isinstance(v, (list, tuple)):
            if not v:
                out.append("[]")
                return
            out.append("[")
            for i, item in enumerate(v):
                out.append(("," if i else "") + pad)
                emit(item, depth + 1)
            out.append("\n" + indent * depth + "]")
        else:
            raise TypeError(f"cannot encode {type(v).__name__}")

    emit(value, 0)
    return "".join(out) + "\n"
