"""``-conversations ID,...`` asks only those conversations (in the dataset's order) and ``-limit N`` only the first
N questions of each, for quick runs; both are named in the signature and the results file, and an id the
dataset does not hold is refused in one line before any work."""

from __future__ import annotations

import io
import json

from locomo_repro import cli
from refused import one_line


def ran(argv: list[str], capsys) -> tuple[str, str]:
    out = io.StringIO()
    assert cli.run(cli.parser().parse_args([*argv, "-arms", "read", "-quiet", "-jobs", "1"]), out) == 0
    return out.getvalue(), capsys.readouterr().err


def test_the_conversations_named_are_asked_in_the_datasets_order(capsys, samples):
    out, err = ran(["-conversations", "conv-30,conv-26"], capsys)
    first, second = samples[0], samples[1]
    turns = len(first.turns) + len(second.turns)
    questions = len(first.questions) + len(second.questions)
    assert out.startswith(f"2 conversations, {first.sessions + second.sessions} sessions, {turns} turns, "
                          f"{questions} questions\n")
    assert "|only:" not in err and "|conversations:conv-30,conv-26|scorer:kit|" in err
    assert ran(["-conversations", "conv-26"], capsys)[0] == ran(["-only", "1"], capsys)[0]


def test_limit_asks_the_first_questions_of_each_conversation(capsys, samples, tmp_path):
    out, err = ran(["-only", "2", "-limit", "3", "-json", str(tmp_path / "r.json")], capsys)
    assert out.startswith(f"2 conversations, {samples[0].sessions + samples[1].sessions} sessions, ")
    assert ", 6 questions\n" in out.splitlines()[0] + "\n" and "|only:2|limit:3|scorer:kit|" in err
    results = json.loads((tmp_path / "r.json").read_text())
    assert results["settings"]["limit"] == 3 and results["settings"]["conversations"] is None
    rows = results["passes"][0]["arms"]["oracle"]["conversations"][0]["rows"]
    by_category = {str(c): sum(q.category == c for q in samples[0].questions[:3]) for c in (1, 2, 3, 4, 5)}
    assert {key: rows[key]["n"] for key in by_category} == by_category


def test_an_id_the_dataset_does_not_hold_is_refused_before_any_work(capsys, tmp_path):
    code = cli.main(["-conversations", "conv-26,conv-99", "-out", str(tmp_path / "p.json")])
    one_line(capsys, code, "-conversations: conv-99: no such sample id in the dataset")
    assert list(tmp_path.iterdir()) == []
    one_line(capsys, cli.main(["-conversations", "conv-26,,conv-30"]), "distinct sample ids separated by commas")
