"""The kit prints what the reference Go benchmark prints, byte for byte, for every published command.

Each case names a file of the reference outputs (../shared/reference, see its
README: the command ``go run ./bench/locomo …`` that produced it) and the same
flags given to the kit.  Builds are shared through the session's ``builds``
fixture, so each arm set is built once.
"""

from __future__ import annotations

import io
import json

import pytest

from locomo_repro import cli

# (reference file, flags) — the table of reference/README.md.
COMMANDS = [
    ("default.txt", []),
    ("default-blind.txt", ["-blind"]),
    ("show5.txt", ["-show", "5"]),
    ("arms-factor.txt", ["-arms", "factor"]),
    ("arms-walk.txt", ["-arms", "walk"]),
    ("arms-walk-blind.txt", ["-arms", "walk", "-blind"]),
    ("arms-read.txt", ["-arms", "read"]),
    ("k2000-floor0.txt", ["-k", "2000", "-floor", "0"]),
    ("k20-parts4-band0.5.txt", ["-k", "20", "-parts", "4", "-band", "0.5"]),
    ("sweep-floor.txt", ["-sweep", "floor"]),
    ("sweep-span.txt", ["-sweep", "span"]),
    ("sweep-band.txt", ["-sweep", "band"]),
    ("sweep-parts.txt", ["-sweep", "parts"]),
]

# (stdout file, answers file, flags) — the ``-out`` runs.
OUTPUTS = [
    ("out-answers.txt", "answers.json", []),
    ("out-answers-walk.txt", "answers-walk.json", ["-arms", "walk"]),
    ("out-answers-factor.txt", "answers-factor.json", ["-arms", "factor"]),
]


def report(builds, argv: list[str]) -> str:
    args = cli.parser().parse_args(argv)
    out = io.StringIO()
    cases = builds.cases(args.arms, args.blind, not args.no_derived)
    cli.report(builds.samples, cases, args, cli.options(args), out)
    return out.getvalue()


@pytest.mark.slow
@pytest.mark.parametrize(("name", "argv"), COMMANDS, ids=[c[0] for c in COMMANDS])
def test_stdout_equals_reference(builds, reference_dir, name, argv):
    assert report(builds, argv) == (reference_dir / name).read_text()


def first_difference(mine: list, theirs: list) -> str:
    """Where two predictions files first disagree: sample, question index and key."""
    for s, r in zip(mine, theirs):
        for i, (q, w) in enumerate(zip(s["qa"], r["qa"])):
            for key in sorted(set(q) | set(w)):
                if q.get(key) != w.get(key):
                    return f"{r['sample_id']} qa {i} {key}: {q.get(key)!r} != {w.get(key)!r}"
    return "same values, different bytes"


@pytest.mark.slow
@pytest.mark.parametrize(("stdout", "answers", "argv"), OUTPUTS, ids=[o[1] for o in OUTPUTS])
def test_predictions_equal_reference(builds, reference_dir, tmp_path, monkeypatch, stdout, answers, argv):
    monkeypatch.chdir(tmp_path)
    printed = report(builds, [*argv, "-out", answers])
    assert printed == (reference_dir / stdout).read_text()
    mine, theirs = (tmp_path / answers).read_bytes(), (reference_dir / answers).read_bytes()
    assert mine == theirs, first_difference(json.loads(mine), json.loads(theirs))


@pytest.mark.slow
def test_graph_read_with_gather_equals_reference_extra(builds, reference_dir):
    """The README's "How far to walk" graph column: the graph arm read with the +set reader."""
    table = report(builds, ["-arms", "gather", "-quiet"]).splitlines()[-9:]
    expected = (reference_dir / "extra-reach-all10-and-graph-gather.txt").read_text().splitlines()[6:15]
    assert table == expected


@pytest.mark.slow
def test_no_derived_facts_equals_reference_extra(builds, reference_dir):
    """The README's derived-facts ablation: the reasoner given no rule."""
    table = report(builds, ["-no-derived"]).splitlines()[-11:]
    assert table == (reference_dir / "extra-no-derived-facts.txt").read_text().splitlines()[-11:]
