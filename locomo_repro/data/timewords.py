"""Whether a question holds a word about time.

For the publication's "only 26 of the 282 multi-hop questions contain a word
about time": the reference defines no list, so this one is the kit's own —
month, weekday and season names and the words that place or measure a time —
written before counting and not fitted to 26.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..data.dataset import Sample
from ..text.reduce import stem, words

#: Month, weekday and season names, and the words that place or measure a time.
TIME_WORDS: tuple[str, ...] = (
    "january", "february", "march", "april", "may", "june", "july", "august",
    "september", "october", "november", "december",
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    "spring", "summer", "autumn", "fall", "winter",
    "when", "time", "date", "year", "month", "week", "weekend", "day", "today", "tonight",
    "yesterday", "tomorrow", "morning", "afternoon", "evening", "night",
    "ago", "before", "after", "since", "until", "during", "recently", "lately", "last", "next",
)


def about_time(question: str, vocabulary: Iterable[str] = TIME_WORDS) -> bool:
    """Whether a question holds a word about time: one of its words (``text.words``) shares
    its stem with a word of ``vocabulary`` ("times" is "time"), or is a year 1900-2099."""
    wanted = {stem(w) for w in vocabulary}
    return any(stem(w) in wanted or (len(w) == 4 and w.isascii() and w.isdigit() and w[:2] in ("19", "20")) for w in words(question))


def timed(samples: Sequence[Sample], category: int = 1, vocabulary: Iterable[str] = TIME_WORDS) -> tuple[int, int]:
    """(questions of ``category`` about time, questions of ``category``) over the samples."""
    vocabulary = tuple(vocabulary)
    asked = [q.text for s in samples for q in s.questions if q.category == category]
    return sum(about_time(q, vocabulary) for q in asked), len(asked)
