"""The kit's metric against golden/, the official LoCoMo scorer's own output.

Every input is rebuilt from the dataset (``locomo_repro.score.golden``) exactly as
golden/README.md defines it, scored with ``locomo_repro.score.metric`` and
``locomo_repro.text.reduce``, and compared row by row; then the generator is run with
the kit's scorer and its output compared byte for byte.
"""

from __future__ import annotations

import hashlib
import os
import sys
import urllib.error
from pathlib import Path

import pytest

from locomo_repro.data import dataset

from locomo_repro.score import golden

from locomo_repro.score import official
from locomo_repro.score.metric import grade, recall
from locomo_repro.text.reduce import normalise, stem

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
TOLERANCE = 1e-12
SHOWN = 5


@pytest.fixture(scope="module")
def data_path() -> str:
    path = os.environ.get("LOCOMO_DATA")
    if not path or not Path(path).is_file():
        pytest.fail("LOCOMO_DATA must name locomo10.json")
    return path


@pytest.fixture(scope="module")
def data(data_path):
    return golden.read_dataset(data_path)


def rows(name: str) -> list[list[str]]:
    text = (GOLDEN / name).read_text(encoding="utf-8")
    assert text.endswith("\n")
    return [line.split("\t") for line in text[:-1].split("\n")]


def report(mismatches: list[str]) -> str:
    return f"{len(mismatches)} mismatches; first: " + "; ".join(mismatches[:SHOWN])


def close(written: str, got: float) -> bool:
    return abs(float(written) - got) <= TOLERANCE


def compare(name, count, rebuilt, key, score):
    """Check a scored file row by row: its key columns against ``key(i, item)`` of the rebuilt
    inputs, then its last column against the kit's ``score(item)``."""
    table = rows(name)
    assert len(table) == count
    assert len(rebuilt) == len(table)
    bad = []
    for i, (item, row) in enumerate(zip(rebuilt, table)):
        want = key(i, item)
        if row[:-1] != want:
            bad.append(f"line {i + 1}: golden key {row[:-1]}, rebuilt {want}")
            continue
        got = score(item)
        if not close(row[-1], got):
            bad.append(f"line {i + 1} {want} {item}: golden {row[-1]}, kit {got!r}")
    assert not bad, report(bad)


def test_stems(data):
    table = rows("stems.tsv")
    assert len(table) == 6597
    words = golden.stem_words(data, normalise)
    assert [r[0] for r in table] == words
    bad = [f"{w!r}: golden {s!r}, kit {stem(w)!r}" for w, s in table if stem(w) != s]
    assert not bad, report(bad)


def test_normalise(data):
    table = rows("normalise.tsv")
    assert len(table) == 10382
    inputs = golden.distinct_texts(data)
    assert len(inputs) == len(table)
    bad = []
    for i, (text, row) in enumerate(zip(inputs, table)):
        out = normalise(text)
        got = [golden.h(text), golden.h(out), str(len(out.split()))]
        if got != row:
            bad.append(f"row {i} {text[:40]!r}: golden {row}, kit {got} ({out[:40]!r})")
    assert not bad, report(bad)


def test_grade(data):
    compare(
        "grade.tsv",
        2400,
        golden.grade_cases(data),
        lambda i, c: [str(i), str(c.category), golden.h(c.prediction), golden.h(c.answer)],
        lambda c: grade(c.category, c.prediction, c.answer),
    )


@pytest.mark.slow
def test_replies(data):
    replies = golden.reply_rows(data)
    assert [r.recipe for r in replies[: len(golden.RECIPES)]] == list(golden.RECIPES)
    compare(
        "replies.tsv",
        21846,
        replies,
        lambda i, r: [r.sample, str(r.index), str(r.case.category), r.recipe],
        lambda r: grade(r.case.category, r.case.prediction, r.case.answer),
    )


def test_recall(data):
    compare(
        "recall.tsv",
        7928,
        golden.context_rows(data),
        lambda i, r: [r.sample, str(r.index), r.recipe],
        lambda r: recall(r.evidence, r.context),
    )


def test_recall_agrees_with_the_go_rule_on_turn_id_contexts(data):
    """bench.go's ``found`` trims "()" off evidence ids and has no session branch.

    On every turn-id context of recall.tsv (what the benchmark's memories
    return) it gives the official number, because no evidence id in
    locomo10.json is bracketed.
    """

    def found(evidence, context):
        if not evidence:
            return 1.0
        return sum(e.strip("()") in context for e in evidence) / len(evidence)

    turn_rows = [r for r in golden.context_rows(data) if r.recipe != "sessions"]
    assert len(turn_rows) == 3 * 1982
    bad = [
        f"{r.sample}/{r.index}/{r.recipe}: go {found(r.evidence, r.context)}, kit {recall(r.evidence, r.context)}"
        for r in turn_rows
        if found(r.evidence, r.context) != recall(r.evidence, r.context)
    ]
    assert not bad, report(bad)


@pytest.mark.slow
def test_regenerating_with_the_kit_scorer_is_byte_identical(tmp_path, data_path, capsys):
    out = tmp_path / "golden"
    assert golden.main(["--out", str(out), "--scorer", "kit", "--data", data_path]) == 0
    for name in golden.FILES:
        assert (out / name).read_bytes() == (GOLDEN / name).read_bytes(), name
    assert sorted(p.name for p in out.iterdir()) == sorted(golden.FILES)  # no temporary files left
    assert capsys.readouterr().out.split() == [str(out / name) for name in golden.FILES]


# A stand-in for evaluation.py with the interface the official one has at the
# pinned commit: a module-level import of something not installed, a count
# line printed per call, eval_question_answering(qas, key) -> (scores, lens,
# recalls) reading the same item keys.  Its scoring delegates to the kit, so
# byte-identical output shows the adapter calls the scorer as the README says.
STAND_IN = '''
from locomo_absent_dependency.sub import score  # not installed: must be stubbed
from locomo_repro.score.metric import grade, recall
from locomo_repro.text.reduce import normalise as normalize_answer

print("imported")


def eval_question_answering(qas, eval_key="prediction", metric="f1"):
    scores, recalls = [], []
    for line in qas:
        assert set(line) <= {"category", "answer", "prediction", "evidence", "prediction_context"}
        scores.append(grade(line["category"], line[eval_key], str(line["answer"])))
        context = eval_key + "_context"
        if context in line and len(line["evidence"]) > 0:
            recalls.append(recall(line["evidence"], line[context]))
        else:
            recalls.append(1)
    print(len(qas), "QA samples evaluated")
    return scores, 0.0, recalls
'''


@pytest.mark.slow
def test_the_official_adapter_with_a_stand_in(tmp_path, data, capsys):
    path = tmp_path / "evaluation.py"
    path.write_text(STAND_IN, encoding="utf-8")
    with pytest.raises(golden.GoldenError, match="expected " + official.EVALUATION_SHA256):
        golden.official_scorer(path)  # the pinned hash is checked by default
    module = official.load_evaluation(path, sha256=hashlib.sha256(path.read_bytes()).hexdigest())
    assert module.score is None  # stubbed for the import only
    assert "locomo_absent_dependency" not in sys.modules and "locomo_absent_dependency.sub" not in sys.modules
    files = golden.build(data, golden.official_scorer(module))
    for name in golden.FILES:
        assert files[name].encode("utf-8") == (GOLDEN / name).read_bytes(), name
    assert capsys.readouterr().out == ""  # the scorer's prints are swallowed


@pytest.mark.slow
def test_the_official_scorer_reproduces_golden(tmp_path, data_path, official_scorer, capsys):
    capsys.readouterr()  # a fetch, if the fixture made one, said so on stderr
    out = tmp_path / "golden"
    assert golden.main(["--out", str(out), "--data", data_path]) == 0  # found as load_evaluation finds it
    for name in golden.FILES:
        assert (out / name).read_bytes() == (GOLDEN / name).read_bytes(), name
    captured = capsys.readouterr()
    assert captured.out.split() == [str(out / name) for name in golden.FILES]
    assert captured.err == ""


def one_error_line(capsys) -> str:
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("golden: "), captured.err
    assert "Traceback" not in captured.err
    return lines[0]


def test_missing_dataset(tmp_path, capsys):
    code = golden.main(["--out", str(tmp_path / "o"), "--scorer", "kit", "--data", str(tmp_path / "nope.json")])
    assert code == 2
    assert "does not exist" in one_error_line(capsys)
    assert not (tmp_path / "o").exists()


def test_wrong_dataset(tmp_path, capsys):
    other = tmp_path / "locomo10.json"
    other.write_text("[]", encoding="utf-8")
    assert golden.main(["--out", str(tmp_path / "o"), "--scorer", "kit", "--data", str(other)]) == 2
    assert "expected " + dataset.SHA256 in one_error_line(capsys)


def test_bad_evaluation_hash(tmp_path, data_path, capsys):
    fake = tmp_path / "evaluation.py"
    fake.write_text("def normalize_answer(s):\n    return s\n", encoding="utf-8")
    assert golden.main(["--out", str(tmp_path / "o"), "--data", data_path, "--evaluation-py", str(fake)]) == 2
    assert "expected " + official.EVALUATION_SHA256 in one_error_line(capsys)


def test_unreadable_evaluation_file(tmp_path, data_path, capsys):
    missing = tmp_path / "nowhere.py"
    assert golden.main(["--out", str(tmp_path / "o"), "--data", data_path, "--evaluation-py", str(missing)]) == 2
    assert one_error_line(capsys) == f"golden: {missing}: cannot read: No such file or directory"
    assert not (tmp_path / "o").exists()


def test_environment_names_the_evaluation_file(tmp_path, data_path, capsys, monkeypatch):
    fake = tmp_path / "evaluation.py"
    fake.write_text("def normalize_answer(s):\n    return s\n", encoding="utf-8")
    monkeypatch.setenv(official.ENV, str(fake))
    assert golden.main(["--out", str(tmp_path / "o"), "--data", data_path]) == 2
    assert one_error_line(capsys).startswith(f"golden: {fake}: sha256 ")


def test_kit_scorer_refuses_an_evaluation_file(tmp_path, data_path, capsys):
    args = ["--out", str(tmp_path / "o"), "--scorer", "kit", "--data", data_path, "--evaluation-py", "x.py"]
    assert golden.main(args) == 2
    one_error_line(capsys)


def test_offline_download_is_one_error_line(tmp_path, data_path, capsys, monkeypatch):
    def offline(*args, **kwargs):
        raise urllib.error.URLError("network is unreachable")

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(official.ENV, raising=False)
    monkeypatch.setattr(official.urllib.request, "urlopen", offline)
    assert golden.main(["--out", str(tmp_path / "o"), "--data", data_path]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    # The loader says what it fetches, then the failure is one line.
    assert captured.err.splitlines() == [
        f"fetching {official.EVALUATION_URL}",
        f"golden: cannot download {official.EVALUATION_URL} (network is unreachable); "
        f"pass its path or set {official.ENV}",
    ]
    assert not (tmp_path / "cache" / "locomo-repro").exists()


@pytest.mark.slow
def test_unwritable_out_is_one_line(tmp_path, data_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    assert golden.main(["--out", str(blocker), "--scorer", "kit", "--data", data_path]) == 2
    assert "cannot write" in one_error_line(capsys)


def test_escape():
    assert golden.escape("plain") == "plain"
    assert golden.escape("a\tb\nc\\d") == "a\\tb\\nc\\\\d"
    assert golden.tsv([("x\ty", 1), ("z", 0.5)]) == "x\\ty\t1\nz\t0.5\n"


def test_hash_key():
    assert golden.h("") == "e3b0c44298fc1c14"
    assert golden.h("é") == hashlib.sha256("é".encode()).hexdigest()[:16]


def test_porter_words():
    assert len(golden.PORTER_WORDS) == len(set(golden.PORTER_WORDS)) == 81
    assert golden.PORTER_WORDS[:3] == ("hopping", "flies", "dies")
    assert golden.PORTER_WORDS[-1] == "succeed"
