"""An input is read once: the bytes a command parses are the bytes it signs, so a pipe (``<(cat f)``,
``/dev/fd/N``) works as the file does; what is not a regular file is read up to a cap (``/dev/zero`` is
refused in one line instead of filling memory).  Malformed shapes and encodings are one line too."""

from __future__ import annotations

import contextlib
import json
import os
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

from refused import one_line
from locomo_repro import cli
from locomo_repro.claims.report import main as claims_main
from locomo_repro.data import jsonio
from locomo_repro.peers.__main__ import main as peers_main
from locomo_repro.refined.__main__ import main as refined_main
from locomo_repro.report.cli import main as report_main
from locomo_repro.score import crosscheck, signature

PREDICTIONS = json.dumps([{"sample_id": "s1", "qa": [
    {"question": "q", "answer": "Paris", "category": 4, "evidence": ["D1:1"], "a_prediction": "Paris",
     "a_prediction_context": ["D1:1"], "a_prediction_confidence": 0.5},
    {"question": "r", "answer": "Rome", "category": 5, "evidence": [], "a_prediction": "No information available",
     "a_prediction_context": [], "a_prediction_confidence": 0.1}]}])


@contextmanager
def pipe(data: bytes):
    """A ``/dev/fd/N`` path that can be read once, as ``<(cat f)`` gives."""
    read, write = os.pipe()

    def feed() -> None:
        with contextlib.suppress(BrokenPipeError), os.fdopen(write, "wb") as f:
            f.write(data)

    feeder = threading.Thread(target=feed)
    feeder.start()
    try:
        yield f"/dev/fd/{read}"
    finally:
        os.close(read)  # first: a command that read nothing must not leave the feeder blocked
        feeder.join()



def signatures(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("signature: ")]


def test_a_pipe_is_read_once_and_signed_by_what_was_read(tmp_path, capsys):
    file = tmp_path / "p.json"
    file.write_text(PREDICTIONS)
    digest = signature.digest(PREDICTIONS.encode())
    for command in (lambda p: cli.main(["-stats", p]), lambda p: crosscheck.main(["--kit", "--json", p]),
                    lambda p: crosscheck.main(["--kit", p])):
        assert command(str(file)) == 0
        from_file = capsys.readouterr()
        with pipe(PREDICTIONS.encode()) as path:
            assert command(path) == 0
        from_pipe = capsys.readouterr()
        assert signatures(from_pipe.err) == signatures(from_file.err) and f"predictions:{digest}" in from_pipe.err
        assert from_pipe.out.replace(path, str(file)) == from_file.out
    assert peers_main(["table", str(file)]) == 0
    from_file = capsys.readouterr().out
    with pipe(PREDICTIONS.encode()) as path:
        assert peers_main(["table", path]) == 0
        assert capsys.readouterr().out == from_file.replace(str(file), path)


def test_a_stream_longer_than_the_cap_is_refused_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(jsonio, "MAX_STREAM", 1 << 16)  # /dev/zero is endless: any cap is passed
    says = "/dev/zero: not a regular file and longer than"
    one_line(capsys, cli.main(["-stats", "/dev/zero"]), says)
    one_line(capsys, crosscheck.main(["x.json", "--evaluation-py", "/dev/zero"]), says)
    with pipe(b" " * 1000) as path:  # under the cap: read whole
        one_line(capsys, cli.main(["-stats", path]), path, "not JSON: line 1 column 1001")


@pytest.mark.parametrize(("samples", "says"), [
    ([5], "sample [0] is not an object"),
    ([{"sample_id": "s1", "qa": 7}], "sample [0] qa: not a list"),
    ([{"sample_id": "s1", "qa": "abc"}], "sample [0] qa: not a list"),
    ([{"sample_id": "s1", "qa": [3]}], "sample [0] qa[0]: not an object"),
])
def test_peers_import_refuses_an_official_file_of_the_wrong_shape(tmp_path, capsys, samples, says):
    path = tmp_path / "o.json"
    path.write_text(json.dumps(samples))
    out = tmp_path / "out.json"
    one_line(capsys, peers_main(["import", "--arm", f"a={path}", "--format", "official", "-out", str(out)]),
             str(path), says)
    assert not out.exists()


@pytest.mark.parametrize(("record", "says"), [
    ({"qa_id": "conv-26#q" + "9" * 5000, "predicted_answer": "a"}, "is not <sample_id>#q<index> (at most 18 digits)"),
])
def test_peers_import_refuses_an_index_of_thousands_of_digits(tmp_path, capsys, record, says):
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps(record) + "\n")
    one_line(capsys, peers_main(["import", "--arm", f"a={path}", "-out", str(tmp_path / "o.json")]), str(path), says)


def test_a_conversation_key_of_thousands_of_digits_names_no_sample(tmp_path, capsys):
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"conv_" + "7" * 5000: [{"question": "q", "answer": "a", "response": "a"}]}))
    line = one_line(capsys, peers_main(["import", "--arm", f"a={path}", "-out", str(tmp_path / "o.json")]),
                    str(path), "conv_777777777777777…(5005 characters)", "is no sample id of the dataset")
    assert len(line) < 400


def test_verdicts_nested_deeply_and_files_not_utf8_are_one_line(tmp_path, capsys, matplotlib_found, judge_argv):
    deep = tmp_path / "v.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    out = str(tmp_path / "r.html")
    one_line(capsys, report_main(["--verdicts", str(deep), "-o", out]), str(deep), "nested too deeply")
    latin = tmp_path / "claims.yaml"
    latin.write_bytes("claims: caf\xe9\n".encode("latin-1"))
    one_line(capsys, report_main(["--manifest", str(latin), "-o", out]), str(latin), "not UTF-8 (byte 0xe9 at offset 11)")
    one_line(capsys, claims_main(["--manifest", str(latin)]), str(latin), "not UTF-8")
    prompt = Path(judge_argv[judge_argv.index("--judge-prompt") + 1])
    prompt.write_bytes(b"{question} {gold_answer} {generated_answer} \xff")
    one_line(capsys, refined_main(judge_argv), str(prompt), "not UTF-8 (byte 0xff at offset 44)")
    assert not Path(out).exists()
