"""A run imports only what it uses: a plain run of one conversation in this process (the default arms, or
``-arms read``), and ``--help``, import no model reader and no HTTP client, no pool of workers or threads, no plug-in
machinery, no results or predictions file, no audited key, no JSON encoder of the reference's and no memory
of an arm set it does not build, each of which a run that uses it imports (behavioural, not timed: a child
interpreter runs the command line as ``python -m locomo_repro`` does and reports the modules it ended up
holding).  numpy's part of the rule is tests/test_a_run_that_searches_no_store_imports_no_numpy.py, NLTK's
tests/test_the_shipped_stems_are_nltks.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from stub_server import Stub, completion

_CHILD = """
import json, runpy, sys
sys.argv = ["locomo-repro", *sys.argv[1:]]
try:
    runpy.run_module("locomo_repro", run_name="__main__")
except SystemExit as status:
    assert not status.code, status.code
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""

#: What a plain run does not use, by the flag that uses it.
MODEL = ("locomo_repro.read.model", "locomo_repro.read.chat", "socket", "selectors")  # -model
POOLS = ("locomo_repro.data.stop", "concurrent.futures", "logging", "queue")  # -jobs 2, -concurrency, -model
PLUGIN = ("locomo_repro.arms.plugin",)  # -arms MODULE:ATTR
RESULTS = ("locomo_repro.score.results", "locomo_repro.score.predictions")  # -json
OUT = ("locomo_repro.go.json", "decimal")  # -out
AUDITED = ("locomo_repro.data.audit", "locomo_repro.score.ceiling")  # -key audited, -wrong-gold
SETS = ("locomo_repro.arms.factor", "locomo_repro.arms.path")  # -arms factor, -arms walk
UNUSED = (*MODEL, *POOLS, *PLUGIN, *RESULTS, *OUT, *AUDITED, *SETS)


def held(*argv: str, env: dict[str, str] | None = None) -> set[str]:
    """The modules of ``UNUSED`` a child interpreter holds once ``locomo-repro ARGV`` has run (and succeeded)."""
    path = os.pathsep.join(sys.path)  # the tests' folder too: a plug-in of toy_plugins
    child = subprocess.run([sys.executable, "-c", _CHILD, *argv], capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": path, **(env or {})}, timeout=300)
    assert child.returncode == 0, child.stderr
    return set(json.loads(child.stderr.splitlines()[-1])) & set(UNUSED)


@pytest.mark.parametrize("argv", [["-arms", "main"], ["-arms", "read"]], ids=["main", "read"])
def test_a_plain_run_of_one_conversation_imports_none_of_them(argv):
    assert held("-quiet", "-only", "1", "-jobs", "1", *argv) == set()


def test_help_imports_none_of_them():
    assert held("--help") == set()


@pytest.mark.slow
@pytest.mark.parametrize("argv, needs", [
    (["-arms", "read", "-only", "2", "-jobs", "2"], POOLS),
    (["-arms", "read,toy_plugins:first_turns", "-only", "1"], PLUGIN),
    (["-arms", "read", "-only", "1", "-json", "{tmp}/r.json"], RESULTS),
    (["-arms", "read", "-only", "1", "-out", "{tmp}/p.json"], OUT),
    (["-arms", "factor,walk", "-only", "1", "-limit", "2"], SETS),
], ids=["jobs", "plugin", "json", "out", "sets"])
def test_a_run_that_uses_one_imports_it(tmp_path, argv, needs):
    """The check above can fail: each of them is imported by a run that uses it."""
    assert held("-quiet", *[a.format(tmp=tmp_path) for a in argv]) >= set(needs)


@pytest.mark.slow
def test_a_model_run_imports_the_model_reader_and_its_pool():
    with Stub(lambda body, n: (200, completion("Caroline"), 0)) as stub:
        got = held("-quiet", "-arms", "read", "-only", "1", "-limit", "2", "-model", "stub", "-base", stub.base_url,
                   "-memo", "", env={"HANZO_API_KEY": "test-key"})
    assert got >= {*MODEL, *POOLS}


@pytest.mark.slow
@pytest.mark.outside("LOCOMO_AUDIT")
def test_a_wrong_gold_run_imports_the_audited_key():
    assert held("-quiet", "-arms", "read", "-only", "1", "-wrong-gold") >= set(AUDITED)
