"""``locomo-repro official FILE``'s table prints recall as ``-`` for an arm whose file gives no
``_prediction_context`` (the official scorer would count 1.000: evidence of nothing), as ``--json``'s null;
an arm with contexts keeps its figures.  The file is made up here."""

from __future__ import annotations

import json

from locomo_repro.score.crosscheck import main


def qa(category, answer, reply):
    # arm "a" cites turns; arm "b" gives replies alone
    return {"question": "q?", "answer": answer, "category": category, "evidence": ["D1:1"],
            "a_prediction": reply, "a_prediction_context": ["D1:1"], "b_prediction": reply}


def test_the_blind_arms_recall_is_a_dash_and_the_other_arms_a_figure(tmp_path, capsys):
    path = tmp_path / "answers.json"
    path.write_text(json.dumps([{"sample_id": "s1", "qa": [qa(4, "red", "red"), qa(2, "blue", "green")]}]))
    assert main([str(path), "--kit"]) == 0
    out, err = capsys.readouterr()
    rows = {line[:14].strip(): line[20:].split() for line in out.splitlines()[3:]}
    assert rows["single hop"] == ["1.000", "1.000", "1.000", "-"]
    assert rows["temporal"] == ["0.000", "1.000", "0.000", "-"]
    assert rows["adversarial"] == ["nan", "nan", "nan", "-"]
    assert rows["overall"] == ["0.500", "1.000", "0.500", "-"]
    assert "no _prediction_context for b" in err and "shown as -" in err
    widths = {len(line) for line in out.splitlines()[2:]}
    assert len(widths) == 1  # the dash takes the figure's width: every row as long as the heading
