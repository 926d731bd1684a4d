"""The golden files of the official LoCoMo metric: their inputs, and the tool that writes them.

``golden/`` holds five TSV files written by the LoCoMo authors' scorer
(snap-research/locomo ``task_eval/evaluation.py`` at 3eb6f2c5) over
``locomo10.json``.  They quote nothing of the dataset: every row is keyed by a
position in it, a short hash of a text, or a word.  This module rebuilds each
file's inputs from the dataset (``golden/README.md`` defines them) so that a
test can score them again, and it regenerates the files::

    python -m locomo_repro.golden --out DIR [--data PATH]
        [--scorer official|kit] [--evaluation-py PATH]

``official`` (the default) imports the authors' ``evaluation.py`` -- the file
given with ``--evaluation-py`` (or ``$LOCOMO_EVALUATION_PY``), else one
downloaded once into ``${XDG_CACHE_HOME:-~/.cache}/locomo-repro/``, checked
against its pinned sha256 either way -- with stub modules standing in for
module-level imports it does not need (``bert_score``).  ``kit`` scores with
this package's own metric; regenerating with it and comparing the bytes with
``golden/`` checks the writer and the metric together.  The authors' file is
licensed CC BY-NC 4.0 and is never copied into this project.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import hashlib
import importlib.util
import io
import json
import math
import os
import random
import re
import sys
import tempfile
import types
import urllib.error
import urllib.request
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

EVALUATION_URL = (
    "https://raw.githubusercontent.com/snap-research/locomo/"
    "3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376/task_eval/evaluation.py"
)
EVALUATION_SHA256 = "8e3be5d57ff2ff9ec5cd05939592f468c5f3f1fd95d13e431932bdf6bf0fd6fd"
DATASET_SHA256 = "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4"

#: The golden files, in the order they are written.
FILES = ("stems.tsv", "normalise.tsv", "grade.tsv", "replies.tsv", "recall.tsv")

#: Classic Porter test words the published golden generator (hanzoai/semantic
#: bench/locomo ref/golden.py at c99f2a73) adds to the corpus vocabulary, so the
#: stem check covers rules the dialogues never exercise.  Its list holds these
#: 81 words, 22 of which the corpus has as well.
PORTER_WORDS = tuple(
    """
    hopping flies dies ties sky skies feed agreed plastered bled motoring sing
    conflated troubled sized hopped tanned falling hissing fizzed failing filing
    happy news innings caresses ponies caress cats relational conditional
    rational valenci hesitanci digitizer conformabli radicalli differentli
    vileli analogousli triplicate formative formalize electriciti electrical
    hopefulness goodness revival allowance inference airliner gyroscopic
    adjustable defensible irritant replacement adjustment dependent adoption
    homologou communism activate angulariti homologous effective bowdlerize
    probate rate cease controll roll skis lies tying dying outings cannings howe
    proceed exceed succeed
    """.split()
)

#: The eleven replies ``replies.tsv`` scores for every question, in row order.
RECIPES = (
    "answer",
    "empty",
    "abstain",
    "not-mentioned",
    "evidence",
    "question",
    "half",
    "reversed-parts",
    "shout",
    "padded",
    "adversarial",
)

#: The four contexts ``recall.tsv`` scores for every question with evidence.
CONTEXTS = ("evidence", "first", "sessions", "nothing")

_SESSION = re.compile(r"session_\d+")


class GoldenError(Exception):
    """A bad input to the generator: reported as one line, exit status 2."""


# --------------------------------------------------------------------------
# Inputs, rebuilt from the dataset


def h(text: str) -> str:
    """The files' text key: the first 16 hex digits of sha256 of the UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def load(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The dataset as plain JSON (a list of samples)."""
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def texts(data: Sequence[dict[str, Any]]) -> Iterator[str]:
    """TEXTS: per sample, its questions and answers, then its turn texts and image captions, in file order."""
    for sample in data:
        for qa in sample["qa"]:
            yield qa["question"]
            for key in ("answer", "adversarial_answer"):
                if key in qa:
                    yield str(qa[key])
        for key, session in sample["conversation"].items():
            if _SESSION.fullmatch(key):
                for turn in session:
                    yield turn["text"]
                    if turn.get("blip_caption"):
                        yield turn["blip_caption"]


def reference(qa: dict[str, Any]) -> str:
    """REF: the answer, or the adversarial answer when there is none."""
    if "answer" in qa:
        return str(qa["answer"])
    return str(qa.get("adversarial_answer", ""))


def turns(sample: dict[str, Any]) -> list[dict[str, Any]]:
    """The turns of ``session_1``, ``session_2``, ... up to the first missing number."""
    out: list[dict[str, Any]] = []
    conversation = sample["conversation"]
    n = 1
    while f"session_{n}" in conversation:
        out.extend(conversation[f"session_{n}"])
        n += 1
    return out


@dataclass(frozen=True, slots=True)
class Case:
    """One reply to grade: the question's category, the reply and the reference answer."""

    category: int
    prediction: str
    answer: str


@dataclass(frozen=True, slots=True)
class Reply:
    """One row of ``replies.tsv``: a recipe's reply to one question."""

    sample: str
    index: int
    recipe: str
    case: Case


@dataclass(frozen=True, slots=True)
class Context:
    """One row of ``recall.tsv``: a context list put against a question's evidence."""

    sample: str
    index: int
    recipe: str
    category: int
    answer: str
    evidence: tuple[str, ...]
    context: tuple[str, ...]


def stem_words(data: Sequence[dict[str, Any]], normalise: Callable[[str], str]) -> list[str]:
    """The words of ``stems.tsv``: every normalised corpus word plus PORTER_WORDS, sorted."""
    vocab: set[str] = set(PORTER_WORDS)
    for text in texts(data):
        vocab.update(normalise(text).split())
    return sorted(vocab)


def distinct_texts(data: Sequence[dict[str, Any]]) -> list[str]:
    """The inputs of ``normalise.tsv``: TEXTS without repeats, in first-seen order."""
    return list(dict.fromkeys(texts(data)))


def grade_cases(data: Sequence[dict[str, Any]]) -> list[Case]:
    """The 2,400 cases of ``grade.tsv``: 400 answers drawn with seed 11, six replies each.

    A private ``random.Random(11)`` gives the same draws as the generator's
    ``random.seed(11)`` without touching the global state.
    """
    rng = random.Random(11)
    answers = [
        (qa["category"], str(qa.get("answer", qa.get("adversarial_answer", ""))))
        for sample in data
        for qa in sample["qa"]
    ]
    cases: list[Case] = []
    for category, answer in rng.sample(answers, 400):
        other = rng.choice(answers)[1]
        fields = answer.split()
        half = " ".join(fields[: max(1, len(fields) // 2)])
        for reply in (answer, half, other, "", "No information available", "not mentioned"):
            cases.append(Case(category, reply, answer))
    return cases


def recipe_replies(qa: dict[str, Any], said: dict[str, str]) -> list[tuple[str, str]]:
    """The eleven (recipe, reply) pairs for one question; ``said`` maps a turn id to its text."""
    ref = reference(qa)
    fields = ref.split()
    evidence = qa.get("evidence") or []
    return [
        ("answer", ref),
        ("empty", ""),
        ("abstain", "No information available"),
        ("not-mentioned", "That is not mentioned in the conversation."),
        ("evidence", said.get(evidence[0], "") if evidence else ""),
        ("question", qa["question"]),
        ("half", " ".join(fields[: math.ceil(len(fields) / 2)])),
        ("reversed-parts", ", ".join(reversed([p.strip() for p in ref.split(",")]))),
        ("shout", ref.upper() + "!!"),
        ("padded", "The " + ref + " and a thing"),
        ("adversarial", str(qa.get("adversarial_answer", ""))),
    ]


def reply_rows(data: Sequence[dict[str, Any]]) -> list[Reply]:
    """The inputs of ``replies.tsv``: eleven replies to every question of every sample."""
    out: list[Reply] = []
    for sample in data:
        said: dict[str, str] = {}
        for turn in turns(sample):
            said.setdefault(turn["dia_id"], turn["text"])
        for index, qa in enumerate(sample["qa"]):
            ref = reference(qa)
            for recipe, reply in recipe_replies(qa, said):
                out.append(Reply(sample["sample_id"], index, recipe, Case(qa["category"], reply, ref)))
    return out


def context_lists(evidence: Sequence[str]) -> list[tuple[str, tuple[str, ...]]]:
    """The four (recipe, context) pairs for one evidence list."""
    return [
        ("evidence", tuple(evidence)),
        ("first", tuple(evidence[:1])),
        ("sessions", tuple("S" + e.split(":")[0][1:] for e in evidence)),
        ("nothing", ("D0:0",)),
    ]


def context_rows(data: Sequence[dict[str, Any]]) -> list[Context]:
    """The inputs of ``recall.tsv``: four contexts for every question whose evidence is not empty."""
    out: list[Context] = []
    for sample in data:
        for index, qa in enumerate(sample["qa"]):
            evidence = tuple(qa.get("evidence") or ())
            if not evidence:
                continue
            for recipe, context in context_lists(evidence):
                row = Context(sample["sample_id"], index, recipe, qa["category"], reference(qa), evidence, context)
                out.append(row)
    return out


# --------------------------------------------------------------------------
# Scorers


class Scorer(Protocol):
    """What the writer needs of a metric."""

    def normalise(self, text: str) -> str: ...

    def stem(self, word: str) -> str: ...

    def grade(self, cases: Sequence[Case]) -> list[float]: ...

    def recall(self, rows: Sequence[Context]) -> list[float]: ...


class KitScorer:
    """This package's own metric (``locomo_repro.metric`` and ``locomo_repro.text``)."""

    def normalise(self, text: str) -> str:
        from .text import normalise

        return normalise(text)

    def stem(self, word: str) -> str:
        from .text import stem

        return stem(word)

    def grade(self, cases: Sequence[Case]) -> list[float]:
        from .metric import grade

        return [grade(c.category, c.prediction, c.answer) for c in cases]

    def recall(self, rows: Sequence[Context]) -> list[float]:
        from .metric import recall

        return [recall(r.evidence, r.context) for r in rows]


class OfficialScorer:
    """The authors' ``evaluation.py``, called the way the golden README says."""

    def __init__(self, module: types.ModuleType) -> None:
        from nltk.stem import PorterStemmer

        self._module = module
        self._stemmer = PorterStemmer()

    def normalise(self, text: str) -> str:
        return self._module.normalize_answer(text)

    def stem(self, word: str) -> str:
        return self._stemmer.stem(word)

    def _evaluate(self, items: list[dict[str, Any]]) -> tuple[list[Any], list[Any]]:
        # The scorer prints a count line and may average an empty list; neither
        # belongs in this tool's output.
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            scores, _, recalls = self._module.eval_question_answering(items, "prediction")
        return list(scores), list(recalls)

    def grade(self, cases: Sequence[Case]) -> list[float]:
        items = [{"category": c.category, "answer": c.answer, "prediction": c.prediction} for c in cases]
        return [float(s) for s in self._evaluate(items)[0]]

    def recall(self, rows: Sequence[Context]) -> list[float]:
        items = [
            {
                "category": r.category,
                "answer": r.answer,
                "prediction": "",
                "evidence": list(r.evidence),
                "prediction_context": list(r.context),
            }
            for r in rows
        ]
        return [float(s) for s in self._evaluate(items)[1]]


# --------------------------------------------------------------------------
# The official file: download, check, import


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def cache_dir() -> Path:
    """``${XDG_CACHE_HOME:-~/.cache}/locomo-repro``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "locomo-repro"


def fetch(url: str = EVALUATION_URL, sha256: str = EVALUATION_SHA256, timeout: float = 30.0) -> Path:
    """The cached ``evaluation.py``, downloaded and checked on first use (a stale cache is replaced)."""
    target = cache_dir() / "evaluation.py"
    if target.is_file() and sha256_file(target) == sha256:
        return target
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            body = response.read()
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", None) or exc
        raise GoldenError(f"cannot download {url} ({reason}); pass --evaluation-py PATH") from None
    got = hashlib.sha256(body).hexdigest()
    if got != sha256:
        raise GoldenError(f"downloaded {url} has sha256 {got}, expected {sha256}")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        _atomic_write(target, body)
    except OSError as exc:
        raise GoldenError(f"cannot write {target}: {exc.strerror or exc}") from None
    return target


def _importable(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _stub(name: str) -> types.ModuleType:
    """An empty module whose every attribute is ``None``: enough for ``from name import x``."""
    module = types.ModuleType(name)
    module.__dict__["__getattr__"] = lambda attribute: None
    module.__path__ = []  # a package, so ``import name.sub`` reaches the next stub
    return module


def missing_imports(source: str) -> list[str]:
    """Modules (and parent packages) the source imports at module scope that cannot be imported here."""
    wanted: list[str] = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.Import):
            wanted.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            wanted.append(node.module)
    missing: list[str] = []
    for name in wanted:
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            prefix = ".".join(parts[:i])
            if prefix not in missing and prefix not in sys.modules and not _importable(prefix):
                missing.append(prefix)
    return missing


#: Modules the scorer's QA code really calls: a stub may never stand in for them.
_NEEDED = frozenset({"regex", "numpy", "nltk", "nltk.stem"})


def load_official(path: Path, sha256: str | None = EVALUATION_SHA256) -> types.ModuleType:
    """Import ``evaluation.py`` from ``path`` unmodified, after checking its hash.

    Module-level imports that are not installed (``bert_score``, at the pinned
    commit) get stubs; the QA code never calls them.  ``sha256=None`` skips
    the check (tests use it for a stand-in file).
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise GoldenError(f"cannot read {path}: {exc.strerror or exc}") from None
    got = hashlib.sha256(data).hexdigest()
    if sha256 is not None and got != sha256:
        raise GoldenError(f"{path} has sha256 {got}, expected {sha256}")
    try:
        missing = missing_imports(data.decode("utf-8"))
    except (UnicodeDecodeError, SyntaxError) as exc:
        raise GoldenError(f"{path} is not Python source: {exc}") from None
    needed = sorted(set(missing) & _NEEDED)
    if needed:
        raise GoldenError(f"the official scorer needs {', '.join(needed)}, which is not installed")
    for name in missing:
        sys.modules.setdefault(name, _stub(name))
    spec = importlib.util.spec_from_file_location(f"locomo_official_{got[:12]}", path)
    if spec is None or spec.loader is None:
        raise GoldenError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            spec.loader.exec_module(module)
    except Exception as exc:  # a file that does not import is a bad input, not a crash
        raise GoldenError(f"cannot import {path}: {type(exc).__name__}: {exc}") from None
    for name in ("normalize_answer", "eval_question_answering"):
        if not callable(getattr(module, name, None)):
            raise GoldenError(f"{path} defines no {name}()")
    return module


# --------------------------------------------------------------------------
# Writing


def escape(field: str) -> str:
    """The golden files' TSV escaping: backslash, tab and newline become ``\\\\``, ``\\t``, ``\\n``.

    No field of the current files holds any of the three (words come out of
    ``normalize_answer``, which drops backslashes and splits on whitespace), so
    this is the identity on them; it keeps an odd field from breaking a row.
    """
    return field.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def score_text(score: float) -> str:
    """A score as the files write it: ``repr(float(score))``."""
    return repr(float(score))


def tsv(rows: Iterable[Sequence[object]]) -> str:
    """Rows as TSV text: fields escaped, tab-separated, every row ending in a newline."""
    return "".join("\t".join(escape(str(f)) for f in row) + "\n" for row in rows)


def build(data: Sequence[dict[str, Any]], scorer: Scorer) -> dict[str, str]:
    """The text of every golden file, scored by ``scorer``."""
    stems = tsv((w, scorer.stem(w)) for w in stem_words(data, scorer.normalise))

    norm_rows = []
    for text in distinct_texts(data):
        out = scorer.normalise(text)
        norm_rows.append((h(text), h(out), len(out.split())))

    cases = grade_cases(data)
    graded = tsv(
        (i, c.category, h(c.prediction), h(c.answer), score_text(s))
        for i, (c, s) in enumerate(zip(cases, scorer.grade(cases), strict=True))
    )

    replies = reply_rows(data)
    replied = tsv(
        (r.sample, r.index, r.case.category, r.recipe, score_text(s))
        for r, s in zip(replies, scorer.grade([r.case for r in replies]), strict=True)
    )

    contexts = context_rows(data)
    recalled = tsv(
        (r.sample, r.index, r.recipe, score_text(s)) for r, s in zip(contexts, scorer.recall(contexts), strict=True)
    )
    return {
        "stems.tsv": stems,
        "normalise.tsv": tsv(norm_rows),
        "grade.tsv": graded,
        "replies.tsv": replied,
        "recall.tsv": recalled,
    }


def _atomic_write(path: Path, body: bytes) -> None:
    """Write ``body`` to a temporary file beside ``path``, then rename it into place."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(body)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write(out: Path, files: dict[str, str]) -> None:
    """Write each file atomically into the directory ``out`` (created if needed)."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name in FILES:
            _atomic_write(out / name, files[name].encode("utf-8"))
    except OSError as exc:
        raise GoldenError(f"cannot write to {out}: {exc.strerror or exc}") from None


def read_dataset(path: str | os.PathLike[str] | None) -> list[dict[str, Any]]:
    """The dataset at ``path`` (or $LOCOMO_DATA), which must be the pinned locomo10.json."""
    path = path or os.environ.get("LOCOMO_DATA")
    if not path:
        raise GoldenError("no dataset: pass --data PATH or set LOCOMO_DATA")
    file = Path(path)
    if not file.is_file():
        raise GoldenError(f"dataset {file} does not exist")
    got = sha256_file(file)
    if got != DATASET_SHA256:
        raise GoldenError(f"dataset {file} has sha256 {got}, expected {DATASET_SHA256}")
    try:
        return load(file)
    except (OSError, ValueError) as exc:
        raise GoldenError(f"cannot read dataset {file}: {exc}") from None


def main(argv: Sequence[str] | None = None) -> int:
    """Regenerate the golden files; a bad input is one line on stderr and exit status 2."""
    parser = argparse.ArgumentParser(
        prog="python -m locomo_repro.golden",
        description="Rebuild golden/*.tsv with the official LoCoMo scorer (or the kit's metric).",
    )
    parser.add_argument("--out", required=True, type=Path, help="directory to write the five files to")
    parser.add_argument("--data", help="locomo10.json (default: $LOCOMO_DATA)")
    parser.add_argument(
        "--scorer",
        choices=("official", "kit"),
        default="official",
        help="official: the authors' evaluation.py (default); kit: this package's metric",
    )
    parser.add_argument(
        "--evaluation-py",
        type=Path,
        help="a local copy of the pinned evaluation.py (default: $LOCOMO_EVALUATION_PY, else download)",
    )
    args = parser.parse_args(argv)
    try:
        if args.scorer == "kit" and args.evaluation_py is not None:
            raise GoldenError("--evaluation-py goes with --scorer official")
        data = read_dataset(args.data)
        scorer: Scorer
        if args.scorer == "kit":
            scorer = KitScorer()
        else:
            local = args.evaluation_py or os.environ.get("LOCOMO_EVALUATION_PY")
            scorer = OfficialScorer(load_official(Path(local) if local else fetch()))
        write(args.out, build(data, scorer))
    except GoldenError as exc:
        print(f"golden: {exc}", file=sys.stderr)
        return 2
    for name in FILES:
        print(args.out / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
