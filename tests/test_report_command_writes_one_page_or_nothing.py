"""``locomo-repro report``: one self-contained page whose data attributes hold the figures' numbers; bad input is
one line, exit 2, nothing written; without matplotlib, one line saying how to install it."""

from __future__ import annotations

import importlib.util
from html.parser import HTMLParser

import pytest

from locomo_repro import cli
from locomo_repro.report import cli as report_cli
from locomo_repro.report import figures, page


class Elements(HTMLParser):
    """Every start tag with its attributes, in document order."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def elements(text: str) -> list[tuple[str, dict[str, str]]]:
    parser = Elements()
    parser.feed(text)
    return parser.tags


def small_page() -> str:
    view = figures.Claims(False, (("reproduced", 3), ("refuted", 1)),
                          (figures.ClaimRow("x.y", "refuted", "0.5", "0.4", "because <b>", True),))
    points = (figures.Point("graph", 0.3, 0.25, 0.2, 0.75),)
    trade = page.Tradeoff("tradeoff-main", "t", "locomo-repro:0.1.0|floor:sweep", points, '<svg data-figure="a"></svg>')
    estimates = (figures.Estimate("graph", "4", "4 single hop", 10, 0.125, 0.1, 0.2),)
    diffs = (figures.Difference("graph", "vector", "answerable", -0.0625, -0.1, 0.0),)
    source = page.Source("main", "-arms main", "locomo-repro:0.1.0|k:5", estimates, diffs, "<svg></svg>", "<svg></svg>")
    return page.render(view, "locomo-repro:0.1.0|claims:abc", [trade], [source])


def test_the_page_keeps_every_number_in_a_data_attribute():
    tags = elements(small_page())
    by = lambda key: [a for _, a in tags if key in a]  # noqa: E731
    assert [a["data-count"] for a in by("data-count")] == ["3", "1", "4"]
    (point,) = by("data-floor")
    assert (float(point["data-quiet"]), float(point["data-answerable"]), float(point["data-adversarial"])) == (
        0.25, 0.2, 0.75)
    (estimate,) = by("data-f1")
    assert estimate["data-row"] == "4" and float(estimate["data-f1"]) == 0.125 and estimate["data-n"] == "10"
    (diff,) = by("data-diff")
    assert float(diff["data-diff"]) == -0.0625 and diff["data-half"] == "answerable"
    signatures = {a["data-figure"]: a["data-signature"] for a in by("data-signature")}
    assert signatures == {"claims": "locomo-repro:0.1.0|claims:abc", "tradeoff-main": "locomo-repro:0.1.0|floor:sweep",
                          "main": "locomo-repro:0.1.0|k:5"}


def test_the_page_loads_nothing_and_escapes_what_it_quotes():
    text = small_page()
    tags = elements(text)
    assert not [t for t, _ in tags if t in ("script", "img", "iframe", "object")]
    linked = [a.get("src") or a.get("href") for _, a in tags if "src" in a or "href" in a]
    assert linked == ["data:,"]
    assert "because &lt;b&gt;" in text and "because <b>" not in text


def test_without_matplotlib_the_report_says_how_to_install_it(tmp_path, monkeypatch, capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    out = tmp_path / "r.html"
    assert cli.main(["report", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == ("locomo-repro report: matplotlib is not installed: pip install 'locomo-repro[report]' "
                   "(from a clone of the kit: pip install '.[report]')\n")
    assert not out.exists()


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--only", "-1"], "--only takes a count of 0 or more"),
        (["--claims", "all"], "argument --claims: invalid choice"),
        (["--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(argv, says, tmp_path, capsys):
    assert report_cli.main([*argv, "-o", str(tmp_path / "r.html")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and says in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_a_bad_predictions_file_is_named_in_one_line_and_nothing_is_written(tmp_path, capsys, matplotlib_found):
    bad = tmp_path / "other.json"
    bad.write_text("[{}]")
    out = tmp_path / "r.html"
    assert report_cli.main(["--predictions", str(bad), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"locomo-repro report: {bad}: ") and err.count("\n") == 1
    assert not out.exists()


def test_an_output_in_an_unwritable_place_is_refused_before_any_work(tmp_path, capsys):
    assert report_cli.main(["-o", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"locomo-repro report: {tmp_path}: is a folder\n"


@pytest.mark.slow
def test_a_report_over_one_conversation_holds_both_arm_sets_and_a_signature_per_figure(samples, tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="the report extra (matplotlib) is not installed")
    out = tmp_path / "r.html"
    assert cli.main(["report", "--only", "1", "-o", str(out)]) == 0
    stdout, err = capsys.readouterr()
    assert stdout == f"{out}\n" and "floor=" not in err  # the floors are one progress, not a line each
    tags = elements(out.read_text())
    figures_shown = [a["data-figure"] for t, a in tags if t == "svg"]
    assert figures_shown == ["tradeoff-main", "tradeoff-walk", "intervals-main", "differences-main",
                             "intervals-walk", "differences-walk"]
    signed = [a["data-figure"] for _, a in tags if "data-signature" in a]
    assert signed == ["claims", "tradeoff-main", "tradeoff-walk", "main", "walk"]
    assert len([a for _, a in tags if "data-floor" in a]) == 21 * (4 + 7)


@pytest.mark.slow
def test_the_command_line_and_the_figures_numbers_need_no_matplotlib():
    import subprocess
    import sys

    code = ("import sys, locomo_repro.cli, locomo_repro.report.figures, locomo_repro.report.page; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "[]\n"
