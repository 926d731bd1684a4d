"""Installed from its wheel into a fresh virtual environment, the kit finds its own files (claims.yaml,
peers.yaml, golden/) from any folder: the wheel holds them byte for byte, and the commands that read them run
from an empty folder with no variable naming them.

The wheel is built with ``pip wheel --no-deps`` from a copy of what the build reads (pyproject.toml,
README.md, the package), so nothing is written into the checkout.  The environment is made without pip or
packages; a ``.pth`` file lends it the running interpreter's libraries (numpy, nltk, matplotlib...), so the
kit is the only thing installed into it and nothing is downloaded but the build's own setuptools."""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from test_the_kit_ships_claims_peers_and_golden_identical_to_the_top_level import ROOT, files

pytestmark = pytest.mark.slow


def _run(*argv: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None):
    return subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "locomo_repro", source / "locomo_repro", ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path_factory.mktemp("wheel")
    done = _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", out, source)
    assert done.returncode == 0, done.stderr
    (made,) = out.glob("locomo_repro-*.whl")
    return made


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    """A fresh environment with the wheel installed into it; the running interpreter's libraries lent by .pth."""
    home = tmp_path_factory.mktemp("venv")
    assert _run(sys.executable, "-m", "venv", "--without-pip", home).returncode == 0
    python = home / "bin" / "python"
    lib = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))").stdout.strip())
    (lib / "lent.pth").write_text("".join(f"{p}\n" for p in site.getsitepackages()))
    # --ignore-installed: the kit the lent libraries may hold (tox installs it there) is not this wheel
    done = _run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "--quiet",
                "--ignore-installed", wheel)
    assert done.returncode == 0, done.stderr
    return home


def test_the_wheel_holds_the_manifests_golden_and_the_publication(wheel):
    with zipfile.ZipFile(wheel) as z:
        held = {n.removeprefix("locomo_repro/shipped/"): z.read(n) for n in z.namelist()
                if n.startswith("locomo_repro/shipped/")}
    assert held == files(ROOT)


@pytest.fixture
def empty(tmp_path) -> Path:
    folder = tmp_path / "empty"
    folder.mkdir()
    return folder


def _env() -> dict[str, str]:
    """The caller's environment less what could point the kit at the checkout."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LOCOMO_CLAIMS", "LOCOMO_PUBLICATION")}


def test_the_installed_kit_is_the_wheels(venv, empty):
    done = _run(venv / "bin" / "python", "-c", "import locomo_repro; print(locomo_repro.__file__)", cwd=empty, env=_env())
    assert Path(done.stdout.strip()).is_relative_to(venv), done.stdout + done.stderr


def test_golden_check_compares_with_the_installed_files(venv, empty):
    done = _run(venv / "bin" / "locomo-repro", "golden", "--check", "--scorer", "kit", cwd=empty, env=_env())
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("the kit's, byte for byte") == 5
    assert list(empty.iterdir()) == []


def test_the_report_reads_the_installed_manifest(venv, empty):
    pytest.importorskip("matplotlib", reason="the report extra (matplotlib) is not installed")
    done = _run(venv / "bin" / "locomo-repro", "report", "--only", "1", "-o", "r.html", cwd=empty, env=_env())
    assert done.returncode == 0, done.stderr
    page = (empty / "r.html").read_text(encoding="utf-8")
    assert 'id="claims-status"' in page


def test_claims_help_runs_installed(venv, empty):
    done = _run(venv / "bin" / "locomo-repro", "claims", "--help", cwd=empty, env=_env())
    assert done.returncode == 0 and "--manifest" in done.stdout, done.stderr
