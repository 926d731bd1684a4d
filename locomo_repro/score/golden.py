"""The golden files of the official LoCoMo metric: their inputs, and the tool that writes them.

``golden/`` holds five TSV files written by the LoCoMo authors' scorer
(snap-research/locomo ``task_eval/evaluation.py`` at 3eb6f2c5) over
``locomo10.json``.  They quote nothing of the dataset: every row is keyed by a
position in it, a short hash of a text, or a word.  This module rebuilds each
file's inputs from the dataset (``golden/README.md`` defines them) so that a
test can score them again, and it regenerates the files::

    locomo-repro golden --out DIR | --check  [--data PATH]
        [--scorer official|kit] [--evaluation-py PATH]

``official`` (the default) imports the authors' ``evaluation.py`` through
``locomo_repro.score.official.load_evaluation`` -- the file given with
``--evaluation-py`` (or ``$LOCOMO_EVALUATION_PY``), else one downloaded once
into ``${XDG_CACHE_HOME:-~/.cache}/locomo-repro/``, checked against its pinned
sha256 either way.  ``kit`` scores with this package's own metric behind the
same ``eval_question_answering`` contract; regenerating with it and comparing
the bytes with ``golden/`` checks the writer and the metric together.
``--check`` writes nothing: it compares the rebuilt files with the kit's own
(``data.shipped``, so an installed kit checks itself from any folder).  The
authors' file is licensed CC BY-NC 4.0 and is never copied into this project.
"""

from __future__ import annotations

import hashlib
import math
import os
import random
import re
import sys
import types
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..go import flags
from ..data import atomic, dataset, jsonio, shipped
from ..score import official
from ..data.records import record

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


@record
class Case:
    """One reply to grade: the question's category, the reply and the reference answer."""

    category: int
    prediction: str
    answer: str


@record
class Reply:
    """One row of ``replies.tsv``: a recipe's reply to one question."""

    sample: str
    index: int
    recipe: str
    case: Case


@record
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
    answers = [(qa["category"], reference(qa)) for sample in data for qa in sample["qa"]]
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


@record
class Scorer:
    """What the writer scores with: a normaliser, a stemmer, and an
    ``eval_question_answering`` (the official contract, ``official.Scorer``)
    that the cases are fed to as the golden README says."""

    normalise: Callable[[str], str]
    stem: Callable[[str], str]
    evaluate: official.Scorer

    def grade(self, cases: Sequence[Case]) -> list[float]:
        """The score of each reply against its answer."""
        items = [{"category": c.category, "answer": c.answer, "prediction": c.prediction} for c in cases]
        return [float(s) for s in self.evaluate(items, "prediction")[0]]

    def recall(self, rows: Sequence[Context]) -> list[float]:
        """The evidence recall of each context."""
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
        return [float(s) for s in self.evaluate(items, "prediction")[2]]


def kit_scorer() -> Scorer:
    """This package's own metric: ``text.normalise``, ``text.stem`` and ``official.kit_eval_question_answering``."""
    from ..text.reduce import normalise, stem

    return Scorer(normalise, stem, official.kit_eval_question_answering)


def official_scorer(evaluation: types.ModuleType | str | Path | None = None) -> Scorer:
    """The authors' ``evaluation.py``: its ``normalize_answer`` and ``eval_question_answering``
    (output kept off stdout), with NLTK's Porter stemmer.

    ``evaluation`` is the loaded module, or a path (or None) for
    ``official.load_evaluation``, whose failure becomes a :class:`GoldenError`.
    """
    from nltk.stem import PorterStemmer

    try:
        module = evaluation if isinstance(evaluation, types.ModuleType) else official.load_evaluation(evaluation)
    except official.OfficialUnavailable as err:
        raise GoldenError(str(err)) from None
    return Scorer(module.normalize_answer, PorterStemmer().stem, official.official_scorer(module))


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


def write(out: Path, files: dict[str, str]) -> None:
    """Write the files into the directory ``out`` (created if needed), all of them or none."""
    try:
        atomic.write_files((out / name, files[name].encode("utf-8")) for name in FILES)
    except atomic.WriteError as exc:
        raise GoldenError(str(exc)) from None


def check(files: dict[str, str], kept: Path) -> list[tuple[str, int]]:
    """Each rebuilt file against its copy in ``kept``: ``(name, line)``, line 0 when the bytes are the same,
    else the first line that differs (one past the shorter file's end when one is a prefix of the other)."""
    out = []
    for name in FILES:
        try:
            have = (kept / name).read_bytes().decode("utf-8").split("\n")
        except (OSError, UnicodeDecodeError) as exc:
            raise GoldenError(f"{kept / name}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
        made = files[name].split("\n")
        first = next((i for i, (a, b) in enumerate(zip(made, have), 1) if a != b), 0)
        if not first and len(made) != len(have):
            first = min(len(made), len(have)) + 1
        out.append((name, first))
    return out


def read_dataset(path: str | os.PathLike[str] | None) -> list[dict[str, Any]]:
    """The dataset at ``path`` (or $LOCOMO_DATA), which must be the pinned locomo10.json."""
    path = path or os.environ.get("LOCOMO_DATA")
    if not path:
        raise GoldenError("no dataset: pass --data PATH or set LOCOMO_DATA")
    file = Path(path)
    if not file.is_file():
        raise GoldenError(f"dataset {file} does not exist")
    try:
        source = jsonio.read(file)
        if source.sha256 != dataset.SHA256:
            raise GoldenError(f"dataset {file} has sha256 {source.sha256}, expected {dataset.SHA256}")
        return jsonio.loads(source)
    except jsonio.InputError as exc:
        raise GoldenError(f"cannot read dataset: {exc}") from None


def parser() -> flags.Parser:
    """This command's flags (the docs' commands are parsed with it)."""
    p = flags.Parser(
        prog="locomo-repro golden",
        description="Rebuild golden/*.tsv with the official LoCoMo scorer (or the kit's metric).",
    )
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--out", type=Path, help="directory to write the five files to")
    where.add_argument("--check", action="store_true",
                       help="write nothing: compare the rebuilt files with the kit's own, byte for byte "
                       "(exit status 1 when one differs)")
    p.add_argument("--data", help="locomo10.json (default: $LOCOMO_DATA)")
    p.add_argument(
        "--scorer",
        choices=("official", "kit"),
        default="official",
        help="official: the authors' evaluation.py (default); kit: this package's metric",
    )
    p.add_argument(
        "--evaluation-py",
        type=Path,
        help="a local copy of the pinned evaluation.py (default: $LOCOMO_EVALUATION_PY, else the cache, "
        "else download)",
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Regenerate the golden files; a bad input is one line on stderr and exit status 2."""
    p = parser()
    args = p.parse(argv)
    try:
        if args.scorer == "kit" and args.evaluation_py is not None:
            raise GoldenError("--evaluation-py goes with --scorer official")
        data = read_dataset(args.data)
        if args.scorer == "kit":
            scorer = kit_scorer()
        else:
            scorer = official_scorer(args.evaluation_py)
        files = build(data, scorer)
        if args.check:
            try:
                kept = shipped.path("golden")
            except shipped.ShippedError as exc:
                raise GoldenError(str(exc)) from None
            compared = check(files, kept)
        else:
            write(args.out, files)
    except GoldenError as exc:
        print(f"golden: {exc}", file=sys.stderr)
        return 2
    if args.check:
        for name, line in compared:
            print(f"{name}: " + (f"differs from the kit's at line {line}" if line else "the kit's, byte for byte"))
        return 1 if any(line for _, line in compared) else 0
    for name in FILES:
        print(args.out / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
