"""The docs cannot drift from the kit: every command in a fenced shell block of the README and of ``docs/`` is
read by the parser that would carry it out.

A ``locomo-repro`` command (or ``python -m locomo_repro …``) is parsed by its subcommand's own ``parser()`` with
the flags as written, the benchmark's settings checked as a run checks them; ``make TARGET`` names a target of
the Makefile, ``tox -e ENV`` an environment of tox.ini, ``pip install '.[EXTRA]'`` extras of pyproject.toml.  A
block of another language (``text``, ``json``, ``toml``, ``python``) is not a command.  The README's three
commands for scoring one's own system are also run, in ``test_the_readme_scores_your_own_system_as_it_says``.
"""

from __future__ import annotations

import configparser
import importlib
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from locomo_repro import cli
from locomo_repro.go.flags import UsageError

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL = ("", "sh", "bash", "shell", "console")


def blocks(markdown: str) -> list[tuple[int, str]]:
    """Every fenced shell block of a markdown text: (line number of its first line, its text)."""
    found, lines = [], markdown.splitlines()
    at = 0
    while at < len(lines):
        fence = re.match(r"\s*```(\S*)\s*$", lines[at])
        if fence:
            end = next(i for i in range(at + 1, len(lines)) if lines[i].strip().startswith("```"))
            if fence.group(1) in SHELL:
                found.append((at + 2, "\n".join(lines[at + 1: end])))
            at = end
        at += 1
    return found


def commands(text: str) -> list[list[str]]:
    """The commands of a shell block, as the shell splits them: continuations joined, comments dropped, a
    variable assignment before a command dropped, a ``$(…)`` command substitution read as a command too."""
    out: list[list[str]] = []
    for line in text.replace("\\\n", " ").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        for inner in re.findall(r"\$\(([^)]*)\)", line):
            out.append(shlex.split(inner, comments=True))
        words = shlex.split(re.sub(r"\$\([^)]*\)", "X", line), comments=True)
        while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
            words = words[1:]
        if words and words[0] == "export":
            continue
        if words:
            out.append(words)
    return out


def every_command() -> list[tuple[str, list[str]]]:
    return [(f"{path.relative_to(ROOT)}:{line}", words)
            for path in DOCS for line, text in blocks(path.read_text(encoding="utf-8")) for words in commands(text)]


def kit_parse(argv: list[str]) -> None:
    """Parse a ``locomo-repro`` command line as the command would, without running it."""
    first = argv[0] if argv else ""
    if first in ("--help", "-h", "--version"):
        return
    if first and not first.startswith("-"):
        assert first in cli.COMMANDS, f"no command {first!r}"
    name = first if first in cli.COMMANDS else "run"
    rest = argv[1:] if first in cli.COMMANDS else argv
    if name == "run":
        args = cli.parser().parse_args(rest)
        if args.arms != "list":
            cli.options(args)
        return
    command = cli.COMMANDS[name]
    importlib.import_module(command.module).parser().parse_args([*command.prefix, *rest])


def targets() -> set[str]:
    return set(re.findall(r"^([A-Za-z][\w-]*):", (ROOT / "Makefile").read_text(), re.M))


def check(words: list[str]) -> bool:
    """Check one command; False when it is not one of the kit's (``cd``, ``cat``, …)."""
    tool = words[0]
    if tool == "locomo-repro":
        kit_parse(words[1:])
    elif tool in ("python", "python3") and words[1:2] == ["-m"]:
        module = words[2]
        if module == "locomo_repro":
            kit_parse(words[3:])
        elif module.startswith("locomo_repro."):
            name = module.split(".", 1)[1]
            assert name in ("claims", "refined", "peers", "report"), f"python -m {module} is no alias of the kit's"
            kit_parse([name, *words[3:]])
        else:
            return False
    elif tool == "make":
        named = [w for w in words[1:] if "=" not in w]
        assert named and set(named) <= targets(), f"make {' '.join(named)}: not a target of the Makefile"
    elif tool == "tox":
        envs = configparser.ConfigParser()
        envs.read(ROOT / "tox.ini")
        for i, word in enumerate(words):
            if word == "-e":
                assert f"testenv:{words[i + 1]}" in envs, f"tox -e {words[i + 1]}: no such environment"
    elif tool == "pip" and words[1:2] == ["install"]:
        extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
        for word in words[2:]:
            if m := re.fullmatch(r"\.\[([\w,-]+)\]", word):
                assert set(m.group(1).split(",")) <= set(extras), f"{word}: no such extra"
    else:
        return False
    return True


FOUND = every_command()


def test_the_docs_hold_the_kits_commands():
    kits = [where for where, words in FOUND if words[0] in ("locomo-repro", "make", "tox")]
    assert len(kits) >= 20  # the parser below reads the docs' blocks: it does find them


@pytest.mark.parametrize(("where", "words"), FOUND, ids=[f"{w} {' '.join(c)[:60]}" for w, c in FOUND])
def test_every_command_in_the_docs_parses(where, words):
    try:
        check(words)
    except (SystemExit, UsageError, AssertionError) as err:
        pytest.fail(f"{where}: {shlex.join(words)}: {err}")


def test_a_wrong_flag_in_a_doc_would_be_caught():
    """The check itself: a misspelt flag, an unknown command, target and extra each fail it."""
    for words in (["locomo-repro", "-arm", "walk"], ["locomo-repro", "stat", "f.json"], ["make", "benchmark"],
                  ["pip", "install", ".[plots]"], ["locomo-repro", "-k", "0"]):
        with pytest.raises((SystemExit, UsageError, AssertionError)):
            check(words)


@pytest.mark.slow
def test_the_readme_scores_your_own_system_as_it_says(tmp_path):
    """The README's three commands, run as written by the installed ``locomo-repro`` command (a script in a
    folder of its own, as pip writes it: the import path starts there, not in the current folder) over two
    conversations, with the memory of docs/plugins.md as ``mymemory.py`` in the current folder and the BM25
    baseline's results beside it."""
    plugins = (ROOT / "docs" / "plugins.md").read_text()
    here = tmp_path / "work"
    here.mkdir()
    (here / "mymemory.py").write_text(re.search(r"```python\n(.*?)```", plugins, re.S).group(1))
    script = tmp_path / "bin" / "locomo-repro"
    script.parent.mkdir()
    script.write_text("import sys\nfrom locomo_repro.cli import main\nsys.exit(main())\n")
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Scoring your own system"):]
    three = [words for _, text in blocks(section) for words in commands(text)][:3]
    assert [w[:2] for w in three] == [["locomo-repro", "-arms"], ["locomo-repro", "stats"],
                                      ["locomo-repro", "compare"]]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def run(words: list[str]) -> subprocess.CompletedProcess:
        done = subprocess.run([sys.executable, str(script), *words[1:], *(
            ["-only", "2"] if words[1].startswith("-") else [])], cwd=here, env=env, capture_output=True,
            text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        return done

    run(["locomo-repro", "-arms", "locomo_repro.arms.bm25:BM25", "-json", "bm25.json"])  # the README's bm25.json
    for words in three:
        done = run(words)
    assert "mine.json recent" in done.stdout and "bm25.json bm25" in done.stdout

