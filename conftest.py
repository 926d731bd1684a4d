"""Shared pytest fixtures: the dataset, the reference's outputs as the kit keeps them (``golden/reference``),
the test run's one lab (every full build made once, in worker processes) and the kit's own predictions files."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent
REFERENCE = ROOT / "golden" / "reference"


# Hypothesis profiles, chosen by HYPOTHESIS_PROFILE. "ci" (the default) cannot fail by chance: examples come
# from a fixed derivation of each test (derandomize), no example database is replayed, and nothing is timed
# (no deadline, no too-slow health check). "deep" explores: fresh random examples, many more of them.
# A test's own @settings(max_examples=...) still wins over either profile.
settings.register_profile(
    "ci", derandomize=True, database=None, max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("deep", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_collection_modifyitems(config, items) -> None:
    """Tests over files the kit does not ship (``@pytest.mark.outside("LOCOMO_PEERS")``) run only where the
    variable names them; elsewhere they are left out of the run, and the summary says how many and why."""
    left = [item for item in items if (m := item.get_closest_marker("outside")) and not os.environ.get(m.args[0])]
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = [item for item in items if item not in left]
    config.stash[LEFT_OUT] = Counter(item.get_closest_marker("outside").args[0] for item in left)


def pytest_terminal_summary(terminalreporter, config) -> None:
    """What did not run, and why, under ``-q`` too (which hides skip reasons): see :func:`not_run`."""
    for line in not_run(terminalreporter.stats, config.stash.get(LEFT_OUT, Counter())):
        terminalreporter.write_line(line)


def not_run(stats: dict, left_out: Counter) -> list[str]:
    """One line per reason a test did not run: each skip's reason with its count (most first), the tests left
    out for a variable not set, and the browser tests deselected (``-m "not browser"``) left to their lane."""
    reasons: Counter = Counter()
    for report in stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        reasons[reason.removeprefix("Skipped: ")] += 1
    lines = [f"skipped: {_tests(n)}: {why}" for why, n in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))]
    for variable, count in sorted(left_out.items()):
        lines.append(f"left out: {_tests(count)} over files the kit does not ship ({variable} not set)")
    browser = sum(1 for item in stats.get("deselected", []) if item.get_closest_marker("browser"))
    if browser:
        lines.append(f"left out: {_tests(browser, 'browser ')} left to `tox -e browser`")
    return lines


def _tests(n: int, kind: str = "") -> str:
    return f"{n} {kind}{'test' if n == 1 else 'tests'}"


LEFT_OUT = pytest.StashKey[Counter]()


@pytest.fixture(scope="session")
def samples():
    """The whole dataset, read once (LOCOMO_DATA, else the cache, else a fetch)."""
    from locomo_repro.data import dataset

    return dataset.load()


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    """The reference Go benchmark's outputs as the kit keeps them: tables verbatim, the rest as digests."""
    return REFERENCE


@pytest.fixture(scope="session")
def lab(samples):
    """The test run's one ``claims.Lab`` over the whole dataset: each build (arm set, blind, derived facts,
    coreference) is made once, in worker processes, and asked at once every way the claims and the
    reference's commands ask it (its plan), for the parity tests, the claims and every other test alike."""
    from locomo_repro import claims, cli
    from locomo_repro.score.reference import FILES

    made = claims.Lab(samples)
    for run in claims.runs(claims.load(ROOT / "claims.yaml")):
        made.plan(run.settings)
    for output in FILES:
        if not output.command and "-stats" not in output.flags:
            args = cli.parser().parse_args(list(output.flags))
            made.plan(cli.run_settings(args, cli.options(args)))
    return made


@pytest.fixture(scope="session")
def command(lab):
    """``command(argv)``: what ``locomo-repro ARGV`` prints on stdout over the whole dataset, its ``-out`` file
    written into the current folder; the command line's own settings, report and writer (``cli.run_settings``,
    ``cli.gathered``, ``cli.finish``, the signature ``bench.plan.signed``) over the runs of the session's lab."""
    import io

    from locomo_repro import cli
    from locomo_repro.bench import plan

    def printed(argv: list[str]) -> str:
        args = cli.parser().parse_args(argv)
        options = cli.options(args)
        settings = cli.run_settings(args, options)
        summary = cli.gathered(args, settings)
        for outcome in lab.outcomes(settings):
            summary.add(outcome)
        out = io.StringIO()
        cli.finish(summary, args, out, plan.signed(settings, cli.scope(args)))
        return out.getvalue()

    return printed


@pytest.fixture(scope="session")
def kit_answers(command, tmp_path_factory) -> dict[str, tuple[str, bytes]]:
    """The kit's three predictions files (answers.json, answers-walk.json, answers-factor.json) made as the
    reference made its own (``-out``), each with what the run printed: ``{name: (stdout, file bytes)}``."""
    import contextlib

    from locomo_repro.score.reference import FILES

    folder = tmp_path_factory.mktemp("answers")
    made = {}
    for output in (o for o in FILES if o.kept == "answers"):
        with contextlib.chdir(folder):  # the reference ran with a relative -out, and printed it
            printed = command(list(output.flags))
        made[output.name] = (printed, (folder / output.name).read_bytes())
    return made


@pytest.fixture(scope="session")
def reference_answers(kit_answers, reference_dir) -> dict[str, bytes]:
    """The reference's three predictions files, byte for byte: the kit's own, checked against the sha256 that
    ``golden/reference`` keeps of each (a mismatch fails here; test_parity names where it starts)."""
    import hashlib

    files = {}
    for name, (_, written) in kit_answers.items():
        kept = (reference_dir / f"{name}.digest.tsv").read_text().split("\n", 1)[0]
        assert kept == f"sha256\t{hashlib.sha256(written).hexdigest()}", f"the kit's {name} is not the reference's"
        files[name] = written
    return files


@pytest.fixture(scope="session")
def official_scorer():
    """``eval_question_answering`` of the LoCoMo authors' own evaluation.py: LOCOMO_EVALUATION_PY, else the
    kit's cache, else fetched at the pinned commit (sha-checked).  Without it the test is skipped, saying
    what is missing: nothing stands in for the official scorer."""
    from locomo_repro.score import official

    try:
        return official.official_scorer()
    except official.OfficialUnavailable as err:
        pytest.skip(f"official evaluation.py not at hand ({err}); set LOCOMO_EVALUATION_PY to a copy")
