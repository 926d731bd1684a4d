"""LoCoMo-Plus's stitching of its cognitive items into the LoCoMo conversations, rebuilt from its rules.

The rules are those of the repository's ``data/build_conv.py`` and ``data/unified_input.py`` (commit 059f4e3d),
written anew here:

* item ``i`` goes into conversation ``i mod 10`` (``unified_input.py``; ``build_conv.py``'s own ``__main__``
  draws the conversation with an unseeded ``random.choice`` and is not reproducible);
* the trigger comes 7 days after the conversation's last session, the cue ``time_gap`` earlier (a number or
  a number word up to twelve, or "a"/"an", before week(s), month(s) or year(s): 7, 30 or 365 days each; a gap
  naming none of them is 0 days);
* A is the conversation's ``speaker_a``, every other speaker its ``speaker_b``;
* the sessions, the cue and the trigger are ordered by time, a stable sort (a cue at a session's very time
  comes after it).

``unified`` rebuilds the records a run over the unified input holds (question, evidence as text, category,
gold) without the replies, so that they can be compared with a published predictions file question for
question; ``samples`` writes each item's stitched conversation as a locomo10 sample, so that every command of
the kit (arms, plug-ins, ``-model``) runs on them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from ..data.dataset import COGNITIVE, MONTH_NAMES, parse_stamp
from ..score.formats import PeersError
from .plus import NAMES, Item, Line

_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
          "ten": 10, "eleven": 11, "twelve": 12, "a": 1, "an": 1}
_GAP = re.compile(r"\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a|an)\b\s*"
                  r"(week|weeks|month|months|year|years)\b")
_UNIT_DAYS = {"week": 7, "month": 30, "year": 365}
#: ``unified_input.py``'s names of LoCoMo's own five categories (any other number is ``category_<n>``).
_LOCOMO_NAMES = {k: v for k, v in NAMES.items() if k != COGNITIVE}
#: The days from the last session to the trigger.
QUERY_AFTER = timedelta(days=7)


def gap_days(time_gap: str) -> int:
    """The days a time gap stands for, as ``build_conv.parse_time_gap`` counts them (the first match)."""
    m = _GAP.search(time_gap.lower().strip())
    if not m:
        return 0
    number, unit = m.groups()
    count = int(number) if number.isdigit() else _WORDS[number]
    return count * _UNIT_DAYS[unit.rstrip("s")]


@dataclass(frozen=True)
class Stitched:
    """One item stitched into one conversation: the sample (as locomo10 holds it), the times, the session the
    cue follows (None: before the first), and the timeline of sessions and inserted dialogues in order."""

    item: Item
    sample: dict
    cue_time: datetime
    query_time: datetime
    cue_after: int | None
    timeline: tuple[tuple[str, datetime, tuple[dict, ...]], ...]


def _sessions(sample: dict, where: str) -> list[tuple[datetime, list]]:
    """A conversation's sessions 1, 2, ... up to the first number missing, with their dates (``analyze_conversation``)."""
    conv = sample.get("conversation")
    if not isinstance(conv, dict):
        raise PeersError(f"{where}: no conversation")
    out: list[tuple[datetime, list]] = []
    while f"session_{len(out) + 1}" in conv:
        n = len(out) + 1
        turns, stamp = conv[f"session_{n}"], conv.get(f"session_{n}_date_time")
        try:
            out.append((parse_stamp(str(stamp)), turns))
        except ValueError:
            raise PeersError(f"{where}: session {n}: bad date {stamp!r}") from None
        if not isinstance(turns, list):
            raise PeersError(f"{where}: session_{n} is not a list of turns")
    if not out:
        raise PeersError(f"{where}: no sessions")
    return out


def _spoken(lines: Sequence[Line], speakers: tuple[str, str]) -> tuple[dict, ...]:
    return tuple({"speaker": speakers[0] if line.speaker == "A" else speakers[1], "text": line.text}
                 for line in lines)


def stitch(item: Item, sample: dict, where: str = "locomo10") -> Stitched:
    """One item stitched into one sample of locomo10 (``build_conv.build_context``)."""
    sessions = _sessions(sample, f"{where}: sample {sample.get('sample_id')}")
    conv = sample["conversation"]
    speakers = (str(conv.get("speaker_a")), str(conv.get("speaker_b")))
    query_time = sessions[-1][0] + QUERY_AFTER
    cue_time = query_time - timedelta(days=gap_days(item.time_gap))
    cue_after = None
    for i, (t, _) in enumerate(sessions):
        if t > cue_time:
            break
        cue_after = i
    events = [(f"session_{i + 1}", t, tuple(turns)) for i, (t, turns) in enumerate(sessions)]
    events += [("cue", cue_time, _spoken(item.cue_lines, speakers)),
               ("trigger", query_time, _spoken(item.trigger_lines, speakers))]
    events.sort(key=lambda e: e[1])
    return Stitched(item, sample, cue_time, query_time, cue_after, tuple(events))


def stitch_all(plus: Sequence[Item], locomo: Sequence[dict]) -> list[Stitched]:
    """Every item stitched as ``unified_input.py`` does: the ``i``-th into conversation ``i mod len(locomo)``."""
    return [stitch(item, locomo[i % len(locomo)]) for i, item in enumerate(plus)]


# --- the unified input's records ------------------------------------------------------------------


def _evidence_ids(raw: object) -> list[str]:
    """Evidence as a list of ``Dn:k`` ids, each entry split at ``;`` (``_parse_evidence_list``)."""
    entries = [raw] if isinstance(raw, str) else list(raw) if isinstance(raw, list) else []
    return [part.strip() for entry in entries for part in str(entry).split(";") if part.strip()]


def _evidence_text(conv: dict, ids: Sequence[str]) -> str:
    """Evidence ids as ``Speaker：text`` lines, a full-width colon (``_evidence_to_text``)."""
    out = []
    for evid in ids:
        pieces = evid.split(":")
        try:
            if len(pieces) != 2:
                raise ValueError(evid)
            session, turn = int(pieces[0].replace("D", "")), int(pieces[1])
            turns = conv.get(f"session_{session}", [])
            if 0 <= turn - 1 < len(turns):
                said = turns[turn - 1]
                out.append(f"{said.get('speaker', 'Unknown')}：{said.get('text', '')}")
            else:
                out.append(f"[{evid}] [Missing turn]")
        except Exception:  # the published rule: any failure is a parse error  # noqa: BLE001
            out.append(f"[{evid}] [Parse error]")
    return "\n".join(out)


def _gold(qa: dict) -> object:
    """The record's gold: ``answer`` when given and not blank, else "" (an adversarial question has none)."""
    answer = qa.get("answer")
    return "" if answer is None or (isinstance(answer, str) and not answer.strip()) else answer


def unified(locomo: Sequence[dict], plus: Sequence[Item]) -> list[dict]:
    """The records a run over the unified input writes (``evaluate_qa.py``), less ``prediction`` and ``model``:
    every locomo10 question in order, then every item stitched as :func:`stitch_all` stitches it."""
    out: list[dict] = []
    for sample in locomo:
        conv = sample.get("conversation") or {}
        for qa in sample.get("qa") or []:
            category = qa.get("category")
            out.append({
                "question_input": str(qa.get("question", "")).split("Question:")[-1].strip(),
                "evidence": _evidence_text(conv, _evidence_ids(qa.get("evidence") or [])),
                "category": _LOCOMO_NAMES.get(category, f"category_{category}"),
                "ground_truth": _gold(qa),
            })
    for s in stitch_all(plus, locomo):
        cue = next(turns for name, _, turns in s.timeline if name == "cue")
        record = {
            "question_input": s.item.trigger.strip() or "Context dialogue (cue awareness)",
            "evidence": "\n".join(f"{t['speaker']}：{t['text'].strip()}" for t in cue if t["text"]),
            "category": NAMES[COGNITIVE],
            "ground_truth": "",
        }
        if s.item.time_gap:
            record["time_gap"] = s.item.time_gap
        out.append(record)
    return out


# --- the stitched conversations as a dataset --------------------------------------------------------


def stamp(t: datetime) -> str:
    """A time in the dataset's session form, "1:56 pm on 8 May, 2023"."""
    return f"{(t.hour + 11) % 12 + 1}:{t.minute:02d} {'am' if t.hour < 12 else 'pm'} on {t.day} " \
           f"{MONTH_NAMES[t.month - 1]}, {t.year}"


def sample(s: Stitched) -> dict:
    """One stitched conversation as a locomo10 sample: its sessions and the cue, in time order and numbered
    anew (dialogue ids ``D<session>:<turn>`` with them), and one question, category 6: the trigger as its speakers
    say it, its evidence the cue's turns, no answer.  The trigger itself is not a session: it is the question."""
    conv = s.sample["conversation"]
    out: dict = {"speaker_a": conv.get("speaker_a"), "speaker_b": conv.get("speaker_b")}
    cue_ids: list[str] = []
    number = 0
    for name, t, turns in s.timeline:
        if name == "trigger":
            continue
        number += 1
        said = []
        for k, turn in enumerate(turns, 1):
            said.append({**turn, "dia_id": f"D{number}:{k}"})
            if name == "cue":
                cue_ids.append(f"D{number}:{k}")
        out[f"session_{number}_date_time"] = stamp(t) if name == "cue" else conv[f"{name}_date_time"]
        out[f"session_{number}"] = said
    speakers = (str(conv.get("speaker_a")), str(conv.get("speaker_b")))
    question = "\n".join(f"{t['speaker']}: {t['text']}" for t in _spoken(s.item.trigger_lines, speakers))
    return {
        "sample_id": f"{s.sample.get('sample_id')}+plus-{s.item.index}",
        "conversation": out,
        "qa": [{"question": question, "category": COGNITIVE, "evidence": cue_ids}],
        "locomo_plus": {"index": s.item.index, "relation_type": s.item.relation, "time_gap": s.item.time_gap,
                        "cue_time": s.cue_time.strftime("%Y-%m-%d %H:%M"),
                        "query_time": s.query_time.strftime("%Y-%m-%d %H:%M")},
    }


# --- the published run in the kit's predictions shape -------------------------------------------------


def _answer(qa: dict) -> object:
    """A locomo10 question's gold as the kit holds it: ``answer``, else an adversarial question's
    ``adversarial_answer`` (``data.dataset``)."""
    answer = qa.get("answer")
    return qa.get("adversarial_answer", "") if answer is None or answer == "" else answer


def imported(locomo: Sequence[dict], plus: Sequence[Item], published: Sequence[dict], arm: str,
             file: str) -> list[dict]:
    """The published run (``published``: its records, of which the cognitive ones answer ``plus``) in the
    official predictions shape, one entry per conversation: its locomo10 questions, then the cognitive items
    stitched into it (category 6, the trigger as published for the question, no answer, no evidence ids: the
    cue is not a turn of locomo10), each reply ``<arm>_prediction``.

    The records must be, question for question, those :func:`unified` rebuilds; the first that is not is a
    :class:`PeersError` naming it."""
    rebuilt = unified(locomo, plus)
    if len(rebuilt) != len(published):
        raise PeersError(f"{file}: {len(published)} records, the unified input rebuilt holds {len(rebuilt)}")
    for i, (want, got) in enumerate(zip(rebuilt, published)):
        differs = [key for key in (*want, "time_gap") if want.get(key) != got.get(key)]
        if differs:
            raise PeersError(f"{file}: record {i}: {differs[0]} is not the rebuilt unified input's "
                             f"({str(got.get(differs[0]))[:40]!r} for {str(want.get(differs[0]))[:40]!r})")
    replies = iter(r["prediction"] for r in published)
    entries: list[dict] = []
    for sample in locomo:
        qa = [dict(sorted({"question": q.get("question"), "answer": _answer(q), "category": q.get("category"),
                           "evidence": q.get("evidence", []), f"{arm}_prediction": next(replies)}.items()))
              for q in sample.get("qa") or []]
        entries.append({"sample_id": sample.get("sample_id"), "qa": qa})
    for i, item in enumerate(plus):
        entries[i % len(locomo)]["qa"].append(dict(sorted({
            "question": item.trigger, "answer": "", "category": COGNITIVE, "evidence": [],
            f"{arm}_prediction": next(replies)}.items())))
    return entries
