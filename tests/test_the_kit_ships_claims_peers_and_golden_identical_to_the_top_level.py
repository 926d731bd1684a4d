"""The files the installed kit reads (``locomo_repro/shipped/``: claims.yaml, peers.yaml, golden/) are the
repository's top-level ones, byte for byte, and no file more or less: the top-level files are edited,
``make shipped`` copies them (``make golden`` and ``make reference-golden`` do it after writing)."""

from __future__ import annotations

from pathlib import Path

from locomo_repro.claims import default_path
from locomo_repro.data import shipped

ROOT = Path(__file__).resolve().parents[1]
TOP = ("claims.yaml", "claims-audit.yaml", "claims-plus.yaml", "peers.yaml", "golden")


def files(base: Path) -> dict[str, bytes]:
    """Every file under ``base``'s shipped names, by path relative to ``base``."""
    out = {}
    for name in TOP:
        top = base / name
        for f in [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file()):
            out[f.relative_to(base).as_posix()] = f.read_bytes()
    return out


def test_the_package_holds_the_top_level_files_byte_for_byte():
    mine, top = files(shipped.path()), files(ROOT)
    assert "golden/reference/default.txt" in top and "golden/publication/locomo-bench-README.md" in top
    stale = sorted(n for n in top.keys() & mine.keys() if top[n] != mine[n])
    assert not stale, f"{stale[:3]} differ from the top-level files: run make shipped"
    assert sorted(top.keys() - mine.keys()) == [], "files missing from locomo_repro/shipped: run make shipped"
    assert sorted(mine.keys() - top.keys()) == [], "files only in locomo_repro/shipped: run make shipped"


def test_the_claims_command_reads_the_kits_manifest_wherever_it_runs(tmp_path, monkeypatch):
    monkeypatch.delenv("LOCOMO_CLAIMS", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "claims.yaml").write_text("not the manifest\n")  # a file of the folder is not read
    assert default_path() == shipped.path("claims.yaml")
    assert default_path().read_bytes() == (ROOT / "claims.yaml").read_bytes()
