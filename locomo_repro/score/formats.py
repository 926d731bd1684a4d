"""The shapes other systems publish their LoCoMo answers in, read into one list of replies.

* ``mem0``: mem0's evaluation harness (Memobase, mem0's ``evals.py`` runs): an object keyed by the
  conversation (``"0"``...``"9"``, ``conv_<i>``, or a sample id), each a list of ``{question, answer (gold),
  response (the reply), category, bleu_score, f1_score, llm_score}``.
* ``zep``: zep-papers' responses file (``answer`` is Zep's reply, ``golden_answer`` the gold) keyed
  ``locomo_experiment_user_<i>``, joined in order with its grades file (``grade``: the judge's verdict,
  ``category``).  A grades file alone also carries the replies.
* ``backboard``: one file per conversation (``conversation_id``, ``responses``: ``question``,
  ``ai_response``, ``category``, ``question_type``, ``evaluation.is_correct``); ``by_type`` repeats the same
  records grouped by type and is not read a second time.
* ``official``: the official predictions shape (``sample_id``, ``qa``, ``<arm>_prediction`` ...).
* ``refined``: LoCoMo-Refined predictions, one ``{qa_id, predicted_answer}`` per line.

Every problem is a :class:`PeersError` whose message is one line naming the file.
"""

from __future__ import annotations

import glob
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..data import jsonio
from .shapes import SHAPES, shape

FORMATS = tuple(SHAPES)


class PeersError(Exception):
    """A file that cannot be read or matched; the message is one line naming the file."""


@dataclass(frozen=True)
class Reply:
    """One system's reply to one question, as its file states it.

    ``conversation`` is the file's key for the conversation (a sample id or a position key);
    ``question`` its text, or ``index`` its position in the sample when the file names questions by id;
    ``label`` the category the file gives (None when absent) and ``label_name`` the name it calls it;
    ``judge`` the file's judge verdict; ``metrics`` its own per-question values by field name;
    ``context`` and ``confidence`` None when the file has none.
    """

    conversation: str
    question: str | None
    reply: str
    label: int | None = None
    label_name: str | None = None
    judge: bool | None = None
    metrics: dict[str, float] = field(default_factory=dict)
    context: tuple[str, ...] | None = None
    confidence: float | None = None
    index: int | None = None


@dataclass(frozen=True)
class Source:
    """One system's replies, in file order, with the format and the path(s) they came from."""

    format: str
    path: str
    replies: tuple[Reply, ...]


def _load(path: Path) -> object:
    try:
        return jsonio.load(path)
    except jsonio.InputError as err:
        raise PeersError(str(err)) from None


def _jsonl(path: Path) -> list[dict]:
    out = []
    try:
        for number, value in jsonio.lines(jsonio.read(path)):
            if not isinstance(value, dict):
                raise PeersError(f"{path}: line {number}: not an object")
            out.append(value)
    except jsonio.InputError as err:
        raise PeersError(str(err)) from None
    return out


def _is_glob(text: str) -> bool:
    return any(c in text for c in "*?[")


def files(spec: str) -> list[Path]:
    """The files one ``--arm`` path names: a file, a folder's ``*.json`` files, or a glob; sorted."""
    if _is_glob(spec):
        found = sorted(Path(p) for p in glob.glob(spec) if Path(p).is_file())
    elif Path(spec).is_dir():
        found = sorted(Path(spec).glob("*.json"))
    else:
        return [Path(spec)]
    if not found:
        raise PeersError(f"{spec}: names no JSON file")
    return found


def detect(path: Path, data: object) -> str:
    """The format of one decoded file, by its shape (``score.shapes``); a shape none of the formats has is an error."""
    kind = shape(data)
    if kind is None:
        raise PeersError(f"{path}: unknown shape (not {', '.join(FORMATS[:-1])} or {FORMATS[-1]}); --format to force one")
    return kind


def _text(value: object, where: str, key: str) -> str:
    if not isinstance(value, str):
        raise PeersError(f"{where}: {key} is {type(value).__name__}, not a string")
    return value


def _reply(value: object) -> str:
    """A system's reply as text: null (no reply) is empty, a number as written."""
    return "" if value is None else str(value)


def _label(value: object, where: str) -> int | None:
    """A category label as a number (mem0 writes "1"...; the others numbers); None when absent."""
    if value is None:
        return None
    try:
        return int(str(value).strip())
    except ValueError:
        raise PeersError(f"{where}: category {value!r} is not a number") from None


def _verdict(value: object, where: str) -> bool | None:
    """A judge's verdict: true/false, or 1/0 (mem0's ``llm_score``); None when absent."""
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    raise PeersError(f"{where}: judge verdict {value!r} is neither true/false nor 1/0")


def _conversations(data: object, path: Path) -> list[tuple[str, list]]:
    if not isinstance(data, dict) or not all(isinstance(v, list) for v in data.values()):
        raise PeersError(f"{path}: expected an object of conversations, each a list of questions")
    return [(str(k), v) for k, v in data.items()]


def _records(items: object, where: str, needs: str | None = None) -> list[dict]:
    """``items`` checked to be a list of objects, each with the key ``needs`` (the field a format's reply or gold
    is told by: a file of another format has none)."""
    if not isinstance(items, list):
        raise PeersError(f"{where}: not a list")
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise PeersError(f"{where}[{i}]: not an object")
        if needs is not None and needs not in item:
            raise PeersError(f"{where}[{i}]: no {needs!r} key (is the file of another format?)")
    return items


def read_mem0(path: Path, data: object) -> Source:
    """mem0's harness file: the reply is ``response``, the judge ``llm_score``, its own ``f1_score`` and
    ``bleu_score`` kept."""
    replies = []
    for key, items in _conversations(data, path):
        for i, item in enumerate(_records(items, f"{path}: {key}", "response")):
            where = f"{path}: {key}[{i}]"
            metrics = {k: float(item[k]) for k in ("f1_score", "bleu_score") if isinstance(item.get(k), (int, float))}
            replies.append(Reply(
                conversation=key, question=_text(item.get("question"), where, "question"),
                reply=_reply(item.get("response")), label=_label(item.get("category"), where),
                judge=_verdict(item.get("llm_score"), where), metrics=metrics,
            ))
    return Source("mem0", str(path), tuple(replies))


def grades_beside(responses: Path) -> Path | None:
    """zep-papers' grades file beside a responses file (``...responses...`` named ``...grades...``), if any."""
    if "responses" not in responses.name:
        return None
    beside = responses.with_name(responses.name.replace("responses", "grades"))
    return beside if beside.is_file() else None


def read_zep(path: Path, data: object, grades_path: Path | None) -> Source:
    """zep-papers' responses (``answer`` is the reply), joined question by question with the grades file."""
    grades = dict(_conversations(_load(grades_path), grades_path)) if grades_path else {}
    replies = []
    for key, items in _conversations(data, path):
        graded = grades.get(key, [])
        if grades_path and len(graded) != len(items):
            raise PeersError(f"{grades_path}: {key}: {len(graded)} grades for {len(items)} responses in {path}")
        for i, item in enumerate(_records(items, f"{path}: {key}", "golden_answer")):
            where = f"{path}: {key}[{i}]"
            question = _text(item.get("question"), where, "question")
            mark = _records(graded, f"{grades_path}: {key}")[i] if grades_path else item
            if grades_path and mark.get("question") != question:
                raise PeersError(f"{grades_path}: {key}[{i}]: question differs from the responses file's")
            replies.append(Reply(
                conversation=key, question=question, reply=_reply(item.get("answer")),
                label=_label(mark.get("category"), where), judge=_verdict(mark.get("grade"), where),
            ))
    shown = f"{path}+{grades_path.name}" if grades_path else str(path)
    return Source("zep", shown, tuple(replies))


def read_backboard(paths: list[Path], loaded: list[object]) -> Source:
    """Backboard's per-conversation files: ``responses`` read once (``by_type`` holds the same records)."""
    replies = []
    for path, data in zip(paths, loaded):
        if not isinstance(data, dict) or not isinstance(data.get("responses"), list):
            raise PeersError(f"{path}: not a Backboard file (no responses list)")
        key = str(data.get("conversation_id") or path.stem)
        for i, item in enumerate(_records(data["responses"], f"{path}: responses", "ai_response")):
            where = f"{path}: responses[{i}]"
            evaluation = item.get("evaluation")
            if not isinstance(evaluation, dict):
                evaluation = {}
            name = item.get("question_type")
            replies.append(Reply(
                conversation=key, question=_text(item.get("question"), where, "question"),
                reply=_reply(item.get("ai_response")), label=_label(item.get("category"), where),
                label_name=name if isinstance(name, str) else None,
                judge=_verdict(evaluation.get("is_correct"), where),
            ))
    shown = str(paths[0]) if len(paths) == 1 else f"{paths[0].parent}/ ({len(paths)} files)"
    return Source("backboard", shown, tuple(replies))


def read_official(path: Path, data: object, arm: str) -> Source:
    """The official predictions shape: the arm named ``arm``, or the file's only arm, with its ``_judge`` and
    ``_<metric>_score`` extras (as this importer writes them)."""
    if not isinstance(data, list):
        raise PeersError(f"{path}: not a list of samples")
    for at, s in enumerate(data):
        if not isinstance(s, dict):
            raise PeersError(f"{path}: sample [{at}] is not an object")
        _records(s.get("qa", []), f"{path}: sample [{at}] qa")
    arms = sorted({k[: -len("_prediction")] for s in data for qa in s.get("qa", []) for k in qa
                   if k.endswith("_prediction")})
    if arm not in arms and len(arms) != 1:
        raise PeersError(f"{path}: holds arms {', '.join(arms) or 'none'}; name one of them as the arm")
    name = arm if arm in arms else arms[0]
    replies = []
    for s in data:
        sample = str(s.get("sample_id"))
        for i, qa in enumerate(s.get("qa", [])):
            where = f"{path}: {sample} qa[{i}]"
            if name + "_prediction" not in qa:
                continue
            context = qa.get(name + "_prediction_context")
            confidence = qa.get(name + "_prediction_confidence")
            judge = qa.get(name + "_judge")
            metrics = {k[len(name) + 1:]: float(v) for k, v in qa.items()
                       if k.startswith(name + "_") and k.endswith("_score") and isinstance(v, (int, float))}
            replies.append(Reply(
                conversation=sample, question=_text(qa.get("question"), where, "question"),
                reply=_text(qa[name + "_prediction"], where, name + "_prediction"),
                label=_label(qa.get("category"), where),
                judge=_verdict(judge, where), metrics=metrics,
                context=tuple(context) if isinstance(context, list) else None,
                confidence=float(confidence) if isinstance(confidence, (int, float)) else None,
            ))
    return Source("official", str(path), tuple(replies))


_QA_ID = re.compile(r"(.+)#q([0-9]+)")


def read_refined(path: Path, records: list[dict]) -> Source:
    """Refined predictions: ``qa_id`` (``<sample_id>#q<index>``) names the question; no question text."""
    replies = []
    for number, record in enumerate(records, start=1):
        found = _QA_ID.fullmatch(str(record.get("qa_id", "")))
        index = jsonio.index(found.group(2)) if found else None
        if found is None or index is None:
            qa_id = str(record.get("qa_id"))
            shown = qa_id if len(qa_id) <= 40 else f"{qa_id[:20]}…({len(qa_id)} characters)"
            raise PeersError(f"{path}: record {number}: qa_id {shown!r} is not <sample_id>#q<index> "
                             f"(at most {jsonio.INDEX_DIGITS} digits)")
        replies.append(Reply(
            conversation=found.group(1), question=None, index=index,
            reply=_reply(record.get("predicted_answer")),
        ))
    return Source("refined", str(path), tuple(replies))


def read(name: str, spec: str, format: str | None = None) -> Source:
    """The replies of the system ``name`` from ``spec``: a path (file, folder or glob), or for zep
    ``RESPONSES,GRADES``; the format detected from the first file's shape unless ``format`` forces one."""
    if "," in spec and not Path(spec).exists():
        responses, grades = (Path(p) for p in spec.split(",", 1))
        if format not in (None, "zep"):
            raise PeersError(f"{spec}: two paths name zep's responses and grades, not {format}")
        return read_zep(responses, _load(responses), grades)
    paths = files(spec)
    if format == "refined" or (format is None and paths[0].suffix == ".jsonl"):
        return read_refined(paths[0], _jsonl(paths[0]))
    return decoded(name, spec, paths, [_load(p) for p in paths], format)


def decoded(name: str, spec: str, paths: list[Path], loaded: list[object], format: str | None = None) -> Source:
    """The replies of the system ``name`` in the JSON files ``paths`` that ``spec`` names, decoded (``loaded``,
    each read once), as :func:`read` reads them."""
    kind = format or detect(paths[0], loaded[0])
    if (found := shape(loaded[0])) not in (None, kind):  # a forced format is checked against the shape
        raise PeersError(f"{paths[0]}: has the shape of a {found} file, not {kind} (--format {kind})")
    if kind == "backboard":
        return read_backboard(paths, loaded)
    if len(paths) > 1:
        raise PeersError(f"{spec}: names {len(paths)} files; only backboard comes as one file per conversation")
    if kind == "mem0":
        return read_mem0(paths[0], loaded[0])
    if kind == "zep":
        first: list = next(iter(loaded[0].values()), [{}]) if isinstance(loaded[0], dict) else [{}]
        alone = bool(first) and isinstance(first[0], dict) and "grade" in first[0]
        return read_zep(paths[0], loaded[0], None if alone else grades_beside(paths[0]))
    if kind == "official":
        return read_official(paths[0], loaded[0], name)
    return read_refined(paths[0], [r for r in loaded[0] if isinstance(r, dict)] if isinstance(loaded[0], list) else [])
