"""NLTK's Porter stems of the words of the LoCoMo corpus, kept with the kit so that a run need not import NLTK.

``stems.tsv`` beside this module holds, after a first line ``# nltk VERSION``,
``word<TAB>stem`` for every word the kit stems in the published commands over
locomo10.json and the words of ``golden/stems.tsv`` (which adds the classic
Porter test words), each stem computed by that version of NLTK's
``PorterStemmer`` in its default NLTK_EXTENSIONS mode.  ``known()`` gives the
table when the installed NLTK is that version (read from its metadata, without
importing it) and nothing otherwise, so the memo of ``text.reduce`` starts
from NLTK's own answers and asks NLTK itself for any other word, or for every
word under another version.  Importing NLTK costs a third of a second, a
fifteenth of the default run.  ``locomo-repro stems`` (``make
stems``) remakes the table.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib.util import find_spec
from pathlib import Path

#: The table shipped with the kit.
TABLE = Path(__file__).with_name("stems.tsv")


def nltk_version() -> str:
    """The version of the NLTK ``import nltk`` would import ("" when there is none), read without importing
    it: the ``VERSION`` file of its package, which is where ``nltk.__version__`` comes from (and cheaper to
    read than the installed distributions' metadata, which a run would otherwise import for this alone)."""
    spec = find_spec("nltk")
    if spec is None or spec.origin is None:
        return ""
    try:
        return Path(spec.origin).with_name("VERSION").read_text(encoding="utf-8").strip()
    except OSError:
        return ""


def read(text: str) -> tuple[str, dict[str, str]]:
    """The NLTK version a table was made with and its stems by word."""
    head, _, body = text.partition("\n")
    version = head.removeprefix("# nltk ")
    cut = body.split()  # word, stem, word, stem, ...: neither holds whitespace
    return version, dict(zip(cut[::2], cut[1::2]))


def known() -> dict[str, str]:
    """The shipped stems by word when the installed NLTK made them, else none."""
    version, stems = read(TABLE.read_text(encoding="utf-8"))
    return stems if version == nltk_version() else {}


def table(words: Iterable[str]) -> str:
    """The table of ``words`` (sorted, once each) with the installed NLTK's stems."""
    from nltk.stem import PorterStemmer

    stemmer = PorterStemmer()
    lines = [f"# nltk {nltk_version()}"] + [f"{w}\t{stemmer.stem(w)}" for w in sorted(set(words))]
    return "\n".join(lines) + "\n"
