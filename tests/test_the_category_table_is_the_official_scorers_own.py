"""The one category table (``data.categories``) against the official evaluation.py's own branches, and
``locomo-repro categories FILE`` naming the mapping a file uses with its evidence.

evaluation.py is read from LOCOMO_EVALUATION_PY (the test is skipped, naming it, where it is absent): its
``eval_question_answering`` cuts the answer of one category at ``;``, scores three with plain F1, one by
the answer's comma parts, and one by whether the reply declines.  Those branches are the rules of the
table, and each rule is what the category's official name says it is."""

from __future__ import annotations

import ast
import json
import os
from pathlib import Path

import pytest

from locomo_repro import cli
from locomo_repro.data.categories import CATEGORIES, MAPPINGS, OFFICIAL, TABLE
from locomo_repro.score import official

#: What each rule means of a category, by its name.
MEANS = {"parts": "multi hop", "cut": "open domain", "declined": "adversarial"}


def branches() -> dict[int, set[str]]:
    """The official scorer's rules per category number, read from its source: ``line['category'] == k``
    followed by ``split(';')`` is ``cut``; ``in [..]`` branches calling ``f1_score``, ``f1`` or testing for
    'no information available' are ``f1``, ``parts`` and ``declined``."""
    path = os.environ.get(official.ENV)
    if not path or not Path(path).is_file():
        pytest.skip(f"{official.ENV} names no evaluation.py: the category table is checked against its branches")
    tree = ast.parse(Path(path).read_text())
    (function,) = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "eval_question_answering"]
    rules: dict[int, set[str]] = {}
    for node in ast.walk(function):
        if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
            continue
        test, body = node.test, ast.unparse(ast.Module(body=node.body, type_ignores=[]))
        if "line['category']" not in ast.unparse(test.left):
            continue
        right = test.comparators[0]
        numbers = [e.value for e in right.elts] if isinstance(right, ast.List) else [right.value]
        rule = ("cut" if "split(';')" in body else "parts" if "f1(output" in body else "f1" if "f1_score(" in body
                else "declined" if "no information available" in body else None)
        assert rule is not None, body
        for k in numbers:
            rules.setdefault(k, set()).add(rule)
    return rules


def test_every_category_is_graded_by_the_branch_its_name_says():
    rules = branches()
    assert set(rules) == set(OFFICIAL) == set(CATEGORIES) - {6}  # the scorer has no branch for cognitive
    for c in TABLE:
        # 3 is both cut at ";" and scored with plain F1: the table names the rule that sets it apart
        assert c.rule in rules[c.number], (c, rules[c.number])
        assert rules[c.number] - {"f1"} <= {c.rule}
        assert MEANS.get(c.rule, c.name) == c.name


def test_the_other_mappings_name_the_same_five_categories_differently():
    names = set(OFFICIAL.values())
    for mapping, (table, _) in MAPPINGS.items():
        assert set(table) == set(OFFICIAL) and set(table.values()) == names, mapping
    assert MAPPINGS["paper"][0] != OFFICIAL != MAPPINGS["backboard"][0] != MAPPINGS["paper"][0]


def test_categories_names_the_mapping_of_a_file_with_its_evidence(tmp_path, capsys):
    data = tmp_path / "d.json"
    data.write_text(json.dumps([{"sample_id": "s1", "conversation": {
        "speaker_a": "A", "speaker_b": "B", "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "Hi."}]}, "qa": [
        {"question": "When?", "answer": "May", "category": 2, "evidence": []},
        {"question": "Who?", "answer": "A", "category": 4, "evidence": []}]}]))
    harness = tmp_path / "h.json"
    harness.write_text(json.dumps({"results": [
        {"question": "When?", "category": 3, "question_type": "temporal"},
        {"question": "Who?", "category": 1, "question_type": "single-hop"},
        {"question": "Elsewhere?", "category": 4, "question_type": "world_knowledge"}]}))
    assert cli.main(["categories", "-data", str(data), str(harness)]) == 0
    out = capsys.readouterr().out
    assert "names given to numbers: 1 single hop (1), 3 temporal (1), 4 open domain (1)" in out
    assert "official   0 of 3 agree" in out and "paper      3 of 3 agree" in out
    assert "numbers against locomo10's, by question text: 0 of 2 the same" in out
    assert out.rstrip().endswith("mapping: paper")
