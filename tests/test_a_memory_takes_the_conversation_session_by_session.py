"""A memory that defines ``add(session)`` takes the conversation session by session, as it would be used: its
factory gets the conversation's id and speakers and no turn, then ``add`` is called once per session, in
order, with the session's number, date and turns, and only then is it asked.  What it kept decides its
recall (here: the last two sessions); the time of each ``add`` is measured and kept in the results file."""

from __future__ import annotations

import io
import json

from locomo_repro import cli
from locomo_repro.arms.plugin import Conversation, fed, sessions

import toy_plugins


def test_sessions_are_the_conversations_in_order_each_with_its_date_and_turns(samples):
    conversation = Conversation.of(samples[0])
    got = sessions(conversation)
    assert [s.number for s in got] == sorted({t.session for t in samples[0].turns})
    assert [t for s in got for t in s.turns] == list(samples[0].turns)
    assert all({t.session for t in s.turns} == {s.number} and s.date == s.turns[0].date for s in got)
    assert fed(toy_plugins.Diary) and not fed(toy_plugins.Vec) and not fed(toy_plugins.first_turns)


def test_each_session_is_added_in_order_before_any_question_and_its_time_kept(tmp_path, samples, monkeypatch):
    monkeypatch.setattr(toy_plugins.Diary, "seen", [])
    out, results = tmp_path / "p.json", tmp_path / "r.json"
    argv = ["-arms", "toy_plugins:Diary", "-only", "2", "-quiet", "-jobs", "1", "-out", str(out), "-json", str(results)]
    assert cli.run(cli.parser().parse_args(argv), io.StringIO()) == 0
    expected = [(s.id, session.number, len(session.turns), session.date)
                for s in samples[:2] for session in sessions(Conversation.of(s))]
    assert toy_plugins.Diary.seen == expected
    last_two = {s.id: [t.id for session in sessions(Conversation.of(s))[-2:] for t in session.turns] for s in samples[:2]}
    for sample in json.loads(out.read_text()):
        for q in sample["qa"]:
            assert q["diary_prediction_context"] == last_two[sample["sample_id"]][-5:][::-1]
    build = json.loads(results.read_text())["cost"]["diary"]["build"]
    assert [len(each) for each in build["sessions"]] == [len(sessions(Conversation.of(s))) for s in samples[:2]]
    assert all(sum(each) <= whole for each, whole in zip(build["sessions"], build["conversations"]))


def test_a_memory_fed_whole_has_no_session_times(tmp_path):
    results = tmp_path / "r.json"
    argv = ["-arms", "toy_plugins:Vec", "-only", "1", "-quiet", "-jobs", "1", "-json", str(results)]
    assert cli.run(cli.parser().parse_args(argv), io.StringIO()) == 0
    assert json.loads(results.read_text())["cost"]["vec"]["build"]["sessions"] is None
