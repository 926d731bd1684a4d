"""The report's figures hold the numbers the command line prints for the same run (no plotting, no browser)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from locomo_repro import claims
from locomo_repro.bench import experiment as bench
from locomo_repro.read.reader import Options
from locomo_repro.report import figures
from locomo_repro.score import stats
from locomo_repro.score.predictions import parse
from locomo_repro.score.stats import go_f


def qa(category, answer, **replies):
    item = {"question": "q", "answer": answer, "category": category, "evidence": []}
    for arm, reply in replies.items():
        item[f"{arm}_prediction"] = reply
    return item


#: Three conversations, two arms, answerable and adversarial questions.
HAND = parse(
    [
        {"sample_id": "c1", "qa": [qa(4, "red apple", a="red apple", b="green"),
                                   qa(1, "Paris", a="Paris France", b="Paris"),
                                   qa(5, "x", a="No information available", b="x")]},
        {"sample_id": "c2", "qa": [qa(4, "blue", a="blue", b="blue"),
                                   qa(5, "y", a="y", b="No information available")]},
        {"sample_id": "c3", "qa": [qa(2, "7 May 2023", a="May 2023", b="7 May 2023"),
                                   qa(3, "tea", a="coffee", b="tea")]},
    ],
    "hand.json",
)


def test_differences_are_the_paired_rows_stats_prints():
    printed = stats.render(HAND).split("paired difference", 1)[1].splitlines()[2:]
    diffs = figures.differences(HAND)
    assert [(d.one, d.two, d.half) for d in diffs] == [("a", "b", "adversarial"), ("a", "b", "answerable")]
    cells = "".join(f"  {go_f(d.point, 6, 3, True)} [{go_f(d.low, 6, 3, True)}, {go_f(d.high, 6, 3, True)}]" for d in diffs)
    assert printed == [f"{'a':<10} - {'b':<11}" + cells]


def test_category_estimates_are_means_of_the_grades_with_an_interval_around_them():
    marks = stats.grades(HAND)
    got = {(e.arm, e.row): e for e in figures.categories(HAND)}
    assert sorted({row for _, row in got}) == sorted(["1", "2", "3", "4", "5", "answerable", "overall"])
    for arm in ("a", "b"):
        for key, label, kinds in figures.ROWS:
            mine = [m for q, m in zip(HAND.questions, marks[arm]) if q.category in kinds]
            e = got[arm, key]
            assert e.n == len(mine) and e.point == pytest.approx(sum(mine) / len(mine), abs=1e-15)
            assert e.low <= e.point <= e.high
            assert e.label.startswith(key)
    assert got["a", "4"].label == "4 single hop" and got["a", "1"].label == "1 multi hop"
    assert got["b", "5"].point == 0.5  # one abstention right, one answer given where none was due


#: HAND by hand.  Grades of a: c1 1, 2/3 ("Paris France": stems paris, franc against paris), 1 (declined);
#: c2 1, 0; c3 0.8 ("May 2023" against "7 May 2023"), 0.  Of b: c1 0, 1, 0; c2 1, 1; c3 1, 1.
#: Over three conversations each resample of one conversation drawn three times weighs 1 of at most 27, more
#: than the 2.5% tail, so the interval runs from the lowest conversation's mean to the highest (of those with a
#: question in the row).  Per row and arm: (n, mean, low, high).
BY_HAND = {
    ("a", "4"): (2, 1.0, 1.0, 1.0), ("b", "4"): (2, 0.5, 0.0, 1.0),
    ("a", "1"): (1, 2 / 3, 2 / 3, 2 / 3), ("b", "1"): (1, 1.0, 1.0, 1.0),
    ("a", "2"): (1, 0.8, 0.8, 0.8), ("b", "2"): (1, 1.0, 1.0, 1.0),
    ("a", "3"): (1, 0.0, 0.0, 0.0), ("b", "3"): (1, 1.0, 1.0, 1.0),
    ("a", "5"): (2, 0.5, 0.0, 1.0), ("b", "5"): (2, 0.5, 0.0, 1.0),
    # answerable: a's conversations 5/6, 1, 0.4 and 52/15 over 5 questions; b's 1/2, 1, 1 and 4 over 5
    ("a", "answerable"): (5, 52 / 75, 0.4, 1.0), ("b", "answerable"): (5, 0.8, 0.5, 1.0),
    # overall, the adversarial questions too: a's 8/9, 1/2, 0.4 and 67/15 over 7; b's 1/3, 1, 1 and 5 over 7
    ("a", "overall"): (7, 67 / 105, 0.4, 8 / 9), ("b", "overall"): (7, 5 / 7, 1 / 3, 1.0),
}


def test_every_rows_estimate_and_interval_are_the_hand_computed_ones():
    got = {(e.arm, e.row): (e.n, e.point, e.low, e.high) for e in figures.categories(HAND)}
    assert sorted(got) == sorted(BY_HAND)
    for key, want in BY_HAND.items():
        assert got[key] == pytest.approx(want, abs=1e-15), key


def test_the_overall_row_counts_every_question_the_adversarial_ones_included():
    overall = {e.arm: e for e in figures.categories(HAND) if e.row == "overall"}
    assert {arm: (e.n, e.label) for arm, e in overall.items()} == {"a": (7, "overall"), "b": (7, "overall")}
    assert overall["a"].point == pytest.approx(67 / 105, abs=1e-15)  # answerable alone: 52/75


def test_the_differences_are_the_hand_computed_ones():
    """a - b by hand: adversarial c1 +1, c2 -1 (c3 asks none): 0 over 2, from -1 to +1; answerable c1 2/3 over 2,
    c2 0 over 1, c3 -1.2 over 2: -8/15 over 5 = -8/75, from c3's -0.6 to c1's 1/3."""
    got = [(d.one, d.two, d.half, d.point, d.low, d.high) for d in figures.differences(HAND)]
    assert got == [("a", "b", "adversarial", 0.0, -1.0, 1.0),
                   ("a", "b", "answerable", pytest.approx(-8 / 75, abs=1e-15), pytest.approx(-0.6, abs=1e-15),
                    pytest.approx(1 / 3, abs=1e-15))]


def test_a_category_nobody_was_asked_is_left_out():
    one = parse([{"sample_id": "c", "qa": [qa(4, "x", a="x")]}], "one.json")
    assert [e.row for e in figures.categories(one)] == ["4", "answerable", "overall"]
    assert figures.differences(one) == []


def test_too_many_conversations_for_the_exact_bootstrap_is_refused_in_one_line():
    many = parse([{"sample_id": f"c{i}", "qa": [qa(4, "x", a="x")]} for i in range(13)], "many.json")
    with pytest.raises(stats.PredictionsError, match="many.json: 13 conversations"):
        figures.categories(many)


@pytest.mark.slow
def test_the_tradeoff_at_the_published_floors_is_the_floor_sweep(samples):
    cases = bench.build(samples[:1], "main")
    printed = bench.sweep(cases, Options(), "floor").splitlines()
    arms = printed[0].split()
    points = figures.tradeoff(bench.run(cases, Options(floor=0.0)), bench.STEPS["floor"])
    for line, floor in zip(printed[2:], bench.STEPS["floor"]):
        mine = {p.arm: p for p in points if p.floor == floor}
        assert sorted(mine) == arms
        row = f"{floor:8g}" + "".join(
            f"  {mine[a].answerable:6.3f} {mine[a].adversarial:6.3f} {_overall(cases, a, floor):6.3f} "
            f"{100 * mine[a].quiet:4.0f}%"
            for a in arms
        )
        assert line == row


def _overall(cases, arm, floor):
    return bench.Tally(bench.run(cases, Options(floor=floor))[arm]).mean()


def test_the_tradeoff_grid_runs_from_0_to_1_and_holds_the_published_floors():
    assert figures.FLOORS[0] == 0 and figures.FLOORS[-1] == 1 and len(figures.FLOORS) == 21
    assert set(bench.STEPS["floor"]) <= set(figures.FLOORS)


def test_declining_more_never_raises_the_share_answered(samples):
    points = figures.tradeoff(bench.run(bench.build(samples[:1], "main"), Options(floor=0.0)), (0.0, 0.5, 1.0))
    for arm in {p.arm for p in points}:
        quiet = [p.quiet for p in sorted((p for p in points if p.arm == arm), key=lambda p: p.floor)]
        assert quiet == sorted(quiet)


def test_recorded_claims_count_every_claim_and_list_every_refuted_one():
    manifest = claims.load()
    view = figures.recorded_claims(manifest)
    assert not view.measured
    assert [s for s, _ in view.counts] == list(claims.STATUSES)
    assert sum(n for _, n in view.counts) == len(manifest.claims)
    refuted = [c for c in manifest.claims if c.status in claims.REFUTING]
    assert [r.id for r in view.refuted] == [c.id for c in refuted]
    for row, claim in zip(view.refuted, refuted):
        assert row.published == claim.published and row.measured and row.why
        assert re.fullmatch(r"\S.*", row.measured) and "\n" not in row.why


def test_measured_claims_are_the_verdicts_of_the_claims_command(samples):
    manifest = claims.load()
    chosen = [c for c in manifest.claims if c.kind in ("dataset", "timewords")]
    small = replace(manifest, claims=tuple(chosen))
    view = figures.measured_claims(small, claims.Lab(samples), None)
    assert view.measured and view.failing == ()
    lab = claims.Lab(samples)
    want = [claims.verdict(c, lab, small) for c in chosen if c.status in claims.REFUTING]
    assert [(r.id, r.measured) for r in view.refuted] == [(v.claim.id, v.shown) for v in want]
    assert ("limits.time-words", "42") in [(r.id, r.measured) for r in view.refuted]
    assert sum(n for _, n in view.counts) == len(chosen)
