"""At the end of a run, stderr says what each arm cost (its build, its calls' p50, p95 and p99, measured) and the
evidence it handed its reader a question (counted from its predictions); stdout, the reference's bytes,
holds none of it."""

from __future__ import annotations

import io
import json
import re

from locomo_repro import cli

LINE = re.compile(r"locomo-repro: cost of (?P<arm>\S+): build \S+ m?s \(\S+ m?s a conversation\); (?P<calls>\d+) calls, "
                  r"p50 \S+ m?s, p95 \S+ m?s, p99 \S+ m?s; evidence (?P<turns>[\d.]+) turns, (?P<chars>\d+) characters, "
                  r"(?P<words>\d+) words a question")


def test_each_arm_says_its_cost_and_evidence_on_stderr(tmp_path, capsys, samples):
    out = io.StringIO()
    argv = ["-only", "1", "-quiet", "-jobs", "1", "-out", str(tmp_path / "p.json")]
    assert cli.run(cli.parser().parse_args(argv), out) == 0
    assert "cost of" not in out.getvalue() and " ms" not in out.getvalue()
    lines = [LINE.fullmatch(line) for line in capsys.readouterr().err.splitlines()[1:]]
    assert all(lines) and [m["arm"] for m in lines] == ["graph", "graph+edge", "oracle", "vector"]
    texts = {t.id: t.text for t in samples[0].turns}
    qa = json.loads((tmp_path / "p.json").read_text())[0]["qa"]
    for m in lines:
        contexts = [q[f"{m['arm']}_prediction_context"] for q in qa]
        assert int(m["calls"]) == len(qa)
        assert m["turns"] == f"{sum(map(len, contexts)) / len(qa):.1f}"
        assert m["chars"] == f"{sum(len(texts[i]) for c in contexts for i in c) / len(qa):.0f}"
        assert m["words"] == f"{sum(len(texts[i].split()) for c in contexts for i in c) / len(qa):.0f}"
