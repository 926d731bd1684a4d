"""``locomo-repro golden --check`` compares the rebuilt golden files with the kit's own and names,
per file, the first line that differs (0: the same bytes); it writes nothing."""

from __future__ import annotations

import pytest

from locomo_repro.score import golden


def _kept(tmp_path, texts: dict[str, str]):
    for name in golden.FILES:
        (tmp_path / name).write_text(texts.get(name, "a\tb\n"), encoding="utf-8")
    return tmp_path


def test_same_files_are_line_0_and_a_changed_row_is_named(tmp_path):
    made = {name: "a\tb\n" for name in golden.FILES}
    made["grade.tsv"] = "0\t1\n1\t2\n2\t3\n"
    kept = _kept(tmp_path, {"grade.tsv": "0\t1\n1\t9\n2\t3\n", "recall.tsv": "a\tb\nextra\n"})
    assert golden.check(made, kept) == [
        ("stems.tsv", 0), ("normalise.tsv", 0), ("grade.tsv", 2), ("replies.tsv", 0), ("recall.tsv", 2),
    ]


def test_a_missing_kept_file_is_one_error_naming_it(tmp_path):
    kept = _kept(tmp_path, {})
    (kept / "replies.tsv").unlink()
    with pytest.raises(golden.GoldenError, match="replies.tsv: cannot read"):
        golden.check({name: "" for name in golden.FILES}, kept)


@pytest.mark.slow
def test_check_against_the_kit_passes_and_writes_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert golden.main(["--check", "--scorer", "kit"]) == 0
    assert capsys.readouterr().out == "".join(f"{n}: the kit's, byte for byte\n" for n in golden.FILES)
    assert list(tmp_path.iterdir()) == []
