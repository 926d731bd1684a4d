"""``official --json`` and a run's results file give the same float for the same mean: a row of several
categories adds their sums in one order, in turn (``metric.in_turn``), where the built-in ``sum()`` would
compensate and give another last bit."""

from __future__ import annotations

import io
import json
import math

from locomo_repro import cli
from locomo_repro.bench import experiment as bench
from locomo_repro.score import metric, results
from locomo_repro.score.figures import figures
from locomo_repro.score.predictions import parse


def test_every_arms_f1_and_recall_are_the_same_floats_in_both(tmp_path, capsys):
    out, results = tmp_path / "p.json", tmp_path / "r.json"
    argv = ["-only", "3", "-jobs", "1", "-quiet", "-arms", "walk", "-out", str(out), "-json", str(results)]
    assert cli.run(cli.parser().parse_args(argv), io.StringIO()) == 0
    capsys.readouterr()
    assert cli.main(["official", str(out), "--kit", "--json"]) == 0
    official = json.loads(capsys.readouterr().out)[str(out)]
    ran = json.loads(results.read_text())["passes"][0]["arms"]
    compared = 0
    for arm, rows in ran.items():
        for key in ("1", "2", "3", "4", "5", "overall"):
            mine, theirs = rows["rows"][key], official[arm][key]
            assert (mine["n"], mine["f1"], mine["recall"]) == (theirs["n"], theirs["f1"], theirs["recall"]), (arm, key)
            compared += 1
    assert compared == 7 * 6


def test_in_turn_adds_in_the_order_given_without_compensating():
    values = [1e16, 1.0, 1.0, -1e16]
    assert metric.in_turn(values) == 0.0 and math.fsum(values) == 2.0  # each 1.0 is lost against 1e16, in turn
    assert metric.in_turn([1.0, 1.0, 1e16, -1e16]) == 2.0  # the order decides


def test_where_the_order_decides_the_last_bit_both_add_in_category_order_in_turn():
    # Sums chosen so that the order and the compensation decide: in turn over 1..5 the two 1.0 are lost
    # against 1e16 (0.0); compensated, or in score.py's order 4, 1, 2, 3, 5, they are not (2.0).
    marks = {1: 1e16, 2: 1.0, 3: 1.0, 4: -1e16, 5: 0.0}
    data = [{"sample_id": "s", "qa": [{"question": "?", "answer": "x", "category": c, "evidence": ["D1:1"],
                                       "m_prediction": "x", "m_prediction_context": ["D1:1"]} for c in marks]}]

    def fixed(qas, eval_key):
        return [marks[q["category"]] for q in qas], 0.0, [1.0] * len(qas)

    overall = figures(parse(data, "o.json"), fixed)["m"]["overall"]
    records = [bench.Record("s", "?", "x", c, ("D1:1",), "x", ("D1:1",), None, mark, 1.0) for c, mark in marks.items()]
    ran = results.arm(bench.Tally(records), [("s", results.sums(records))]).rows["overall"]
    assert overall["f1"] == ran.f1 == 0.0 and overall["recall"] == ran.recall == 1.0

