"""In a sweep over a plug-in's setting the plug-in is built once per value, and each value's variant costs its
own: the results file gives each pass the swept arm's cost (``passes[].cost``), ``compare`` each column its
pass's, and stderr a cost line per value; the run's ``cost`` keeps the first value's as before.  What differs
here is counted, never timed: a variant that fails its first ``fails`` calls, tried again."""

from __future__ import annotations

import io
import json

from locomo_repro import cli
from locomo_repro.arms import plugin
from locomo_repro.arms.plugin import Conversation


class Failing:
    """A memory whose first ``fails`` recalls of a conversation raise (a service waking up), then its first turns."""

    name = "failing"

    def __init__(self, conversation: Conversation, fails: int = 0) -> None:
        self.ids = [t.id for t in conversation.turns]
        self.left = fails

    def recall(self, question: str, k: int) -> list[tuple[str, float]]:
        if self.left > 0:
            self.left -= 1
            raise TimeoutError("not awake yet")
        return [(i, 1.0) for i in self.ids[:k]]


def test_each_value_s_variant_has_its_own_cost_in_the_file_compare_and_stderr(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(plugin, "FIRST_WAIT", 0.0)
    path = tmp_path / "s.json"
    argv = ["-arms", f"{__name__}:Failing,vector", "-sweep", "failing(fails=0,2,1)", "-retries", "3", "-only", "1",
            "-quiet", "-jobs", "1", "-json", str(path)]
    assert cli.run(cli.parser().parse_args(argv), io.StringIO()) == 0
    err = capsys.readouterr().err
    kept = json.loads(path.read_text())
    passes = kept["passes"]
    assert [sorted(p["cost"]) for p in passes] == [["failing"]] * 3  # vector is built once: the run's cost only
    assert [p["cost"]["failing"]["failures"] for p in passes] == [0, 2, 1]
    questions = passes[0]["arms"]["failing"]["rows"]["overall"]["n"]
    assert [p["cost"]["failing"]["calls"]["n"] for p in passes] == [questions] * 3
    assert kept["cost"]["failing"]["failures"] == 0 and sorted(kept["cost"]) == ["failing", "vector"]
    said = [line for line in err.splitlines() if line.startswith("locomo-repro: cost of ")]
    assert [line.split(":")[1] for line in said] == [
        " cost of failing (fails=0)", " cost of failing (fails=2)", " cost of failing (fails=1)", " cost of vector"]
    assert "note: arm failing(fails=2): 2 calls failed and were tried again (-retries 3)" in err
    assert "note: arm failing(fails=1): 1 calls failed and were tried again (-retries 3)" in err

    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    assert cli.main(["compare", str(path), "--format", "json"]) == 0
    costs = {row["column"]: row["failures"] for row in json.loads(out.getvalue())["costs"]}
    assert costs == {"s.json failing.fails=0 failing": 0, "s.json failing.fails=0 vector": 0, "s.json failing.fails=2 failing": 2,
                     "s.json failing.fails=2 vector": 0, "s.json failing.fails=1 failing": 1, "s.json failing.fails=1 vector": 0}


def test_a_results_file_without_pass_costs_reads_as_before(tmp_path, capsys):
    path = tmp_path / "one.json"
    argv = ["-arms", f"{__name__}:Failing", "-sweep", "failing(fails=0,1)", "-retries", "1", "-only", "1", "-quiet",
            "-jobs", "1", "-json", str(path)]
    assert cli.run(cli.parser().parse_args(argv), io.StringIO()) == 0
    data = json.loads(path.read_text())
    for p in data["passes"]:
        del p["cost"]  # a file written before passes had their own: each pass reads the run's cost
    path.write_text(json.dumps(data))
    from locomo_repro.score import results

    got = results.read(path)
    assert [got.cost(at, "failing") for at in (0, 1)] == [got.costs["failing"]] * 2 and got.passes[1].costs == {}
