"""Past twelve conversations, where the exact bootstrap would enumerate too many resamples, the intervals are a
seeded Monte Carlo bootstrap: 10,000 resamples drawn by numpy's PCG64 from seed 0, the same every run; the
results file names the method, resamples and seed, the run's signature and ``stats``' too, and ``compare``
and ``stats`` give intervals and paired differences with a note saying how.  Up to twelve, nothing changes."""

from __future__ import annotations

import io
import json

import numpy as np

from kit_child import tiny
from locomo_repro import cli
from locomo_repro.score import compare, stats


def by_hand(diff: list[float], size: list[float]) -> tuple[float, float]:
    """The 2.5% and 97.5% quantiles of the statistic over the seeded draws, in plain Python: each resample's
    Σ c·d / Σ c·s, sorted, and at each tail the first value at which the count reaches q × resamples."""
    draws = np.random.default_rng(0).multinomial(len(diff), [1 / len(diff)] * len(diff), size=10_000).tolist()
    values = []
    for counts in draws:
        total = asked = 0.0
        for c, d, s in zip(counts, diff, size):
            total, asked = total + c * d, asked + c * s
        if asked:
            values.append(total / asked)
    values.sort()
    low, high = (values[next(i for i in range(len(values)) if i + 1 >= q * len(values))] for q in (0.025, 0.975))
    return low, high


def test_the_interval_is_the_seeded_draws_quantiles_worked_out_by_hand():
    diff = [float(i % 3 == 0) for i in range(13)]
    size = [1.0 + (i % 2) for i in range(13)]
    point, low, high = stats.bootstrap(diff, size)
    assert point == sum(diff) / sum(size)
    assert (low, high) == by_hand(diff, size)
    assert stats.bootstrap(diff, size) == (point, low, high)  # seeded: the same every time
    assert stats.monte_carlo(diff, size, seed=1) != (point, low, high)
    assert stats.bootstrap(diff[:12], size[:12]) == stats.interval(diff[:12], size[:12])  # exact up to twelve


def predictions(conversations: int) -> list[dict]:
    """One single-hop question per conversation, arm a right in every third conversation, arm b always."""
    return [{"sample_id": f"c{i}", "qa": [{"question": "Where?", "answer": "Paris", "category": 4, "evidence": [],
                                            "a_prediction": "Paris" if i % 3 == 0 else "Rome", "b_prediction": "Paris"}]}
            for i in range(conversations)]


def test_compare_and_stats_give_the_interval_and_say_how(tmp_path, capsys):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(predictions(13)))
    assert cli.main(["compare", str(path), "--format", "json"]) == 0
    out, err = capsys.readouterr()
    document = json.loads(out)
    (row,) = [r for r in document["rows"] if r["category"] == "4" and r["column"] == "p.json b"]
    gaps = [1.0 - float(i % 3 == 0) for i in range(13)]
    assert (row["diff"], row["low"], row["high"]) == (sum(gaps) / 13, *by_hand(gaps, [1.0] * 13))
    said = ("13 conversations, too many to enumerate every resample: the intervals are a Monte Carlo bootstrap of "
            "10,000 resamples, seed 0")
    assert document["notes"] == [said] and f"note: {said}\n" in err
    assert stats.main([str(path)]) == 0
    out, err = capsys.readouterr()
    assert "bootstrap over 13 conversations (Monte Carlo: 10,000 resamples, seed 0)" in out
    assert err.rstrip().endswith("|scorer:kit|bootstrap:monte-carlo-95-10000-seed0")


def test_up_to_twelve_compare_is_exact_and_says_nothing(tmp_path, capsys):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(predictions(12)))
    assert compare.main([str(path), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["notes"] == []


def test_a_run_over_thirteen_conversations_names_its_bootstrap_in_the_signature_and_file(tmp_path, capsys):
    data = tiny(tmp_path / "thirteen.json", samples=13)
    argv = ["-data", str(data), "-arms", "read", "-quiet", "-jobs", "1", "-json", str(tmp_path / "r.json")]
    assert cli.run(cli.parser().parse_args(argv), io.StringIO()) == 0
    err = capsys.readouterr().err
    document = json.loads((tmp_path / "r.json").read_text())
    assert document["signature"].endswith("|bootstrap:monte-carlo-95-10000-seed0")
    assert f"signature: {document['signature']}\n" in err
    assert {k: document["bootstrap"][k] for k in ("method", "resamples", "seed")} == {
        "method": "monte-carlo", "resamples": 10_000, "seed": 0}
    overall = document["passes"][0]["arms"]["oracle"]["rows"]["4"]
    assert overall["f1_interval"] is not None
