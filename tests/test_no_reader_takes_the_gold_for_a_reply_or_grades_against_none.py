"""No silent wrong answer: a forced ``peers import --format`` must fit the file's shape (zep's reader on a
mem0 file would take mem0's ``answer``, the gold, as the system's reply: 1540 of 1540 correct), and no reader
grades a question that has no answer against the word "None" (``peers table`` did; ``-stats`` refuses it)."""

from __future__ import annotations

import json

import pytest

from refused import one_line
from locomo_repro import cli
from locomo_repro.peers.__main__ import main as peers_main
from locomo_repro.score import crosscheck

MEM0 = {"0": [{"question": "When did Caroline go to the LGBTQ support group?", "answer": "7 May 2023",
               "response": "I do not know", "category": "2"}]}
ZEP = {"locomo_experiment_user_0": [{"question": "When did Caroline go to the LGBTQ support group?",
                                     "answer": "I do not know", "golden_answer": "7 May 2023"}]}



@pytest.mark.parametrize(("content", "forced", "says"), [
    (MEM0, "zep", "has the shape of a mem0 file, not zep"),
    (ZEP, "mem0", "has the shape of a zep file, not mem0"),
    (MEM0, "backboard", "has the shape of a mem0 file, not backboard"),
])
def test_a_forced_format_must_fit_the_file(tmp_path, capsys, content, forced, says):
    path = tmp_path / "f.json"
    path.write_text(json.dumps(content))
    out = tmp_path / "o.json"
    one_line(capsys, peers_main(["import", "--arm", f"a={path}", "--format", forced, "-out", str(out)]), str(path), says)
    assert not out.exists()


def test_a_record_without_the_field_its_format_reads_is_refused(tmp_path, capsys):
    """A shape the detector cannot tell (no record says which format it is) forced to zep: zep's gold field is
    missing, so zep's ``answer`` would be someone else's field."""
    path = tmp_path / "f.json"
    path.write_text(json.dumps({"0": [{"question": "When did Caroline go to the LGBTQ support group?",
                                       "answer": "7 May 2023"}]}))
    one_line(capsys, peers_main(["import", "--arm", f"a={path}", "--format", "zep", "-out", str(tmp_path / "o.json")]),
             str(path), "0[0]: no 'golden_answer' key")


def test_a_question_without_an_answer_is_refused_by_every_reader(tmp_path, capsys):
    path = tmp_path / "p.json"
    path.write_text(json.dumps([{"sample_id": "s1", "qa": [
        {"question": "q", "category": 4, "evidence": [], "a_prediction": "None", "a_prediction_context": []}]}]))
    says = "s1 qa[0]: neither answer nor adversarial_answer"
    one_line(capsys, peers_main(["table", str(path)]), str(path), says)
    one_line(capsys, cli.main(["-stats", str(path)]), str(path), says)
    one_line(capsys, crosscheck.main([str(path), "--kit"]), str(path), says)
    one_line(capsys, crosscheck.main([str(path), "--kit", "--json"]), str(path), says)
