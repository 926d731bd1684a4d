"""The protocol loses nothing: ``vector`` re-implemented as a plug-in (``toy_plugins.Vec``) gives, question by
question, the very reply, context and confidence of the built-in ``vector`` column, in the bytes ``-out``
writes them, with one process or two."""

from __future__ import annotations

import io
import json

import pytest

from locomo_repro import cli
from locomo_repro.go.json import dumps


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_vec_plugin_writes_the_vector_columns_bytes(jobs, tmp_path):
    out, text = tmp_path / "p.json", io.StringIO()
    args = cli.parser().parse_args(["-arms", "main,toy_plugins:Vec", "-only", "3", "-quiet", "-jobs", jobs,
                                    "-out", str(out)])
    assert cli.run(args, text) == 0
    printed = text.getvalue()
    questions = [q for sample in json.loads(out.read_bytes()) for q in sample["qa"]]
    assert len(questions) > 300
    for q in questions:
        for key in ("prediction", "prediction_context", "prediction_confidence"):
            assert dumps(q[f"vec_{key}"]) == dumps(q[f"vector_{key}"])
    # and so the table's two columns are the same cells
    lines = printed.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("category"))
    head = lines[at - 1].split()
    vec, vector = head.index("vec"), head.index("vector")
    for line in lines[at + 1: at + 8]:
        cells = line.split()[-3 * len(head):]
        assert cells[3 * vec: 3 * vec + 3] == cells[3 * vector: 3 * vector + 3]
