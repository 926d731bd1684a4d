"""Every column of the leaderboard, hand-checked on three small files, one per input format (``toy_board``):
predictions in the official shape (arm a), a results file (arm b) and the kit's judged file (arm c), over
three conversations of two answerable questions and one adversarial one each.

Over three conversations the exact 95% interval runs from the lowest conversation's mean to the highest
(each extreme is one resample of weight 1 in 27, more than 2.5%).  Per conversation the answerable means are
a 0.5, 0.5, 0; b 0.75, 1, 0.5; c 1, 1, 0.5.
"""

from __future__ import annotations

import csv
import io
import json

import pytest

import toy_board
from judged_files import verdict, write as write_judged
from locomo_repro import __version__, cli
from locomo_repro.score import signature


@pytest.fixture
def files(tmp_path, monkeypatch):
    return toy_board.write(tmp_path, monkeypatch)


def board(capsys, files, *flags: str, fmt: str = "json") -> dict:
    """The leaderboard of the three files alone, as JSON (exit status 0)."""
    paths = [str(files / name) for name in ("p.json", "r.json", "j.json")]
    assert cli.main(["leaderboard", "--no-peers", "--arms", "none", "--data", str(files / "d.json"),
                     "--format", fmt, *flags, *paths]) == 0
    out = capsys.readouterr().out
    return json.loads(out) if fmt == "json" else {"text": out}


def rows(table: dict) -> dict[str, dict]:
    return {r["name"]: r for r in table["rows"]}


def test_the_rows_are_ranked_by_answerable_f1_with_their_official_figures(capsys, files):
    table = board(capsys, files)
    assert [r["name"] for r in table["rows"]] == ["j.json c", "r.json b", "p.json a"]
    c, b, a = (rows(table)[n] for n in ("j.json c", "r.json b", "p.json a"))
    assert [r["place"] for r in (c, b, a)] == [1, 2, 3]
    assert (a["n"], a["f1"], a["low"], a["high"]) == (6, 2 / 6, 0.0, 0.5)
    assert (a["adversarial_n"], a["adversarial_f1"]) == (3, 2 / 3)  # declined in s1 and s3
    assert (a["overall_n"], a["overall_f1"], a["overall_low"], a["overall_high"]) == (9, 4 / 9, 1 / 3, 2 / 3)
    assert a["recall"] == 2 / 3  # D1:1 holds Ann's evidence, not Bob's; the adversarial ones have none (1)
    assert (b["n"], b["f1"], b["low"], b["high"]) == (6, 0.75, 0.5, 1.0)  # the results file's own figures
    assert (b["adversarial_f1"], b["overall_f1"], b["recall"]) == (1 / 3, 5.5 / 9, 0.4)
    assert (c["n"], c["f1"], c["low"], c["high"]) == (6, 5 / 6, 0.5, 1.0)  # graded from the judged replies
    assert (c["adversarial_f1"], c["overall_f1"], c["recall"]) == (1.0, 8 / 9, None)  # no turn ids: no recall


def test_adjacent_differences_are_paired_and_a_difference_holding_0_is_a_tie(capsys, files):
    c, b, a = board(capsys, files)["rows"]
    # c - b, by each conversation's sums (b is a results file): 0.5, 0, 0 over 2 questions each
    assert (c["diff"], c["diff_low"], c["diff_high"], c["tied"]) == (0.5 / 6, 0.0, 0.25, True)
    # b - a: 0.5, 1, 1 over 2 each: means 0.25, 0.5, 0.5
    assert (b["diff"], b["diff_low"], b["diff_high"], b["tied"]) == (2.5 / 6, 0.25, 0.5, False)
    assert (a["diff"], a["tied"]) == (None, False)  # the last row has no next


def test_rank_intervals_follow_the_resamples(capsys, files):
    c, b, a = board(capsys, files)["rows"]
    # c is at least b in every conversation: rank 1 always; b ties c (rank 1) in the 8 of 27 resamples
    # without s1, else 2; a is below b in every conversation: always 3
    assert (c["rank_low"], c["rank_high"]) == (1, 1)
    assert (b["rank_low"], b["rank_high"]) == (1, 2)
    assert (a["rank_low"], a["rank_high"]) == (3, 3)


def test_the_files_own_judge_counts_its_failed_judgements_apart(capsys, files):
    c, b, a = board(capsys, files)["rows"]
    assert (c["j"], c["j_overall"], c["j_failed"]) == (5 / 6, 6 / 8, 1)  # 1,1 | 1,0 | 1,1; then 1, failed, 0
    assert (b["j"], a["j"], a["j_failed"]) == (None, None, None)


def test_a_judged_file_rejudges_only_the_replies_it_judged(capsys, files, tmp_path):
    write_judged(tmp_path / "again.json", [
        verdict("s1", 0, 4, 1.0, arm="a", reply="Paris"), verdict("s1", 1, 4, 0.0, arm="a", reply="Oslo"),
        verdict("s3", 0, 4, 1.0, arm="a", reply="Oslo"),
        verdict("s2", 0, 4, 1.0, arm="a", reply="London"),  # not a's reply: not a's verdict
        verdict("s2", 1, 4, None, arm="a", reply="Oslo")])
    c, b, a = board(capsys, files, "--judged", str(tmp_path / "again.json"))["rows"]
    assert (a["rejudged"], a["rejudged_n"], a["rejudged_failed"]) == (2 / 3, 3, 1)
    assert c["rejudged"] is None and b["rejudged"] is None  # no verdict on arms c and b


def test_the_audited_key_regrades_the_same_replies(capsys, files):
    c, b, a = board(capsys, files, "-key", "audited")["rows"]
    # s2's "Where is Bob?" is Oslo under the audited key: a's Oslo gains, c's Rome loses
    assert (a["audited_f1"], c["audited_f1"], b["audited_f1"]) == (3 / 6, 4 / 6, None)
    assert a["f1"] == 2 / 6  # the official column is unchanged


def test_the_disclosure_is_what_the_file_says_and_unknown_otherwise(capsys, files):
    c, b, a = board(capsys, files)["rows"]
    assert [a[k] for k in ("answer_model", "answer_prompt", "judge_model", "judge_prompt", "retrieval")] == \
        ["unknown"] * 5
    assert (b["answer_model"], b["judge_model"], b["retrieval"]) == (
        "none (the kit's extractive reader)", "none", "k=5 floor=0.3 span=4 band=0.9 parts=2")
    assert all(r["headline"] is None and r["published"] is None and r["missing"] is None for r in (a, b, c))


def test_every_format_gives_the_same_cells(capsys, files):
    exact = board(capsys, files)
    parsed = list(csv.DictReader(io.StringIO(board(capsys, files, fmt="csv")["text"])))
    assert [r["name"] for r in parsed] == [r["name"] for r in exact["rows"]]
    for got, want in zip(parsed, exact["rows"]):
        for key, value in want.items():
            assert got[key] == ("" if value is None else repr(value) if isinstance(value, float) else str(value)), key
    markdown = board(capsys, files, fmt="markdown")["text"].splitlines()
    assert [c.strip() for c in markdown[0].strip("|").split("|")] == list(exact["rows"][0])
    first = [c.strip() for c in markdown[2].strip("|").split("|")]
    assert first[:14] == ["1", "j.json c", "file", "6", "0.833", "0.500", "1.000", "1", "1", "+0.083", "+0.000",
                          "+0.250", "True", "3"]
    assert "\\toprule" in board(capsys, files, fmt="latex")["text"]
    text = board(capsys, files, fmt="text")["text"].splitlines()
    assert text[3].startswith("[   1  j.json c ") and text[4].startswith("]   2  r.json b ")
    assert text[5].startswith("    3  p.json a ") and "[0.000, 0.500]" in text[5] and "3-3" in text[5]


def test_each_row_is_signed_by_the_bytes_it_was_read_from(capsys, files):
    paths = [str(files / name) for name in ("p.json", "r.json", "j.json")]
    assert cli.main(["leaderboard", "--no-peers", "--arms", "none", "--data", str(files / "d.json"),
                     "--format", "json", "-key", "audited", *paths]) == 0
    out, err = capsys.readouterr()
    digest = {name: signature.digest((files / name).read_bytes()) for name in ("p.json", "r.json", "j.json")}
    tail = "bootstrap:exact-95|key:audited-" + signature.digest((files / "audit" / "errors.json").read_bytes())
    assert json.loads(out)["signatures"] == {
        "j.json c": f"locomo-repro:{__version__}|judged:{digest['j.json']}|shape:kit|scorer:kit|{tail}",
        "r.json b": f"locomo-repro:{__version__}|results:{digest['r.json']}|{tail}",
        "p.json a": f"locomo-repro:{__version__}|predictions:{digest['p.json']}|scorer:kit|{tail}"}
    assert [line for line in err.splitlines() if line.startswith("signature: ")] == [
        f"signature: {s}" for s in json.loads(out)["signatures"].values()]
