"""A signature names everything that changes a number, and nothing that does not (paths, times, machines)."""

from __future__ import annotations

import shutil

import pytest

from locomo_repro import __version__
from locomo_repro.score import signature

DEFAULTS = (("k", 5), ("floor", 0.3), ("span", 4), ("band", 0.9), ("parts", 2))


def default(**changes) -> str:
    settings = [(name, changes.pop(name, value)) for name, value in DEFAULTS]
    return str(signature.run(changes.pop("data", "79fa87e9"), changes.pop("arms", "main"), settings, **changes))


def test_the_default_run_reads_like_sacrebleu():
    assert default() == (
        f"locomo-repro:{__version__}|data:79fa87e9|scorer:kit|arms:main|k:5|floor:0.30|span:4|band:0.90|parts:2"
    )


def test_the_same_settings_give_the_same_signature():
    written = f"locomo-repro:{__version__}|data:79fa87e9|scorer:kit|arms:main|k:10|floor:0.30|span:4|band:0.90|" \
              "parts:2|blind:yes|model:m|endpoint:https://x.example/v1"
    first = default(k=10, blind=True, model="m", base="https://x.example/v1")
    assert first == written and default(k=10, blind=True, model="m", base="https://x.example/v1") == first


#: The default run's fields after the version, and each setting changed with the fields it writes in their place.
FIELDS = "data:79fa87e9|scorer:kit|arms:main|k:5|floor:0.30|span:4|band:0.90|parts:2"
CHANGES = [
    ({"data": "00000000"}, "data:00000000|scorer:kit|arms:main|k:5|floor:0.30|span:4|band:0.90|parts:2"),
    ({"arms": "walk"}, "data:79fa87e9|scorer:kit|arms:walk|k:5|floor:0.30|span:4|band:0.90|parts:2"),
    ({"k": 6}, "data:79fa87e9|scorer:kit|arms:main|k:6|floor:0.30|span:4|band:0.90|parts:2"),
    ({"floor": 0.31}, "data:79fa87e9|scorer:kit|arms:main|k:5|floor:0.31|span:4|band:0.90|parts:2"),
    ({"floor": 0.305}, "data:79fa87e9|scorer:kit|arms:main|k:5|floor:0.305|span:4|band:0.90|parts:2"),
    ({"span": 5}, "data:79fa87e9|scorer:kit|arms:main|k:5|floor:0.30|span:5|band:0.90|parts:2"),
    ({"band": 0.95}, "data:79fa87e9|scorer:kit|arms:main|k:5|floor:0.30|span:4|band:0.95|parts:2"),
    ({"parts": 3}, "data:79fa87e9|scorer:kit|arms:main|k:5|floor:0.30|span:4|band:0.90|parts:3"),
    ({"sweep": "floor"}, "data:79fa87e9|scorer:kit|arms:main|k:5|floor:sweep|span:4|band:0.90|parts:2"),
    ({"blind": True}, f"{FIELDS}|blind:yes"),
    ({"derive": False}, f"{FIELDS}|derived:no"),
    ({"coref": True}, f"{FIELDS}|coref:yes"),
    ({"only": 2}, "data:79fa87e9|only:2|scorer:kit|arms:main|k:5|floor:0.30|span:4|band:0.90|parts:2"),
    ({"model": "gpt-x", "base": "https://api.example/v1"}, f"{FIELDS}|model:gpt-x|endpoint:https://api.example/v1"),
]


@pytest.mark.parametrize(("change", "fields"), CHANGES, ids=["+".join(change) for change, _ in CHANGES])
def test_each_setting_changes_the_signature(change, fields):
    assert default(**change) == f"locomo-repro:{__version__}|{fields}"
    assert default(**change) != default()


def test_a_model_signature_names_model_endpoint_and_the_closed_control_but_no_credentials():
    one = default(model="gpt-x", base="https://user:secret@api.example:8443/v1/?key=abc")
    assert one.endswith("|model:gpt-x|endpoint:https://api.example:8443/v1")
    assert "secret" not in one and "abc" not in one
    assert default(model="gpt-x", base="https://api.example/v1", closed=True).endswith("|closed:yes")
    assert default(model="gpt-x", base="https://api.example/v1") != default(model="gpt-y", base="https://api.example/v1")
    assert default(model="m", base="https://a.example/v1") != default(model="m", base="https://b.example/v1")


def test_a_file_is_named_by_its_bytes_not_its_path(tmp_path):
    one = tmp_path / "a" / "answers.json"
    one.parent.mkdir()
    one.write_bytes(b'[{"sample_id": "x", "qa": []}]')
    two = tmp_path / "elsewhere.json"
    shutil.copy(one, two)
    assert str(signature.predictions(one, "kit")) == str(signature.predictions(two, "kit"))
    assert str(tmp_path) not in str(signature.predictions(one, "kit"))
    two.write_bytes(b"[]")
    assert signature.predictions(one, "kit") != signature.predictions(two, "kit")


def test_the_official_scorer_is_named_by_its_sha_prefix():
    assert signature.official_scorer("8e3be5d57ff2ff9e") == "official-8e3be5d5"
    assert str(signature.Signature((("scorer", signature.official_scorer("8e3be5d5ab")),))) == (
        f"locomo-repro:{__version__}|scorer:official-8e3be5d5"
    )


@pytest.mark.parametrize(("value", "shown"), [(5, "5"), (0.3, "0.30"), (1.0, "1.00"), (0.0, "0.00"), (0.305, "0.305")])
def test_settings_print_with_two_decimals_unless_that_loses_digits(value, shown):
    assert signature.number(value) == shown
