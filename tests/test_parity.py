"""The kit prints what the reference Go benchmark prints, byte for byte, for every published command.

Each case is an output of the reference kept in ``golden/reference/`` (its README names the command
``go run ./bench/locomo …`` behind each file) and the same flags given to the kit.  Tables are compared
byte for byte; ``-show`` output and the predictions files, which quote the dataset, through their digests,
so that a difference names the first question and arm (or paragraph) where it starts.  Each command is
printed by the command line's own report from the session's lab (conftest's ``command``), so each build is
made once for every command and claim that reads it.
"""

from __future__ import annotations

import hashlib

import pytest

from locomo_repro.score.reference import FILES, answers_digest, first_difference, show_digest

#: The reference's outputs of the benchmark command itself (not -out runs, -stats or other harnesses).
COMMANDS = [o for o in FILES if not o.command and o.kept != "answers" and not {"-out", "-stats"} & set(o.flags)]
OUTPUTS = [o for o in FILES if o.kept == "answers"]


@pytest.mark.slow
@pytest.mark.parametrize("output", COMMANDS, ids=[o.name for o in COMMANDS])
def test_stdout_equals_reference(command, reference_dir, output):
    printed = command(list(output.flags))
    want = (reference_dir / output.golden).read_text()
    if output.kept == "show":
        assert show_digest(printed) == want, first_difference(show_digest(printed), want)
    else:
        assert printed == want


@pytest.mark.slow
@pytest.mark.parametrize("output", OUTPUTS, ids=[o.name for o in OUTPUTS])
def test_predictions_equal_reference(kit_answers, reference_dir, output):
    printed, written = kit_answers[output.name]
    assert printed == (reference_dir / f"out-{output.name.removesuffix('.json')}.txt").read_text()
    mine, theirs = answers_digest(written), (reference_dir / output.golden).read_text()
    assert mine == theirs, first_difference(mine, theirs)
    assert theirs.startswith(f"sha256\t{hashlib.sha256(written).hexdigest()}\n")


@pytest.mark.slow
def test_graph_read_with_gather_equals_reference_extra(command, reference_dir):
    """The README's "How far to walk" graph column: the graph arm read with the +set reader."""
    table = command(["-arms", "gather", "-quiet"]).splitlines()[-9:]
    expected = (reference_dir / "extra-reach-all10-and-graph-gather.txt").read_text().splitlines()[6:15]
    assert table == expected


@pytest.mark.slow
def test_no_derived_facts_equals_reference_extra(command, reference_dir):
    """The README's derived-facts ablation: the reasoner given no rule."""
    table = command(["-no-derived"]).splitlines()[-11:]
    assert table == (reference_dir / "extra-no-derived-facts.txt").read_text().splitlines()[-11:]
