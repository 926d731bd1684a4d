"""Past twelve conversations the exact bootstrap is not taken: ``compare`` gives each pooled difference
without an interval and says why in a note; up to twelve, the interval is there."""

from __future__ import annotations

import json

from locomo_repro import cli
from locomo_repro.score import compare


def predictions(conversations: int, reply: str) -> list[dict]:
    """One single-hop question per conversation, answered ``reply`` by arm a and "Paris" by arm b."""
    return [{"sample_id": f"c{i}", "qa": [{"question": "Where?", "answer": "Paris", "category": 4, "evidence": [],
                                            "a_prediction": reply, "b_prediction": "Paris"}]}
            for i in range(conversations)]


def test_thirteen_conversations_give_the_pooled_difference_and_a_note(tmp_path, capsys):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(predictions(13, "Rome")))
    assert cli.main(["compare", str(path), "--format", "json"]) == 0
    out, err = capsys.readouterr()
    document = json.loads(out)
    overall = [row for row in document["rows"] if row["category"] == "4" and row["column"] == "p.json b"]
    assert [(row["diff"], row["low"], row["high"]) for row in overall] == [(1.0, None, None)]
    said = "13 conversations: the exact bootstrap would enumerate 5,200,300 resamples (at most 2,000,000): " \
           "differences without intervals"
    assert document["notes"] == [said] and f"note: {said}\n" in err


def test_twelve_conversations_give_the_interval(tmp_path, capsys):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(predictions(12, "Rome")))
    assert compare.main([str(path), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [(r["diff"], r["low"], r["high"]) for r in rows if r["category"] == "4" and r["column"] == "p.json b"] == [
        (1.0, 1.0, 1.0)]


def test_past_twelve_conversations_the_pooled_difference_is_over_questions_not_conversations(tmp_path, capsys):
    """By hand: the first of thirteen conversations asks three questions, which arm a gets wrong ("Rome") and b
    right; the other twelve ask one, both right.  b - a differs by 3 over 15 questions: 0.2 (over the thirteen
    conversations it would be 3/13)."""
    document = predictions(13, "Paris")
    document[0]["qa"] = [{**document[0]["qa"][0], "a_prediction": "Rome"} for _ in range(3)]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(document))
    assert compare.main([str(path), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    got = {r["category"]: (r["n"], r["diff"], r["low"], r["high"]) for r in rows if r["column"] == "p.json b"}
    assert got["4"] == got["answerable"] == got["overall"] == (15, 0.2, None, None)
