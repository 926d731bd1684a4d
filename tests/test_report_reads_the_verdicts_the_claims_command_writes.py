"""``locomo-repro claims --json FILE`` writes every verdict; ``locomo-repro report --verdicts FILE``
shows them, and refuses in one line a file that is not one, or not of this manifest."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from locomo_repro import claims
from locomo_repro.claims.report import as_json
from locomo_repro.report import cli as report_cli
from locomo_repro.report import figures


@pytest.fixture(scope="module")
def small(samples):
    """A manifest of the cheap claims (dataset counts, the time-word count) and their verdicts, measured."""
    manifest = claims.load()
    chosen = replace(manifest, claims=tuple(c for c in manifest.claims if c.kind in ("dataset", "timewords")))
    lab = claims.Lab(samples)
    return chosen, [claims.verdict(c, lab, chosen) for c in chosen.claims]


def test_the_verdicts_file_shows_what_the_claims_command_measured(small, tmp_path):
    manifest, verdicts = small
    path = tmp_path / "verdicts.json"
    path.write_text(as_json(verdicts))
    view = figures.read_verdicts(str(path), manifest)
    assert view.measured
    assert dict(view.counts) == {s: sum(v.claim.status == s for v in verdicts) for s in claims.STATUSES}
    assert [(r.id, r.measured, r.holds) for r in view.refuted] == [
        (v.claim.id, v.shown, v.ok) for v in verdicts if v.claim.status in claims.REFUTING]
    assert ("limits.time-words", "42") in [(r.id, r.measured) for r in view.refuted]
    assert view.failing == ()


def test_a_failing_verdict_is_named(small, tmp_path):
    manifest, verdicts = small
    rows = json.loads(as_json(verdicts))
    rows["verdicts"][0]["ok"] = False
    path = tmp_path / "verdicts.json"
    path.write_text(json.dumps(rows))
    assert figures.read_verdicts(str(path), manifest).failing == (verdicts[0].claim.id,)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda rows: rows["verdicts"].pop(), "its claims are not the manifest's"),
        (lambda rows: rows["verdicts"].append(dict(rows["verdicts"][0])), "its claims are not the manifest's"),
        (lambda rows: rows["verdicts"][1].update(status="refuted"), "is refuted, the manifest says"),
        (lambda rows: rows["verdicts"][2].pop("measured"), "not a verdicts file"),
        (lambda rows: rows.pop("verdicts"), "not a verdicts file"),
    ],
)
def test_a_verdicts_file_of_another_manifest_is_refused_in_one_line(small, tmp_path, change, says):
    manifest, verdicts = small
    rows = json.loads(as_json(verdicts))
    change(rows)
    path = tmp_path / "verdicts.json"
    path.write_text(json.dumps(rows))
    with pytest.raises(figures.VerdictsError, match=says) as err:
        figures.read_verdicts(str(path), manifest)
    assert str(err.value).startswith(f"{path}: ") and "\n" not in str(err.value)


def test_the_report_refuses_a_bad_verdicts_file_before_any_work(tmp_path, capsys, matplotlib_found):
    bad = tmp_path / "verdicts.json"
    bad.write_text("{")
    out = tmp_path / "r.html"
    assert report_cli.main(["--verdicts", str(bad), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"locomo-repro report: {bad}: not JSON") and err.count("\n") == 1
    assert not out.exists()
    assert report_cli.main(["--verdicts", str(bad), "--claims", "measure", "-o", str(out)]) == 2
    assert "exclude each other" in capsys.readouterr().err


def test_the_claims_command_refuses_an_unwritable_json_path_before_measuring(tmp_path, capsys):
    assert claims.main(["--json", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"locomo-repro: --json {tmp_path}: is a folder\n"


@pytest.mark.slow
def test_the_page_shows_the_verdicts_file_and_signs_it(samples, tmp_path, capsys):
    pytest.importorskip("matplotlib", reason="the report extra (matplotlib) is not installed")
    from locomo_repro.score import signature

    manifest = claims.load()
    rows = [{"id": c.id, "status": c.status, "published": c.published, "measured": "m", "ok": c.id != "metric.stems",
             "problem": "", "reason": "r"} for c in manifest.claims]
    path = tmp_path / "verdicts.json"
    path.write_text(json.dumps({"verdicts": rows}))
    out = tmp_path / "r.html"
    assert report_cli.main(["--only", "1", "--verdicts", str(path), "-o", str(out)]) == 0
    text = out.read_text()
    assert '<section id="claims" data-measured="true">' in text
    assert '<p class="failing" id="claims-failing" data-count="1">' in text
    assert f'data-signature="locomo-repro:0.1.0|claims:{signature.file_digest(claims.default_path())}|' \
           f'verdicts:{signature.file_digest(path)}"' in text
