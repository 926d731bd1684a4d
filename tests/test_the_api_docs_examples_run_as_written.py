"""``docs/api.md``'s examples run as written, in order, in one folder (beside the predictions file its last
example reads, written by the command it names; a block headed ``# NAME.py`` is that file, written there);
and what ``api`` returns is what the commands write."""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
from pathlib import Path

import pytest

from locomo_repro import api, cli
from locomo_repro.go.flags import UsageError
from locomo_repro.score import results

DOCS = Path(__file__).resolve().parent.parent / "docs" / "api.md"


def test_every_python_example_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, "mymemory", raising=False)
    assert cli.run(cli.parser().parse_args(["-only", "1", "-jobs", "1", "-quiet", "-out", "answers.json"]),
                   io.StringIO()) == 0
    examples = re.findall(r"```python\n(.*?)```", DOCS.read_text(), re.S)
    assert len(examples) == 4
    printed = io.StringIO()
    scope: dict[str, object] = {}
    try:
        with contextlib.redirect_stdout(printed):
            for example in examples:
                if named := re.match(r"# (\w+\.py)\n", example):
                    (tmp_path / named.group(1)).write_text(example)
                else:
                    exec(compile(example, str(DOCS), "exec"), scope)  # the docs' own code
    finally:
        sys.modules.pop("mymemory", None)
    assert printed.getvalue().startswith("oracle: F1 0.248 over 199 questions, interval (0.248")
    assert (tmp_path / "read.json").is_file() and (tmp_path / "recent.json").is_file()


def test_a_run_is_the_results_file_the_command_writes(tmp_path, capsys):
    ran = api.run("read", only=1, jobs=1)
    assert cli.run(cli.parser().parse_args(["-arms", "read", "-only", "1", "-jobs", "1", "-quiet", "-json",
                                            str(tmp_path / "r.json")]), io.StringIO()) == 0
    written = json.loads((tmp_path / "r.json").read_text())
    mine = results.document(ran)
    assert mine.pop("cost").keys() == written.pop("cost").keys()  # measured: the one part that differs
    assert mine == written
    assert f"signature: {ran.signature}\n" in capsys.readouterr().err


def test_scores_and_comparisons_are_the_commands_json(tmp_path, capsys):
    assert cli.run(cli.parser().parse_args(["-only", "1", "-jobs", "1", "-quiet", "-out", str(tmp_path / "a.json")]),
                   io.StringIO()) == 0
    capsys.readouterr()
    assert cli.main(["official", str(tmp_path / "a.json"), "--kit", "--json"]) == 0
    official = json.loads(capsys.readouterr().out)[str(tmp_path / "a.json")]
    official.pop("signature")
    assert api.score(tmp_path / "a.json") == official
    assert cli.main(["compare", str(tmp_path / "a.json"), "--format", "json", "--baseline", "vector"]) == 0
    assert api.compare(tmp_path / "a.json", baseline="vector") == json.loads(capsys.readouterr().out)


@pytest.mark.outside("LOCOMO_AUDIT")
def test_a_run_under_another_answer_key_is_the_commands(tmp_path):
    """``key`` is the run's ``-key``: the questions chosen under it, the key named in the record and signature."""
    ran = api.run("read", only=1, limit=20, jobs=1, key="audited")
    assert cli.run(cli.parser().parse_args(["-arms", "read", "-only", "1", "-limit", "20", "-jobs", "1", "-quiet",
                                            "-key", "audited", "-json", str(tmp_path / "r.json")]),
                   io.StringIO()) == 0
    written = json.loads((tmp_path / "r.json").read_text())
    mine = results.document(ran)
    assert mine.pop("cost").keys() == written.pop("cost").keys()
    assert mine == written and mine["settings"]["key"] == "audited" and "|key:audited" in ran.signature


@pytest.mark.parametrize(("flags", "says"), [
    ({"out": "x.json"}, "api.run does not take -out"),
    ({"k": 0}, "-k"),
    ({"sweep": "depth"}, "invalid choice: 'depth'"),
    ({"limit": -1}, "-limit take a count of 0 or more"),
    ({"conversations": "conv-26,,conv-30"}, "distinct sample ids separated by commas, got 'conv-26,,conv-30'"),
    ({"concurrency": 0}, "-concurrency must be at least 1, got 0"),
    ({"jobs": 0}, "-jobs must be at least 1, got 0"),
    ({"kk": 5}, "api.run has no setting 'kk'"),
])
def test_settings_are_checked_as_the_command_line_checks_them(flags, says):
    with pytest.raises(UsageError, match=re.escape(says)):
        api.run("read", **flags)


def test_judged_files_measure_what_judge_stats_prints(tmp_path, capsys):
    from judged_files import verdict, write

    one = write(tmp_path / "one.json", [verdict(c, i, 4, float(i % 2)) for c in ("a", "b") for i in range(3)])
    two = write(tmp_path / "two.json", [verdict(c, i, 4, 1.0) for c in ("a", "b") for i in range(3)])
    capsys.readouterr()
    assert cli.main(["judge", "stats", str(one), str(two), "--format", "json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    measured = api.judge(one, two)
    assert measured == printed
    values = {(r["file"], r["arm"], r["figure"], r["row"]): r["value"] for r in measured["rows"]}
    assert values["one.json", "mine", "J", "overall"] == 2 / 6  # by hand: 0, 1, 0 in each of two conversations
    assert values["two.json", "mine vs one.json mine", "J difference", "overall"] == 4 / 6  # 1 less 2 / 6, paired
    with pytest.raises(UsageError, match="one judged file or more"):
        api.judge()
