"""Given ``--results``, the report sets each arm's F1 (answerable and overall) against what it cost: the words of
evidence handed to its reader a question and the median of one call, one labelled point per arm, for each results
file and for the kit's own arm sets as the report's run measured them.  The numbers are the file's own floats,
checked against a tiny results file written here; a page without ``--results`` keeps exactly its figures."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest

from locomo_repro import cli
from locomo_repro.report import cli as report_cli
from locomo_repro.report import figures, page
from locomo_repro.score import results

KEYS = ("4", "1", "2", "3", "5", "answerable", "overall")


def rows(answerable: float, overall: float) -> dict:
    """A pass's rows for one arm over one conversation: two answerable questions and one adversarial."""
    f1 = {"4": answerable, "1": 0.0, "2": 0.0, "3": 0.0, "5": 3 * overall - 2 * answerable,
          "answerable": answerable, "overall": overall}
    n = {"4": 2, "1": 0, "2": 0, "3": 0, "5": 1, "answerable": 2, "overall": 3}
    return {k: {"name": results.name(k), "n": n[k], "f1": f1[k], "recall": None, "quiet": 0.0,
                "f1_interval": [f1[k], f1[k]] if n[k] else None} for k in KEYS}


def arm(answerable: float, overall: float, words: float | None) -> dict:
    every = rows(answerable, overall)
    return {"rows": every,
            "conversations": [{"sample": "s1", "rows": {k: {"n": r["n"], "score": r["f1"] * r["n"]}
                                                        for k, r in every.items()}}],
            "evidence": None if words is None else {"questions": 3, "turns": 2.0, "characters": 60.0, "words": words}}


def cost(p50: float | None, n: int) -> dict:
    return {"build": {"seconds": 0.5, "conversations": [0.5], "sessions": None},
            "calls": {"n": n, "seconds": 0.3, "p50": p50, "p95": p50, "p99": p50}, "failures": 0}


@pytest.fixture
def tiny(tmp_path):
    """A sweep over a plug-in's setting (two passes): ``mine`` built per value, with each variant's cost in its
    pass, and ``read`` an answerer naming no evidence whose cost is the run's."""
    path = tmp_path / "folder" / "tiny.json"
    path.parent.mkdir()
    passes = [{"sweep": {"setting": "mine.k1", "value": v}, "options": {"k": 5, "floor": 0.3, "span": 4, "band": 0.9,
                                                                         "parts": 2},
               "arms": {"mine": arm(a, o, w), "read": arm(0.25, 0.5, None)},
               "cost": {"mine": cost(p, 3)}}
              for v, a, o, w, p in ((0.5, 0.75, 0.5, 40.0, 0.002), (1.5, 0.5, 1 / 3, 12.5, 0.004))]
    path.write_text(json.dumps({
        "schema": "locomo-repro/results", "version": 2, "kit_version": "0.1.0", "signature": "locomo-repro:0.1.0|x:y",
        "dataset": {"sha256": "a" * 64, "conversations": ["s1"]}, "settings": {},
        "bootstrap": {"over": "conversations", "level": 0.95, "resamples": 1, "unavailable": None},
        "passes": passes, "cost": {"mine": cost(0.002, 3), "read": cost(1.25, 6)}, "tokens": None}))
    return path


def test_each_arm_of_each_pass_is_its_f1_beside_its_words_and_median_call(tiny):
    got = figures.spending(results.read(tiny))
    assert got == [
        figures.Spending("mine mine.k1=0.5", 0.75, 0.5, 40.0, 0.002, 3),
        figures.Spending("read mine.k1=0.5", 0.25, 0.5, None, 1.25, 6),
        figures.Spending("mine mine.k1=1.5", 0.5, 1 / 3, 12.5, 0.004, 3),
        figures.Spending("read mine.k1=1.5", 0.25, 0.5, None, 1.25, 6),
    ]


def test_a_version_1_file_has_f1_and_no_cost(tiny):
    data = json.loads(tiny.read_text())
    data["version"] = 1
    tiny.write_text(json.dumps(data))
    got = figures.spending(results.read(tiny))
    assert [(s.label, s.answerable, s.overall, s.words, s.p50, s.calls) for s in got][:2] == [
        ("mine mine.k1=0.5", 0.75, 0.5, None, None, 0), ("read mine.k1=0.5", 0.25, 0.5, None, None, 0)]


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def tags(text: str) -> list[tuple[str, dict]]:
    parser = _Tags()
    parser.feed(text)
    return parser.tags


def test_the_cost_section_holds_every_number_and_a_page_without_it_is_unchanged(tiny):
    view = figures.Claims(False, (("reproduced", 1),), ())
    points = tuple(figures.spending(results.read(tiny)))
    part = page.Costs("results-1", "tiny.json (results 1a2b3c4d, 1 conversations)", "results:1a2b3c4d",
                      points, '<svg data-figure="cost-results-1"></svg>')
    plain = page.render(view, "claims:abc", [], [])
    assert page.render(view, "claims:abc", [], [], costs=()) == plain and 'id="cost"' not in plain
    shown = page.render(view, "claims:abc", [], [], costs=[part])
    assert shown.startswith(plain[: plain.index("</body>")]) and '<section id="cost">' in shown
    marked = [a for _, a in tags(shown) if "data-label" in a]
    assert [(a["data-label"], float(a["data-answerable"]), float(a["data-overall"]), a["data-words"], a["data-p50"],
             a["data-calls"]) for a in marked] == [
        ("mine mine.k1=0.5", 0.75, 0.5, "40.0", "0.002", "3"), ("read mine.k1=0.5", 0.25, 0.5, "null", "1.25", "6"),
        ("mine mine.k1=1.5", 0.5, 1 / 3, "12.5", "0.004", "3"), ("read mine.k1=1.5", 0.25, 0.5, "null", "1.25", "6")]
    signed = {a["data-figure"]: a["data-signature"] for _, a in tags(shown) if "data-signature" in a}
    assert signed["cost-results-1"] == "results:1a2b3c4d"
    assert [a["id"] for t, a in tags(shown) if t == "figure"] == ["figure-cost-results-1"]


def test_the_plot_is_the_same_for_the_same_numbers_and_moves_with_them(tiny):
    pytest.importorskip("matplotlib", reason="the report extra (matplotlib) is not installed")
    from locomo_repro.report import plots

    points = figures.spending(results.read(tiny))
    svg = plots.spending(points, "cost-tiny", "tiny")
    assert svg.startswith('<svg data-figure="cost-tiny" role="img" ') and svg == plots.spending(points, "cost-tiny",
                                                                                             "tiny")
    moved = [points[0], points[1], points[2], figures.Spending("read mine.k1=1.5", 0.25, 0.5, None, 2.5, 6)]
    assert plots.spending(moved, "cost-tiny", "tiny") != svg  # a point of the right-hand panels is drawn where it is


def test_a_bad_results_file_is_named_in_one_line_and_nothing_is_written(tmp_path, capsys, matplotlib_found):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"schema": "locomo-repro/results", "version": 9}))
    out = tmp_path / "r.html"
    assert report_cli.main(["--results", str(bad), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == f"locomo-repro report: {bad}: results version 9; this kit reads versions 1, 2\n"
    assert not out.exists()


@pytest.mark.slow
def test_a_report_given_a_results_file_shows_it_and_the_kits_arm_sets_against_their_cost(samples, tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="the report extra (matplotlib) is not installed")
    made = tmp_path / "mine.json"
    assert cli.main(["-only", "1", "-arms", "read", "-quiet", "-json", str(made)]) == 0
    out = tmp_path / "r.html"
    assert cli.main(["report", "--only", "1", "--results", str(made), "-o", str(out)]) == 0
    capsys.readouterr()
    shown = tags(out.read_text())
    assert [a["data-figure"] for t, a in shown if t == "svg"][-3:] == ["cost-results-1", "cost-main", "cost-walk"]
    kept = results.read(made)
    first = [a for _, a in shown if "data-label" in a][: len(kept.passes[0].arms)]  # the file's table comes first
    on_page = {a["data-label"]: a for a in first}
    assert list(on_page) == list(kept.passes[0].arms)
    for name, got in kept.passes[0].arms.items():  # the file's arms: its own floats
        assert float(on_page[name]["data-answerable"]) == got.rows["answerable"].f1
        assert float(on_page[name]["data-p50"]) == kept.costs[name].p50
