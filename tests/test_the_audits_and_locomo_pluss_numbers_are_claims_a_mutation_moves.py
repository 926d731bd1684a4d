"""locomo-audit's and LoCoMo-Plus's numbers, measured like the README's: one test per entry of claims-audit.yaml
and claims-plus.yaml (skipped, naming the file, where a publication's file is not at hand), both manifests held
to claims.yaml's schema, and every claim they measure moved by a mutation of the data it is measured from (the
errors, the judged runs, the dataset, LoCoMo-Plus's files, or the published score a Wilson interval is of)."""

from __future__ import annotations

import copy
import json
import os
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from locomo_repro import claims
from locomo_repro.peers import sources
from locomo_repro.claims.manifest import MANIFESTS, default_path
from locomo_repro.data import dataset
from locomo_repro.data.audit import CITATION, TYPES
from locomo_repro.peers import plus

ROOT = Path(__file__).resolve().parent.parent
AUDIT = claims.load(ROOT / "claims-audit.yaml")
PLUS = claims.load(ROOT / "claims-plus.yaml")
BOTH = [(name, c) for name, m in (("audit", AUDIT), ("plus", PLUS)) for c in m.claims]


@pytest.mark.claims
@pytest.mark.parametrize("of, claim", BOTH, ids=[f"{name}:{c.id}" for name, c in BOTH])
def test_claim(of: str, claim: claims.Claim, samples, record_property):
    """As claims.yaml's: reproduced agrees with the publication, refuted with the recorded measurement."""
    manifest = AUDIT if of == "audit" else PLUS
    got = claims.verdict(claim, _lab(samples), manifest)
    if got.missing:
        pytest.skip(f"the claim needs {got.missing}")
    record_property("measured", got.shown)
    assert got.ok, f"{claim.id} ({claim.status}): {got.problem}"


_LABS: dict[int, claims.Lab] = {}


def _lab(samples) -> claims.Lab:
    """One lab for these claims per dataset read (their files are read once)."""
    return _LABS.setdefault(id(samples), claims.Lab(samples))


def test_each_manifest_names_its_publications_file_and_every_kind_is_measurable_or_says_why():
    assert AUDIT.publication == {"file": "README.md", "sha256": sources.AUDIT.pinned("README.md").sha256}
    assert PLUS.publication == {"file": "README.md", "sha256": sources.PLUS.pinned("README.md").sha256}
    assert all(s.split(": ")[0] in {p.local for p in sources.AUDIT.files} for s in AUDIT.sections)
    for c in (*AUDIT.claims, *PLUS.claims):
        assert (c.kind == "undefined") == (c.status == "unverifiable"), c.id
        if c.status != "reproduced":
            assert c.reason and len(c.reason) > 20, c.id
    assert len(AUDIT.claims) >= 400 and len(PLUS.claims) >= 25


def test_the_shipped_manifests_are_the_ones_claims_of_names():
    assert {of: default_path(of).name for of in MANIFESTS} == {
        "readme": "claims.yaml", "audit": "claims-audit.yaml", "plus": "claims-plus.yaml"}


def test_judge_summary_is_refuted_by_its_own_judged_file():
    refuted = {c.id for c in PLUS.claims if c.status == "refuted"}
    assert {"summary.overall-avg", "summary.total-score", "summary.cognitive.avg"} <= refuted
    assert PLUS.claim("summary.overall-avg").measured == "none: 2240 of 2240 judgements failed"


# --- a mutation of the data moves every claim -----------------------------------------------------------------


def _mutated_audit(src: Path, dest: Path, strong: bool) -> None:
    """The audit's files changed: each error's type turned (score-corrupting <-> citation-only) or, ``strong``
    false, the first error of each conversation dropped and the types dealt out in turn; every judged run's
    first judgement of each question turned and (``strong``) all of them, else a fourth judgement added, each
    reply and gold a word longer (``strong``: each conversation's first reply its gold), the figures of its
    metadata doubled; every figure of its systems' breakdown moved (``strong``: and a system more); the answer
    key's last question dropped (``strong``)."""
    shutil.copytree(src, dest)
    errors = json.loads((src / "errors.json").read_text())
    if strong:
        for e in errors:
            e["error_type"] = "HALLUCINATION" if e["error_type"] == CITATION else CITATION
    else:
        seen: set[str] = set()
        kept = []
        for e in errors:
            conv = e["question_id"].rpartition("_qa")[0]
            if conv in seen:
                kept.append(e)
            seen.add(conv)
        errors = kept
        for k, e in enumerate(errors):
            e["error_type"] = TYPES[k % len(TYPES)]
    (dest / "errors.json").chmod(0o644)
    (dest / "errors.json").write_text(json.dumps(errors))
    answer_key = dest / "ap-baseline" / "answer_key.json"
    answer_key.chmod(0o644)
    answer_key.write_text(json.dumps(json.loads(answer_key.read_text())[: -1 if strong else None]))
    breakdown = dest / "results-audit" / "per_category_breakdown.json"

    def moved(value, key=""):
        """Every figure of the systems' breakdown moved: a count doubled and one up, a percentage a tenth down
        (an adjusted one a fifth) and 0.013 up."""
        if isinstance(value, dict):
            return {k: moved(v, k) for k, v in value.items()}
        if isinstance(value, int):
            return 2 * value + 1
        return value * (0.8 if key.startswith("adjusted") else 0.9) + 0.013 if isinstance(value, float) else value

    data = moved(json.loads(breakdown.read_text()))
    if strong:  # a sixth system, as another's figures
        data["another"] = data["mem0"]
    breakdown.chmod(0o644)
    breakdown.write_text(json.dumps(data))
    for run in dest.rglob("*eval_results*.json"):
        data = json.loads(run.read_text())
        for listed in data["detailed_results"].values():
            for i, item in enumerate(listed):
                said = item["llm_judgments"]
                for k in sorted(said)[: None if strong else 1]:
                    said[k] = not said[k]
                if said and not strong:
                    said["judgment_9"] = said[sorted(said)[0]]
                item["generated_answer"] += " indeed"
                item["golden_answer"] = f"{item['golden_answer']} too"
                if strong and not i:
                    item["generated_answer"] = item["golden_answer"]
        meta = data.get("metadata", {})
        data["metadata"] = {k: v * 2 if isinstance(v, float) else v for k, v in meta.items()}
        run.chmod(0o644)
        run.write_text(json.dumps(data))


def _mutated_plus(src: Path, dest: Path) -> None:
    """LoCoMo-Plus's files changed: one category renamed in the run, its model renamed, judged_v2's scores
    moved, judged.json's last judgement of each category a real one (correct) and its last item dropped,
    judge_summary's figures doubled."""
    shutil.copytree(src, dest)
    for p in dest.rglob("*.json"):
        p.chmod(0o644)
    records = json.loads((dest / plus.PREDICTIONS).read_text())
    for r in records:
        r["model"] = "another"
        if r["category"] == "common-sense":
            r["category"] = "temporal"
    (dest / plus.PREDICTIONS).write_text(json.dumps(records))
    judged = json.loads((dest / plus.JUDGED_V2).read_text())
    for r in judged:
        r["judge_score"] = (r["judge_score"] or 0) / 2 + 0.1
    (dest / plus.JUDGED_V2).write_text(json.dumps(judged))
    judged = json.loads((dest / plus.JUDGED).read_text())
    for name in {r["category"] for r in judged}:
        next(r for r in judged[-2::-1] if r["category"] == name)["judge_reason"] = "it is right"
    del judged[-1]  # a cognitive item less
    (dest / plus.JUDGED).write_text(json.dumps(judged))
    summary = json.loads((dest / plus.SUMMARY).read_text())
    (dest / plus.SUMMARY).write_text(json.dumps({k: v * 2 if isinstance(v, float) else v for k, v in summary.items()}))


def _recategorised(src: Path, dest: Path, errors: Path) -> None:
    """Five questions of the first conversation that the audit does not list made adversarial: the first of
    categories 1, 2 and 3 and the first two of 4 (every category's count moves, no question moves)."""
    data = json.loads(src.read_text())
    listed = {e["question_id"] for e in json.loads(errors.read_text())}
    qa = data[0]["qa"]
    for c, times in ((1, 1), (2, 1), (3, 1), (4, 2)):
        free = [i for i, q in enumerate(qa) if q["category"] == c and f"locomo_0_qa{i}" not in listed][:times]
        for i in free:
            qa[i]["category"] = 5
    dest.write_text(json.dumps(data))


def _mutated_dataset(src: Path, dest: Path) -> None:
    """Every conversation asked one question more of each category, and a conversation more (appended: the
    audit's positions hold)."""
    data = json.loads(src.read_text())
    first = {c: next(q for s in data for q in s["qa"] if q["category"] == c) for c in (1, 2, 3, 4, 5)}
    for sample in data:
        sample["qa"] += [copy.deepcopy(q) for q in first.values()]
    data.append({**copy.deepcopy(data[-1]), "sample_id": "conv-another"})
    dest.write_text(json.dumps(data))


def _moved(claim: claims.Claim, strong: bool) -> claims.Claim:
    """A claim measured from published scores (a Wilson interval's) with those scores moved: a score a point
    down (``strong``) or two up; a pair's scores (or systems) made the same (``strong``) or far apart (99% and
    1%; EverMemOS and Mem0), the last pair of several dropped."""
    m = dict(claim.measures)
    if "score" in m:
        m["score"] = m["score"] + (-0.01 if strong else 0.02)
    if "scores" in m:
        apart = lambda n: ["evermemos", "mem0", n] if isinstance(n, str) else [0.99, 0.01, n]  # noqa: E731
        pairs = [[b, b, n] if strong else apart(n) for a, b, n in m["scores"]]
        m["scores"] = pairs if strong or len(pairs) == 1 else pairs[:-1]  # a pair fewer
    return replace(claim, measures=m)


@pytest.mark.claims
@pytest.mark.outside("LOCOMO_AUDIT")
def test_a_mutation_of_the_data_moves_every_claim_measured(tmp_path, monkeypatch, samples):
    if not os.environ.get("LOCOMO_PLUS"):
        pytest.skip("the mutations need LoCoMo-Plus's files too (LOCOMO_PLUS not set)")
    before = {}
    for manifest in (AUDIT, PLUS):
        lab = _lab(samples)
        for c in manifest.claims:
            got = claims.verdict(c, lab, manifest)
            if not got.missing and c.status != "unverifiable":
                before[c.id] = got.value
    assert len(before) >= 300
    after: list[dict] = []
    audit, locomo_plus, data = Path(os.environ["LOCOMO_AUDIT"]), Path(os.environ["LOCOMO_PLUS"]), dataset.resolve()
    for strong in (True, False):
        # The first round changes the publications' files and five questions' categories, the second the errors
        # again and the dataset (questions appended, which LoCoMo-Plus's files, aligned by position, do not
        # follow: its claims sit out).
        where = tmp_path / str(strong)
        where.mkdir()
        _mutated_audit(audit, where / "audit", strong)
        if strong:
            _mutated_plus(locomo_plus, where / "plus")
            _recategorised(data, where / "locomo10.json", audit / "errors.json")
            monkeypatch.setenv("LOCOMO_PLUS", str(where / "plus"))
        else:
            _mutated_dataset(data, where / "locomo10.json")
        monkeypatch.setenv("LOCOMO_DATA", str(where / "locomo10.json"))
        monkeypatch.setenv("LOCOMO_AUDIT", str(where / "audit"))
        lab = claims.Lab(dataset.load(), str(dataset.resolve()))
        values = {}
        for manifest in (AUDIT, PLUS) if strong else (AUDIT,):
            for c in manifest.claims:
                if c.id in before:
                    values[c.id] = claims.measure(_moved(c, strong), lab, manifest) if c.kind.startswith("wilson") else \
                        claims.measure(c, lab, manifest)
        after.append(values)
    unmoved = [cid for cid, value in before.items() if all(a.get(cid, value) == value for a in after)]
    assert not unmoved, f"{len(unmoved)} claims no mutation moves: {unmoved[:8]}"


@pytest.mark.claims
@pytest.mark.outside("LOCOMO_PLUS")
def test_claims_of_plus_prints_the_verdicts_and_writes_the_summary(tmp_path, capsys):
    from locomo_repro.claims.report import main

    assert main(["--of", "plus", "--markdown", str(tmp_path / "plus.md")]) == 0
    out = capsys.readouterr().out
    assert "summary.overall-avg" in out and "none: 2240 of 2240 judgements failed" in out
    assert (tmp_path / "plus.md").read_text().startswith("# Claims of LoCoMo-Plus's README and judge summary, measured\n\nGenerated by "
                                                         "`locomo-repro claims --of plus` from claims-plus.yaml: 30")
