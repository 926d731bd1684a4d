"""The stems the kit ships (``text/stems.tsv``) are the installed NLTK's, or are not used at all; with them a
run over locomo10 never imports NLTK, nor the distributions' metadata (behavioural, not timed: a child interpreter reports its modules)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from locomo_repro.text import stems


def test_every_shipped_stem_is_what_the_installed_nltk_gives():
    version, table = stems.read(stems.TABLE.read_text(encoding="utf-8"))
    assert len(table) > 6000
    if version != stems.nltk_version():
        assert stems.known() == {}  # another NLTK: its own stems, asked word by word
        return
    from nltk.stem import PorterStemmer

    stemmer = PorterStemmer()
    wrong = {w: (s, stemmer.stem(w)) for w, s in table.items() if stemmer.stem(w) != s}
    assert not wrong, list(wrong.items())[:5]
    assert stems.known() == table


def test_the_version_read_is_the_one_nltk_states_itself():
    import nltk

    assert stems.nltk_version() == nltk.__version__


def test_a_table_reads_back_as_written():
    version, table = stems.read(stems.table(["running", "skies", "running", "🌟"]))
    assert version == stems.nltk_version()
    assert table == {"running": "run", "skies": "sky", "🌟": "🌟"}


_CHILD = """
import io, sys
from locomo_repro import cli
cli.run(cli.parser().parse_args(sys.argv[1:]), io.StringIO())
print(sorted(({m.split(".")[0] for m in sys.modules} & {"nltk", "numpy"}) | ({"importlib.metadata"} & set(sys.modules))),
      file=sys.stderr)
"""


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_run_over_locomo10_does_not_import_nltk(jobs):
    child = subprocess.run([sys.executable, "-c", _CHILD, "-only", "2", "-jobs", jobs],
                           capture_output=True, text=True, check=True)
    loaded = json.loads(child.stderr.splitlines()[-1].replace("'", '"'))
    assert "numpy" in loaded  # the run did build its memories
    assert ("nltk" in loaded) == (stems.known() == {})
    assert "importlib.metadata" not in loaded  # the built-in arms read no installed distribution's metadata
