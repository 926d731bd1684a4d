"""A busy endpoint's ``Retry-After`` of any shape gives a pause that can be slept, never a traceback:
a digit that is no ASCII digit ("²") or a date Python cannot read is ignored; 400 digits or a date
centuries ahead wait ``LONGEST_ASKED``."""

from __future__ import annotations

import pytest

from locomo_repro.read import model
from locomo_repro.read.chat import ChatHTTPError


def asked(value: str) -> float | None:
    return model.retry_after(ChatHTTPError(429, "busy", "http://x", value), now=lambda: 0.0)


@pytest.mark.parametrize(("value", "want"), [
    ("7", 7.0),
    ("²", None),
    ("٣", None),
    ("9" * 400, model.LONGEST_ASKED),
    ("Fri, 31 Dec 9999 23:59:59 GMT", model.LONGEST_ASKED),
    ("Thu, 01 Jan 1970 00:00:10 GMT", 10.0),
    ("Mon, 99 Foo 99999 99:99:99 GMT", None),
    ("soon", None),
])
def test_retry_after(value, want):
    assert asked(value) == want


def test_the_pause_after_any_retry_after_can_be_slept():
    for value in ("9" * 400, "²", "Fri, 31 Dec 9999 23:59:59 GMT"):
        assert 0 <= model.pause(ChatHTTPError(503, "", "http://x", value), 1) <= model.LONGEST_ASKED
