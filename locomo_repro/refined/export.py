"""LoCoMo-Refined's public files, built from a LoCoMo-format dataset.

Matches Refined's src/export.py: from a JSON array of samples (locomo10.json,
or Refined's own data/raw/locomo_refined.json) it derives ``questions.jsonl``,
``conversations.jsonl``, ``submission_template.jsonl`` and ``manifest.json``
with the same records, field order and text. The raw samples are read here
directly because the public files need fields the kit's loader drops (image
urls, captions, queries, the per-question multimodality flag).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .files import InputError, json_text, load_records, read_json, records_text, write_atomic

QUESTIONS = "questions.jsonl"
CONVERSATIONS = "conversations.jsonl"
TEMPLATE = "submission_template.jsonl"
MANIFEST = "manifest.json"


def qa_id(sample_id: str, qa_index: int) -> str:
    """A question's public id: ``<sample_id>#q<index, 4 digits>``, 0-based; a blank id becomes ``sample``."""
    return f"{str(sample_id or '').strip() or 'sample'}#q{qa_index:04d}"


def _strings(value: Any) -> list[str]:
    """A list of non-blank stripped strings from a list or a single value."""
    if isinstance(value, list):
        return [str(item).strip() for item in value if str(item).strip()]
    if value in (None, ""):
        return []
    text = str(value).strip()
    return [text] if text else []


def _message_index(dia_id: str) -> int | None:
    """The number after the first colon of a turn id ("D3:12" -> 12), if it is all digits."""
    head, colon, tail = dia_id.strip().partition(":")
    if not colon or not tail.isdigit():
        return None
    try:
        return int(tail)
    except ValueError:  # a digit that is no decimal ("²"), or more digits than int() reads: Refined's traceback
        raise InputError(f"turn id {dia_id[:40]!r}: what follows the colon is not a decimal number") from None


def _role(speaker: Any, speaker_a: str, speaker_b: str) -> str:
    """``user`` for the first speaker, ``assistant`` for the second, ``user`` for anyone else."""
    name = str(speaker or "").strip()
    if name == speaker_b and name != speaker_a:
        return "assistant"
    return "user"


def _sessions(conversation: dict[str, Any], speaker_a: str, speaker_b: str) -> tuple[list[dict], dict[str, dict]]:
    """Sessions 1, 2, … while ``session_<n>`` exists and keeps a non-blank message; and turns by id."""
    sessions: list[dict[str, Any]] = []
    by_id: dict[str, dict[str, Any]] = {}
    number = 1
    while f"session_{number}" in conversation:
        date_time = str(conversation.get(f"session_{number}_date_time") or "")
        messages: list[dict[str, Any]] = []
        turns = conversation.get(f"session_{number}") or []
        if isinstance(turns, (int, float)):  # true, 5, 1.5: Refined's traceback
            raise InputError(f"session_{number} is {type(turns).__name__}, not a list of turns")
        for position, raw in enumerate(turns, start=1):
            if not isinstance(raw, dict):
                continue
            text = str(raw.get("text") or "").strip()
            if not text:
                continue
            dia_id = str(raw.get("dia_id") or "").strip()
            # A parsed index of 0 falls back to the position, as Refined's `or` does.
            message = {
                "session_index": number,
                "session_date_time": date_time,
                "message_index": _message_index(dia_id) or position,
                "dia_id": dia_id,
                "speaker": str(raw.get("speaker") or ""),
                "role": _role(raw.get("speaker"), speaker_a, speaker_b),
                "text": text,
                "images": _strings(raw.get("img_url")),
                "blip_caption": str(raw.get("blip_caption") or "").strip(),
                "query": str(raw.get("query") or "").strip(),
            }
            message["has_multimodal_context"] = bool(
                message["images"] or message["blip_caption"] or message["query"]
            )
            messages.append(message)
            if dia_id:
                by_id[dia_id] = message  # a repeated id keeps its last turn
        if not messages:
            break  # an empty session ends the conversation, later ones included
        sessions.append({"session_index": number, "date_time": date_time, "messages": messages})
        number += 1
    return sessions, by_id


def _evidence_message(message: dict[str, Any]) -> dict[str, Any]:
    keys = ("dia_id", "session_index", "message_index", "speaker", "text", "images",
            "blip_caption", "query", "has_multimodal_context")
    return {key: message[key] for key in keys}


def history_text(sessions: Sequence[dict[str, Any]], *, multimodal: bool) -> str:
    """The flattened conversation: a header line per session, ``speaker: text`` per turn,
    and with ``multimodal`` indented image, caption and query lines."""
    lines: list[str] = []
    for session in sessions:
        lines.append(f"--- Session {session['session_index']} started at {session['date_time']} ---")
        for message in session["messages"]:
            lines.append(f"{message['speaker']}: {message['text']}")
            if not multimodal:
                continue
            if message["images"]:
                lines.append(f"  [images] {', '.join(message['images'])}")
            if message["blip_caption"]:
                lines.append(f"  [caption] {message['blip_caption']}")
            if message["query"]:
                lines.append(f"  [query] {message['query']}")
    return "\n".join(lines)


def convert_sample(index: int, sample: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One raw sample as its conversation record and its question records."""
    conversation = sample.get("conversation") or {}
    if not isinstance(conversation, dict):
        conversation = {}
    sample_id = str(sample.get("sample_id") or f"conversation-{index:04d}")
    speaker_a = str(conversation.get("speaker_a") or "")
    speaker_b = str(conversation.get("speaker_b") or "")
    try:
        sessions, by_id = _sessions(conversation, speaker_a, speaker_b)
    except InputError as exc:
        raise InputError(f"sample {sample_id[:40]!r}: {exc}") from None

    questions: list[dict[str, Any]] = []
    items = sample.get("qa")
    for qa_index, item in enumerate(items if isinstance(items, list) else []):
        if not isinstance(item, dict):
            continue  # skipped items still use up their index
        evidence = _strings(item.get("evidence"))
        questions.append({
            "qa_id": qa_id(sample_id, qa_index),
            "sample_id": sample_id,
            "conversation_idx": index,
            "qa_index": qa_index,
            "speaker_a": speaker_a,
            "speaker_b": speaker_b,
            "question": str(item.get("question") or "").strip(),
            "answer": _strings(item.get("answer")),
            "category": str(item.get("category") or ""),
            "is_multi_modality": bool(item.get("is_multi_modality")),
            "evidence": evidence,
            "evidence_messages": [_evidence_message(by_id[d]) for d in evidence if d in by_id],
        })

    messages = [message for session in sessions for message in session["messages"]]
    record = {
        "sample_id": sample_id,
        "conversation_idx": index,
        "speaker_a": speaker_a,
        "speaker_b": speaker_b,
        "session_count": len(sessions),
        "message_count": len(messages),
        "multimodal_message_count": sum(1 for m in messages if m["has_multimodal_context"]),
        "image_count": sum(len(m["images"]) for m in messages),
        "sessions": sessions,
        "conversation_history_text": history_text(sessions, multimodal=False),
        "conversation_history_multimodal_text": history_text(sessions, multimodal=True),
    }
    return record, questions


@dataclass(frozen=True)
class Public:
    """The public release derived from one dataset file."""

    dataset_name: str
    conversations: list[dict[str, Any]]
    questions: list[dict[str, Any]]

    def manifest(self) -> dict[str, Any]:
        categories = Counter(str(q.get("category") or "") for q in self.questions)
        modal = Counter("true" if q.get("is_multi_modality") else "false" for q in self.questions)
        return {
            "dataset_file_name": self.dataset_name,
            "conversation_count": len(self.conversations),
            "question_count": len(self.questions),
            "category_counts": dict(sorted(categories.items())),
            "is_multi_modality_counts": {"false": modal["false"], "true": modal["true"]},
            "files": {"conversations": CONVERSATIONS, "questions": QUESTIONS, "submission_template": TEMPLATE},
        }

    def template(self) -> list[dict[str, str]]:
        return [{"qa_id": q["qa_id"], "predicted_answer": ""} for q in self.questions]


def convert(samples: Iterable[Any], dataset_name: str, max_conversations: int | None = None) -> Public:
    """The public release of a list of raw samples (non-object entries skipped, keeping their index)."""
    conversations: list[dict[str, Any]] = []
    questions: list[dict[str, Any]] = []
    for index, sample in enumerate(samples):
        if max_conversations is not None and index >= max_conversations:
            break
        if not isinstance(sample, dict):
            continue
        record, asked = convert_sample(index, sample)
        conversations.append(record)
        questions.extend(asked)
    return Public(dataset_name, conversations, questions)


def read_dataset(path: Path, max_conversations: int | None = None) -> Public:
    """The public release of a LoCoMo-format JSON file."""
    payload = read_json(path)
    if not isinstance(payload, list):
        raise InputError(f"{path}: expected a JSON array of LoCoMo samples")
    if not any(isinstance(sample, dict) for sample in payload):
        raise InputError(f"{path}: holds no LoCoMo samples (no object in the array)")
    try:
        return convert(payload, path.name, max_conversations)
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None


def write_public(public: Public, out_dir: Path) -> dict[str, Path]:
    """Write the four public files into ``out_dir`` (atomically); their paths by role."""
    paths = {
        "conversations": out_dir / CONVERSATIONS,
        "questions": out_dir / QUESTIONS,
        "submission_template": out_dir / TEMPLATE,
        "manifest": out_dir / MANIFEST,
    }
    write_atomic({
        paths["conversations"]: records_text(public.conversations, paths["conversations"]),
        paths["questions"]: records_text(public.questions, paths["questions"]),
        paths["submission_template"]: records_text(public.template(), paths["submission_template"]),
        paths["manifest"]: json_text(public.manifest()),
    })
    return paths


def _is_raw_sample(record: dict[str, Any]) -> bool:
    return "qa" in record and "conversation" in record


def load_questions(path: Path) -> list[dict[str, Any]]:
    """Question records from a public ``questions`` file (JSONL or JSON array) or from a
    raw LoCoMo-format dataset (converted as the export converts it)."""
    records = load_records(path)
    if records and all(_is_raw_sample(r) for r in records):
        return read_dataset(path).questions
    return records
