"""``-judge`` on a run: every reply of a plug-in's run judged by a judge server of the test's own on loopback
(CORRECT when the reply is the gold, else WRONG; or CORRECT for everything), the J rows of the results file
and ``compare``'s paired J difference checked against hand computations, and bad input one line.

Two conversations; the ``parrot`` answerer replies with each conversation's last turn (s1 "Paris", s2 "Rome"):

* s1: single hop "Paris" (right), single hop "London" (wrong), temporal "Paris" (right), an adversarial one
  (not judged: a template of the user's own judges categories 1-4);
* s2: multi hop "Rome" (right), single hop "Oslo" (wrong).
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
import toy_audit
from refused import one_line
from stub_server import Stub, completion

from locomo_repro import cli
from locomo_repro.judge import figures as judge_figures
from locomo_repro.judge.ask import Asker, Backoff
from locomo_repro.score import results

TEMPLATE = 'Q: {question}\nGOLD: {gold_answer}\nGEN: {generated_answer}\nSay {{"label": "..."}}'


def conversation(sample: str, last: str, qa: list[dict]) -> dict:
    turns = [{"speaker": "Ann", "dia_id": "D1:1", "text": "I lived in London."},
             {"speaker": "Bob", "dia_id": "D1:2", "text": last}]
    return {"sample_id": sample, "qa": qa, "conversation": {
        "speaker_a": "Ann", "speaker_b": "Bob", "session_1_date_time": "1:56 pm on 8 May, 2023", "session_1": turns}}


DATASET = [
    conversation("s1", "Paris", [
        {"question": "Where is Ann now?", "category": 4, "answer": "Paris", "evidence": ["D1:2"]},
        {"question": "Where did Ann live?", "category": 4, "answer": "London", "evidence": ["D1:1"]},
        {"question": "Where was Ann in May?", "category": 2, "answer": "Paris", "evidence": ["D1:2"]},
        {"question": "What is Bob's dog called?", "category": 5, "adversarial_answer": "Rex", "evidence": []}]),
    conversation("s2", "Rome", [
        {"question": "Which city did Bob name?", "category": 1, "answer": "Rome", "evidence": ["D1:2"]},
        {"question": "Where is Cy?", "category": 4, "answer": "Oslo", "evidence": ["D1:1"]}]),
]


def strict(body, n):
    """CORRECT when the reply shown is the gold shown (case and spaces aside), else WRONG."""
    text = body["messages"][0]["content"]
    gold, reply = (re.search(rf"^{name}: (.*)$", text, re.M).group(1).strip().lower() for name in ("GOLD", "GEN"))
    return 200, {**completion(json.dumps({"label": "CORRECT" if gold == reply else "WRONG"})),
                 "usage": {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12}}, 0


def lenient(body, n):
    return 200, completion(json.dumps({"label": "CORRECT"})), 0


@pytest.fixture
def here(tmp_path, monkeypatch):
    for name in ("HANZO_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    (tmp_path / "d.json").write_text(json.dumps(DATASET))
    (tmp_path / "t.txt").write_text(TEMPLATE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(here: Path, base: str, name: str, out: io.StringIO | None = None) -> int:
    argv = ["-data", str(here / "d.json"), "-arms", "toy_plugins:Parrot", "-jobs", "1", "-memo", "", "-judge",
            "prompt", "-judge-prompt", str(here / "t.txt"), "-judge-model", "judge-m", "-judge-base", base,
            "-json", str(here / name)]
    return cli.run(cli.parser().parse_args(argv), out or io.StringIO())


def test_the_results_file_holds_each_rows_j_its_interval_and_the_f1s_agreement(here, capfd):
    text = io.StringIO()
    with Stub(strict) as stub:
        assert run(here, stub.base_url, "r.json", text) == 0
    err = capfd.readouterr().err
    got = results.read(here / "r.json")
    rows = got.passes[0].arms["parrot"].judge.rows
    # answerable and overall: 3 of 5 accepted (the adversarial question is not judged: 5 of 6 in overall's F1);
    # per conversation s1 2 of 3, s2 1 of 2; the exact bootstrap over two: from 1/2 to 2/3
    for key in ("answerable", "overall"):
        assert (rows[key].n, rows[key].failed, rows[key].j) == (5, 0, 3 / 5)
        assert rows[key].j_interval == pytest.approx((1 / 2, 2 / 3), abs=1e-12)
    # single hop: s1 1 of 2, s2 0 of 1: J 1/3, interval from 0 to 1/2
    assert rows["4"].j == pytest.approx(1 / 3) and rows["4"].j_interval == pytest.approx((0.0, 0.5))
    # multi hop and temporal: one question in one conversation, no interval; open domain, adversarial: none
    assert [(rows[k].n, rows[k].j, rows[k].j_interval) for k in ("1", "2", "3", "5")] == [
        (1, 1.0, None), (1, 1.0, None), (0, None, None), (0, None, None)]
    # the judge accepts exactly the replies whose F1 is 1: AUC 1, J 0 at F1 0 and 1 at F1 1
    assert (rows["answerable"].f1_auc, rows["answerable"].j_at_f1_0, rows["answerable"].j_at_f1_1) == (1.0, 0.0, 1.0)
    assert got.passes[0].arms["parrot"].judge.conversations == (
        ("s1", ((0, 4, 1.0), (1, 4, 0.0), (2, 2, 1.0))), ("s2", ((0, 1, 1.0), (1, 4, 0.0))))
    assert got.judge["name"] == "prompt" and got.judge["model"] == "judge-m" and got.judge["judgements"] == 5
    assert got.judge["usage"] == {"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60}
    # the F1 rows are the run's as ever; the judge's summary follows the table, and the signature names the judge
    assert got.passes[0].arms["parrot"].rows["answerable"].f1 == pytest.approx(3 / 5)
    assert "parrot       5       0  0.600" in text.getvalue()
    assert "|judge:prompt|judge-model:judge-m|judge-prompt:" in err
    # read back and written again byte for byte
    assert results.encode(got) == (here / "r.json").read_bytes()


def test_a_failed_judgement_is_counted_apart_never_correct_and_the_run_exits_1(here, monkeypatch):
    # two attempts, no pause (the run's retry rule is judge run's, ten attempts a second apart, by default)
    monkeypatch.setattr(judge_figures, "Asker", lambda client: Asker(client, Backoff(2, 0.0, (0.0, 0.0))))

    def garbled(body, n):  # no label for s2's single-hop question, whatever it is asked
        if "Q: Where is Cy?" in body["messages"][0]["content"]:
            return 200, completion("I would rather not say"), 0
        return strict(body, n)

    text = io.StringIO()
    with Stub(garbled) as stub:
        assert run(here, stub.base_url, "r.json", text) == 1
    got = results.read(here / "r.json")
    rows = got.passes[0].arms["parrot"].judge.rows
    # s1 1, 0, 1 and s2's multi hop 1: 3 of 4, the failed one in no n
    assert (rows["answerable"].n, rows["answerable"].failed, rows["answerable"].j) == (4, 1, 3 / 4)
    assert (rows["4"].n, rows["4"].failed, rows["4"].j) == (2, 1, 1 / 2)
    assert got.passes[0].arms["parrot"].judge.conversations[1] == ("s2", ((0, 1, 1.0), (1, 4, None)))
    assert got.judge["failed"] == 1
    assert "parrot       5       1  0.750" in text.getvalue() and "failed: s2 qa[1] parrot" in text.getvalue()


def test_a_model_run_is_judged_by_its_own_model_and_endpoint_unless_told(here, monkeypatch):
    monkeypatch.setenv("HANZO_API_KEY", "test-key")

    def both(body, n):  # the judge's requests hold the template's GEN line; the reader's are answered "Paris"
        if "\nGEN: " in body["messages"][0]["content"]:
            return strict(body, n)
        return 200, completion("Paris"), 0

    with Stub(both) as stub:
        argv = ["-data", str(here / "d.json"), "-arms", "toy_plugins:Vec", "-jobs", "1", "-memo", "", "-model", "stub",
                "-base", stub.base_url, "-judge", "prompt", "-judge-prompt", str(here / "t.txt"), "-out", "p.json",
                "-json", "r.json"]
        assert cli.run(cli.parser().parse_args(argv), io.StringIO()) == 0
        judged = [r for r in stub.requests if "\nGEN: " in r["body"]["messages"][0]["content"]]
    assert {r["body"]["model"] for r in judged} == {"stub"}
    got = results.read(here / "r.json")
    assert got.judge["model"] == "stub" and set(got.passes[0].arms) == {"vec", "vec+model"}
    # each arm's J is the test's rule over the replies its -out file holds: the share that are their gold
    replies = json.loads((here / "p.json").read_text())
    for arm in ("vec", "vec+model"):
        marks = [float(q[f"{arm}_prediction"].strip().lower() == str(q["answer"]).strip().lower())
                 for s in replies for q in s["qa"] if q["category"] != 5]
        row = got.passes[0].arms[arm].judge.rows["answerable"]
        assert (row.n, row.j) == (len(marks), pytest.approx(sum(marks) / len(marks)))


def test_compare_pairs_j_question_by_question_as_it_pairs_f1(here, capfd):
    with Stub(strict) as one, Stub(lenient) as two:
        assert run(here, one.base_url, "strict.json") == 0
        assert run(here, two.base_url, "lenient.json") == 0
    capfd.readouterr()
    assert cli.main(["compare", str(here / "strict.json"), str(here / "lenient.json"), "--format", "json"]) == 0
    table = {(r["category"], r["column"]): r for r in json.loads(capfd.readouterr().out)["rows"]}
    first, second = table[("answerable", "strict.json parrot")], table[("answerable", "lenient.json parrot")]
    assert (first["j_n"], first["j"], first["j_diff"]) == (5, 3 / 5, None)
    # lenient minus strict: s1 +1 over 3, s2 +1 over 2: 2/5; resampled: from 1/3 (s1 twice) to 1/2 (s2 twice)
    assert (second["j"], second["diff"]) == (1.0, 0.0)
    assert (second["j_diff"], second["j_low"], second["j_high"]) == pytest.approx((2 / 5, 1 / 3, 1 / 2))
    single = table[("4", "lenient.json parrot")]
    assert (single["j_diff"], single["j_low"], single["j_high"]) == pytest.approx((2 / 3, 1 / 2, 1.0))


@pytest.mark.parametrize("where, value, said", [
    (("judge", "conversations", 0, "scores", 0), 2, "question 0: qa and category are counts and score null or in [0, 1]"),
    (("judge", "conversations", 1, "qa"), [0], "'qa', 'categories' and 'scores' are not of one length"),
    (("judge", "rows", "4", "j_interval"), [0.5], "'j_interval' is neither null nor two numbers"),
])
def test_a_results_file_with_a_bad_judge_member_is_one_line(here, capfd, where, value, said):
    with Stub(strict) as stub:
        assert run(here, stub.base_url, "r.json") == 0
    body = json.loads((here / "r.json").read_text())
    place = body["passes"][0]["arms"]["parrot"]
    for step in where[:-1]:
        place = place[step]
    place[where[-1]] = value
    (here / "r.json").write_text(json.dumps(body))
    capfd.readouterr()
    one_line(capfd, cli.main(["compare", str(here / "r.json")]), "r.json: passes[0] arm parrot judge", said)


def test_without_a_judge_neither_the_results_file_nor_compare_has_a_j(here, capfd):
    assert cli.main(["-data", str(here / "d.json"), "-arms", "toy_plugins:Parrot", "-jobs", "1",
                     "-json", str(here / "plain.json")]) == 0
    body = json.loads((here / "plain.json").read_text())
    assert "judge" not in body and "judge" not in body["passes"][0]["arms"]["parrot"]
    capfd.readouterr()
    assert cli.main(["compare", str(here / "plain.json"), str(here / "plain.json"), "--format", "csv"]) == 0
    assert capfd.readouterr().out.splitlines()[0] == "category,name,n,column,f1,recall,quiet,diff,low,high"


def test_under_the_audited_key_the_judge_sees_the_corrected_gold_and_never_the_held_questions(tmp_path, monkeypatch):
    # toy_audit: parrot answers "Paris" to all; under the audited key the gold of 0-3 and 6 is "Paris", 4's
    # "Paris, Rome", and 5 (ambiguous) is held apart; the adversarial 7 is not judged by a template
    toy_audit.write(tmp_path, monkeypatch)
    for name in ("HANZO_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "t.txt").write_text(TEMPLATE)
    monkeypatch.chdir(tmp_path)
    with Stub(strict) as stub:
        argv = ["-data", str(tmp_path / "d.json"), "-arms", "toy_plugins:Parrot", "-jobs", "1", "-memo", "",
                "-key", "audited", "-judge", "prompt", "-judge-prompt", "t.txt", "-judge-model", "m",
                "-judge-base", stub.base_url, "-json", "r.json"]
        assert cli.run(cli.parser().parse_args(argv), io.StringIO()) == 0
        asked = [body["messages"][0]["content"] for body in (r["body"] for r in stub.requests)]
    assert len(asked) == 6 and not [text for text in asked if "Would Ann like Paris?" in text]
    assert "GOLD: Paris, Rome" in " ".join(asked) and "GOLD: London" not in " ".join(asked)
    row = results.read(tmp_path / "r.json").passes[0].arms["parrot"].judge.rows["answerable"]
    assert (row.n, row.j) == (6, 5 / 6)


@pytest.mark.parametrize("extra, said", [
    (["-judge", "nobody", "-judge-model", "m"], "-judge nobody: the judges are"),
    (["-judge", "prompt", "-judge-prompt", "t.txt", "-judge-model", "m", "-sweep", "k"], "not taken with -sweep"),
    (["-judge", "prompt", "-judge-prompt", "t.txt"], "-judge needs the judge's model"),
    (["-judge-model", "m"], "-judge-model needs -judge"),
    (["-judge", "prompt", "-judge-prompt", "missing.txt", "-judge-model", "m"], "missing.txt"),
])
def test_a_bad_judge_is_one_line_and_nothing_is_written(here, capfd, extra, said):
    status = cli.main(["-data", str(here / "d.json"), "-arms", "toy_plugins:Parrot", "-jobs", "1",
                       "-json", str(here / "r.json"), *extra])
    one_line(capfd, status, said)
    assert not (here / "r.json").exists()
