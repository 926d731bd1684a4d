"""The field's baselines through the plug-in protocol: ``full`` hands every turn of the conversation to the
reader whatever the question and ``k`` (``bounded = False``); ``dense`` recalls by the cosine of WordLlama's
static embeddings, whose weights ship in its wheel and load with no network; each is an entry point, dense
an optional extra; and a run whose ``k`` reaches a conversation's size says so on stderr."""

from __future__ import annotations

import importlib
import io
import socket
import sys
import tomllib
from datetime import datetime
from pathlib import Path

import pytest

from locomo_repro import cli
from locomo_repro.arms.full import Full
from locomo_repro.arms.plugin import Conversation
from locomo_repro.data.dataset import Turn

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
DAY = datetime(2023, 5, 8, 13, 56)
TURNS = (
    Turn("D1:1", 1, DAY, "Alice", "I adopted a puppy named Rex."),
    Turn("D1:2", 1, DAY, "Bob", "A puppy! I love dogs."),
    Turn("D1:3", 1, DAY, "Alice", "Rex loves the beach."),
    Turn("D1:4", 1, DAY, "Bob", "Qzxv."),
)
CONVERSATION = Conversation("conv-test", ("Alice", "Bob"), TURNS)


def test_both_are_entry_points_and_dense_is_an_extra():
    arms = PROJECT["entry-points"]["locomo_repro.arms"]
    assert arms["full"] == "locomo_repro.arms.full:Full" and arms["dense"] == "locomo_repro.arms.dense:Dense"
    assert [r.split(">=")[0] for r in PROJECT["optional-dependencies"]["dense"]] == ["wordllama"]


def test_full_recalls_every_turn_in_order_whatever_k():
    assert Full(CONVERSATION).recall("anything?", 1) == [(t.id, 1.0) for t in TURNS]


def test_a_full_run_reads_the_whole_conversation_and_its_recall_is_every_evidence(samples):
    out = io.StringIO()
    args = cli.parser().parse_args(["-arms", "locomo_repro.arms.full:Full", "-only", "1", "-quiet", "-jobs", "1"])
    assert cli.run(args, out) == 0
    ids = {t.id for t in samples[0].turns}
    named = [q for q in samples[0].questions if q.evidence]
    expected = sum(sum(e.strip("()") in ids for e in q.evidence) / len(q.evidence) for q in named) / len(named)
    overall = out.getvalue().splitlines()[-1].split()
    assert overall[:2] == ["overall", str(len(samples[0].questions))] and overall[3] == f"{expected:.3f}"


def test_a_k_that_reaches_a_conversations_size_is_said_on_stderr(capsys, samples):
    out = io.StringIO()
    k = str(len(samples[0].turns))
    assert cli.run(cli.parser().parse_args(["-arms", "read", "-only", "2", "-k", k, "-quiet", "-jobs", "1"]), out) == 0
    err = capsys.readouterr().err
    assert f"locomo-repro: note: k={k} reaches the size of 2 of 2 conversations (conv-26 ({k} turns), conv-30 (" in err
    assert cli.run(cli.parser().parse_args(["-arms", "read", "-only", "1", "-quiet", "-jobs", "1"]), out) == 0
    assert "reaches the size" not in capsys.readouterr().err


def test_dense_without_wordllama_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "wordllama", None)
    monkeypatch.delitem(sys.modules, "locomo_repro.arms.dense", raising=False)
    with pytest.raises(ImportError) as caught:
        importlib.import_module("locomo_repro.arms.dense")
    assert str(caught.value) == ("the dense arm needs the wordllama library: pip install 'locomo-repro[dense]' "
                                 "(from a clone of the kit: pip install '.[dense]')")


def test_dense_loads_its_model_from_the_wheel_with_no_network(monkeypatch):
    pytest.importorskip("wordllama", reason="the dense extra (wordllama) is not installed")
    from locomo_repro.arms import dense

    def refused(*args, **kwargs):
        raise OSError("no network in this test")

    monkeypatch.setattr(socket.socket, "connect", refused)
    dense.model.cache_clear()
    assert dense.model().embed(["a puppy"]).shape == (1, dense.DIM)


def test_dense_recalls_by_cosine_best_first_at_most_k_positive_only():
    np = pytest.importorskip("numpy")
    pytest.importorskip("wordllama", reason="the dense extra (wordllama) is not installed")
    from locomo_repro.arms.dense import Dense, model

    question = "What is the name of Alice's puppy?"
    raw = [model().embed([text])[0].astype(np.float64) for text in [question, *(t.line() for t in TURNS)]]
    cosine = {t.id: float(raw[0] @ v / (np.linalg.norm(raw[0]) * np.linalg.norm(v))) for t, v in zip(TURNS, raw[1:])}
    got = Dense(CONVERSATION).recall(question, 3)
    want = sorted((i for i in cosine if cosine[i] > 0), key=lambda i: -cosine[i])[:3]
    assert [i for i, _ in got] == want
    assert all(score == pytest.approx(cosine[i], rel=1e-6) for i, score in got)
    assert Dense(CONVERSATION).recall(question, 0) == [] and Dense(Conversation("e", ("A", "B"), ())).recall("x", 5) == []


def test_importing_dense_leaves_the_root_logger_as_it_was(monkeypatch):
    pytest.importorskip("wordllama", reason="the dense extra (wordllama) is not installed")
    import logging

    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", [])  # as in a run (pytest's own handlers would make basicConfig idle)
    monkeypatch.setattr(root, "level", logging.WARNING)
    before = (list(root.handlers), root.level)
    monkeypatch.delitem(sys.modules, "locomo_repro.arms.dense", raising=False)
    for name in [m for m in sys.modules if m == "wordllama" or m.startswith("wordllama.")]:
        monkeypatch.delitem(sys.modules, name)
    importlib.import_module("locomo_repro.arms.dense")
    assert (list(root.handlers), root.level) == before
