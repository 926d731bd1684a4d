"""A relative output path (``-out``, ``-json``, the ``-resume`` folder) and the ``-data`` path are resolved
once, when the run starts: a plug-in that changes the working folder moves none of them."""

from __future__ import annotations

import kit_child


def test_a_plugin_that_changes_the_working_folder_moves_no_output(tmp_path):
    home, away = tmp_path / "home", tmp_path / "away"
    home.mkdir()
    away.mkdir()
    kit_child.tiny(home / "data.json", samples=2)
    done = kit_child.run(["-data", "data.json", "-arms", "hostile_plugins:Wanders", "-jobs", "1", "-quiet",
                          "-out", "p.json", "-json", "r.json", "-resume", "kept"], home,
                         {"PYTHONPATH": f"{kit_child.ROOT}:{kit_child.ROOT / 'tests'}", "WANDER_TO": str(away)})
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in home.iterdir()) == ["data.json", "kept", "p.json", "r.json"]
    assert len(list((home / "kept").iterdir())) == 2 and list(away.iterdir()) == []
    assert "predictions: p.json (wanders)" in done.stdout


def test_refined_predict_writes_where_it_was_asked_whatever_the_plugin_does(tmp_path):
    home, away = tmp_path / "home", tmp_path / "away"
    home.mkdir()
    away.mkdir()
    kit_child.tiny(home / "data.json")
    done = kit_child.run(["refined", "predict", "--arm", "hostile_plugins:Wanders", "--data", "data.json",
                          "--out", "p.jsonl"], home,
                         {"PYTHONPATH": f"{kit_child.ROOT}:{kit_child.ROOT / 'tests'}", "WANDER_TO": str(away)})
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in home.iterdir()) == ["data.json", "p.jsonl"] and list(away.iterdir()) == []
    assert '"output_path": "p.jsonl"' in done.stdout
