"""The report given ``--judged FILE`` beside ``--predictions FILE``: each row's J of the judged file's verdicts
on the file's very replies (with its denominator and interval) beside the F1, the judge's leniency over its
probes and each arm's agreement with the file's own verdicts, checked against hand computations.  The files
are made up here (``test_report_leads_with_the_users_files``'s predictions file: arm a carries its own
verdicts 1, 0, -, 1, 1)."""

from __future__ import annotations

import re

import pytest
from judged_files import verdict, write
from test_report_leads_with_the_users_files import made_up  # noqa: F401  (a fixture)

from locomo_repro.report import cli as report_cli
from locomo_repro.report import figures, page
from locomo_repro.score.figures import verdicts
from locomo_repro.score.predictions import read

#: s1: red (4), green|blue (4), May|June (2); s2: cat (4), 2021|2020 (2) -- replies of a|b as the file gives them.
JUDGED = [
    verdict("s1", 0, 4, 1.0, arm="a", reply="red"), verdict("s1", 1, 4, 1.0, arm="a", reply="green"),
    verdict("s1", 2, 2, 1.0, arm="a", reply="May"), verdict("s2", 0, 4, 1.0, arm="a", reply="cat"),
    verdict("s2", 1, 2, 0.0, arm="a", reply="2021"),
    verdict("s1", 0, 4, 0.0, arm="b", reply="blue"), verdict("s1", 1, 4, 1.0, arm="b", reply="blue"),
    verdict("s1", 2, 2, 0.0, arm="b", reply="June"), verdict("s1", 2, 2, None, arm="b", reply="June", repeat=1),
    verdict("s2", 0, 4, 1.0, arm="b", reply="cat"), verdict("s2", 1, 2, 1.0, arm="b", reply="2020"),
    verdict("s1", 0, 4, 0.0, arm="a", reply="something else"),  # on another reply: not this file's
    verdict("s1", 0, 4, 1.0, arm="probe.wrong-gold", reply="blue"), verdict("s1", 0, 4, 0.0, arm="probe.empty", reply=""),
    verdict("s1", 0, 4, 1.0, arm="probe.gold", reply="red"),
    verdict("s9", 0, 4, 1.0, arm="probe.empty", reply=""),  # about a question the file does not hold
]


@pytest.fixture
def judged(tmp_path):
    return write(tmp_path / "judged.json", JUDGED)


def test_each_row_carries_the_j_of_the_files_very_replies(made_up):  # noqa: F811
    predictions = read(made_up)
    rows = {(e.arm, e.row): e.j for e in figures.categories(predictions, verdicts(predictions), JUDGED)}
    assert (rows["a", "4"].n, rows["a", "4"].value) == (3, 1.0)
    assert (rows["a", "2"].n, rows["a", "2"].value) == (2, 0.5)
    # answerable: s1 3 of 3, s2 1 of 2; the exact bootstrap over two conversations: from 1/2 to 1
    assert (rows["a", "answerable"].n, rows["a", "answerable"].value) == (5, 4 / 5)
    assert (rows["a", "answerable"].low, rows["a", "answerable"].high) == pytest.approx((0.5, 1.0))
    assert (rows["b", "answerable"].value, rows["b", "answerable"].failed) == (3 / 5, 1)
    assert (rows["b", "4"].value, rows["b", "2"].value) == (pytest.approx(2 / 3), 0.5)


def test_the_judges_leniency_and_agreement_with_the_files_own(made_up):  # noqa: F811
    predictions = read(made_up)
    got = figures.rejudged(predictions, JUDGED, "judged.json")
    assert got.failed == 1 and got.judge == "test"
    assert {arm: (f.n, f.value) for arm, f in got.leniency} == {
        "probe.wrong-gold": (1, 1.0), "probe.empty": (1, 0.0), "probes.wrong": (2, 0.5), "probe.gold": (1, 1.0)}
    (a, b) = got.agreements
    # a: J 1, 1, 1, 0 against its own 1, 0, 1, 1 (s1's May has no own verdict): 2 of 4; p_e = 3/4·3/4 + 1/4·1/4
    assert (a.arm, a.n, a.agreement) == ("a", 4, 0.5)
    assert a.kappa == pytest.approx((0.5 - 10 / 16) / (1 - 10 / 16))
    assert (b.arm, b.n, b.agreement) == ("b", 0, None)  # b carries no verdict of its own


def test_the_page_shows_j_with_its_denominator_leniency_and_agreement(made_up):  # noqa: F811
    predictions = read(made_up)
    estimates = tuple(figures.categories(predictions, verdicts(predictions), JUDGED))
    text = page.source_section(page.Source("file-1", "mine.json", "sig", estimates, (), "", "",
                                           figures.rejudged(predictions, JUDGED, "judged.json (abc)")), lead=True)
    cells = {row: (float(j), int(n)) for row, j, n in
             re.findall(r'<tr data-arm="a" data-row="(\w+)"[^>]*>.*?data-j="([^"]+)" data-j-n="(\d+)"', text)}
    assert cells["answerable"] == (0.8, 5) and cells["overall"] == (0.8, 5)
    assert "<th>J (re-judged)</th><th>J n</th><th>J 95% interval</th>" in text
    assert 'data-leniency="probes.wrong" data-value="0.5" data-n="2"' in text
    assert f'data-agreement="a" data-n="4" data-value="0.5" data-kappa="{(0.5 - 0.625) / 0.375!r}"' in text
    assert 'data-failed="1"' in text and "judged.json (abc)" in text


def test_without_judged_the_page_has_no_j(made_up):  # noqa: F811
    predictions = read(made_up)
    estimates = tuple(figures.categories(predictions, verdicts(predictions)))
    text = page.source_section(page.Source("file-1", "mine.json", "sig", estimates, (), "", ""), lead=True)
    assert "data-j=" not in text and "J n" not in text and "rejudged" not in text


def test_more_judged_files_than_predictions_files_is_one_line(made_up, judged, tmp_path, capsys):  # noqa: F811
    out = tmp_path / "r.html"
    assert report_cli.main(["--predictions", str(made_up), "--judged", str(judged), str(judged), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--judged names 2 files for 1 --predictions files" in err and not out.exists()


@pytest.mark.slow
def test_the_page_gives_the_judged_file_beside_the_users_file(samples, made_up, judged, tmp_path):  # noqa: F811
    pytest.importorskip("matplotlib", reason="the report extra (matplotlib) is not installed")
    out = tmp_path / "r.html"
    assert report_cli.main(["--only", "1", "--predictions", str(made_up), "--judged", str(judged), "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert re.search(r'<tr data-arm="a" data-row="answerable".*?data-j="0.8" data-j-n="5"', text)
    assert re.search(r'data-signature="[^"]*predictions:[0-9a-f]+\|[^"]*judged:[0-9a-f]{8}', text)
    assert 'data-leniency="probes.wrong" data-value="0.5"' in text
