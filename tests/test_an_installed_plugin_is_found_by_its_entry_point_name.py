"""A package that declares a plug-in in the entry-point group ``locomo_repro.arms`` is found by that name once
installed: ``-arms list`` lists it with its distribution's version and kind (or why it cannot be loaded),
``-arms NAME`` runs it, and the signature names where it lives and that version.  The package is installed the
way pip leaves one, a ``.dist-info`` folder beside its module on the path."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent


@pytest.fixture
def site(tmp_path) -> Path:
    info = tmp_path / "site" / "toy_memory-1.2.3.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-memory\nVersion: 1.2.3\n")
    (info / "entry_points.txt").write_text("[locomo_repro.arms]\nmine = toy_plugins:Vec\nbroken = toy_plugins:Nope\n")
    (info / "top_level.txt").write_text("toy_plugins\n")
    return tmp_path / "site"


def kit(site: Path, *argv: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS), str(site)])}
    return subprocess.run([sys.executable, "-m", "locomo_repro", *argv], env=env, capture_output=True, text=True,
                          timeout=300, cwd=site)


@pytest.mark.slow
def test_the_list_names_the_installed_plugin_and_its_version(site):
    done = kit(site, "-arms", "list")
    assert done.returncode == 0 and done.stderr == ""
    assert "  mine   toy_plugins:Vec (toy-memory 1.2.3): memory\n" in done.stdout
    assert "  broken toy_plugins:Nope (toy-memory 1.2.3): cannot be loaded: toy_plugins has no attribute Nope\n" \
        in done.stdout
    assert "  main   vector, graph, graph+edge, oracle\n" in done.stdout


@pytest.mark.slow
def test_an_installed_plugin_runs_by_its_name_and_is_signed_with_its_version(site):
    done = kit(site, "-arms", "mine", "-only", "1", "-quiet")
    assert done.returncode == 0, done.stderr
    assert "|arms:mine|plugin:vec=toy_plugins:Vec (toy-memory 1.2.3)|" in done.stderr
    assert done.stdout.splitlines()[6].split() == ["vec"]


@pytest.mark.slow
def test_an_installed_plugin_that_is_not_there_is_one_line(site):
    done = kit(site, "-arms", "broken", "-only", "1")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "locomo-repro: -arms broken: toy_plugins has no attribute Nope\n"
