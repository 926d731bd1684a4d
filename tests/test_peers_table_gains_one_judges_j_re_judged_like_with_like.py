"""peers table --judged FILE: one judge's J for every arm beside the file's own verdicts, its paired
difference and its agreement with the file's own judge, against hand computations (the made-up file of the
peers table's test: arms a and b, their own verdicts a 1, 1, 0 and b 0, 1, 1)."""

from __future__ import annotations

import pytest
from judged_files import verdict, write as write_judged
from test_peers_table_compares_arms_like_with_like import table, write

from locomo_repro.peers.__main__ import main
from locomo_repro.score.stats import interval

#: The one judge: a 1, 0, 0 and b 0, 1, 1 on the file's very replies; one verdict on another reply of b's.
JUDGED = [verdict("s1", 0, 4, 1.0, arm="a", reply="red"), verdict("s1", 1, 2, 0.0, arm="a", reply="may"),
          verdict("s2", 0, 4, 0.0, arm="a", reply="dog"),
          verdict("s1", 0, 4, 0.0, arm="b", reply="blue"), verdict("s1", 1, 2, 1.0, arm="b", reply="may"),
          verdict("s2", 0, 4, 1.0, arm="b", reply="cat"), verdict("s2", 0, 4, 0.0, arm="b", reply="a cat", repeat=1)]


@pytest.fixture
def out(tmp_path, capsys):
    judged = write_judged(tmp_path / "judged.json", JUDGED)
    assert main(["table", str(write(tmp_path)), "--judged", str(judged)]) == 0
    return capsys.readouterr().out.splitlines()


def row(out: list[str], label: str) -> tuple[list[str], list[str]]:
    at = next(i for i, line in enumerate(out) if line.startswith(label))
    return out[at].split(), out[at + 1].split()


def test_the_j_column_is_the_one_judges_share_beside_the_files_own(out):
    assert out[2].split()[-2:] == ["judge", "J"]
    a, b = row(out, "overall")
    assert (a[-2:], b[-2:]) == (["0.667", "0.333"], ["0.667", "0.667"])  # own judge, then J (b's other reply left out)
    a, b = row(out, "2 temporal")
    assert (a[-1], b[-1]) == ("0.000", "1.000")


def test_j_is_paired_like_the_others(out):
    pair = " ".join(next(line for line in out if line.startswith("a - b")).split()).replace("[ ", "[")
    # J per conversation: s1 (1-0) + (0-1) = 0 over 2, s2 (0-1) = -1 over 1
    got, lo, hi = interval([0.0, -1.0], [2.0, 1.0])
    assert pair.endswith(f"{got:+.3f} [{lo:+.3f}, {hi:+.3f}]")


def test_each_arms_agreement_with_its_own_judge(out):
    at = next(i for i, line in enumerate(out) if line.startswith("J (")) + 2
    # a: (1, 0, 0) against (1, 1, 0): 2 of 3 agree; p_e = 1/3 * 2/3 + 2/3 * 1/3 = 4/9, kappa (2/3 - 4/9) / (5/9)
    assert out[at].split() == ["a", "3", "0.667", f"{(2 / 3 - 4 / 9) / (5 / 9):.3f}"]
    assert out[at + 1].split() == ["b", "3", "1.000", "1.000"]


def test_without_judged_the_table_is_as_before(tmp_path, capsys):
    lines = table(write(tmp_path), capsys)
    assert lines[2].split()[-1] == "judge" and not [line for line in lines if line.startswith("J (")]


def test_a_judged_file_of_no_known_shape_is_one_line(tmp_path, capsys):
    (tmp_path / "bad.json").write_text("{}")
    assert main(["table", str(write(tmp_path)), "--judged", str(tmp_path / "bad.json")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "bad.json" in captured.err
