"""Hand-checked: one question per error type of locomo-audit, graded under the official and the audited key.

The dataset is one conversation whose last turn says "Paris"; the ``parrot`` plug-in answers every question
with that turn and names it as its evidence (D1:3).  So a question scores F1 1 and recall 1 where the key's
gold is "Paris" with evidence D1:3, and 0 where it is "London" with D1:1; a multi-hop gold "Paris, Rome"
scores 0.5 (one part of two).  The errors file is written here, in the audit's shape.
"""

from __future__ import annotations

import io
import json

import pytest

from locomo_repro import cli
from locomo_repro.data import audit
from locomo_repro.score.key import Key, load

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


@pytest.fixture
def files(tmp_path, monkeypatch):
    (tmp_path / "d.json").write_text(json.dumps(dataset()))
    (tmp_path / "audit").mkdir()
    (tmp_path / "audit" / "errors.json").write_text(json.dumps(errors()))
    monkeypatch.setenv(audit.ENV, str(tmp_path / "audit"))
    monkeypatch.syspath_prepend(str(__import__("pathlib").Path(__file__).parent))
    return tmp_path


def table(files, *flags: str) -> dict[str, list[str]]:
    """The run's table rows by name: n, then the parrot's F1, recall and declined share."""
    out = io.StringIO()
    args = cli.parser().parse_args(["-data", str(files / "d.json"), "-arms", "toy_plugins:Parrot", "-quiet",
                                    "-jobs", "1", *flags])
    assert cli.run(args, out) == 0
    return {line[:14].strip(): line[14:].split() for line in out.getvalue().splitlines()[6:] if line.strip()}


def test_the_official_key_grades_every_question_against_the_datasets_gold(files):
    rows = table(files)
    assert rows["single hop"] == ["4", "0.500", "0.250", "0%"]  # clean 1/1, hallucination 0/0, attribution 0/0,
    assert rows["multi hop"] == ["1", "0.000", "0.000", "0%"]  # citation: F1 1 against "Paris", recall 0 (D1:1)
    assert rows["temporal"] == ["1", "0.000", "0.000", "0%"]
    assert rows["open domain"] == ["1", "1.000", "1.000", "0%"]  # "Paris; she went" is cut at ";"
    assert rows["answerable"] == ["7", f"{3 / 7:.3f}", f"{2 / 7:.3f}", "0%"]
    assert "ambiguous" not in rows


def test_the_audited_key_grades_against_the_corrections_and_holds_the_ambiguous_apart(files, capsys):
    rows = table(files, "-key", "audited")
    assert rows["single hop"] == ["4", "1.000", "1.000", "0%"]  # hallucination and attribution corrected to
    assert rows["multi hop"] == ["1", "0.500", "1.000", "0%"]  # Paris; citation keeps its answer, not the note
    assert rows["temporal"] == ["1", "1.000", "1.000", "0%"]
    assert rows["open domain"] == ["0", "0.000", "0.000", "0%"]  # the ambiguous question is in no category
    assert rows["answerable"] == ["6", f"{5.5 / 6:.3f}", "1.000", "0%"]
    assert rows["overall"][0] == "7"
    assert rows["ambiguous"] == ["1", "1.000", "1.000", "0%"]  # graded against the official gold, apart
    assert "key:audited-" in capsys.readouterr().err


def test_key_gold_is_a_function_of_the_question_and_its_official_gold(files):
    key = load("audited")
    official = Key()
    for i, (_, _, answer, evidence, kind, corrected, fixed) in enumerate(QUESTIONS):
        assert official.gold(0, i, answer, tuple(evidence)).answer == answer
        gold = key.gold(0, i, answer, tuple(evidence))
        if kind in (None, "WRONG_CITATION", "AMBIGUOUS"):
            assert gold.answer == answer
        else:
            assert gold.answer == corrected
        assert gold.evidence == tuple(fixed if kind not in (None, "AMBIGUOUS") else evidence)
        assert gold.held == (kind == "AMBIGUOUS")
