"""``-model`` asks the endpoint one tiny question before anything is built: an endpoint that cannot be reached,
or that refuses the key, the path or the model, is one line and exit status 2 at once (instead of every
question declined after its retries); a busy one is left to the run's retries.  Credentials are never shown."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from stub_server import Stub, completion, dead_url

from locomo_repro.read import model

ROOT = Path(__file__).resolve().parent.parent


def kit(tmp_path: Path, base: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in model.KEY_VARIABLES}
    env.update(PYTHONPATH=str(ROOT), HANZO_API_KEY="secret-key")
    return subprocess.run([sys.executable, "-m", "locomo_repro", "-only", "1", "-model", "stub", "-base", base,
                           "-memo", "memo"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
@pytest.mark.parametrize(("status", "says"), [
    (401, "refused the API key (HTTP 401)"),
    (403, "refused the API key (HTTP 403)"),
    (404, "has no such path or model (check -base and -model) (HTTP 404)"),
    (400, "refused the request (HTTP 400)"),
])
def test_a_refusing_endpoint_is_one_line_before_anything_is_built(status, says, tmp_path):
    with Stub(lambda body, n: (status, {"error": "no"}, 0)) as stub:
        done = kit(tmp_path, stub.base_url)
        asked = len(stub.requests)
    assert (done.returncode, done.stdout, asked) == (2, "", 1)
    assert done.stderr == f"locomo-repro: -model stub: {stub.base_url}/chat/completions {says} (see locomo-repro --help)\n"
    assert not (tmp_path / "memo").exists()


@pytest.mark.slow
def test_an_endpoint_nothing_answers_at_is_one_line_and_its_password_is_not_shown(tmp_path):
    done = kit(tmp_path, dead_url())
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1
    assert "cannot connect" in done.stderr and "secret-key" not in done.stderr
    # A password in the URL is refused before the check (test_a_base_url_with_a_password_is_refused_without_showing_it)
    done = kit(tmp_path, dead_url().replace("http://", "http://user:hunter2@"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "[redacted]@" in done.stderr and "hunter2" not in done.stderr and "secret-key" not in done.stderr


@pytest.mark.slow
def test_a_busy_endpoint_is_left_to_the_runs_retries_and_the_memo_is_named(tmp_path):
    def busy_first(body, n):
        return (503, {"error": "busy"}, 0) if n == 0 else (200, completion("Caroline"), 0)

    with Stub(busy_first) as stub:
        done = kit(tmp_path, stub.base_url)
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("locomo-repro: the model's answers are kept in memo (a rerun reads them back")
    assert any((tmp_path / "memo").iterdir())
