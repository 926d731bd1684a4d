"""Summaries of scored records, in the shapes of Refined's src/summarize.py.

A metric is any field ending in ``_score`` whose value is a number (booleans
count, as in Python they are numbers). Each group reports its count and, per
metric, count, missing count, mean, min and max (0.0 when no value), plus the
mean again under the metric's own name. Groups are keyed by the string of
their field and ordered by that string (so conversation "10" sorts before "2").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

_PREFERRED = ("llm_score", "f1_score", "bleu_score")

Record = Mapping[str, Any]


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float)


def metric_fields(records: Sequence[Record]) -> list[str]:
    """The metric fields present: llm, F1, BLEU first, then the others by name."""
    found = {key for record in records for key, value in record.items()
             if key.endswith("_score") and _is_number(value)}
    return [f for f in _PREFERRED if f in found] + sorted(found - set(_PREFERRED))


def group_summary(records: Sequence[Record], fields: Sequence[str]) -> dict[str, Any]:
    """Count and per-metric statistics of one group of records."""
    out: dict[str, Any] = {"count": len(records), "metrics": {}}
    for field in fields:
        values = [float(r[field]) for r in records if _is_number(r.get(field))]
        stats = {
            "count": len(values),
            "missing_count": len(records) - len(values),
            "mean": sum(values) / len(values) if values else 0.0,
            "min": min(values) if values else 0.0,
            "max": max(values) if values else 0.0,
        }
        out[field] = stats["mean"]
        out["metrics"][field] = stats
    return out


def _groups(records: Sequence[Record], field: str, *, skip_missing: bool = False) -> dict[str, list[Record]]:
    grouped: dict[str, list[Record]] = {}
    for record in records:
        value = record.get(field)
        if value is None and skip_missing:
            continue
        grouped.setdefault("" if value is None else str(value), []).append(record)
    return dict(sorted(grouped.items()))


def _by(records: Sequence[Record], field: str, fields: Sequence[str],
        extra: Callable[[list[Record]], dict[str, Any]] | None = None,
        skip_missing: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, items in _groups(records, field, skip_missing=skip_missing).items():
        out[key] = group_summary(items, fields)
        if extra is not None:
            out[key].update(extra(items))
    return out


def metric_summary(records: Sequence[Record]) -> dict[str, Any]:
    """Metric fields, overall, by category and by conversation (each with its own categories)."""
    fields = metric_fields(records)
    return {
        "metric_fields": fields,
        "overall": group_summary(records, fields),
        "by_category": _by(records, "category", fields),
        "by_conversations": _by(
            records, "conversation_idx", fields, skip_missing=True,
            extra=lambda items: {"by_category": _by(items, "category", fields)},
        ),
    }


def summarize(records: Sequence[Any], signature: str | None = None) -> dict[str, Any]:
    """The summary JSON: the metric summary plus primary metric, record count, text-only versus
    multimodal overall figures and metadata (judge name, the two counts, and the kit's signature of
    the scores when given: an addition to Refined's shape, under metadata only)."""
    rows = [r for r in records if isinstance(r, Mapping)]
    summary = metric_summary(rows)
    fields = summary["metric_fields"]
    text_only = [r for r in rows if not r.get("is_multi_modality")]
    multimodal = [r for r in rows if r.get("is_multi_modality")]
    summary["primary_metric"] = next((f for f in _PREFERRED if f in fields), fields[0] if fields else "")
    summary["record_count"] = len(rows)
    summary["by_is_multi_modality"] = {
        "text_only": metric_summary(text_only)["overall"],
        "multimodal_available": metric_summary(multimodal)["overall"],
    }
    summary["metadata"] = {
        "llm_judge": next((str(r.get("llm_judge")).strip() for r in rows
                           if str(r.get("llm_judge") or "").strip()), ""),
        "text_only_count": len(text_only),
        "multimodal_available_count": len(multimodal),
    }
    if signature is not None:
        summary["metadata"]["signature"] = signature
    return summary


def _number(value: Any) -> str:
    try:
        return f"{float(value):.4f}"
    except (TypeError, ValueError):
        return "-"


def markdown(summary: Mapping[str, Any]) -> str:
    """The Markdown summary: overall metric table, then the by-category table."""
    fields = [str(f) for f in summary.get("metric_fields") or []]
    lines = ["# Score Summary", ""]
    overall = summary.get("overall")
    if isinstance(overall, Mapping):
        lines += ["## Overall", "", f"- Count: {int(overall.get('count', 0) or 0)}", "",
                  "| Metric | Mean | Count | Missing | Min | Max |",
                  "| --- | ---: | ---: | ---: | ---: | ---: |"]
        metrics = overall.get("metrics") or {}
        for field in fields:
            stats = metrics.get(field) if isinstance(metrics, Mapping) else None
            if isinstance(stats, Mapping):
                lines.append(
                    f"| {field} | {_number(stats.get('mean'))} | {int(stats.get('count', 0) or 0)} | "
                    f"{int(stats.get('missing_count', 0) or 0)} | {_number(stats.get('min'))} | "
                    f"{_number(stats.get('max'))} |"
                )
        lines.append("")
    categories = summary.get("by_category")
    if isinstance(categories, Mapping) and categories:
        lines += ["## By Category", "",
                  "| " + " | ".join(["Category", "Count", *fields]) + " |",
                  "| " + " | ".join(["---", "---:", *["---:"] * len(fields)]) + " |"]
        for key, group in sorted(categories.items(), key=lambda item: item[0]):
            if isinstance(group, Mapping):
                cells = [str(key), str(int(group.get("count", 0) or 0)),
                         *[_number(group.get(f)) for f in fields]]
                lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
