"""``-wrong-gold``: under the official key, a run also gives per arm the share of its answerable F1 that comes
from questions whose gold locomo-audit finds wrong (``score.ceiling``'s computation, the one ``locomo-repro key
FILE`` prints), as lines after the table and as the results file's ``wrong_gold`` field; without the flag every
byte is what it was.

Hand-checked on the toy conversation (toy_audit): the parrot answers "Paris" to all. Under the official key its
answerable questions score 1 (clean), 0, 0, 0, 0 (hallucination, temporal, attribution, incomplete: gold
"London"), 1 (ambiguous, "Paris; she went" cut at ";") and 1 (citation only): F1 3/7; five of the seven have a
wrong gold (citation-only errors do not make it wrong), and of the F1's sum 3 the ambiguous question gives 1.
"""

from __future__ import annotations

import hashlib
import io
import json

import pytest

import toy_audit
from locomo_repro import cli
from locomo_repro.score import ceiling, results


@pytest.fixture
def files(tmp_path, monkeypatch):
    return toy_audit.write(tmp_path, monkeypatch)


def run(files, *flags: str) -> str:
    out = io.StringIO()
    args = cli.parser().parse_args(["-data", str(files / "d.json"), "-arms", "toy_plugins:Parrot", "-quiet",
                                    "-jobs", "1", *flags])
    assert cli.run(args, out) == 0
    return out.getvalue()


SHARES = [ceiling.SHARES,
          "arm                      n      F1  wrong   share",
          f"parrot                   7{3 / 7:8.3f}      5{100 / 3:7.2f}%"]


def test_the_run_adds_the_shares_after_its_table_and_leaves_the_rest_as_it_was(files, capsys):
    plain = run(files)
    shown = run(files, "-wrong-gold")
    assert shown == plain + "\n" + "\n".join(SHARES) + "\n"
    digest = hashlib.sha256((files / "audit" / "errors.json").read_bytes()).hexdigest()[:8]
    signed = [line for line in capsys.readouterr().err.splitlines() if line.startswith("signature:")]
    assert "wrong-gold" not in signed[0] and signed[1].endswith(f"|wrong-gold:{digest}")  # the errors file named


def test_the_key_command_gives_the_runs_shares_of_its_predictions(files, capsys):
    run(files, "-wrong-gold", "-out", str(files / "p.json"))
    capsys.readouterr()
    assert cli.main(["key", str(files / "p.json"), "-data", str(files / "d.json")]) == 0
    printed = capsys.readouterr().out.split("\n\n")[-1].splitlines()
    assert printed == [f"{files / 'p.json'}: {SHARES[0]}", *SHARES[1:]]


def test_the_results_file_holds_the_shares_in_its_optional_field(files):
    run(files, "-json", str(files / "plain.json"))
    run(files, "-wrong-gold", "-json", str(files / "r.json"))
    data = json.loads((files / "r.json").read_text())
    assert data["wrong_gold"] == {"parrot": {"n": 7, "f1": 3 / 7, "wrong": 5, "share": 1 / 3}}
    assert "wrong_gold" not in json.loads((files / "plain.json").read_text())
    assert results.read(files / "r.json").wrong_gold == data["wrong_gold"]
    assert results.encode(results.read(files / "r.json")) == (files / "r.json").read_bytes()


@pytest.mark.parametrize("flags", [("-key", "audited"), ("-sweep", "k")])
def test_wrong_gold_is_refused_where_there_is_no_official_table(files, capsys, flags):
    assert cli.run_main(["-data", str(files / "d.json"), "-wrong-gold", "-json", str(files / "r.json"), *flags]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "-wrong-gold" in err
    assert not (files / "r.json").exists()
