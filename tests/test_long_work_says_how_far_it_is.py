"""Long work says how far it is (``data.progress``): on a terminal a bar, otherwise one line every ten seconds,
so a short run says nothing and a long one neither floods its log nor stays silent."""

from __future__ import annotations

import io

from locomo_repro.data.progress import Progress, left


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_off_a_terminal_a_line_comes_every_ten_seconds_and_never_sooner():
    ticks = iter([0.0, 3.0, 9.9, 10.0, 12.0, 25.0])
    out = io.StringIO()
    with Progress("conversations", 5, out, clock=lambda: next(ticks)) as progress:
        for _ in range(5):
            progress.advance(note="0 failed")
    assert out.getvalue().splitlines() == [
        "locomo-repro: conversations: 3/5 done, 0 failed, 0.3 a second, about 7 s left",  # 2 more at 3 in 10 s
        "locomo-repro: conversations: 5/5 done, 0 failed, 0.2 a second",
    ]


def test_a_short_run_says_nothing_and_an_unknown_total_is_counted_alone():
    out = io.StringIO()
    ticks = iter([0.0, 1.0, 2.0, 30.0])
    with Progress("judge", None, out, clock=lambda: next(ticks)) as progress:
        progress.advance()
        progress.advance()
        assert out.getvalue() == ""
        progress.advance()
    assert out.getvalue() == "locomo-repro: judge: 3 done, 0.1 a second\n"


def test_a_line_of_work_of_known_size_says_the_time_left_at_the_rate_so_far():
    ticks = iter([0.0, 10.0, 20.0])
    out = io.StringIO()
    with Progress("judge mem0", 8, out, clock=lambda: next(ticks), verb="judged") as progress:
        progress.advance(2)  # 2 in 10 s: 6 left at 0.2 a second
        progress.advance(2)
    assert out.getvalue().splitlines() == [
        "locomo-repro: judge mem0: 2/8 judged, 0.2 a second, about 30 s left",
        "locomo-repro: judge mem0: 4/8 judged, 0.2 a second, about 20 s left",
    ]


def test_the_time_left_is_said_as_a_person_says_it():
    assert [left(s) for s in (6.6, 89.4, 90, 5399, 5400, 7 * 3600)] == [
        "about 7 s left", "about 89 s left", "about 2 min left", "about 90 min left", "about 1.5 h left",
        "about 7.0 h left"]


def test_on_a_terminal_a_bar_is_drawn_and_taken_away():
    out = Terminal()
    with Progress("conversations", 2, out) as progress:
        progress.advance()
        progress.advance()
    drawn = out.getvalue()
    assert drawn.startswith("\rconversations:") and "/2 [" in drawn  # a bar, on stderr's line
    last = drawn.rstrip("\r").rsplit("\r", 1)[-1]
    assert drawn.endswith("\r") and last.strip() == ""  # and, once the work is done, the line is blanked


def test_a_total_that_costs_something_to_find_is_found_only_when_first_needed():
    """A run counts its questions by reading the dataset a second time: a run too short to print a line off a
    terminal never does, a long one does at its first line (and says the time left from it), a terminal's bar
    at once."""
    asked: list[int] = []

    def count() -> int:
        asked.append(1)
        return 8

    out = io.StringIO()
    ticks = iter([0.0, 1.0, 2.0])
    with Progress("questions", stream=out, clock=lambda: next(ticks), count=count) as progress:
        progress.advance(2)
        progress.advance(2)
    assert asked == [] and out.getvalue() == ""

    ticks = iter([0.0, 10.0, 20.0])
    with Progress("questions", stream=out, clock=lambda: next(ticks), count=count) as progress:
        progress.advance(2)  # the first line: 2 of 8 in 10 s, 6 left at 0.2 a second
        progress.advance(2)
    assert asked == [1] and out.getvalue().splitlines() == [
        "locomo-repro: questions: 2/8 done, 0.2 a second, about 30 s left",
        "locomo-repro: questions: 4/8 done, 0.2 a second, about 20 s left",
    ]

    bar = Terminal()
    with Progress("questions", stream=bar, count=count) as progress:
        progress.advance()
    assert asked == [1, 1] and "/8 [" in bar.getvalue()
