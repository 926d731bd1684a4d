"""The bench measures the kit as an installed kit runs, its modules' bytecode cached: its children keep what
they compile in a cache of their own whatever the caller's environment says, and each command is run once,
unmeasured, before it is measured (see also the alternation test)."""

from __future__ import annotations

from pathlib import Path

from locomo_repro.bench import perf


def test_the_childrens_environment_drops_dont_write_bytecode_and_names_the_cache(monkeypatch):
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setenv("LOCOMO_BENCH_SEEN", "kept")
    env = perf.steady("/some/cache")
    assert "PYTHONDONTWRITEBYTECODE" not in env
    assert env["PYTHONPYCACHEPREFIX"] == "/some/cache" and env["LOCOMO_BENCH_SEEN"] == "kept"


def test_a_child_told_not_to_write_bytecode_writes_the_kits_into_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    perf.measure(["--help"], perf.KIT, perf.steady(str(tmp_path)))
    compiled = {p.name.split(".")[0] for p in tmp_path.rglob("locomo_repro/*.pyc")}
    assert "cli" in compiled, sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.pyc"))[:5]


def test_the_single_command_is_run_once_unmeasured_then_measured_in_the_cached_environment(monkeypatch, capsys):
    calls: list[tuple[list[str], dict]] = []

    def fake(flags, command=perf.KIT, env=None):
        calls.append((list(flags), env))
        return perf.Usage(cpu=9.0 if len(calls) == 1 else 1.0, wall=1.0, rss_mib=30.0)

    monkeypatch.setattr(perf, "measure", fake)
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    assert perf.main(["--runs", "2", "--", "-only", "1"]) == 0
    assert [flags for flags, _ in calls] == [["-only", "1"]] * 3
    caches = {env["PYTHONPYCACHEPREFIX"] for _, env in calls}
    assert len(caches) == 1 and all("PYTHONDONTWRITEBYTECODE" not in env for _, env in calls)
    assert not Path(caches.pop()).exists()  # the cache goes with the command
    out = capsys.readouterr().out
    assert "cpu  1.00 s" in out and "9.00" not in out  # the warm run is not among the measured
