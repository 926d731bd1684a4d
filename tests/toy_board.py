"""Three small files, one per input format of the leaderboard, over a toy dataset of three conversations,
every figure of which the leaderboard's tests check by hand.

Each conversation asks the same three questions: "Where is Ann?" (category 4, gold Paris, evidence D1:1),
"Where is Bob?" (category 4, gold Rome, D1:2) and "What is the dog called?" (category 5, adversarial answer
Rex).  A reply scores 1 or 0 (the gold or another city; declining or not).

* ``p.json``, predictions in the official shape, arm ``a``: answerable 1, 1, 0 of 2 per conversation (1/3),
  adversarial declined in s1 and s3 (2/3), context D1:1 for every question (recall 2/3);
* ``r.json``, a results file, arm ``b``: answerable sums 1.5, 2, 1 of 2 (0.75), adversarial 0, 1, 0 of 1;
* ``j.json``, the kit's judged file, arm ``c``: replies answering 2, 2, 1 of 2 (5/6) and declining every
  adversarial question; its judge scores 1, 1, 1 | 1, 0, failed | 1, 1, 0 (s3's Oslo judged correct).

The audit's errors file corrects s2's "Where is Bob?" to Oslo.
"""

from __future__ import annotations

import json
from pathlib import Path

from judged_files import verdict, write as write_judged
from locomo_repro.data import audit

DECLINE = "No information available"
SAMPLES = ("s1", "s2", "s3")
QUESTIONS = (("Where is Ann?", 4, "Paris", ["D1:1"]), ("Where is Bob?", 4, "Rome", ["D1:2"]),
             ("What is the dog called?", 5, "Rex", []))
#: Each arm's replies per conversation, in question order.
A = (("Paris", "Oslo", DECLINE), ("Paris", "Oslo", "Rex"), ("Oslo", "Oslo", DECLINE))
C = (("Paris", "Rome", DECLINE), ("Paris", "Rome", DECLINE), ("Paris", "Oslo", DECLINE))
C_SCORES = ((1.0, 1.0, 1.0), (1.0, 0.0, None), (1.0, 1.0, 0.0))


def dataset() -> list[dict]:
    turns = [{"speaker": "Ann", "dia_id": "D1:1", "text": "I am in Paris."},
             {"speaker": "Bob", "dia_id": "D1:2", "text": "I am in Rome."}]
    qa = [{"question": q, "category": c, **({"adversarial_answer": a} if c == 5 else {"answer": a}), "evidence": e}
          for q, c, a, e in QUESTIONS]
    return [{"sample_id": s, "qa": qa, "conversation": {"speaker_a": "Ann", "speaker_b": "Bob",
                                                          "session_1_date_time": "1:56 pm on 8 May, 2023",
                                                          "session_1": turns}} for s in SAMPLES]


def predictions() -> list[dict]:
    return [{"sample_id": s, "qa": [
        {"question": q, "answer": a, "category": c, "evidence": e, "a_prediction": reply,
         "a_prediction_context": ["D1:1"], "a_prediction_confidence": 0.5}
        for (q, c, a, e), reply in zip(QUESTIONS, replies)]} for s, replies in zip(SAMPLES, A)]


def _row(name: str, n: int, f1: float, interval: list[float] | None, recall: float | None) -> dict:
    return {"name": name, "n": n, "f1": f1, "recall": recall, "quiet": 0.0, "f1_interval": interval}


def results() -> dict:
    """A results file of arm b, written by hand in the schema (docs/results.md)."""
    answerable = ((2, 1.5), (2, 2.0), (2, 1.0))
    adversarial = ((1, 0.0), (1, 1.0), (1, 0.0))
    empty = {"n": 0, "score": 0.0}
    conversations = [{"sample": s, "rows": {
        "4": {"n": a[0], "score": a[1]}, "1": empty, "2": empty, "3": empty, "5": {"n": v[0], "score": v[1]},
        "answerable": {"n": a[0], "score": a[1]}, "overall": {"n": a[0] + v[0], "score": a[1] + v[1]}}}
        for s, a, v in zip(SAMPLES, answerable, adversarial)]
    rows = {"4": _row("single hop", 6, 0.75, [0.5, 1.0], 0.5), "1": _row("multi hop", 0, 0.0, None, None),
            "2": _row("temporal", 0, 0.0, None, None), "3": _row("open domain", 0, 0.0, None, None),
            "5": _row("adversarial", 3, 1 / 3, [0.0, 1.0], 0.2), "answerable": _row("answerable", 6, 0.75, [0.5, 1.0], 0.5),
            "overall": _row("overall", 9, 5.5 / 9, [1 / 3, 1.0], 0.4)}
    return {"schema": "locomo-repro/results", "version": 1, "kit_version": "0.1.0", "signature": "hand-made",
            "dataset": {"sha256": "0" * 64, "conversations": list(SAMPLES)},
            "settings": {"arms": "b", "model": None},
            "bootstrap": {"over": "conversations", "level": 0.95, "resamples": 10, "unavailable": None},
            "passes": [{"sweep": None, "options": {"k": 5, "floor": 0.3, "span": 4, "band": 0.9, "parts": 2},
                        "arms": {"b": {"rows": rows, "conversations": conversations}}}]}


def judged(arm: str = "c") -> list:
    return [verdict(s, i, c, score, arm=arm, reply=reply, gold=a)
            for s, replies, scores in zip(SAMPLES, C, C_SCORES)
            for i, ((_, c, a, _), reply, score) in enumerate(zip(QUESTIONS, replies, scores))]


def errors() -> list[dict]:
    return [{"question_id": "locomo_1_qa1", "question": "Where is Bob?", "golden_answer": "Rome", "category": 4,
             "error_type": "HALLUCINATION", "cited_evidence": ["D1:2"], "correct_evidence": ["D1:2"],
             "reasoning": "hand-made", "correct_answer": "Oslo"}]


def write(folder: Path, monkeypatch) -> Path:
    """The dataset (``d.json``), the three files and the audit's errors (LOCOMO_AUDIT) under ``folder``."""
    (folder / "d.json").write_text(json.dumps(dataset()))
    (folder / "p.json").write_text(json.dumps(predictions()))
    (folder / "r.json").write_text(json.dumps(results()))
    write_judged(folder / "j.json", judged())
    (folder / "audit").mkdir()
    (folder / "audit" / "errors.json").write_text(json.dumps(errors()))
    monkeypatch.setenv(audit.ENV, str(folder / "audit"))
    return folder
