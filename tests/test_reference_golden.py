"""golden/reference/ is what the reference printed, kept without quoting the dataset, and rebuilt by one command.

The digests are checked on small hand-made files; with ``LOCOMO_REFERENCE`` pointing at a folder of the
reference's own outputs, the rebuild is proven byte-identical to what is committed (without it, that test is
left out of the run and the summary says so).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from locomo_repro.score import reference
from locomo_repro.score.reference import FILES, answers_digest, first_difference, show_digest

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "reference"


def h(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


SMALL = (
    '[\n {\n  "sample_id": "s1",\n  "qa": [\n   {\n    "a_prediction": "red",\n'
    '    "a_prediction_confidence": 0.30000000000000004,\n    "a_prediction_context": [\n     "D1:1",\n'
    '     "D2:3"\n    ],\n    "b_prediction": "blue",\n    "b_prediction_confidence": 1,\n'
    '    "b_prediction_context": []\n   }\n  ]\n }\n]\n'
)


def test_a_predictions_file_is_digested_per_question_and_arm_with_the_confidence_as_written():
    raw = SMALL.encode()
    assert answers_digest(raw) == (
        f"sha256\t{hashlib.sha256(raw).hexdigest()}\n"
        f"s1\t0\ta\t{h('red')}\t{h('D1:1' + chr(10) + 'D2:3')}\t0.30000000000000004\n"
        f"s1\t0\tb\t{h('blue')}\t{h('')}\t1\n"
    )


def test_a_difference_is_named_by_its_question_and_arm():
    other = SMALL.replace('"blue"', '"green"').encode()
    named = first_difference(answers_digest(other), answers_digest(SMALL.encode()))
    assert named is not None and named.startswith("first difference: mine 's1\\t0\\tb\\t")
    assert first_difference(answers_digest(SMALL.encode()), answers_digest(SMALL.encode())) is None
    relaid = json.dumps(json.loads(SMALL)).encode()  # same values, other bytes
    assert first_difference(answers_digest(relaid), answers_digest(SMALL.encode())) == (
        "every row agrees; the bytes differ elsewhere (the dataset's fields or the layout)"
    )


def test_show_output_is_digested_per_paragraph_named_by_category_and_question():
    text = "table\n\n== single hop ==\n\n  Q one?\n  A x\n\n  Q two?\n  A y\n\n== temporal ==\n\n  Q three?\n"
    rows = show_digest(text).splitlines()
    assert rows[0] == f"sha256\t{hashlib.sha256(text.encode()).hexdigest()}"
    assert [r.split("\t")[0] for r in rows[1:]] == [
        "paragraph 0", "single hop heading", "single hop Q1", "single hop Q2", "temporal heading", "temporal Q1",
    ]
    assert rows[3] == f"single hop Q1\t{h('  Q one?' + chr(10) + '  A x')}"


def test_every_output_is_committed_and_listed_in_the_readme():
    readme = (GOLDEN / "README.md").read_text()
    committed = {p.name for p in GOLDEN.iterdir()} - {"README.md"}
    assert committed == {o.golden for o in FILES}
    for output in FILES:
        assert f"| `{output.golden}` |" in readme


@pytest.mark.slow
def test_nothing_kept_quotes_the_dataset(samples):
    """No question, answer or speaker name of locomo10 appears in any kept file."""
    kept = "\n".join(p.read_text() for p in GOLDEN.iterdir() if p.name != "README.md")
    names = {s.speakers[0] for s in samples} | {s.speakers[1] for s in samples}
    assert not [n for n in names if n in kept]
    quoted = [q.text for s in samples for q in s.questions if len(q.text) > 12 and q.text in kept]
    assert not quoted


def test_an_unreadable_reference_folder_is_one_line_and_nothing_written(tmp_path, capsys):
    out = tmp_path / "out"
    assert reference.main([str(tmp_path / "nowhere"), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "default.txt" in err
    assert not out.exists()


@pytest.mark.outside("LOCOMO_REFERENCE")
def test_the_rebuild_from_the_reference_outputs_is_byte_identical(tmp_path):
    out = tmp_path / "reference"
    assert reference.main([os.environ["LOCOMO_REFERENCE"], "--out", str(out)]) == 0
    for output in FILES:
        assert (out / output.golden).read_bytes() == (GOLDEN / output.golden).read_bytes(), output.golden
