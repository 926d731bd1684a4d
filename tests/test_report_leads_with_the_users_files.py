"""Given ``--predictions``, the report leads with the user's files: their section first, each named by its base
name and digest (never a folder), its own judge's figure beside the official F1 where the file carries one,
and no panel or row for a half it has no question of.  Claims refuted for one reason are one row, and every
recorded figure reads as ``locomo-repro claims`` prints it.  The files are made up here."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from locomo_repro import claims
from locomo_repro.claims.agree import expected, show
from locomo_repro.report import figures, page
from locomo_repro.report import cli as report_cli
from locomo_repro.score.figures import verdicts
from locomo_repro.score.predictions import read


def qa(category, answer, a, b, a_judge=None):
    out = {"question": "q?", "answer": answer, "category": category, "evidence": ["D1:1"],
           "a_prediction": a, "b_prediction": b}
    return out if a_judge is None else {**out, "a_judge": a_judge}


@pytest.fixture
def made_up(tmp_path):
    """Two conversations, categories 2 and 4 only (no adversarial question); arm a carries judge verdicts."""
    path = tmp_path / "deep" / "folder" / "mine.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps([
        {"sample_id": "s1", "qa": [qa(4, "red", "red", "blue", 1), qa(4, "blue", "green", "blue", 0),
                                   qa(2, "May", "May", "June")]},
        {"sample_id": "s2", "qa": [qa(4, "cat", "cat", "cat", 1), qa(2, "2020", "2021", "2020", 1)]},
    ]))
    return path


def test_the_file_s_own_judge_is_the_share_true_of_the_verdicts_it_has(made_up):
    predictions = read(made_up)
    rows = {(e.arm, e.row): e for e in figures.categories(predictions, verdicts(predictions))}
    assert rows["a", "4"].judge == 2 / 3  # three category-4 verdicts: 1, 0, 1
    assert rows["a", "2"].judge == 1.0  # one of the two category-2 questions has a verdict
    assert rows["a", "overall"].judge == 3 / 4
    assert rows["b", "4"].judge is None  # b carries no verdict
    assert {row for _, row in rows} == {"2", "4", "answerable", "overall"}  # no row for a category not there


def test_a_half_without_a_question_has_no_difference_and_no_panel(made_up):
    diffs = figures.differences(read(made_up))
    assert [(d.one, d.two, d.half) for d in diffs] == [("a", "b", "answerable")]


def test_claims_refuted_for_one_reason_are_one_row():
    view = figures.recorded_claims(claims.load())
    groups = view.groups()
    assert sum(len(rows) for _, _, rows in groups) == len(view.refuted)
    assert len({(status, why) for status, why, _ in groups}) == len(groups)
    assert len(groups) < len(view.refuted)
    biggest = max(groups, key=lambda g: len(g[2]))
    assert len(biggest[2]) == sum(1 for r in view.refuted if (r.status, r.why) == biggest[:2])
    text = page.claims_section(view, "sig")
    # the status table (each status and the total), then one row a reason
    assert text.count("<tr data-status=") == len(view.counts) + 1 + len(groups)
    assert text.count("<li data-claim=") == len(view.refuted)
    assert text.count(page.esc(biggest[1])) == 1  # the shared reason is printed once


def test_every_recorded_measurement_is_printed_as_the_claims_command_prints_it():
    manifest = claims.load()
    view = figures.recorded_claims(manifest)
    by_id = {c.id: c for c in manifest.claims}
    for row in view.refuted:
        claim = by_id[row.id]
        if claim.unit in ("bool", "text"):
            continue
        scale = 100 if claim.unit == "percent" else 1  # a percent is recorded x100
        value = expected(claim, measured=True)
        value = [float(v) / scale for v in value] if isinstance(value, tuple) else float(value) / scale
        assert show(claim, value) == row.measured, row.id


def test_the_fraction_claim_reads_as_measured(samples):
    manifest = claims.load()
    (claim,) = [c for c in manifest.claims if c.id == "result.abstain.adversarial-share"]
    got = claims.verdict(claim, claims.Lab(samples), manifest)
    assert got.ok and got.shown == "0.225"
    (row,) = [r for r in figures.recorded_claims(manifest).refuted if r.id == claim.id]
    assert row.measured == got.shown


class Outline(HTMLParser):
    """The page's section ids and headings' text, in order."""

    def __init__(self):
        super().__init__()
        self.sections: list[str] = []
        self.headings: list[str] = []
        self.svgs: list[str] = []
        self._in: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section" and "id" in attrs:
            self.sections.append(attrs["id"])
        if tag in ("h2", "h3"):
            self._in = ""
        if tag == "svg":
            self.svgs.append(attrs.get("data-figure", ""))

    def handle_data(self, data):
        if self._in is not None:
            self._in += data

    def handle_endtag(self, tag):
        if tag in ("h2", "h3") and self._in is not None:
            self.headings.append(self._in)
            self._in = None


@pytest.mark.slow
def test_the_page_leads_with_the_file_named_by_base_name_with_its_judge(samples, made_up, tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="the report extra (matplotlib) is not installed")
    out = tmp_path / "r.html"
    assert report_cli.main(["--only", "1", "--predictions", str(made_up), "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    outline = Outline()
    outline.feed(text)
    assert outline.sections[:4] == ["files", "claims", "tradeoff", "categories"]
    digest = re.search(r'data-signature="[^"]*predictions:([0-9a-f]+)', text).group(1)
    assert outline.headings[1] == f"mine.json (predictions {digest}, 2 conversations)"
    assert not [h for h in outline.headings if "/" in h]
    assert outline.svgs[:2] == ["intervals-file-1", "differences-file-1"]
    estimates = re.findall(r'<tr data-arm="a" data-row="(\w+)"[^>]*>.*?</tr>', text)
    assert estimates == ["2", "4", "answerable", "overall"]
    judged = dict(re.findall(r'<tr data-arm="(a)" data-row="4".*?data-judge="([^"]+)"', text))
    assert float(judged["a"]) == 2 / 3
    assert 'data-source="file-1"' in text and 'data-half="adversarial"' not in text.split('id="claims"')[0]
