"""The command line refuses what Go's flag package refuses, and says when a flag is ignored.

Go's ``flag`` matches a flag's whole name only: ``-flo 0.5``, ``-qui``, ``-sh 3``
and ``-k5`` are flags it does not know (argparse in Python 3.11 would read
them as ``-floor``, ``-quiet``, ``-show`` and ``-k 5`` even with
``allow_abbrev=False``).  ``-model ''`` names no model.  With ``-sweep`` the
reference writes no ``-out`` file; the kit keeps that, and says so on stderr.
"""

from __future__ import annotations

import io
import json

import pytest

from locomo_repro import cli

REFUSED = [["-flo", "0.5"], ["-qui"], ["-sh", "3"], ["-k5"], ["-dat", "x.json"], ["-model", ""], ["-model", " "]]


@pytest.mark.parametrize("argv", REFUSED, ids=[" ".join(a) or "''" for a in REFUSED])
def test_a_flag_go_would_not_know_is_one_line_and_exit_2(argv, capsys, monkeypatch):
    monkeypatch.setenv("LOCOMO_DATA", "/nonexistent/locomo10.json")  # never reached
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("locomo-repro: ")
    assert "no such dataset" not in err


def test_whole_names_still_work_with_one_or_two_dashes():
    args = cli.parser().parse_args(["-floor", "0.5", "--quiet", "-show=3", "--k=7", "-floor", "-0.0"])
    assert (args.floor, args.quiet, args.show, args.k) == (-0.0, True, 3, 7)


def test_out_with_sweep_is_not_written_and_the_run_says_so(tmp_path, capsys):
    data = tmp_path / "d.json"
    conv = {"speaker_a": "Ann", "speaker_b": "Bob", "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "I went to Paris yesterday."}]}
    qa = [{"question": "Where did Ann go?", "answer": "Paris", "category": 4, "evidence": ["D1:1"]}]
    data.write_text(json.dumps([{"sample_id": "s1", "conversation": conv, "qa": qa}]))
    plain, with_out = io.StringIO(), io.StringIO()
    assert cli.run(cli.parser().parse_args(["-data", str(data), "-sweep", "parts"]), plain) == 0
    capsys.readouterr()
    target = tmp_path / "f.json"
    assert cli.run(cli.parser().parse_args(["-data", str(data), "-sweep", "parts", "-out", str(target)]), with_out) == 0
    assert with_out.getvalue() == plain.getvalue()  # parity: the same stdout
    assert not target.exists()
    assert f"locomo-repro: note: -out {target} is not written with -sweep (as in the reference)\n" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["-k", str(2**63)], ["-only", "9" * 30], ["-show", str(-(2**63) - 1)]])
def test_an_int_beyond_int64_is_out_of_range_as_in_go(argv, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "value out of range" in err
    assert cli.parser().parse_args(["-only", str(2**63 - 1)]).only == 2**63 - 1


@pytest.mark.parametrize("base", ["http://[::1", "http://127.0.0.1:port/v1", "ftp://x/v1", "http:///v1"])
def test_a_malformed_base_url_is_a_usage_error(base, capsys, monkeypatch):
    monkeypatch.setenv("HANZO_API_KEY", "k")
    assert cli.main(["-model", "m", "-base", base, "-data", "/nonexistent"]) == 2
    assert capsys.readouterr().err == f"locomo-repro: -base must be an http(s) URL, got {base!r} (see locomo-repro --help)\n"
