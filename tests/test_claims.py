"""Every number of the published README, measured with the kit: one test per entry of claims.yaml.

The manifest is checked against its schema when it loads; the claim tests share
the session's one ``claims.Lab`` (conftest's ``lab``), so each build (arm set,
blind, derived facts, coreference) happens once per session, for these tests
and the parity tests alike, and each run (settings) once whatever the order.
``pytest -m claims`` runs only the claims; ``pytest -k reach`` the reach claims.
"""

from __future__ import annotations

import copy
import functools
import time
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from locomo_repro import cli
from locomo_repro.bench import experiment as bench
from locomo_repro.read.reader import Options

from locomo_repro import claims
from locomo_repro.claims import expr

from locomo_repro.score import official
from locomo_repro.score.predictions import parse

MANIFEST_PATH = Path(__file__).resolve().parent.parent / "claims.yaml"
MANIFEST = claims.load(MANIFEST_PATH)


@pytest.mark.claims
@pytest.mark.slow
@pytest.mark.parametrize("claim", MANIFEST.claims, ids=[c.id for c in MANIFEST.claims])
def test_claim(claim: claims.Claim, lab: claims.Lab, record_property):
    """reproduced: measured = published at the printed precision; refuted and refuted-by-reconstruction:
    measured = the recorded value (and not the published one); reported: measured and shown in the test
    summary, its size not judged; unverifiable: no number.  A claim needing what is not here is skipped."""
    got = claims.verdict(claim, lab, MANIFEST)
    if got.missing:
        pytest.skip(f"the claim needs {got.missing}")  # the test id names the claim; one reason, one summary line
    record_property("published", claim.published)
    record_property("measured", got.shown)
    if claim.status == "reported":
        record_property("reported", f"{claim.id}: published {claim.published}, measured here {got.shown}")
    assert got.ok, f"{claim.id} ({claim.status}): {got.problem}"


# --- the manifest itself ---------------------------------------------------------------------


def test_every_claim_has_a_status_and_the_refuted_ones_say_why():
    assert len(MANIFEST.claims) >= 500
    statuses = {c.status for c in MANIFEST.claims}
    assert statuses <= set(claims.STATUSES)
    for c in MANIFEST.claims:
        if c.status != "reproduced":
            assert c.reason and len(c.reason) > 20, c.id


def test_k_reach_selects_the_reach_claims_and_no_other():
    """The claims measured by ``bench.reach`` (and its timing) carry "reach" in their ids; no other claim does,
    so ``pytest -k reach`` runs the reach claims alone (the section on what each index can reach at all is
    evidence recall at k=2000, a full run: its ids say ``ceiling``)."""
    reach = [c.id for c in MANIFEST.claims if c.kind == "reach" or c.measures.get("of", "").startswith("reach-")]
    assert len(reach) >= 6
    assert [c.id for c in MANIFEST.claims if "reach" in c.id] == reach


@functools.cache
def _raw() -> dict:
    """claims.yaml as YAML reads it, before any check (read when a test first changes it)."""
    return yaml.load(MANIFEST_PATH.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def _with(change) -> dict:
    data = copy.deepcopy(_raw())
    change(data)
    return data


def _first(data: dict, cid: str) -> dict:
    return next(c for c in data["claims"] if c["id"] == cid)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: _first(d, "intro.sessions").update(colour="red"), "claim 'intro.sessions' (entry 2): unknown key 'colour'"),
        (lambda d: _first(d, "intro.sessions").pop("where"), "claim 'intro.sessions' (entry 2): missing 'where'"),
        (lambda d: _first(d, "intro.sessions").update(status="plausible"),
         "claim 'intro.sessions' (entry 2): status 'plausible'"),
        (lambda d: _first(d, "intro.sessions").update(published="272.0"), "'272.0' is not printed at precision 1"),
        (lambda d: _first(d, "intro.sessions").update(section="Epilogue"), "unknown section 'Epilogue'"),
        (lambda d: _first(d, "intro.sessions").update(measures={"kind": "oracle"}), "measures kind 'oracle'"),
        (lambda d: _first(d, "intro.sessions").update(measures={"kind": "dataset"}), "measures (dataset): missing 'field'"),
        (lambda d: _first(d, "intro.sessions").update(
            measures={"kind": "table", "run": "-arms nothing", "row": "overall", "metric": "F1"}), "run '-arms nothing'"),
        (lambda d: _first(d, "intro.sessions").update(status="refuted", reason="because it is"), "needs 'measured'"),
        (lambda d: _first(d, "intro.sessions").update(status="refuted-by-reconstruction", reason="because it is"),
         "status refuted-by-reconstruction needs 'measured'"),
        (lambda d: _first(d, "intro.sessions").update(
            measures={"kind": "delta", "runs": ["-coref"], "arm": "graph", "row": "overall", "metric": "F1"}),
         "a delta compares two runs"),
        (lambda d: _first(d, "intro.sessions").update(
            measures={"kind": "same", "run": "-arms hops", "pairs": [["path2"]], "metrics": ["F1"]}),
         "pairs must be a list of [arm, arm] pairs"),
        (lambda d: _first(d, "intro.sessions").update(
            measures={"kind": "same", "run": "-arms hops", "pairs": [["a", "b"]], "metrics": ["precision"]}),
         "measures metrics must be a list of F1"),
        (lambda d: _first(d, "intro.sessions").update(measures={"kind": "absent", "what": "w"}),
         "measures kind 'absent'"),
        (lambda d: _first(d, "intro.sessions").update(measured="271"), "'measured' is recorded only for a refuted claim"),
        (lambda d: _first(d, "intro.sessions").update(status="reported"), "status reported needs a 'reason'"),
        (lambda d: _first(d, "intro.sessions").update(precision="fraction"), "precision 'fraction' goes with a word"),
        (lambda d: _first(d, "intro.sessions").update(precision="1/4"), "precision '1/4' is not 'exact'"),
        (lambda d: _first(d, "intro.conversations").update(value=9), "published 'Ten' means 10, value says 9"),
        (lambda d: _first(d, "intro.sessions").update(id="intro.turns"), "duplicate id"),
        (lambda d: _first(d, "factor.both").update(measures={"kind": "expr", "expr": "{factor.nothing} - 1"}),
         "unknown claim 'factor.nothing'"),
        (lambda d: _first(d, "factor.both").update(measures={"kind": "expr", "expr": "__import__('os')"}),
         "is not allowed"),
        (lambda d: d["not_claims"][0].update(value="Two", reason=""), "not_claims entry 1: 'reason' must be a non-empty string"),
        (lambda d: d.update(extra=1), "unknown key 'extra'"),
    ],
)
def test_a_malformed_manifest_is_refused_naming_the_entry(change, message):
    with pytest.raises(claims.ManifestError) as err:
        claims.validate(_with(change), "claims.yaml")
    assert message in str(err.value)


def test_load_reports_a_missing_file_in_one_line(tmp_path):
    with pytest.raises(claims.ManifestError, match="cannot read"):
        claims.load(tmp_path / "nothing.yaml")


# --- agreement at the printed precision --------------------------------------------------------


def _claim(published: str, precision: str, **kw) -> claims.Claim:
    fields = dict(id="x", section="intro", where="w", measures={"kind": "option", "name": "k"},
                  published=published, precision=precision, status="reproduced")
    fields.update(kw)
    return claims.Claim(**fields)


@pytest.mark.parametrize(
    ("published", "precision", "kw", "got", "holds"),
    [
        ("0.121", "0.001", {}, 0.12149, True),
        ("0.121", "0.001", {}, 0.1216, False),
        ("-0.029", "0.001", {}, -0.02914, True),
        ("+0.152", "0.001", {}, 0.15246, True),
        ("0.000", "0.001", {}, -0.0004, True),  # "-0.000" prints as zero
        ("24%", "1", {"unit": "percent"}, 0.2436, True),
        ("24%", "1", {"unit": "percent"}, 0.2451, False),
        ("99.45%", "0.01", {"unit": "percent"}, 0.994461, True),
        ("1,986", "1", {}, 1986, True),
        ("half", "fraction", {"value": 0.5}, 0.502, True),
        ("half", "fraction", {"value": 0.5}, 0.56, False),
        ("quarter", "fraction", {"value": 0.25}, 0.2246, False),  # nearer a fifth
        ("fifth", "fraction", {"value": 0.2}, (0.2, 0.1996), True),
        ("58–79%", "1", {"unit": "percent"}, (0.584, 0.787), True),
        ("58–79%", "1", {"unit": "percent"}, (0.584, 0.797), False),
        ("0.215 to 0.224", "0.001", {}, (0.2151, 0.2236), True),
        ("12%", "1", {"unit": "percent", "compare": "brackets"}, (0.1329, 0.1219), True),
        ("62%", "1", {"unit": "percent", "compare": "brackets"}, (0.6334, 0.6308), False),
        ("two thousandths", "0.001", {"value": 0.002, "compare": "at-most"}, 0.0012, True),
        ("two thousandths", "0.001", {"value": 0.002, "compare": "at-most"}, 0.0021, False),
        ("half", "fraction", {"value": 0.5, "compare": "above"}, 0.537, True),
        ("D20:2", "exact", {"unit": "text"}, "D20:2", True),
        ("D20:2", "exact", {"unit": "bool", "value": False}, True, False),
    ],
)
def test_agreement_at_the_printed_precision(published, precision, kw, got, holds):
    claim = _claim(published, precision, **kw)
    assert claims.agrees(claim, got, claims.expected(claim)) is holds


@pytest.mark.parametrize(
    ("word", "x", "named"),
    [
        # By hand: the simple fractions (denominators 1 to 5) around a quarter are 1/5 and 1/3, so a quarter
        # names (1/5 + 1/4) / 2 = 0.225 < x < (1/4 + 1/3) / 2 = 7/24 = 0.29166...
        ("quarter", 0.2251, True), ("quarter", 0.2249, False),
        ("quarter", 0.2916, True), ("quarter", 0.2917, False), ("quarter", 0.126, False), ("quarter", 0.374, False),
        # around a half: 2/5 and 3/5, so 0.45 < x < 0.55
        ("half", 0.4501, True), ("half", 0.4499, False), ("half", 0.5499, True), ("half", 0.5501, False),
        # around a fifth: 0 and 1/4, so 0.1 < x < 0.225
        ("fifth", 0.1001, True), ("fifth", 0.0999, False), ("fifth", 0.2249, True), ("fifth", 0.2251, False),
    ],
)
def test_a_word_for_a_fraction_names_what_lies_nearer_it_than_any_other_simple_fraction(word, x, named):
    assert claims.names_fraction(claims.FRACTION_WORDS[word], x) is named
    claim = _claim(word, "fraction", value=float(claims.FRACTION_WORDS[word]))
    assert claims.agrees(claim, x, claims.expected(claim)) is named


def test_a_measurement_halfway_between_two_simple_fractions_is_named_by_neither():
    halfway = Fraction(9, 40)  # (1/5 + 1/4) / 2
    assert not claims.names_fraction(Fraction(1, 4), halfway)
    assert not claims.names_fraction(Fraction(1, 5), halfway)


@pytest.mark.slow
@given(st.integers(min_value=0, max_value=10**6))
def test_a_count_agrees_with_itself_printed_with_thousands_separators(n):
    claim = _claim(f"{n:,}", "1")
    assert claims.agrees(claim, n, claims.expected(claim))
    assert not claims.agrees(claim, n + 1, claims.expected(claim))
    assert claims.show(claim, n) == f"{n:,}"


@given(st.floats(min_value=-1, max_value=1, allow_nan=False))
def test_a_value_agrees_with_its_own_three_decimal_print(x):
    printed = f"{x:.3f}"
    if printed == "-0.000":
        printed = "0.000"
    claim = _claim(printed, "0.001")
    assert claims.agrees(claim, x, claims.expected(claim))
    assert claims.expected(claim) == Fraction(printed)


def test_show_prints_a_measurement_the_way_the_claim_is_printed():
    assert claims.show(_claim("+0.152", "0.001"), 0.15246) == "+0.152"
    assert claims.show(_claim("24%", "1", unit="percent"), 0.2436) == "24%"
    assert claims.show(_claim("58–79%", "1", unit="percent"), (0.584, 0.787)) == "58%–79%"
    refuted = _claim("0.000", "0.001", status="refuted", measured="0.002", reason="r" * 30)
    assert claims.show(refuted, (0.0019, 0.0024)) == "0.002, 0.002"
    assert claims.show(_claim("D20:2", "exact", unit="bool", value=False), True) == "true"


def test_expressions_compute_from_unrounded_values_and_refuse_anything_else():
    assert expr.evaluate("{a} - {b}", {"a": 0.3027, "b": 0.1525}) == pytest.approx(0.1502)
    assert expr.evaluate("range(1 - {a}, 1 - {b})", {"a": 0.787, "b": 0.584}) == pytest.approx((0.213, 0.416))
    assert expr.evaluate("each({a}, {b})", {"a": 0.2, "b": 0.19}) == (0.2, 0.19)
    for bad in ("{a}.real", "open('x')", "[1, 2]", "'text'", "lambda: 1"):
        with pytest.raises((ValueError, SyntaxError)):
            expr.parse(bad)


def test_a_run_is_parsed_with_the_kits_own_flags():
    run = claims.parse_run("-arms walk -blind -k 20 -band 0.5")
    assert (run.arms, run.blind, run.derive, run.sweep) == ("walk", True, True, None)
    assert (run.options.k, run.options.band, run.options.floor) == (20, 0.5, 0.3)
    assert claims.parse_run("-no-derived").derive is False
    assert claims.parse_run("-sweep floor").sweep == "floor"
    assert claims.parse_run("-coref").build == ("main", False, True, True)
    assert claims.parse_run("-arms hops").build == ("hops", False, True, False)
    for bad in ("-k 0", "-arms everything", "-out x.json", "--colour"):
        with pytest.raises(ValueError):
            claims.parse_run(bad)


def test_the_make_check_table_is_the_official_scorers_convention():
    # Two conversations, one arm. By hand: conv-a single hop "red car" vs "red car" F1 1, recall 1/2;
    # adversarial declined 1, no evidence so recall 1. conv-b multi hop "x, y" vs "x" parts mean 1/2,
    # empty context read as the placeholder "-": recall 0.
    decoded = [
        {"sample_id": "conv-a", "qa": [
            {"question": "q", "answer": "red car", "category": 4, "evidence": ["D1:1", "D1:2"],
             "arm_prediction": "red car", "arm_prediction_context": ["D1:1", "D3:3"]},
            {"question": "q", "adversarial_answer": "yoga", "category": 5, "evidence": [],
             "arm_prediction": "No information available", "arm_prediction_context": []},
        ]},
        {"sample_id": "conv-b", "qa": [
            {"question": "q", "answer": "x, y", "category": 1, "evidence": ["D2:1"],
             "arm_prediction": "x", "arm_prediction_context": []},
        ]},
    ]
    table = claims.check_table(parse(decoded, "t"), official.kit_eval_question_answering)["arm"]
    assert table["single hop"] == (1.0, 0.5)
    assert table["adversarial"] == (1.0, 1.0)
    assert table["multi hop"] == (0.5, 0.0)
    assert table["answerable"] == (0.75, 0.25)
    assert table["overall"] == pytest.approx((2.5 / 3, 1.5 / 3))


def test_the_summary_counts_statuses_and_lists_what_is_not_simply_reproduced():
    refuted = _claim("0.000", "0.001", id="c.refuted", status="refuted", measured="0.002", reason="counted recall 1 " * 3)
    hidden = [_claim("26", "1", id=f"c.gone{i}", status="unverifiable", measures={"kind": "undefined", "what": "w"},
                     reason="no word list defines it, twenty chars") for i in range(2)]
    verdicts = [
        claims.Verdict(_claim("0.121", "0.001", id="c.ok"), 0.121, "0.121", True),
        claims.Verdict(refuted, 0.0019, "0.002", True),
        *(claims.Verdict(c, shown="—") for c in hidden),
    ]
    text = claims.summary(verdicts, markdown=True)
    assert "| reproduced                |        1 |" in text
    assert "| refuted                   |        1 |" in text
    assert "| unverifiable              |        2 |" in text
    assert "## refuted (1)" in text and "c.refuted" in text and "c.ok" not in text.split("## refuted")[1]
    assert "|        2 | c.gone0, c.gone1 | 26 26       | no word list defines it, twenty chars |" in text
    assert "FAILING" not in text


# --- the rebuilt experiments' measures and verdicts --------------------------------------------------


def _record(category: int, score: float, reply: str = "an answer") -> bench.Record:
    return bench.Record("s", "q", "a", category, (), reply, (), 1.0, score, 1.0)


class _StubLab:
    """What the measures ask of a ``Lab``: tallies per (run, arm), each conversation's outcome, the default
    run's output, a value cache."""

    def __init__(self, records=None, bound=()):
        self.records, self.bound, self.values = records or {}, bound, {}

    def default_run(self):
        return "1 conversations, 2 sessions\n\nk=5 floor=0.30 span=4 band=0.90 parts=2\n\n  table\n"

    def tally(self, run, arm):
        return bench.Tally(self.records[run, arm])

    def outcomes(self, settings):
        return [SimpleNamespace(bound=b) for b in self.bound]


def _measured(measures: dict, lab) -> object:
    lab.values.clear()  # measure() keeps a value per claim id, and these claims share one
    return claims.measure(_claim("0.000", "0.001", measures=measures), lab, MANIFEST)


def test_a_delta_is_one_cell_of_the_first_run_less_the_second():
    # multi-hop F1: with (0.5 + 0.25) / 2 = 0.375, without (0.5 + 0) / 2 = 0.25; the adversarial record is not in the row.
    lab = _StubLab({("-coref", "graph"): [_record(1, 0.5), _record(1, 0.25), _record(5, 1.0)],
                    ("", "graph"): [_record(1, 0.5), _record(1, 0.0), _record(5, 0.0)]})
    m = {"kind": "delta", "runs": ["-coref", ""], "arm": "graph", "row": "multi hop", "metric": "F1"}
    assert _measured(m, lab) == pytest.approx(0.125)


def test_same_compares_each_pair_of_arms_as_printed():
    lab = _StubLab({("-arms hops", "p2"): [_record(2, 0.3334)], ("-arms hops", "p3"): [_record(2, 0.3334)],
                    ("-arms hops", "w2"): [_record(2, 0.3334)], ("-arms hops", "w3"): [_record(2, 0.3336)]})
    m = {"kind": "same", "run": "-arms hops", "metrics": ["F1"], "rows": ["temporal"]}
    assert _measured({**m, "pairs": [["p2", "p3"]]}, lab) is True
    assert _measured({**m, "pairs": [["p2", "p3"], ["w2", "w3"]]}, lab) is False  # 0.333 against 0.334
    assert _measured({**m, "pairs": [["w2", "w3"]], "places": 2}, lab) is True


def test_bound_is_the_share_of_statement_sentences_over_every_conversation():
    assert _measured({"kind": "bound", "run": "-coref"}, _StubLab(bound=[(3, 40), (1, 60)])) == pytest.approx(0.04)
    with pytest.raises(ValueError, match="builds no coreference"):
        _measured({"kind": "bound", "run": ""}, _StubLab(bound=[None]))


def test_a_refuted_by_reconstruction_claim_asserts_what_the_rebuild_measures():
    # The option k is 5: a claim that the rebuild refutes records 5; one that records the published value is wrong.
    measures = {"kind": "option", "name": "k"}
    refuted = _claim("4", "1", status="refuted-by-reconstruction", measured="5", reason="r" * 30, measures=measures)
    got = claims.verdict(refuted, _StubLab(), MANIFEST)
    assert (got.ok, got.shown) == (True, "5")
    wrong = claims.verdict(replace(refuted, measured="6"), _StubLab(), MANIFEST)
    assert not wrong.ok and "the entry records 6" in wrong.problem
    agreeing = claims.verdict(replace(refuted, published="5"), _StubLab(), MANIFEST)
    assert not agreeing.ok and "agrees with the publication" in agreeing.problem


@pytest.mark.slow
def test_a_build_is_made_once_for_every_run_planned_of_it(samples):
    one = samples[:1]
    said: list[str] = []
    lab = claims.Lab(one, plan=[claims.parse_run(flags).settings for flags in ("", "-k 20", "-sweep floor")],
                     progress=said.append)
    default = lab.records("")
    assert said == ["-arms main: 1 conversations built and asked 2 ways (" + said[0].split("(")[1]]
    # the planned runs and every floor come from that one build, each at floor 0 and read at its floor
    assert lab.records("-k 20") is lab.records("-k 20") and lab.records("-floor 0.5") and len(said) == 1
    assert lab.records("", floor=0.3) is default
    # and each is what the run of its own settings gives
    cases = bench.build(one, "main")
    assert default == bench.run(cases, Options())
    assert lab.records("-k 20") == bench.run(cases, Options(k=20))
    assert lab.records("-floor 0.5") == bench.run(cases, Options(floor=0.5)) and len(said) == 1
    # a run outside the plan builds again, for that run alone
    lab.records("-span 3")
    assert len(said) == 2 and said[1].startswith("-arms main: 1 conversations built and asked 1 way (")


@pytest.mark.slow
def test_arm_sets_asked_the_same_settings_are_one_build_and_each_gets_its_own_records(samples):
    one = samples[:1]
    said: list[str] = []
    runs = [claims.parse_run(f"-arms {name}") for name in bench.ARM_SETS]
    lab = claims.Lab(one, plan=[run.settings for run in [*runs, claims.parse_run("-k 20")]], progress=said.append)
    for run in runs:
        got = lab.records(run)
        alone = bench.run(bench.build(one, run.arms), Options())
        assert list(got) == list(alone) and got == alone, run.arms
    assert len(said) == 1 and said[0].startswith(f"-arms {','.join(bench.ARM_SETS)}: 1 conversations built and asked 1 way")
    # -k 20 is planned for the default arm set alone: its own build, the other sets are not asked it
    assert set(lab.records("-k 20")) == set(bench.ARM_SETS["main"]) and len(said) == 2


@pytest.mark.slow
def test_the_default_run_is_timed_as_the_command_runs_it_workers_included(samples):
    lab = claims.Lab(samples[:1], jobs=2)
    own = time.process_time()
    lab.time_default_run()
    own = time.process_time() - own
    # the workers build and ask; this process waits: the CPU counted is mostly theirs
    assert lab.seconds["default-wall"] > 0 and lab.seconds["default-cpu"] > own
    seconds = dict(lab.seconds)
    lab.time_default_run()
    assert lab.seconds == seconds  # once per lab


# --- claims that can fail ----------------------------------------------------------------------


def test_the_command_lines_defaults_are_the_readers_options():
    args = cli.parser().parse_args([])
    assert cli.options(args) == Options()


@pytest.mark.slow
def test_the_settings_claims_read_the_line_the_default_run_prints(samples, monkeypatch):
    one = samples[:1]
    lab = claims.Lab(one)
    assert "k=5 floor=0.30 span=4 band=0.90 parts=2" in lab.default_run().splitlines()
    for cid in ("result.header.k", "result.header.floor"):
        assert claims.verdict(MANIFEST.claim(cid), lab, MANIFEST).ok
    # The readers' default k changed to 6 (the one source of defaults, the command line's too): the k claim fails.
    monkeypatch.setattr(claims.lab, "Options", functools.partial(Options, k=6))
    lab = claims.Lab(one)
    got = claims.verdict(MANIFEST.claim("result.header.k"), lab, MANIFEST)
    assert (got.ok, got.shown) == (False, "6")
    assert claims.verdict(MANIFEST.claim("result.header.floor"), lab, MANIFEST).ok


def test_a_claim_of_the_official_scorer_is_skipped_naming_it_when_the_scorer_is_not_here(monkeypatch):
    monkeypatch.setattr(official, "locate", lambda path=None: None)
    fetched = []

    def no_network(*args, **kw):
        fetched.append(args)
        raise official.OfficialUnavailable("cannot download it (no network); pass its path or set LOCOMO_EVALUATION_PY")

    monkeypatch.setattr(official, "fetch", no_network)

    def kit_metric(*args):
        raise AssertionError("the kit's metric stood in for the official scorer")

    monkeypatch.setattr(official, "kit_eval_question_answering", kit_metric)
    for cid in ("metric.check.graph.single-hop.f1", "metric.empty-context"):
        got = claims.verdict(MANIFEST.claim(cid), claims.Lab([]), MANIFEST)
        assert got.missing == ("the official evaluation.py (cannot download it (no network); pass its path or set "
                               "LOCOMO_EVALUATION_PY)"), got
        assert got.ok and got.holds is None and got.shown == "—"
    assert len(fetched) == 2  # after the environment and the cache, a fetch was tried, once per lab
    text = claims.summary([claims.verdict(MANIFEST.claim("metric.empty-context"), claims.Lab([]), MANIFEST)])
    assert "not measured here (1)" in text and "metric.empty-context" in text and "FAILING" not in text


def test_the_empty_context_claim_records_what_the_scorer_does_with_an_empty_list():
    def fake_scorer(qas, key):  # the official reading: context[0] whenever the key is there and evidence is not empty
        return [1], 0.0, [1.0 if qas[0][key + "_context"][0] in qas[0]["evidence"] else 0.0]

    lab = _StubLab()
    lab.scorer = lambda: fake_scorer
    claim = MANIFEST.claim("metric.empty-context")
    got = claims.verdict(claim, lab, MANIFEST)
    assert (got.shown, got.ok) == ("IndexError: list index out of range", True)
    lab.values.clear()
    lab.scorer = lambda: lambda qas, key: ([1], 0.0, [1.0])  # a scorer that gave the published 1.0
    got = claims.verdict(claim, lab, MANIFEST)
    assert (got.shown, got.ok) == ("1.0", False)


def test_a_reported_timing_is_shown_and_its_size_never_judged():
    claim = MANIFEST.claim("running.wall")
    for seconds, shown in ((2.4, "2.4s"), (240.0, "240.0s")):
        lab = _StubLab()
        lab.values[claim.id] = seconds
        got = claims.verdict(claim, lab, MANIFEST)
        assert (got.ok, got.holds, got.shown) == (True, None, shown)
    lab.values[claim.id] = float("nan")
    assert not claims.verdict(claim, lab, MANIFEST).ok


def test_each_kind_of_measure_is_registered_once_where_it_is_defined():
    with pytest.raises(ValueError, match="registered twice"):
        claims.kind("table", required=("run",))(lambda m, lab, manifest: 0.0)
    assert {c.kind for c in MANIFEST.claims} <= set(claims.KINDS)
    assert claims.KINDS["table"].required == {"run", "row", "metric"}


def test_a_claim_of_the_official_scorer_is_skipped_naming_it_when_the_named_scorer_cannot_be_read(monkeypatch, tmp_path):
    missing = tmp_path / "evaluation.py"
    monkeypatch.setenv(official.ENV, str(missing))
    monkeypatch.setattr(official, "fetch", lambda *a, **kw: pytest.fail("a named scorer that is missing was fetched"))
    got = claims.verdict(MANIFEST.claim("metric.empty-context"), claims.Lab([]), MANIFEST)
    assert got.ok and got.holds is None and got.shown == "—"
    assert got.missing.startswith("the official evaluation.py (") and str(missing) in got.missing, got.missing
    wrong = tmp_path / "other.py"
    wrong.write_text("x = 1\n")
    monkeypatch.setenv(official.ENV, str(wrong))
    got = claims.verdict(MANIFEST.claim("metric.empty-context"), claims.Lab([]), MANIFEST)
    assert got.holds is None and "not the pinned evaluation.py" in got.missing, got.missing
