"""Every judged file the kit meets, read into :class:`~locomo_repro.judge.verdicts.Verdict` records.

Each reader pairs a verdict with its question (conversation id and index in that conversation's ``qa`` list)
through the importer's one alignment (``score.convert.match``: the sample by id or trailing position, the
question by exact then normalised text, repeated texts in order), so the verdicts of every file are keyed
alike.  The shapes, told apart by their content:

* ``kit``: the kit's own judged file (``locomo-repro/judged``, :mod:`.verdicts`).
* ``mem0``, ``zep``, ``backboard``: the peers' answer files (``score.formats``): mem0's harness (Memobase)
  ``llm_score`` 1/0, zep-papers' ``grade``, Backboard's ``evaluation.is_correct``.
* ``audit``: locomo-audit's ``eval_results.json`` (EverMemOS's evaluation format): ``detailed_results`` by
  conversation, each question's ``llm_judgments.judgment_1..N`` true/false, one repeat each; the file's own
  ``correct``, ``accuracy`` and ``majority_vote_accuracy`` are kept as what it states of itself.
* ``locomo-plus``: LoCoMo-Plus's ``judged*.json``: a list of ``{question_input, category, ground_truth,
  prediction, model, judge_label, judge_score, judge_reason}`` in the dataset's question order, then the
  sixth category, Cognitive (``time_gap``), which has no LoCoMo conversation: its items are keyed
  ``locomo-plus`` and their position among the file's Cognitive items.  The label is the score: correct 1,
  partial 0.5, wrong 0.
* ``official``: a predictions file in the official shape with the verdicts ``locomo-repro import`` keeps of the
  file it converted (``<arm>_judge`` 1/0), one arm each.
* ``refined``: LoCoMo-Refined's judge output (``refined judge``'s ``*_scored.jsonl``, or the JSON array a
  ``.json`` predictions file gives): ``qa_id``, ``llm_score``, ``llm_reason``, ``llm_judge``.

A **failed judgement** (score None) is a verdict the file does not hold: a reason that is an API error, an
empty label or one the judge's scale does not have, a missing or non-boolean judgement; it is never read as
the score the file wrote beside it (LoCoMo-Plus's ``judged.json`` scores every one of its 2,240 API errors
1.0).  A file of any other shape, or one these rules cannot read, is a :class:`~.verdicts.JudgedError`: one
line naming the file.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..data import jsonio
from ..data.categories import CATEGORIES
from ..data.dataset import Sample
from ..score import convert
from ..score.formats import PeersError, Reply, Source, decoded, files, read_refined
from ..score.shapes import shape
from . import verdicts
from .verdicts import JudgedError, Verdict

#: The categories by number, LoCoMo-Plus's sixth (cognitive) among them.
NAMES: dict[int, str] = CATEGORIES

#: LoCoMo-Plus's category names, by the dataset's numbers.
PLUS_CATEGORIES = {"multi-hop": 1, "temporal": 2, "common-sense": 3, "single-hop": 4, "adversarial": 5,
                   "cognitive": 6}
#: LoCoMo-Plus's labels and the scores they mean.
PLUS_SCORES = {"correct": 1.0, "partial": 0.5, "wrong": 0.0}
#: The key of the Cognitive items, which belong to no LoCoMo conversation.
PLUS_SAMPLE = "locomo-plus"

#: The shapes this module reads, for messages.
SHAPES = ("kit", "mem0", "zep", "backboard", "audit", "locomo-plus", "refined", "official")


@dataclass(frozen=True)
class Judged:
    """One judged file read: what it was named, the shape it was read as, the sha256 of the bytes read (of
    the files' sha256s in order, for several), its verdicts in file order, and the figures it states of itself
    (locomo-audit's ``correct``, ``accuracy`` ...)."""

    path: str
    shape: str
    sha256: str
    verdicts: tuple[Verdict, ...]
    stated: dict[str, float] = field(default_factory=dict)


#: Words of a failed judgement's reason that say the endpoint failed, not the judge.
_ENDPOINT_WORDS = ("api error", "error code", "http", "endpoint", "timed out", "timeout", "connection")
#: The reason a reader gives a question its file holds no verdict for.
NO_VERDICT = "no verdict in the file"


def cause(v: Verdict) -> str:
    """Why a failed judgement failed, in a few words (for the summary; a reason may quote a key, so it is
    never shown): an API error, no verdict in the file, an empty label, or a label that is no verdict."""
    low = v.reason.lower()
    if any(word in low for word in _ENDPOINT_WORDS):
        return "an API error"
    if low == NO_VERDICT:
        return NO_VERDICT
    if not v.label.strip():
        return "an empty label"
    return "no verdict in its label"


def _aligned(name: str, path: str, replies: Sequence[Reply], samples: Sequence[Sample]) -> list[tuple[Sample, int]]:
    """Each reply's sample and question index (``convert.match``), in the order of ``replies``."""
    try:
        matched = convert.match(name, Source(name, path, tuple(replies)), samples)
    except PeersError as err:
        raise JudgedError(str(err)) from None
    where = {id(reply): key for key, reply in matched.replies.items()}
    return [(samples[where[id(r)][0]], where[id(r)][1]) for r in replies]


def _verdict(sample: Sample, index: int, reply: str, gold: str | None = None, *, arm: str, label: str,
             score: float | None, judge: str, model: str = "", repeat: int = 0, reason: str = "") -> Verdict:
    """The verdict on question ``index`` of ``sample``: its text and category the dataset's, the gold the one the
    judge was shown where the file says (else the dataset's)."""
    q = sample.questions[index]
    return Verdict(sample_id=sample.id, qa=index, category=q.category, question=q.text,
                   gold=q.answer if gold is None else gold, reply=reply, arm=arm, label=label, score=score,
                   judge=judge, model=model, repeat=repeat, reason=reason)


def _text(item: dict, key: str, where: str) -> str:
    value = item.get(key)
    if not isinstance(value, str):
        raise JudgedError(f"{where}: {key} is {type(value).__name__}, not a string")
    return value


def _peers(path: str, source: Source, samples: Sequence[Sample], arm: str) -> list[Verdict]:
    """A peers' file (or one arm of an imported one): each reply's own judge verdict (true/false); a reply
    without one a failed judgement."""
    return [_verdict(sample, index, r.reply, arm=arm, label="" if r.judge is None else str(r.judge).lower(),
                     score=None if r.judge is None else float(r.judge), judge=source.format,
                     reason="" if r.judge is not None else NO_VERDICT)
            for r, (sample, index) in zip(source.replies, _aligned(arm, path, source.replies, samples))]


def _audit(path: str, data: dict, samples: Sequence[Sample]) -> tuple[list[Verdict], dict[str, float]]:
    """locomo-audit's ``eval_results.json``: every ``judgment_<k>`` of a question is repeat k - 1."""
    meta = data["metadata"] if isinstance(data.get("metadata"), dict) else {}
    arm = Path(path).parent.name or Path(path).stem
    model = str(meta.get("judge_model") or "")
    items, replies = [], []
    for key, listed in data["detailed_results"].items():
        if not isinstance(listed, list):
            raise JudgedError(f"{path}: detailed_results {key!r} is not a list of questions")
        for i, item in enumerate(listed):
            where = f"{path}: {key}[{i}]"
            if not isinstance(item, dict) or not isinstance(item.get("llm_judgments"), dict):
                raise JudgedError(f"{where}: no llm_judgments object")
            replies.append(Reply(conversation=key, question=_text(item, "question", where),
                                 reply=_text(item, "generated_answer", where)))
            items.append(item)
    out = []
    for item, reply, (sample, index) in zip(items, replies, _aligned(arm, path, replies, samples)):
        judgments = item["llm_judgments"]
        for r, k in enumerate(sorted(judgments, key=lambda k: (len(k), k))):
            said = judgments[k]
            out.append(_verdict(sample, index, reply.reply, str(item.get("golden_answer", "")), arm=arm,
                                label=jsonio.dumps(said), score=float(said) if isinstance(said, bool) else None,
                                judge="audit", model=model, repeat=r,
                                reason="" if isinstance(said, bool) else f"{k} is not true or false"))
    stated = {k: float(data[k]) for k in ("correct", "accuracy", "total_questions")
              if isinstance(data.get(k), (int, float)) and not isinstance(data.get(k), bool)}
    stated.update({k: float(meta[k]) for k in ("majority_vote_accuracy", "mean_accuracy")
                   if isinstance(meta.get(k), (int, float))})
    return out, stated


def plus_score(label: str, reason: str) -> float | None:
    """LoCoMo-Plus's verdict as a score: None (a failed judgement) when the reason is an API error or the
    label is none of correct, partial, wrong."""
    if "api error" in reason.lower():
        return None
    return PLUS_SCORES.get(label.strip().lower())


def _plus(path: str, data: list, samples: Sequence[Sample]) -> list[Verdict]:
    """LoCoMo-Plus's judged file: LoCoMo's questions in the dataset's order, then the Cognitive items."""
    order = [(s.id, len(s.questions)) for s in samples]
    at, used = 0, 0  # the dataset's conversation the next LoCoMo item belongs to, and its questions taken
    items: list[dict] = []
    replies: list[Reply] = []
    cognitive: list[Verdict] = []
    for i, item in enumerate(data):
        where = f"{path}: [{i}]"
        if not isinstance(item, dict):
            raise JudgedError(f"{where}: not an object")
        question, prediction, label, name = (_text(item, k, where) for k in
                                             ("question_input", "prediction", "judge_label", "category"))
        kind = PLUS_CATEGORIES.get(name.strip().lower())
        if kind is None:
            raise JudgedError(f"{where}: category {name!r} is none of LoCoMo-Plus's")
        if kind == 6:
            reason = str(item.get("judge_reason") or "")
            cognitive.append(Verdict(sample_id=PLUS_SAMPLE, qa=len(cognitive), category=6, question=question,
                                     gold=str(item.get("ground_truth", "")), reply=prediction,
                                     arm=str(item.get("model") or "locomo-plus"), label=label,
                                     score=plus_score(label, reason), judge="locomo-plus", reason=reason))
            continue
        while at < len(order) and used == order[at][1]:
            at, used = at + 1, 0
        if at == len(order):
            raise JudgedError(f"{where}: more LoCoMo questions than the dataset's {sum(n for _, n in order)}")
        used += 1
        replies.append(Reply(conversation=order[at][0], question=question, reply=prediction, label=kind))
        items.append(item)
    out = []
    for item, reply, (sample, index) in zip(items, replies, _aligned("locomo-plus", path, replies, samples)):
        reason = str(item.get("judge_reason") or "")
        out.append(_verdict(sample, index, reply.reply, str(item.get("ground_truth", "")),
                            arm=str(item.get("model") or "locomo-plus"), label=item["judge_label"],
                            score=plus_score(item["judge_label"], reason), judge="locomo-plus", reason=reason))
    return out + cognitive


def _refined_judge(prompt: str) -> str:
    """The judge of a Refined record: ``refined`` with its default prompt, ``refined <prompt>`` with another."""
    return "refined" if prompt == "refined" else f"refined {prompt}"


def _refined(path: str, records: list[dict], samples: Sequence[Sample]) -> list[Verdict]:
    """Refined's scored records: ``llm_score`` for ``qa_id``'s question; a record without one failed."""
    try:
        replies = read_refined(Path(path), records).replies
    except PeersError as err:
        raise JudgedError(str(err)) from None
    arm = Path(path).stem
    out = []
    for reply, record, (sample, index) in zip(replies, records, _aligned(arm, path, replies, samples)):
        value = record.get("llm_score")
        score = float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
        if score is not None and not 0 <= score <= 1:
            raise JudgedError(f"{path}: {record.get('qa_id')}: llm_score {value!r} is not in [0, 1]")
        golds = record.get("answer")
        gold = record.get("matched_answer") or (golds[0] if isinstance(golds, list) and golds else None)
        out.append(_verdict(sample, index, reply.reply, None if gold is None else str(gold), arm=arm,
                            label="" if value is None else jsonio.dumps(value), score=score,
                            judge=_refined_judge(str(record.get("llm_judge") or "refined")),
                            reason=str(record.get("llm_reason") or ("" if score is not None else NO_VERDICT))))
    return out


def kind(data: object) -> str | None:
    """The shape in :data:`SHAPES` of a decoded judged file, None when it has none of them."""
    if isinstance(data, dict) and "schema" in data:
        return "kit" if data["schema"] == verdicts.SCHEMA else None
    if isinstance(data, dict) and isinstance(data.get("detailed_results"), dict):
        return "audit"
    if isinstance(data, list):
        first = next((item for item in data if isinstance(item, dict)), None)
        if first is not None and "judge_label" in first:
            return "locomo-plus"
        if first is not None and "qa_id" in first and "llm_score" in first:
            return "refined"
    found = shape(data)
    if found == "official":
        return found if judged_arms(data) else None
    return found if found in ("mem0", "zep", "backboard") else None


def read(spec: str, dataset: Callable[[], Sequence[Sample]], sources: Sequence[jsonio.Source] = ()) -> Judged:
    """The verdicts of the judged file ``spec`` names (a file; Backboard's folder or glob of per-conversation
    files); ``dataset`` gives the samples a file without question ids is matched to, when one needs them;
    ``sources``, the bytes of its files when a caller has read them already (a pipe is read once)."""
    try:
        paths = files(spec)
        sources = list(sources) or [jsonio.read(p) for p in paths]  # read once: parsed, then signed
        loaded: list[object] = ([[value for _, value in jsonio.lines(sources[0])]]
                                if paths[0].suffix == ".jsonl" else [jsonio.loads(source) for source in sources])
    except (PeersError, jsonio.InputError) as err:
        raise JudgedError(str(err)) from None
    sha256 = sources[0].sha256 if len(sources) == 1 else hashlib.sha256(
        "".join(source.sha256 for source in sources).encode()).hexdigest()
    data = loaded[0]
    found = kind(data)
    if found is None:
        raise JudgedError(f"{spec}: not a judged file of a shape the kit reads ({', '.join(SHAPES)})")
    if len(paths) > 1 and found != "backboard":
        raise JudgedError(f"{spec}: names {len(paths)} files; only backboard comes as one file per conversation")
    if found == "kit":
        return Judged(spec, found, sha256, tuple(verdicts.loads(data, spec)[0]))
    samples = dataset()
    if found == "audit" and isinstance(data, dict):
        got, stated = _audit(spec, data, samples)
        return Judged(spec, found, sha256, tuple(got), stated)
    if found == "locomo-plus" and isinstance(data, list):
        return Judged(spec, found, sha256, tuple(_plus(spec, data, samples)))
    if found == "refined" and isinstance(data, list):
        return Judged(spec, found, sha256, tuple(_refined(spec, [r for r in data if isinstance(r, dict)], samples)))
    arm = Path(spec.rstrip("/")).stem
    try:
        if found == "official":  # every arm the importer wrote its file's own verdicts for (``<arm>_judge``)
            got = [v for name in judged_arms(data) for v in _peers(spec, decoded(name, spec, paths, loaded, found),
                                                                   samples, name)]
        else:
            got = _peers(spec, decoded(arm, spec, paths, loaded), samples, arm)
    except PeersError as err:
        raise JudgedError(str(err)) from None
    return Judged(spec, found, sha256, tuple(got))


def judged_arms(data: object) -> list[str]:
    """The arms of a predictions file in the official shape that carry a judge's verdicts (``<arm>_judge``), by
    name."""
    samples = data if isinstance(data, list) else []
    return sorted({key[: -len("_judge")] for s in samples if isinstance(s, dict) and isinstance(s.get("qa"), list)
                   for qa in s["qa"] if isinstance(qa, dict) for key in qa
                   if key.endswith("_judge") and f"{key[: -len('_judge')]}_prediction" in qa})


def read_key(path: str, samples: Sequence[Sample]) -> dict[tuple[str, int], str]:
    """locomo-audit's ``answer_key.json`` (``question_id`` ``locomo_<conversation>_qa<n>``, ``question``,
    ``golden_answer``): the gold of each question its wrong answers were written against."""
    try:
        data = jsonio.load(path)
    except jsonio.InputError as err:
        raise JudgedError(str(err)) from None
    if not isinstance(data, list):
        raise JudgedError(f"{path}: not an answer key (a list of question_id, question, golden_answer)")
    golds, replies = [], []
    for i, item in enumerate(data):
        where = f"{path}: [{i}]"
        if not isinstance(item, dict):
            raise JudgedError(f"{where}: not an object")
        ident, question = (_text(item, k, where) for k in ("question_id", "question"))
        if not isinstance(item.get("golden_answer"), (str, int, float)):
            raise JudgedError(f"{where}: no golden_answer")
        replies.append(Reply(conversation=ident.rpartition("_qa")[0] or ident, question=question, reply=""))
        golds.append(str(item["golden_answer"]))  # a number as written (the dataset writes six as integers)
    return {(sample.id, index): gold for gold, (sample, index) in zip(golds, _aligned("key", path, replies, samples))}
