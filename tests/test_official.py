"""The cross-check with the official scorer: loading evaluation.py, feeding it, and its report.

The reference report (official-score-answers*.txt) was printed by the official evaluation.py; the test
scores with that file (LOCOMO_EVALUATION_PY, the cache, or a fetch) and is skipped, naming it, where it
cannot be had.  The kit's own metric is checked against the same report separately, under its own name.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import types
import urllib.error
import warnings

import pytest

from locomo_repro import claims

from locomo_repro.data import dataset

from locomo_repro.score import crosscheck, official
from locomo_repro.score.predictions import PredictionsError, parse

REFERENCE_FILES = ("answers.json", "answers-walk.json", "answers-factor.json")


@pytest.fixture(scope="module")
def decoded(reference_answers):
    """The three reference predictions files, each decoded once for this module."""
    return {name: json.loads(reference_answers[name]) for name in REFERENCE_FILES}


@pytest.mark.slow
@pytest.mark.parametrize("name", REFERENCE_FILES)
def test_official_report_is_the_reference_byte_for_byte(decoded, reference_dir, official_scorer, name):
    want = (reference_dir / f"official-score-{name.removesuffix('.json')}.txt").read_text()
    assert official.report(parse(decoded[name], name), official_scorer) == want


@pytest.mark.slow
@pytest.mark.parametrize("name", REFERENCE_FILES)
def test_the_kit_metric_prints_the_same_report(decoded, reference_dir, name):
    want = (reference_dir / f"official-score-{name.removesuffix('.json')}.txt").read_text()
    assert official.report(parse(decoded[name], name), official.kit_eval_question_answering) == want


@pytest.mark.slow
def test_kit_grading_agrees_with_the_official_file_question_by_question(decoded, official_scorer):
    evaluate = official_scorer
    predictions = parse(decoded["answers-walk.json"], "answers-walk.json")
    by_sample: dict[str, list] = {}
    for q in predictions.questions:
        by_sample.setdefault(q.sample, []).append(q)
    for questions in by_sample.values():
        for arm in predictions.arms:
            qas = official._qas(predictions, questions, arm)
            theirs = evaluate(qas, arm + "_prediction")
            ours = official.kit_eval_question_answering(qas, arm + "_prediction")
            assert [float(x) for x in theirs[0]] == ours[0]
            assert [float(x) for x in theirs[2]] == ours[2]


# --- what the scorer is fed -------------------------------------------------------------

DECLINE = "No information available"


def qa(category, answer, reply, context, evidence=("D1:1",)):
    item = {"question": "?", "category": category, "evidence": list(evidence), "m_prediction": reply}
    if answer is not None:
        item["answer"] = answer
    if context is not None:
        item["m_prediction_context"] = context
    return item


SMALL = [
    {
        "sample_id": "s1",
        "qa": [
            qa(4, "red", "red", ["D1:1"]),
            qa(1, "red, blue", "blue", []),
            {**qa(5, None, DECLINE, ["D2:1"]), "adversarial_answer": "green"},
        ],
    },
    {"sample_id": "s2", "qa": [qa(2, 2022, "in 2022", None), qa(3, "art; painting", "art", ["D1:1"], evidence=())]},
]

# By hand: single hop 1 (F1 1, recall 1); multi hop 0.5 (one of two parts), recall 0
# (empty context, "-"); temporal "in 2022" vs "2022" F1 2/3, no context so recall 1;
# open domain F1 1 against "art", no evidence so recall 1; adversarial declined 1,
# recall 0.  Answerable (1 + .5 + .667 + 1)/4 = .792, recall 3/4; overall 4.167/5.
SMALL_REPORT = (
    "\n"
    "                   n                     m\n"
    "category                  F1 recall       \n"
    "single hop         1   1.000  1.000       \n"
    "multi hop          1   0.500  0.000       \n"
    "temporal           1   0.667  1.000       \n"
    "open domain        1   1.000  1.000       \n"
    "adversarial        1   1.000  0.000       \n"
    "answerable         4   0.792  0.750       \n"
    "overall            5   0.833  0.600       \n"
)


def test_small_report_by_hand_with_the_kit_metric():
    assert official.report(parse(SMALL, "small.json"), official.kit_eval_question_answering) == SMALL_REPORT


def test_the_scorer_is_fed_as_score_py_feeds_it():
    fed = []

    def spy(qas, eval_key):
        fed.append((eval_key, qas))
        return official.kit_eval_question_answering(qas, eval_key)

    official.report(parse(SMALL, "small.json"), spy)
    assert [key for key, _ in fed] == ["m_prediction", "m_prediction"]  # one call per conversation and arm
    first, second = fed[0][1], fed[1][1]
    assert first[1]["m_prediction_context"] == ["-"]  # empty context -> placeholder
    assert first[2]["answer"] == "green"  # adversarial answer supplied
    assert "m_prediction_context" not in second[0]  # no context key -> none passed
    assert second[0]["answer"] == 2022  # left for the scorer to str()


def test_scores_are_the_numbers_the_report_prints():
    table = official.scores(parse(SMALL, "small.json"), official.kit_eval_question_answering)
    assert list(table) == ["m"] and list(table["m"]) == list(official.ROWS)
    assert table["m"]["multi hop"] == (0.5, 0.0) and table["m"]["adversarial"] == (1.0, 0.0)
    assert table["m"]["answerable"] == ((1 + 0.5 + 2 / 3 + 1) / 4, 0.75)
    assert official.counts(parse(SMALL, "small.json"))["overall"] == 5


def test_rows_add_categories_in_score_py_order():
    # Marks chosen so that the order of the additions decides the rounded sum:
    # answerable adds 1, 2, 3, 4 (1 + 1 - 1e16 + 1e16 = 2), overall adds 4, 1, 2, 3, 5 (1e16 + 1 + 1 - 1e16 + 0 = 0).
    marks = {1: 1.0, 2: 1.0, 3: -1e16, 4: 1e16, 5: 0.0}
    data = [{"sample_id": "s", "qa": [qa(c, "x", "x", None) for c in (1, 2, 3, 4, 5)]}]

    def fixed(qas, eval_key):
        return [marks[q["category"]] for q in qas], 0.0, [1.0] * len(qas)

    table = official.scores(parse(data, "o.json"), fixed)["m"]
    # score.py adds with the built-in sum(), which compensates from Python 3.12 on; the
    # kit does the same, so both sides follow the interpreter (0.5 and 0.0 on 3.11).
    assert table["answerable"][0] == sum(marks[k] for k in (1, 2, 3, 4)) / 4
    assert table["overall"][0] == sum(marks[k] for k in (4, 1, 2, 3, 5)) / 5
    assert claims.check_table(parse(data, "o.json"), fixed)["m"] == table


def test_a_question_with_no_answer_at_all_is_an_error():
    data = [{"sample_id": "s1", "qa": [qa(4, None, "red", ["D1:1"])]}]
    with pytest.raises(PredictionsError, match=r"^n\.json: s1 qa\[0\]: neither answer nor adversarial_answer$"):
        official.report(parse(data, "n.json"), official.kit_eval_question_answering)


# --- loading evaluation.py ------------------------------------------------------------------

FAKE = '''\
from bert_score import score
import numpy as np

CALLS = []

def normalize_answer(s):
    return s

def eval_question_answering(qas, eval_key='prediction', metric='f1'):
    print("{} QA samples evaluated".format(len(qas)))
    CALLS.append(eval_key)
    np.mean([])
    return [1.0 for _ in qas], 0.0, [0.5 for _ in qas]
'''


@pytest.fixture
def fake(tmp_path, monkeypatch):
    """A stand-in evaluation.py, and an environment with no official file configured."""
    monkeypatch.delenv(official.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = tmp_path / "evaluation.py"
    path.write_text(FAKE)
    return path


def test_load_stubs_bert_score_only_for_the_import(fake, monkeypatch):
    monkeypatch.delitem(sys.modules, "bert_score", raising=False)
    module = official.load_evaluation(fake, sha256=hashlib.sha256(fake.read_bytes()).hexdigest())
    assert module.score is None  # the stub's
    assert "bert_score" not in sys.modules
    assert official.load_evaluation(fake, sha256=None) is module  # imported once


def test_load_leaves_a_real_bert_score_alone(fake, monkeypatch):
    real = types.ModuleType("bert_score")
    real.score = "the real one"
    monkeypatch.setitem(sys.modules, "bert_score", real)
    assert official.load_evaluation(fake, sha256=None).score == "the real one"
    assert sys.modules["bert_score"] is real


def test_load_refuses_a_file_that_is_not_the_pinned_one(fake):
    with pytest.raises(official.OfficialUnavailable, match="sha256"):
        official.load_evaluation(fake)


def test_load_reports_a_missing_file(fake, tmp_path):
    with pytest.raises(official.OfficialUnavailable, match="cannot read"):
        official.load_evaluation(tmp_path / "nowhere.py")


def test_load_refuses_what_cannot_serve(fake, tmp_path, monkeypatch):
    garbled = tmp_path / "garbled.py"
    garbled.write_text("def (:\n")
    with pytest.raises(official.OfficialUnavailable, match="not Python source"):
        official.load_evaluation(garbled, sha256=None)
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('no')\n")
    with pytest.raises(official.OfficialUnavailable, match="cannot import: RuntimeError: no"):
        official.load_evaluation(broken, sha256=None)
    empty = tmp_path / "empty.py"
    empty.write_text("x = 1\n")
    with pytest.raises(official.OfficialUnavailable, match=r"defines no normalize_answer\(\)"):
        official.load_evaluation(empty, sha256=None)
    needy = tmp_path / "needy.py"
    needy.write_text(FAKE + "import locomo_no_such_module.sub\n")
    monkeypatch.setattr(official, "NEEDED", official.NEEDED | {"locomo_no_such_module"})
    with pytest.raises(official.OfficialUnavailable, match="needs locomo_no_such_module, which is not installed"):
        official.load_evaluation(needy, sha256=None)
    monkeypatch.setattr(official, "NEEDED", official.NEEDED - {"locomo_no_such_module"})
    assert official.load_evaluation(needy, sha256=None).locomo_no_such_module.sub is None
    assert "locomo_no_such_module" not in sys.modules


def test_where_the_file_is_looked_for(fake, tmp_path, monkeypatch):
    assert official.cache_path() == tmp_path / "cache" / "locomo-repro" / "evaluation.py"
    assert official.cache_path().parent == dataset.cache_path().parent  # the kit's one cache folder
    assert official.locate() is None
    with pytest.raises(official.OfficialUnavailable, match="not found"):
        official.load_evaluation(download=False)
    official.cache_path().parent.mkdir(parents=True)
    official.cache_path().write_text(FAKE)
    assert official.locate() == official.cache_path()
    monkeypatch.setenv(official.ENV, str(fake))
    assert official.locate() == fake
    assert official.locate(tmp_path / "given.py") == tmp_path / "given.py"


class Response:
    """What ``urlopen`` gives back, serving ``body``."""

    def __init__(self, body: bytes):
        self.body = body

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def read(self) -> bytes:
        return self.body


def test_fetch_verifies_before_it_keeps(fake, monkeypatch):
    body = FAKE.encode()
    calls = []

    def serve(url, timeout):
        calls.append(url)
        return Response(body)

    monkeypatch.setattr(official.urllib.request, "urlopen", serve)
    with pytest.raises(official.OfficialUnavailable, match="sha256"):
        official.fetch()
    assert not official.cache_path().exists()
    monkeypatch.setattr(official, "EVALUATION_SHA256", hashlib.sha256(body).hexdigest())
    assert official.fetch() == official.cache_path()
    assert official.cache_path().read_bytes() == body
    assert calls == [official.EVALUATION_URL] * 2
    # A stale cache is fetched again; a verified one is used as it is.
    official.cache_path().write_text("# an older file\n")
    module = official.load_evaluation(sha256=official.EVALUATION_SHA256)
    assert module.CALLS == [] and official.cache_path().read_bytes() == body
    assert official.load_evaluation(sha256=official.EVALUATION_SHA256) is module
    assert len(calls) == 3
    leftovers = [p.name for p in official.cache_path().parent.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []  # no temporary file left behind


def test_a_failed_download_keeps_nothing_and_says_where_to_look(fake, monkeypatch, capsys):
    def offline(url, timeout):
        raise urllib.error.URLError("network is unreachable")

    monkeypatch.setattr(official.urllib.request, "urlopen", offline)
    with pytest.raises(official.OfficialUnavailable) as caught:
        official.load_evaluation()
    assert str(caught.value) == (
        f"cannot download {official.EVALUATION_URL} (network is unreachable); pass its path or set {official.ENV}"
    )
    assert capsys.readouterr().err == f"fetching {official.EVALUATION_URL}\n"
    assert not official.cache_path().exists()


def test_an_unwritable_cache_is_one_line(fake, tmp_path, monkeypatch):
    body = FAKE.encode()
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))  # a file where the cache folder should go
    monkeypatch.setattr(official.urllib.request, "urlopen", lambda url, timeout: Response(body))
    monkeypatch.setattr(official, "EVALUATION_SHA256", hashlib.sha256(body).hexdigest())
    with pytest.raises(official.OfficialUnavailable, match=f"^cannot write {re.escape(str(official.cache_path()))}: "):
        official.fetch()


def test_official_scorer_keeps_the_progress_lines_off_stdout(fake, capsys):
    module = official.load_evaluation(fake, sha256=None)
    score = official.official_scorer(module)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        text = official.report(parse(SMALL, "small.json"), score)
    assert module.CALLS == ["m_prediction", "m_prediction"]
    assert capsys.readouterr().out == ""
    assert text.splitlines()[-1] == "overall            5   1.000  0.500       "


def test_main_scores_each_file_and_names_it_when_there_are_several(tmp_path, capsys):
    path = tmp_path / "small.json"
    path.write_text(json.dumps(SMALL))
    assert crosscheck.main(["--kit", str(path)]) == 0
    assert capsys.readouterr().out == SMALL_REPORT
    assert crosscheck.main(["--kit", str(path), str(path)]) == 0
    assert capsys.readouterr().out == f"{path}:{SMALL_REPORT}" * 2


def test_main_without_the_official_file_says_so_and_exits_2(fake, tmp_path, capsys):
    path = tmp_path / "small.json"
    path.write_text(json.dumps(SMALL))
    assert crosscheck.main([str(path), "--evaluation-py", str(fake)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "sha256" in err and err.count("\n") == 1
