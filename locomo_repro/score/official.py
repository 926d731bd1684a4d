"""The cross-check with the official LoCoMo scorer.

``load_evaluation`` is the kit's one way to import the LoCoMo authors' own
``task_eval/evaluation.py`` (snap-research/locomo at commit 3eb6f2c5, CC BY-NC
4.0, so fetched rather than shipped): it finds the file (argument, else
``$LOCOMO_EVALUATION_PY``, else the cache ``${XDG_CACHE_HOME:-~/.cache}/locomo-repro/evaluation.py``,
downloaded there on first use), checks its sha256, stands a stub in for the
``bert_score`` module it imports at module scope but never uses for QA, and
compiles and runs exactly the bytes it verified (never a bytecode cache).  ``golden`` (the golden-file writer) uses it too.

``scores`` scores a predictions file the way the reference's ``score.py``
does (hanzoai/semantic bench/locomo, c99f2a73): every arm's prediction and
context go through ``eval_question_answering`` one conversation at a time, an
empty context replaced by the placeholder id ``"-"`` (the official recall
reads ``context[0]``), giving F1 and evidence recall per row and arm;
``report`` prints them in ``score.py``'s layout.  The scorer is a parameter:
the official function, or ``kit_eval_question_answering``, the same contract
over ``locomo_repro.score.metric``.

    locomo-repro official answers.json [--evaluation-py PATH] [--kit]
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import importlib.util
import io
import math
import os
import sys
import types
import urllib.request
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

from ..data import dataset, jsonio

from ..score import metric
from ..data.dataset import ANSWERABLE, CATEGORIES, LOCOMO
from ..score.predictions import Answered, Predictions, gold

COMMIT = "3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376"
EVALUATION_URL = f"https://raw.githubusercontent.com/snap-research/locomo/{COMMIT}/task_eval/evaluation.py"
EVALUATION_SHA256 = "8e3be5d57ff2ff9ec5cd05939592f468c5f3f1fd95d13e431932bdf6bf0fd6fd"
ENV = "LOCOMO_EVALUATION_PY"

#: The scorer's contract: ``(qas, eval_key) -> (scores, mean_length, recalls)``, one score and one recall per qa.
Scorer = Callable[[list[dict], str], tuple]


class OfficialUnavailable(RuntimeError):
    """The official evaluation.py could not be found, fetched or verified (one-line message)."""


def cache_path() -> Path:
    """Where the downloaded evaluation.py is kept: ``${XDG_CACHE_HOME:-~/.cache}/locomo-repro/evaluation.py``,
    beside the dataset's cached copy."""
    return dataset.cache_path().parent / "evaluation.py"


def locate(path: str | Path | None = None) -> Path | None:
    """The evaluation.py to use without touching the network: ``path``, else ``$LOCOMO_EVALUATION_PY``,
    else the cache if it holds a file; None when there is none yet.

    An explicit ``path`` or environment value is returned even if missing, so that
    ``load_evaluation`` reports it rather than silently downloading instead.
    """
    if path is not None:
        return Path(path)
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    cached = cache_path()
    return cached if cached.is_file() else None


def fetch(dest: Path | None = None, *, timeout: float = 30.0) -> Path:
    """Download evaluation.py at the pinned commit into ``dest`` (default the cache); kept only if verified."""
    dest = cache_path() if dest is None else dest
    print(f"fetching {EVALUATION_URL}", file=sys.stderr)
    try:
        with urllib.request.urlopen(EVALUATION_URL, timeout=timeout) as response:
            body = response.read()
    except OSError as err:
        reason = getattr(err, "reason", None) or err
        raise OfficialUnavailable(f"cannot download {EVALUATION_URL} ({reason}); pass its path or set {ENV}") from None
    _verify(body, EVALUATION_URL, EVALUATION_SHA256)
    try:
        dataset.write_kept(dest, body)
    except OSError as err:
        raise OfficialUnavailable(f"cannot write {dest}: {err.strerror or err}") from None
    return dest


def _read(where: Path) -> bytes:
    """The bytes of ``where``, read once by the kit's one reader (capped for a pipe or a device): the same
    bytes are hashed and executed."""
    try:
        return jsonio.read(where).raw
    except jsonio.InputError as err:
        raise OfficialUnavailable(str(err)) from None


def _verify(body: bytes, source: object, sha256: str | None) -> None:
    if sha256 is None:
        return
    got = hashlib.sha256(body).hexdigest()
    if got != sha256:
        raise OfficialUnavailable(f"{source}: sha256 {got}, expected {sha256} (not the pinned evaluation.py)")


#: Modules the QA code really calls: never replaced by a stub.
NEEDED = frozenset({"regex", "numpy", "nltk", "nltk.stem"})


def _unavailable_imports(source: str) -> list[str]:
    """Modules (with their parent packages) imported at module scope that cannot be found here."""
    names: list[str] = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    out: list[str] = []
    for name in names:
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            prefix = ".".join(parts[:i])
            if prefix in out or prefix in sys.modules:
                continue
            try:
                found = importlib.util.find_spec(prefix) is not None
            except (ImportError, ValueError):
                found = False
            if not found:
                out.append(prefix)
    return out


def _stub(name: str) -> types.ModuleType:
    """A module whose every attribute is None (``from name import x`` works), usable as a package."""
    module = types.ModuleType(name)
    module.__dict__["__getattr__"] = lambda attribute: None
    module.__path__ = []
    return module


_LOADED: dict[tuple[str, str], types.ModuleType] = {}


def load_evaluation(
    path: str | Path | None = None, *, download: bool = True, sha256: str | None = EVALUATION_SHA256
) -> types.ModuleType:
    """Run the official ``evaluation.py`` unmodified and return the module
    (``eval_question_answering``, ``f1_score``, ``f1``, ``normalize_answer``, ...).

    The one loader of the kit: golden-file generation and this cross-check both use it.

    * Which file: ``path``, else ``$LOCOMO_EVALUATION_PY``, else the cache
      (:func:`cache_path`).  When the cache is empty, or holds a file with
      another hash, and ``download`` is true, it is fetched from GitHub at the
      pinned commit.
    * Its sha256 must equal ``sha256`` (None skips the check, for test doubles).
      The file is read once and those very bytes are compiled and executed, so
      no bytecode cache (``__pycache__``) can run in their place.
    * Module-scope imports that are not installed (``bert_score``, which the QA
      code never calls) get stubs for the duration of the import only; a
      missing ``regex``, ``numpy`` or ``nltk`` is an error instead, and a module
      already imported (a real ``bert_score``) is left alone.
    * Its import-time output is kept off stdout.  The module is not put in
      ``sys.modules``; loading the same file again returns the same object.

    Raises :class:`OfficialUnavailable` (one line) when any of this fails.
    """
    where = locate(path)
    body = None if where is None else _read(where)
    if body is not None and path is None and not os.environ.get(ENV) and download and sha256 is not None:
        if hashlib.sha256(body).hexdigest() != sha256:
            where = body = None  # a stale cache is fetched again
    if where is None or body is None:  # both or neither
        if not download:
            raise OfficialUnavailable(
                f"official evaluation.py not found: pass its path, set {ENV}, or allow the download to {cache_path()}"
            )
        where = fetch()
        body = _read(where)
    _verify(body, where, sha256)

    digest = hashlib.sha256(body).hexdigest()
    key = (str(where.resolve()), digest)
    if key in _LOADED:
        return _LOADED[key]
    try:
        unavailable = _unavailable_imports(body.decode("utf-8"))
    except (UnicodeDecodeError, SyntaxError, ValueError) as err:
        raise OfficialUnavailable(f"{where}: not Python source: {err}") from None
    needed = sorted(NEEDED.intersection(unavailable))
    if needed:
        raise OfficialUnavailable(f"{where}: the official scorer needs {', '.join(needed)}, which is not installed")
    # The verified bytes themselves are compiled and run: no import machinery, so no bytecode cache
    # (a planted __pycache__/*.pyc) can stand in for them.
    code = compile(body, str(where), "exec", dont_inherit=True)
    module = types.ModuleType(f"locomo_official_evaluation_{digest[:12]}")
    module.__file__ = str(where)
    for name in unavailable:
        sys.modules[name] = _stub(name)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(code, module.__dict__)
    except Exception as err:  # a file that does not import is a bad input, not a crash
        raise OfficialUnavailable(f"{where}: cannot import: {type(err).__name__}: {err}") from None
    finally:
        for name in unavailable:
            sys.modules.pop(name, None)
    for name in ("normalize_answer", "eval_question_answering"):
        if not callable(getattr(module, name, None)):
            raise OfficialUnavailable(f"{where}: defines no {name}()")
    _LOADED[key] = module
    return module


def kit_eval_question_answering(
    qas: list[dict], eval_key: str = "prediction"
) -> tuple[list[float], float, list[float]]:
    """The official ``eval_question_answering`` contract over the kit's own metric.

    Scores with ``locomo_repro.score.metric.grade`` against ``str(answer)``; recall
    with ``metric.recall`` when the qa has a ``<eval_key>_context`` and
    evidence, else 1, as the official function does.
    """
    scores, recalls = [], []
    for qa in qas:
        scores.append(metric.grade(qa["category"], qa[eval_key], str(qa["answer"])))
        context = qa.get(eval_key + "_context")
        if context is not None and len(qa["evidence"]) > 0:
            recalls.append(metric.recall(qa["evidence"], context))
        else:
            recalls.append(1.0)
    return scores, 0.0, recalls


def official_scorer(evaluation: types.ModuleType | str | Path | None = None) -> Scorer:
    """``eval_question_answering`` of the official module, its progress lines kept off stdout.

    ``evaluation`` is the loaded module, or a path (or None) for ``load_evaluation``.
    """
    module = evaluation if isinstance(evaluation, types.ModuleType) else load_evaluation(evaluation)
    evaluate = module.eval_question_answering

    def score(qas: list[dict], eval_key: str) -> tuple:
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
            # It prints "N QA samples evaluated"; other versions average a possibly empty list.
            warnings.simplefilter("ignore", RuntimeWarning)
            return evaluate(qas, eval_key)

    return score


def _qas(predictions: Predictions, questions: Sequence[Answered], arm: str) -> list[dict]:
    """One conversation's questions as the scorer reads them, with one arm's prediction."""
    out = []
    for q in questions:
        answer = gold(predictions, q)
        said = q.predictions[arm]
        qa = {"answer": answer, "category": q.category, "evidence": list(q.evidence), arm + "_prediction": said.reply}
        if said.context is not None:
            # The official recall reads context[0]; "-" matches no evidence, so an empty context scores 0.
            qa[arm + "_prediction_context"] = list(said.context) or ["-"]
        out.append(qa)
    return out


#: The rows of the reference ``score.py`` table and the categories each adds up,
#: in its order: one row per category in table order (4, 1, 2, 3, 5), then
#: answerable (1, 2, 3, 4) and overall (4, 1, 2, 3, 5).
ROWS: dict[str, tuple[int, ...]] = {
    **{CATEGORIES[kind]: (kind,) for kind in LOCOMO},
    "answerable": ANSWERABLE,
    "overall": LOCOMO,
}


def counts(predictions: Predictions) -> dict[str, int]:
    """Questions per row (the ``n`` column of ``score.py``)."""
    per = dict.fromkeys(CATEGORIES, 0)
    for q in predictions.questions:
        per[q.category] += 1
    return {row: sum(per[k] for k in kinds) for row, kinds in ROWS.items()}


def sums(predictions: Predictions, scorer: Scorer) -> dict[str, tuple[dict[int, float], dict[int, float]]]:
    """``{arm: (score, recall)}``, each summed per category: every conversation's questions go to ``scorer``
    one arm at a time (see ``_qas``) and the marks add up per category in file order."""
    arms = predictions.arms
    score = {arm: dict.fromkeys(CATEGORIES, 0.0) for arm in arms}
    reach = {arm: dict.fromkeys(CATEGORIES, 0.0) for arm in arms}
    by_sample: dict[str, list[Answered]] = {}
    for q in predictions.questions:
        by_sample.setdefault(q.sample, []).append(q)
    for sample, questions in by_sample.items():
        for arm in arms:
            qas = _qas(predictions, questions, arm)
            marks, _, recalls = scorer(qas, arm + "_prediction")
            if len(marks) != len(qas) or len(recalls) != len(qas):
                raise RuntimeError(
                    f"{predictions.path}: {sample}: the scorer gave {len(marks)} scores for {len(qas)} questions"
                )
            for qa, mark, got in zip(qas, marks, recalls):
                score[arm][qa["category"]] += mark
                reach[arm][qa["category"]] += got
    return {arm: (score[arm], reach[arm]) for arm in arms}


def recorded(predictions: Predictions, scorer: Scorer) -> dict[str, dict[str, tuple[float, float]]]:
    """``{arm: {row: (F1, evidence recall)}}`` as the kit records a mean of several categories (the results
    file, ``official --json``): the categories' sums (:func:`sums`) added in turn in category number order
    (``metric.in_turn``), then divided by the row's count; an empty row is nan.  The same means as
    :func:`scores` but for the last bit, which follows ``score.py``'s own order of its table."""
    summed = sums(predictions, scorer)
    n = counts(predictions)
    return {
        arm: {
            row: tuple(metric.in_turn(summed[arm][part][k] for k in sorted(kinds)) / n[row] if n[row] else math.nan
                       for part in (0, 1))  # type: ignore[misc]
            for row, kinds in ROWS.items()
        }
        for arm in predictions.arms
    }


def scores(predictions: Predictions, scorer: Scorer) -> dict[str, dict[str, tuple[float, float]]]:
    """``{arm: {row: (F1, evidence recall)}}`` as the reference ``score.py`` computes them.

    The marks add up per category in file order (:func:`sums`), and a row adds its
    categories' sums in ``ROWS`` order before dividing by its count, so the
    means agree with ``score.py`` to the last bit.  An empty row is nan
    (``score.py`` would divide by zero).
    """
    arms = predictions.arms
    summed = sums(predictions, scorer)
    score = {arm: summed[arm][0] for arm in arms}
    reach = {arm: summed[arm][1] for arm in arms}
    n = counts(predictions)
    return {
        arm: {
            row: (
                sum(score[arm][k] for k in kinds) / n[row] if n[row] else math.nan,
                sum(reach[arm][k] for k in kinds) / n[row] if n[row] else math.nan,
            )
            for row, kinds in ROWS.items()
        }
        for arm in arms
    }


def blind(predictions: Predictions) -> list[str]:
    """The arms whose file has no ``_prediction_context`` for any question: their recall measures nothing
    (the official scorer counts 1 for every such question)."""
    return [a for a in predictions.arms if all(q.predictions[a].context is None for q in predictions.questions)]


def report(predictions: Predictions, scorer: Scorer) -> str:
    """F1 and evidence recall per category and arm, in the reference ``score.py`` layout (numbers from ``scores``).

    The recall of an arm without contexts (:func:`blind`) is printed ``-``: absent, as ``--json``'s null."""
    arms = predictions.arms
    table = scores(predictions, scorer)
    n = counts(predictions)
    absent = set(blind(predictions))
    head = f"\n{'':14}{'n':>6}" + "".join(f"  {arm:>20}" for arm in arms)
    head += f"\n{'category':14}{'':6}" + "".join(f"  {'F1':>6} {'recall':>6}       " for _ in arms)
    lines = [head]
    for row in ROWS:
        cells = "".join(
            f"  {table[arm][row][0]:6.3f} {'-' if arm in absent else format(table[arm][row][1], '6.3f'):>6}       "
            for arm in arms
        )
        lines.append(f"{row:14}{n[row]:6}{cells}")
    return "\n".join(lines) + "\n"
