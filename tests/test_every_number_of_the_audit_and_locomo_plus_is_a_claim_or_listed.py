"""claims-audit.yaml and claims-plus.yaml hold exactly the numbers of the files they check, as claims.yaml holds
the Go publication's: each number printed is a claim or a listed not-claim (with why).

The kit ships none of these files (locomo-audit is CC BY-NC 4.0, LoCoMo-Plus states no licence): they are read
from ``LOCOMO_AUDIT`` and ``LOCOMO_PLUS`` (``peers.sources``, the folders the claims read) and held to the
sha256 the kit pins for each (``peers.sources``), which is all the kit keeps of them beside the claims' ids.
A manifest's section ``FILE: Heading`` is that heading of the file to the next listed one, ``FILE`` the file
before its first listed heading (``claims.split_documents``, tested here on hand-made text).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

import pytest

from locomo_repro import claims
from locomo_repro.peers import sources

ROOT = Path(__file__).resolve().parent.parent
MANIFESTS = {
    "audit": (claims.load(ROOT / "claims-audit.yaml"), sources.AUDIT),
    "plus": (claims.load(ROOT / "claims-plus.yaml"), sources.PLUS),
}


def _files(manifest: claims.Manifest) -> list[str]:
    return sorted({s.partition(": ")[0] for s in manifest.sections})


def _texts(of: str) -> dict[str, str]:
    """The files a manifest's sections name, each read where the claims read it and held to its pin."""
    manifest, publication = MANIFESTS[of]
    texts = {}
    for local in _files(manifest):
        data = sources.locate(publication, local).read_bytes()
        assert hashlib.sha256(data).hexdigest() == publication.pinned(local).sha256, f"{local} is not the pinned file"
        texts[local] = data.decode("utf-8")
    return texts


def test_each_file_a_section_names_is_pinned_and_the_manifest_names_the_readme():
    for manifest, publication in MANIFESTS.values():
        assert {p.local for p in publication.files} >= set(_files(manifest))
        assert manifest.publication["sha256"] == publication.pinned(manifest.publication["file"]).sha256


def _check(of: str) -> None:
    manifest, _ = MANIFESTS[of]
    sections = claims.split_documents(_texts(of), manifest.sections)
    found: Counter = Counter()
    for section, text in sections.items():
        for token in claims.numbers(text):
            found[section, token] += 1
    listed = manifest.counts()
    missing = sorted((k, n - listed[k]) for k, n in found.items() if n > listed[k])
    assert not missing, f"numbers of {of}'s files the manifest does not account for: {missing[:20]}"
    extra = sorted((k, n - found[k]) for k, n in listed.items() if n > found[k])
    assert not extra, f"numbers the manifest lists that {of}'s files do not print: {extra[:20]}"
    flat = {k: " ".join(v.split()) for k, v in sections.items()}
    for c in manifest.claims:
        assert " ".join(c.published.split()) in flat[c.section], f"{c.id}: {c.published!r} is not printed in {c.section!r}"


@pytest.mark.outside("LOCOMO_AUDIT")
def test_every_number_of_the_audits_documents_is_a_claim_or_listed():
    _check("audit")


@pytest.mark.outside("LOCOMO_PLUS")
def test_every_number_of_locomo_pluss_readme_and_judge_summary_is_a_claim_or_listed():
    _check("plus")


def test_documents_are_cut_at_their_listed_headings_outside_code():
    texts = {
        "A.md": "# Title\nintro 1\n## One\ntext 2\n```\n## Two\n```\n### Sub\n## Two\nlast 3\n",
        "b.json": '{"n": 4}',
    }
    got = claims.split_documents(texts, ["A.md: One", "A.md: Two", "b.json"])
    assert got == {
        "A.md": "# Title\nintro 1",
        "A.md: One": "## One\ntext 2\n```\n## Two\n```\n### Sub",
        "A.md: Two": "## Two\nlast 3",
        "b.json": '{"n": 4}',
    }
    with pytest.raises(ValueError, match="'Three' occurs 0 times in A.md"):
        claims.split_documents(texts, ["A.md: Three"])
    with pytest.raises(ValueError, match="'c.md', which is not at hand"):
        claims.split_documents(texts, ["c.md: One"])
