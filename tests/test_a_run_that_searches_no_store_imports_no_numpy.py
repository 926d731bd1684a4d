"""numpy is imported with the vector store, when a memory first searches one: a run whose arms all read the
annotated evidence (``-arms read``) imports it nowhere, and a run that searches a store imports it before it
forks its workers, so that they inherit it (behavioural: a child interpreter reports its modules)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

_CHILD = """
import io, sys
from locomo_repro import cli
cli.run(cli.parser().parse_args(sys.argv[1:]), io.StringIO())
print(json.dumps(["numpy" in sys.modules, "locomo_repro.memory.store" in sys.modules]), file=sys.stderr)
"""


def holds(*argv: str) -> list[bool]:
    child = subprocess.run([sys.executable, "-c", "import json\n" + _CHILD, "-only", "2", "-quiet", *argv],
                           capture_output=True, text=True, check=True)
    return json.loads(child.stderr.splitlines()[-1])


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_read_arms_import_no_numpy(jobs):
    assert holds("-arms", "read", "-jobs", jobs) == [False, False]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_run_that_searches_a_store_imports_it_here(jobs):
    """The check above can fail: the default arms search stores, and with workers the store is imported here,
    before they are forked."""
    assert holds("-jobs", jobs) == [True, True]
