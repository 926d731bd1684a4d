"""What the claims of the other publications measure: locomo-audit's (claims-audit.yaml) and LoCoMo-Plus's
(claims-plus.yaml), from the files each publishes (``sources``), with the kit's readers of them.

* ``audit-errors``: errors.json counted (``data.audit``): every error, the score-corrupting or the
  citation-only ones, of a type, a category, a conversation; or the answerable questions so filtered; as a
  count or a share of those questions or of the score-corrupting errors.
* ``audit-ceiling``: the ceiling a perfect system reaches under the official key, per row (``score.ceiling``),
  or the questions it gets right.
* ``judged``: one judged file of either publication read into verdicts (``judge.files``) and measured
  (``judge.measures``): J (the mean of its repeats' judgements: the per-run mean), one repeat's accuracy, the
  majority of its repeats, the spread (population standard deviation) of the repeats' accuracies, the
  judgements that failed, the questions judged, how many judgements each has, the share whose reply is the
  gold, or the figures the file states of itself.
* ``answer-key``: ap-baseline's answer_key.json counted; ``file-sha256``: the digest of a publication's file;
  ``raw-evidence``: the dataset's evidence ids and questions as its JSON holds them.
* ``wilson``: the Wilson score 95% interval (``score.stats.wilson``) of a system's majority-vote count as the
  audit's ``per_category_breakdown.json`` gives it, or of a score over n questions (the successes the score
  times n, rounded): its bounds or width; ``wilson-overlaps``: how many pairs have intervals that overlap;
  ``breakdown``: a figure that file states; ``breakdown-systems``: how many systems it gives.
* ``plus-file``: LoCoMo-Plus's published files counted: the categories of its run, the items, the score
  its judge writes beside a label, the figures of its ``judge_summary.json``.
"""

from __future__ import annotations

import hashlib
import statistics
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..data import audit, dataset, jsonio
from ..data.audit import AuditError
from ..data.dataset import ANSWERABLE, CATEGORIES
from ..judge import files as judged_files
from ..judge import measures as jm
from ..judge.verdicts import JudgedError
from ..peers import plus
from ..score import ceiling, key
from ..score.formats import PeersError
from ..score.stats import wilson
from ..peers import sources
from .lab import Lab, NotAtHand
from .measures import ROWS, kind

if TYPE_CHECKING:
    from .records import Manifest

#: A judged file's figures: J over its repeats, one repeat, the majority of its repeats, their spread, the
#: failed judgements, the questions, the scores of the judgements that did not fail added up, the replies'
#: and the golds' words (mean, median), what the file states of itself or its metadata holds, how many
#: judgements each question has, the share of questions whose reply is their gold.
FIGURES = ("J", "repeat", "majority", "spread", "failed", "n", "total", "words", "median-words", "gold-words",
           "gold-median-words", "stated", "metadata", "repeats", "exact")


def _path(lab: Lab, publication: sources.Publication, local: str):
    """A publication's file, or :class:`NotAtHand` naming it (the fetch is tried once per lab)."""

    def find() -> object:
        try:
            return sources.locate(publication, local)
        except sources.Missing as err:
            return NotAtHand(str(err))

    found = lab.memo(("source", publication.name, local), find)
    if isinstance(found, NotAtHand):
        raise NotAtHand(str(found))
    return found


def _errors(lab: Lab) -> tuple[audit.Error, ...]:
    path = _path(lab, sources.AUDIT, "errors.json")
    return lab.memo(("errors", str(path)), lambda: audit.load(path).errors)


def _kinds(m: Mapping) -> tuple[int, ...]:
    """The categories of an entry's ``row`` (a row name of the tables; answerable when none is given)."""
    return ROWS[m["row"]] or tuple(CATEGORIES) if "row" in m else ANSWERABLE


@kind("audit-errors", required=("field",), optional=("type", "row", "conversation"))
def _audit_errors(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    """errors.json's errors (``field`` errors, corrupting, citation) or the answerable questions (questions),
    within a ``type`` (an error type, or corrupting), ``row`` and ``conversation``; the shares ``of-questions``
    (the errors over the questions so filtered) and ``of-corrupting`` (over every score-corrupting error)."""
    samples = lab.samples
    kinds = _kinds(m)
    at = [i for i, s in enumerate(samples) if m.get("conversation") in (None, s.id)]
    if not at:
        raise ValueError(f"no conversation {m['conversation']!r}")
    asked = sum(q.category in kinds for i in at for q in samples[i].questions)
    try:
        errors = [e for e in _errors(lab) if e.sample in at and e.category in kinds]
    except AuditError as err:
        raise NotAtHand(f"locomo-audit's errors.json ({err})") from None
    wanted = m.get("type")
    if wanted == "corrupting":
        errors = [e for e in errors if e.corrupting]
    elif wanted is not None:
        if wanted not in audit.TYPES:
            raise ValueError(f"unknown error type {wanted!r}")
        errors = [e for e in errors if e.type == wanted]
    field = m["field"]
    if field == "questions":
        return asked
    if field == "errors":
        return len(errors)
    if field == "of-questions":
        return len(errors) / asked
    if field == "of-corrupting":
        return len(errors) / sum(e.corrupting for e in _errors(lab))
    raise ValueError(f"unknown audit-errors field {field!r}")


@kind("audit-ceiling", required=("row",), optional=("field",))
def _audit_ceiling(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    """The ceiling of a row under the official key when the audited answers are the right ones
    (``score.ceiling.ceilings``), or (``field: right``) the questions a perfect system gets right there."""
    _path(lab, sources.AUDIT, "errors.json")  # at hand, so that the key reads the copy the claims name
    try:
        audited = lab.memo(("key",), lambda: key.load(key.AUDITED))
    except AuditError as err:
        raise NotAtHand(f"locomo-audit's errors.json ({err})") from None
    rows = {name: (n, wrong, share) for name, n, _, wrong, share in ceiling.ceilings(audited, lab.samples)}
    n, wrong, share = rows[m["row"]]
    return float(n - wrong) if m.get("field") == "right" else share


def _verdicts(lab: Lab, m: Mapping) -> judged_files.Judged:
    publication = sources.PUBLICATIONS[m["publication"]]
    path = _path(lab, publication, m["file"])
    try:
        return lab.memo(("judged", str(path)), lambda: judged_files.read(str(path), lambda: lab.samples))
    except (JudgedError, PeersError) as err:
        raise ValueError(str(err)) from None


@kind("judged", required=("figure", "file", "publication"), optional=("category", "repeat", "row", "stated"))
def _judged(m: Mapping, lab: Lab, manifest: Manifest) -> Any:
    """A figure of one judged file over a row or one category by number (6: cognitive), answerable when
    neither is given."""
    got = _verdicts(lab, m)
    verdicts = got.verdicts
    kinds = (m["category"],) if "category" in m else _kinds(m)
    figure = m["figure"]
    if figure == "stated":
        return got.stated[m["stated"]]
    if figure == "metadata":  # a figure of the run only the file's own metadata holds (its token counts)
        meta = jsonio.load(_path(lab, sources.PUBLICATIONS[m["publication"]], m["file"])).get("metadata", {})
        return float(meta[m["stated"]])
    if figure in ("words", "median-words", "gold-words", "gold-median-words"):
        # the words of each question's reply (or gold), split at white space
        words = [len(((g[0].gold or "") if figure.startswith("gold") else g[0].reply).split())
                 for g in jm.questions(verdicts, kinds).values()]
        return statistics.mean(words) if "median" not in figure else float(statistics.median(words))
    if figure == "failed":
        return jm.failed(v for v in verdicts if v.category in kinds)
    if figure == "n":
        return len(jm.questions(verdicts, kinds))
    if figure == "repeats":  # the judgements of each question, when every question has as many
        counts = {len(g) for g in jm.questions(verdicts, kinds).values()}
        return counts.pop() if len(counts) == 1 else f"questions judged {sorted(counts)} times"
    if figure == "exact":  # the reply is the gold, character for character (ap-baseline's accidentally correct)
        asked = jm.questions(verdicts, kinds).values()
        return sum(g[0].reply == (g[0].gold or "") for g in asked) / len(asked)
    if figure == "total":
        return float(sum(v.score for v in verdicts if v.category in kinds and v.score is not None))
    if figure == "J":
        value = jm.j(verdicts, kinds).value
    elif figure == "repeat":
        value = jm.of_repeat(verdicts, kinds, m["repeat"]).value
    elif figure == "majority":
        value = jm.aggregate(verdicts, kinds, "majority").value
    elif figure == "spread":
        repeats = sorted({v.repeat for v in verdicts})
        each = [jm.of_repeat(verdicts, kinds, r).value for r in repeats]
        value = statistics.pstdev([v for v in each if v is not None]) if None not in each else None
    else:
        raise ValueError(f"unknown judged figure {figure!r} (one of {', '.join(FIGURES)})")
    if value is None:
        mine = [v for v in verdicts if v.category in kinds]
        return f"none: {jm.failed(mine)} of {len(mine)} judgements failed"
    return value


#: per_category_breakdown.json's scopes by the kit's row names.
SCOPES = {"overall": "overall", "single hop": "cat_4_single_hop", "multi hop": "cat_1_multi_hop",
          "temporal": "cat_2_temporal", "open domain": "cat_3_open_domain"}


def _systems(lab: Lab) -> Mapping:
    """The audit's per_category_breakdown.json: its figures by system."""
    path = _path(lab, sources.AUDIT, "results-audit/per_category_breakdown.json")
    return lab.memo(("breakdown",), lambda: jsonio.load(path))


def _breakdown(lab: Lab, system: str, row: str) -> Mapping:
    """One system's figures for one row in the audit's per_category_breakdown.json."""
    data = _systems(lab)
    part = data[system]["overall"] if row == "overall" else data[system]["per_category"][SCOPES[row]]
    return part


@kind("wilson", required=("bound",), optional=("n", "score", "system", "row"))
def _wilson(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    """A bound (low, high) or the width of the Wilson 95% interval of ``score`` (a share) over ``n``, or of a
    system's majority-vote count over a row's questions as the audit's per_category_breakdown.json gives them
    (``system``, ``row``)."""
    if "system" in m:
        part = _breakdown(lab, m["system"], m["row"])
        low, high = wilson(part["majority_correct"] / part["total"], part["total"])
    else:
        low, high = _interval(m["score"], m["n"])
    return {"low": low, "high": high, "width": high - low}[m["bound"]]


@kind("breakdown", required=("field", "row", "system"))
def _breakdown_field(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    """A figure the audit's per_category_breakdown.json states of a system's row (``majority_accuracy``, a
    percentage there, as a share; ``majority_correct``, ``total``, ``ceiling`` ...), or ``majority_share``: its
    majority-vote count over its questions (the accuracy unrounded)."""
    part = _breakdown(lab, m["system"], m["row"])
    if m["field"] == "majority_share":
        return part["majority_correct"] / part["total"]
    value = float(part[m["field"]])
    return value / 100 if m["field"].endswith(("_accuracy", "_mean", "_std")) or m["field"] == "ceiling" else value


@kind("breakdown-systems")
def _breakdown_systems(m: Mapping, lab: Lab, manifest: Manifest) -> int:
    """How many systems the audit's per_category_breakdown.json gives figures of (the systems it audits)."""
    return len(_systems(lab))


def _interval(score: float, n: int) -> tuple[float, float]:
    """The Wilson interval of round(score × n) successes in n (half away from zero)."""
    return wilson(int(score * n + 0.5) / n, n)


@kind("wilson-overlaps", required=("scores",), optional=("count",))
def _wilson_overlaps(m: Mapping, lab: Lab, manifest: Manifest) -> Any:
    """Of pairs ``[[a, b, n], ...]``, how many have overlapping Wilson intervals (``count: apart``: how many do
    not; ``share-overlap``, ``share-apart``: as shares; ``pairs``: how many pairs); one pair: whether its
    intervals overlap.  A pair is of two scores over n questions, or of two systems' majority-vote counts
    over a row (``[system, system, row]``, per_category_breakdown.json's)."""
    overlap = []
    for a, b, n in m["scores"]:
        if isinstance(n, str):
            one, two = (_breakdown(lab, system, n) for system in (a, b))
            (la, ha), (lb, hb) = (wilson(p["majority_correct"] / p["total"], p["total"]) for p in (one, two))
        else:
            (la, ha), (lb, hb) = _interval(a, n), _interval(b, n)
        overlap.append(la <= hb and lb <= ha)
    how = m.get("count", "overlap")
    if len(overlap) == 1 and how == "overlap":
        return overlap[0]
    if how == "pairs":
        return len(overlap)
    share = how.startswith("share-")
    found = overlap.count(how.removeprefix("share-") == "overlap")
    return found / len(overlap) if share else found


@kind("plus-file", required=("field",), optional=("label", "part"))
def _plus_file(m: Mapping, lab: Lab, manifest: Manifest) -> Any:
    """LoCoMo-Plus's files counted: ``categories`` of its run (all six, or LoCoMo's: ``part: locomo``), the
    ``model`` its records name,
    ``items`` of locomo_plus.json, the ``score`` its judge writes beside ``label`` in judged_v2.json (one
    score for every such verdict), or a figure of ``judge_summary.json`` (``summary-<key>``, of its category
    ``part`` when given)."""
    field = m["field"]
    try:
        if field == "categories":
            records = plus.records(_path(lab, sources.PLUS, plus.PREDICTIONS))
            names = {r["category"] for r in records}
            return len(names - {plus.NAMES[6]}) if m.get("part") == "locomo" else len(names)
        if field == "model":
            return ", ".join(sorted({r["model"] for r in plus.records(_path(lab, sources.PLUS, plus.PREDICTIONS))}))
        if field == "items":
            return len(plus.items(_path(lab, sources.PLUS, plus.ITEMS)))
        if field == "score":
            records = plus.records(_path(lab, sources.PLUS, plus.JUDGED_V2))
            scores = {r.get("judge_score") for r in records if r.get("judge_label") == m["label"]}
            only = scores.pop() if len(scores) == 1 else None
            if not isinstance(only, (int, float)):
                raise ValueError(f"judged_v2.json gives {m['label']!r} the scores {sorted(map(str, scores))}")
            return float(only)
    except PeersError as err:
        raise ValueError(str(err)) from None
    if field.startswith("summary-"):
        data = jsonio.load(_path(lab, sources.PLUS, plus.SUMMARY))
        part = data if "part" not in m else data["by_category"][m["part"]]
        return float(part[field.removeprefix("summary-")])
    raise ValueError(f"unknown plus-file field {field!r}")



@kind("answer-key", required=("field",))
def _answer_key(m: Mapping, lab: Lab, manifest: Manifest) -> int:
    """ap-baseline's answer_key.json, the questions the adversarial answers were written for: its ``entries``."""
    data = lab.memo(("answer-key",), lambda: jsonio.load(_path(lab, sources.AUDIT, "ap-baseline/answer_key.json")))
    if m["field"] != "entries" or not isinstance(data, list):
        raise ValueError(f"answer_key.json has no {m['field']!r} the kit counts")
    return len(data)


@kind("file-sha256", required=("file", "publication"))
def _file_sha256(m: Mapping, lab: Lab, manifest: Manifest) -> str:
    """The sha256 of one of a publication's files, as found (``sources.locate``)."""
    return hashlib.sha256(_path(lab, sources.PUBLICATIONS[m["publication"]], m["file"]).read_bytes()).hexdigest()


@kind("raw-evidence", required=("field",), optional=("category", "words"))
def _raw_evidence(m: Mapping, lab: Lab, manifest: Manifest) -> float:
    """The dataset's questions as its JSON holds them: ``unresolved``, how many cite an evidence id that is none
    of their conversation's turns; of a ``category``, the share whose evidence spans several sessions
    (``multi-session``) or one (``single-session``), or whose question starts with one of ``words``
    (``starts``)."""
    raw = lab.memo(("raw-dataset",), lambda: jsonio.load(dataset.resolve(lab.data_path)))
    asked = []
    for s in raw:
        conv = s.get("conversation", {})
        turns = {t.get("dia_id") for k, v in conv.items() if k.startswith("session_") and isinstance(v, list) for t in v}
        asked += [(q, turns) for q in s.get("qa", []) if m.get("category") in (None, q.get("category"))]
    field = m["field"]
    if field == "unresolved":
        return sum(any(e not in turns for e in q.get("evidence", [])) for q, turns in asked)
    if field == "starts":
        return sum(q["question"].startswith(tuple(m["words"])) for q, _ in asked) / len(asked)
    if field in ("multi-session", "single-session"):
        sessions = [{e.split(":")[0] for e in q.get("evidence", [])} for q, _ in asked]
        several = sum(len(s) > 1 for s in sessions)
        return (several if field == "multi-session" else len(sessions) - several) / len(sessions)
    raise ValueError(f"unknown raw-evidence field {field!r}")


@kind("raw-answers", required=("category",))
def _raw_answers(m: Mapping, lab: Lab, manifest: Manifest) -> int:
    """The questions of a category whose entry in the dataset's JSON has no ``answer`` field (locomo10's
    adversarial questions hold an ``adversarial_answer`` instead; the kit's reader takes that as the gold)."""
    raw = lab.memo(("raw-dataset",), lambda: jsonio.load(dataset.resolve(lab.data_path)))
    return sum("answer" not in q for s in raw for q in s.get("qa", []) if q.get("category") == m["category"])
