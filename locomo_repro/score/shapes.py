"""Which system's answer file a decoded JSON value is, told by its shape alone.

The shapes are those ``locomo-repro import`` reads (``score.formats`` says what each holds): the official
predictions shape is the one the scoring commands read; any other is first converted by the importer, and
the scoring commands say so, naming the shape they recognised.
"""

from __future__ import annotations

#: Each shape's name (``import --format``) and what it is, for messages.
SHAPES = {
    "mem0": "mem0's evaluation harness, as Memobase publishes",
    "zep": "zep-papers' responses or grades",
    "backboard": "Backboard's per-conversation results",
    "official": "the official predictions shape",
    "refined": "LoCoMo-Refined predictions",
}


def shape(data: object) -> str | None:
    """The name in :data:`SHAPES` of a decoded file's shape, or None when it has none of them."""
    if isinstance(data, list):
        first = next((item for item in data if isinstance(item, dict)), None)
        if first is not None and "sample_id" in first and "qa" in first:
            return "official"
        if first is not None and "qa_id" in first:
            return "refined"
    if isinstance(data, dict):
        if "conversation_id" in data and "responses" in data:
            return "backboard"
        lists = [v for v in data.values() if isinstance(v, list)]
        first = next((v[0] for v in lists if v and isinstance(v[0], dict)), None)
        if first is not None and len(lists) == len(data):  # a conversation may hold no question
            if "response" in first:
                return "mem0"
            if "golden_answer" in first:
                return "zep"
    return None


def foreign(data: object, name: str) -> str | None:
    """For a file in another system's shape, the one line that says to import it first; else None."""
    kind = shape(data)
    if kind is None or kind == "official":
        return None
    return (f"{name}: in the {kind} format ({SHAPES[kind]}), not the official predictions shape: "
            f"import it first with locomo-repro import --arm NAME=PATH -out FILE")
