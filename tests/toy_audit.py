"""A toy conversation and a locomo-audit errors file for it, one question per error type (the hand-checked
cases of the answer keys' tests): the last turn says "Paris", and the ``parrot`` plug-in answers every question
with it, naming D1:3."""

from __future__ import annotations

import json
from pathlib import Path

from locomo_repro.data import audit

TURNS = [{"speaker": "Ann", "dia_id": "D1:1", "text": "I lived in London."},
         {"speaker": "Bob", "dia_id": "D1:2", "text": "Nice."},
         {"speaker": "Ann", "dia_id": "D1:3", "text": "Paris"}]

#: (question, category, official answer, official evidence, error type or None, corrected answer, corrected
#: evidence); question i is locomo_0_qa<i>.
QUESTIONS = [
    ("Where is Ann now?", 4, "Paris", ["D1:3"], None, "", []),
    ("Where did Ann move?", 4, "London", ["D1:1"], "HALLUCINATION", "Paris", ["D1:3"]),
    ("Where was Ann in May?", 2, "London", ["D1:1"], "TEMPORAL_ERROR", "Paris", ["D1:3"]),
    ("Where does Bob say Ann is?", 4, "London", ["D1:1"], "ATTRIBUTION_ERROR", "Paris", ["D1:3"]),
    ("Which cities has Ann seen?", 1, "London", ["D1:1"], "INCOMPLETE", "Paris, Rome", ["D1:3"]),
    ("Would Ann like Paris?", 3, "Paris; she went", ["D1:3"], "AMBIGUOUS", "Unclear", ["D1:1"]),
    ("Which city did Ann name?", 4, "Paris", ["D1:1"], "WRONG_CITATION", "Paris (answer is right)", ["D1:3"]),
]


def dataset() -> list[dict]:
    qa = [{"question": q, "category": c, "answer": a, "evidence": e} for q, c, a, e, *_ in QUESTIONS]
    qa.append({"question": "What is Bob's dog called?", "category": 5, "adversarial_answer": "Rex", "evidence": []})
    return [{"sample_id": "s1", "qa": qa, "conversation": {
        "speaker_a": "Ann", "speaker_b": "Bob", "session_1_date_time": "1:56 pm on 8 May, 2023", "session_1": TURNS}}]


def errors() -> list[dict]:
    return [{"question_id": f"locomo_0_qa{i}", "question": q, "golden_answer": a, "category": c, "error_type": t,
             "cited_evidence": e, "correct_evidence": ce, "reasoning": "hand-made", "correct_answer": ca}
            for i, (q, c, a, e, t, ca, ce) in enumerate(QUESTIONS) if t]


def write(folder: Path, monkeypatch) -> Path:
    """The dataset as ``d.json`` and the errors in ``audit/errors.json`` under ``folder``, LOCOMO_AUDIT naming
    them, and the tests' folder importable (``toy_plugins``)."""
    (folder / "d.json").write_text(json.dumps(dataset()))
    (folder / "audit").mkdir()
    (folder / "audit" / "errors.json").write_text(json.dumps(errors()))
    monkeypatch.setenv(audit.ENV, str(folder / "audit"))
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    return folder
