"""A ``-model`` run counts the tokens its endpoint reports (each chat completion's ``usage``): said on stderr at
the end of the run and kept in the results file, never on stdout, whose last line stays the reference's; a
reply without usage counts nothing, and a reply read back from the memo folder costs none."""

from __future__ import annotations

import io
import json

from locomo_repro import cli
from stub_server import Stub, completion


def ran(tmp_path, monkeypatch, capsys, respond, memo: str = "") -> tuple[str, str, dict, Stub]:
    monkeypatch.setenv("HANZO_API_KEY", "test-key")
    out = io.StringIO()
    with Stub(respond) as stub:
        argv = ["-arms", "read", "-only", "1", "-quiet", "-model", "stub", "-base", stub.base_url, "-memo", memo,
                "-json", str(tmp_path / "r.json")]
        assert cli.run(cli.parser().parse_args(argv), out) == 0
    return out.getvalue(), capsys.readouterr().err, json.loads((tmp_path / "r.json").read_text()), stub


def with_usage(body, n):
    return 200, {**completion("Caroline"), "usage": {"prompt_tokens": 11, "completion_tokens": 3, "total_tokens": 14}}, 0


def test_the_reported_tokens_are_summed_said_on_stderr_and_kept(tmp_path, monkeypatch, capsys):
    out, err, document, stub = ran(tmp_path, monkeypatch, capsys, with_usage)
    bought = len(stub.requests) - 1  # the first is the endpoint check before the run
    assert document["tokens"] == {"model": "stub", "prompt": 11 * bought, "completion": 3 * bought, "replies": bought}
    assert (f"locomo-repro: model stub: {11 * bought} prompt and {3 * bought} completion tokens, as the endpoint "
            f"reported them for {bought} of its {bought} replies bought\n") in err
    assert "tokens" not in out and out.splitlines()[-1].startswith("model stub: ")


def test_replies_without_usage_and_replies_from_disk_count_nothing(tmp_path, monkeypatch, capsys):
    _, _, document, _ = ran(tmp_path, monkeypatch, capsys, lambda body, n: (200, completion("Caroline"), 0))
    assert document["tokens"] == {"model": "stub", "prompt": 0, "completion": 0, "replies": 0}
    memo = str(tmp_path / "memo")
    ran(tmp_path, monkeypatch, capsys, with_usage, memo)
    _, _, again, _ = ran(tmp_path, monkeypatch, capsys, with_usage, memo)  # every answer read back from disk
    assert again["tokens"]["replies"] == 0 and again["tokens"]["prompt"] == 0


def test_a_run_without_a_model_has_no_tokens(tmp_path):
    assert cli.run(cli.parser().parse_args(["-arms", "read", "-only", "1", "-quiet", "-jobs", "1", "-json",
                                            str(tmp_path / "r.json")]), io.StringIO()) == 0
    assert json.loads((tmp_path / "r.json").read_text())["tokens"] is None
