"""claims.yaml holds exactly the numbers of the publication: each is a claim or a listed not-claim.

The publication (hanzoai/semantic bench/locomo/README.md, MIT) is kept in the kit at
``golden/publication/`` (with its licence notice) and pinned by the sha256 that claims.yaml records;
``LOCOMO_PUBLICATION`` only points the check at another copy.  The number reader it relies on is tested
here on hand-made text.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from locomo_repro import claims

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = claims.load(ROOT / "claims.yaml")
PUBLICATION = ROOT / "golden" / "publication" / "locomo-bench-README.md"


@pytest.fixture(scope="module")
def publication() -> str:
    """The publication's text: the kit's copy, or the file ``LOCOMO_PUBLICATION`` names."""
    return Path(os.environ.get("LOCOMO_PUBLICATION") or PUBLICATION).read_text(encoding="utf-8")


def test_the_kept_publication_is_the_pinned_one():
    assert hashlib.sha256(PUBLICATION.read_bytes()).hexdigest() == MANIFEST.publication["sha256"]
    assert "MIT License" in (PUBLICATION.parent / "LICENSE").read_text()


def test_the_manifest_holds_exactly_the_numbers_of_the_publication(publication):
    got = hashlib.sha256(publication.encode("utf-8")).hexdigest()
    assert got == MANIFEST.publication["sha256"], "the publication changed: re-read it and update claims.yaml"

    sections = claims.split_sections(publication, MANIFEST.sections)
    found: Counter = Counter()
    for section, text in sections.items():
        for token in claims.numbers(text):
            found[section, token] += 1
    listed = MANIFEST.counts()
    missing = sorted((k, n - listed[k]) for k, n in found.items() if n > listed[k])
    extra = sorted((k, n - found[k]) for k, n in listed.items() if n > found[k])
    assert not missing, f"numbers of the publication the manifest does not account for: {missing[:20]}"
    assert not extra, f"numbers the manifest lists that the publication does not print: {extra[:20]}"
    assert sum(found.values()) > 900

    flat = {k: " ".join(v.split()) for k, v in sections.items()}
    for c in MANIFEST.claims:
        assert " ".join(c.published.split()) in flat[c.section], f"{c.id}: {c.published!r} is not printed in {c.section!r}"


# --- the number reader -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Ten conversations, 272 sessions, 5,882 turns, 1,986 questions", ["ten", "272", "5,882", "1,986"]),
        ("0.142 against 0.144, 95% CI [-0.010, +0.006].", ["0.142", "0.144", "95%", "-0.010", "+0.006"]),
        ("worth -0.029 — and 0.068 → 0.119 on oracle", ["-0.029", "0.068", "0.119"]),
        ("covers 58–79% of it, and 84.9–88.0% there", ["58", "79%", "84.9", "88.0%"]),
        ("takes 5.2s of CPU (10.8s wall)", ["5.2s", "10.8s"]),
        ("F1 of path2 and walk3 in locomo10.json, the 2x2 below", ["2x2"]),
        ("D20:2 John: ctx=[D7:16 D9:9] from conv-43", ["D20:2", "D7:16", "D9:9", "conv-43"]),
        ("k=5 floor=0.30 and -k 2000 -floor 0, 1-4", ["5", "0.30", "2000", "0", "1", "4"]),
        ("SHA-256 79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4.",
         ["256", "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4"]),
        ("Half of it, a quarter, a fifth of each; someone, everyone, none", ["half", "quarter", "fifth"]),
        ("context[0] and CC BY-NC 4.0.", ["0", "4.0"]),
        ("8.8x larger, 6x more often, 2x2, 0xff", ["8.8", "6", "2x2"]),
    ],
)
def test_numbers_are_read_as_printed(text, want):
    assert claims.numbers(text) == want


@given(st.integers(min_value=0, max_value=10**9), st.sampled_from(["", "%", "s"]))
def test_a_figure_reads_back_its_value(n, suffix):
    printed = f"{n:,}{suffix}"
    assert claims.numbers(f"about {printed} here") == [printed]
    assert claims.figure(printed) == n


def test_figure_reads_signs_and_commas():
    assert str(claims.figure("−0.029")) == "-0.029"
    assert str(claims.figure("+0.152")) == "0.152"
    assert str(claims.figure("2,805,274")) == "2805274"
    assert claims.figure("half") is None


def test_sections_start_at_their_headings():
    text = "LoCoMo\nTen talks.\nThe result\n0.223 overall\nCaveats\nOne more.\n"
    got = claims.split_sections(text, ["The result", "Caveats"])
    assert got == {"intro": "LoCoMo\nTen talks.", "The result": "The result\n0.223 overall", "Caveats": "Caveats\nOne more."}
    with pytest.raises(ValueError, match="'Missing' occurs 0 times"):
        claims.split_sections(text, ["The result", "Missing"])
