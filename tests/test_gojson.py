"""gojson.dumps writes what Go's encoding/json Encoder writes with SetIndent("", " ") (the reference's -out file)."""

from __future__ import annotations

import json
import math
import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from locomo_repro.go.json import dumps

# (float, Go's encoding) — encoding/json floatEncoder: strconv 'f' with the
# shortest digits, 'e' below 1e-6 or from 1e21 on, with "e-07" cleaned to "e-7".
FLOATS = [
    (0.0, "0"),
    (-0.0, "-0"),
    (2.0, "2"),
    (0.1, "0.1"),
    (0.1 + 0.2, "0.30000000000000004"),
    (0.6638920150657069, "0.6638920150657069"),  # a confidence of reference/answers.json
    (123456789.125, "123456789.125"),
    (1e-6, "0.000001"),
    (1e-7, "1e-7"),
    (1.5e-7, "1.5e-7"),
    (-1e-7, "-1e-7"),
    (1e-10, "1e-10"),
    (5e-324, "5e-324"),
    (1e20, "100000000000000000000"),
    (9.999999999999999e20, "999999999999999900000"),
    (1e21, "1e+21"),
    (1.23e21, "1.23e+21"),
    (1e100, "1e+100"),
    (1.7976931348623157e308, "1.7976931348623157e+308"),
]


@pytest.mark.parametrize(("x", "want"), FLOATS, ids=[w for _, w in FLOATS])
def test_floats(x, want):
    assert dumps(x) == want + "\n"


@pytest.mark.parametrize("x", [math.nan, math.inf, -math.inf])
def test_non_finite_floats_are_refused(x):
    with pytest.raises(ValueError):
        dumps([x])


# (value, Go's encoding without the final newline)
SCALARS = [
    (0, "0"),
    (-7, "-7"),
    (2**70, "1180591620717411303424"),
    (True, "true"),
    (False, "false"),
    (None, "null"),
    ("", '""'),
    # HTML-safe escaping: <, >, & and the two line separators; other
    # non-ASCII text is written as it is.
    ("<a & b>", '"\\u003ca \\u0026 b\\u003e"'),
    ("\u2028\u2029", '"\\u2028\\u2029"'),
    ("café — ok", '"café — ok"'),
    # Control characters: the short escapes Go knows, \u00XX (lower-case hex) for the rest.
    ('\b\f\n\r\t"\\', '"\\b\\f\\n\\r\\t\\"\\\\"'),
    ("\x01\x1f\x7f", '"\\u0001\\u001f\x7f"'),
]


@pytest.mark.parametrize(("value", "want"), SCALARS)
def test_scalars(value, want):
    assert dumps(value) == want + "\n"


def test_one_space_indent_and_empty_containers():
    value = {"a": [1, {"b": "x"}], "e": [], "f": {}, "g": [[], {}]}
    assert dumps(value) == (
        "{\n"
        ' "a": [\n'
        "  1,\n"
        "  {\n"
        '   "b": "x"\n'
        "  }\n"
        " ],\n"
        ' "e": [],\n'
        ' "f": {},\n'
        ' "g": [\n'
        "  [],\n"
        "  {}\n"
        " ]\n"
        "}\n"
    )
    assert dumps([]) == "[]\n" and dumps({}) == "{}\n"
    assert dumps((1, 2)) == dumps([1, 2]) == "[\n 1,\n 2\n]\n"


def test_keys_are_written_in_the_order_given():
    # As Go writes a struct's fields: the reference's {sample_id, qa} records
    # put sample_id first.  Callers sort a map's keys themselves.
    assert dumps({"sample_id": "conv-26", "qa": []}) == '{\n "sample_id": "conv-26",\n "qa": []\n}\n'


def test_keys_are_escaped_like_strings():
    assert dumps({"a<b": 1}) == '{\n "a\\u003cb": 1\n}\n'


def test_other_types_are_refused():
    with pytest.raises(TypeError):
        dumps({"x": {1, 2}})


@pytest.mark.slow
@pytest.mark.parametrize("name", ["answers.json", "answers-walk.json", "answers-factor.json"])
def test_the_reference_files_are_written_back_byte_for_byte(reference_answers, name):
    written = reference_answers[name]
    assert dumps(json.loads(written)).encode() == written


# --- properties --------------------------------------------------------------------------------------

SCALAR = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
VALUES = st.recursive(
    SCALAR,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)


def same(decoded: object, value: object) -> bool:
    """Equal as JSON values: a float written without a fraction reads back as an int of the same value."""
    if isinstance(value, float):
        return isinstance(decoded, (int, float)) and not isinstance(decoded, bool) and float(decoded) == value
    if isinstance(value, list):
        return isinstance(decoded, list) and len(decoded) == len(value) and all(map(same, decoded, value))
    if isinstance(value, dict):
        return (isinstance(decoded, dict) and list(decoded) == list(value)
                and all(same(decoded[k], value[k]) for k in value))
    return type(decoded) is type(value) and decoded == value


@pytest.mark.slow
@given(VALUES)
def test_round_trip(value):
    text = dumps(value)
    assert text.endswith("\n") and not text.endswith("\n\n")
    assert same(json.loads(text), value)


def test_a_large_integral_float_is_written_as_its_digits():
    # Go writes 5.857700082937137e16 as 58577000829371370 ('f' format, shortest digits).
    assert dumps(5.857700082937137e16) == "58577000829371370\n"
    assert same(json.loads(dumps(5.857700082937137e16)), 5.857700082937137e16)


LONE_SURROGATE = re.compile("[\ud800-\udfff]")
NO_FLOATS = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet=st.characters(blacklist_characters="<>&\u2028\u2029")),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6, alphabet="abc<"), inner, max_size=4),
    max_leaves=20,
)


@given(NO_FLOATS)
@example("\ud800")
@example({"a<": ["x\udfffy"]})
def test_without_floats_or_html_it_is_pythons_one_space_indent(value):
    want = json.dumps(value, indent=" ", ensure_ascii=False)
    # Keys may hold "<": escaped by Go, not by Python. A Go string holds no lone surrogate (its decoder made
    # each one U+FFFD), where Python writes the surrogate itself.
    want = LONE_SURROGATE.sub("\ufffd", want.replace("<", "\\u003c"))
    assert dumps(value) == want + "\n"
