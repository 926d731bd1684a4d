"""The front door: ``locomo-repro --help`` lists every subcommand with one line, ``--version`` names the kit,
and each subcommand answers ``--help`` with its own usage under the name it was called by (``import`` and
``table`` too, which ``peers`` carries out), exit status 0."""

from __future__ import annotations

import pytest

from locomo_repro import __version__, cli


def test_help_lists_every_subcommand_with_one_line(capsys):
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    listed = [line.split()[0] for line in out.split("commands:\n")[1].split("\n\n")[0].splitlines()]
    assert listed == list(cli.COMMANDS)
    assert "-arms SET" in out  # and the benchmark's own flags after them


def test_version_names_the_kit(capsys):
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out == f"locomo-repro {__version__}\n"


@pytest.mark.parametrize("name", [n for n in cli.COMMANDS if n != "run"])
def test_each_subcommand_answers_help_with_its_usage(name, capsys):
    with pytest.raises(SystemExit) as done:
        cli.main([name, "--help"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: locomo-repro {name} ")


def test_an_unknown_subcommand_is_one_line(capsys):
    assert cli.main(["frobnicate"]) == 2
    assert capsys.readouterr().err == "locomo-repro: unknown command 'frobnicate' (see locomo-repro --help)\n"
