"""peers table: arms side by side under each metric named for what it is, categories by number and official
name, and paired bootstrap differences (made-up file: the table does not look questions up in the dataset)."""

from __future__ import annotations

import json

from locomo_repro.peers.__main__ import main
from locomo_repro.score.stats import interval


def qa(category, answer, a, b, **extra):
    return {"question": "q?", "answer": answer, "category": category, "evidence": [], "a_prediction": a,
            "b_prediction": b, **extra}


def write(tmp_path, judged=True):
    verdicts = [(1, 0), (1, 1), (0, 1)] if judged else [(None, None)] * 3
    marks = [{k: v for k, v in (("a_judge", x), ("b_judge", y)) if v is not None} for x, y in verdicts]
    path = tmp_path / "two.json"
    path.write_text(json.dumps([
        {"sample_id": "s1", "qa": [qa(4, "red", "red", "blue", **marks[0]), qa(2, "may", "may", "may", **marks[1])]},
        {"sample_id": "s2", "qa": [qa(4, "cat", "dog", "cat", **marks[2])]},
    ]))
    return path


def table(path, capsys):
    assert main(["table", str(path)]) == 0
    return capsys.readouterr().out.splitlines()


def test_rows_name_each_category_by_number_and_official_name(tmp_path, capsys):
    out = table(write(tmp_path), capsys)
    labels = [line[:16].strip() for line in out if line[:1].isdigit() or line.startswith("overall")]
    assert labels == ["1 multi hop", "2 temporal", "3 open domain", "4 single hop", "5 adversarial", "overall"]
    header = next(line for line in out if line.startswith("category"))
    for column in ("F1", "mem0 F1", "mem0 BLEU-1", "Refined F1", "Refined BLEU-1", "judge"):
        assert column in header


def test_single_hop_means_and_the_paired_interval(tmp_path, capsys):
    out = table(write(tmp_path), capsys)
    at = next(i for i, line in enumerate(out) if line.startswith("4 single hop"))
    assert out[at].split()[-6:] == ["0.500", "0.500", "0.500", "0.500", "0.500", "0.500"]  # a: red right, dog wrong
    assert out[at + 1].split()[-1] == "0.500"  # b: judged 0 and 1
    pair = next(line for line in out if line.startswith("a - b"))
    # official F1 per conversation: s1 (1-0) + (1-1) = 1 over 2 questions, s2 (0-1) = -1 over 1
    got, lo, hi = interval([1.0, -1.0], [2.0, 1.0])
    assert f"{got:+.3f} [{lo:+.3f}, {hi:+.3f}]" in " ".join(pair.split()).replace("[ ", "[")


def test_without_verdicts_the_judge_column_says_so(tmp_path, capsys):
    out = table(write(tmp_path, judged=False), capsys)
    assert out[next(i for i, line in enumerate(out) if line.startswith("overall"))].split()[-1] == "-"
    assert "(no shared verdicts)" in next(line for line in out if line.startswith("a - b"))


def test_a_bad_file_is_one_line_and_exit_2(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text("{}")
    assert main(["table", str(path)]) == 2
    assert capsys.readouterr().err.count("\n") == 1
