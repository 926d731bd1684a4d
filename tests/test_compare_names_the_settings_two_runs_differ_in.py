"""``compare`` of two runs with different settings compares them and names, on stderr, every setting they
differ in with each file's value; runs with the same settings get no such note."""

from __future__ import annotations

import io

from locomo_repro import cli


def run(path, *argv: str) -> None:
    argv = ("-only", "2", "-jobs", "1", "-quiet", "-json", str(path), *argv)
    assert cli.run(cli.parser().parse_args(list(argv)), io.StringIO()) == 0


def test_two_runs_of_different_floors_are_compared_and_the_floor_is_named(tmp_path, capsys):
    run(tmp_path / "low.json", "-floor", "0.1", "-arms", "read")
    run(tmp_path / "high.json", "-floor", "0.5", "-arms", "read")
    capsys.readouterr()
    assert cli.main(["compare", str(tmp_path / "low.json"), str(tmp_path / "high.json")]) == 0
    out, err = capsys.readouterr()
    notes = [line for line in err.splitlines() if line.startswith("note: ")]
    assert notes == ["note: the results files' settings differ: floor 0.1 (low.json), 0.5 (high.json)"]
    assert "| high.json oracle " in out and "| low.json oracle " in out
    assert [line for line in err.splitlines() if line.startswith("signature: ")] == [
        f"signature: locomo-repro:0.1.0|data:79fa87e9|only:2|scorer:kit|arms:read|k:5|floor:{f}|span:4|band:0.90|parts:2"
        for f in ("0.10", "0.50")]


def test_a_run_compared_with_itself_gets_no_note(tmp_path, capsys):
    run(tmp_path / "a.json", "-arms", "read")
    capsys.readouterr()
    assert cli.main(["compare", str(tmp_path / "a.json"), str(tmp_path / "a.json")]) == 0
    assert "note:" not in capsys.readouterr().err
