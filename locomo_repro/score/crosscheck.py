"""``locomo-repro official FILE…``: the publication's ``make check``, predictions files scored with the LoCoMo
authors' own ``evaluation.py`` (``score.official``), or with the kit's metric (``--kit``), as a table per file or,
with ``--json``, every figure per arm and category (``score.figures``)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ..data import jsonio
from ..data.audit import AuditError
from ..data.dataset import DatasetError
from ..go import flags
from . import key, signature
from .figures import figures
from .official import (ENV, EVALUATION_SHA256, OfficialUnavailable, blind, kit_eval_question_answering,
                       official_scorer, report)
from .predictions import PredictionsError, read


def parser() -> flags.Parser:
    """This command's flags (the docs' commands are parsed with it)."""
    p = flags.Parser(
        prog="locomo-repro official",
        description="Score predictions files with the official evaluation.py: F1 and recall by category and arm.",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="predictions JSON in the official LoCoMo shape")
    p.add_argument(
        "--evaluation-py", metavar="PATH", help=f"the official evaluation.py (default ${ENV}, else the cache)"
    )
    p.add_argument(
        "--kit", action="store_true", help="score with the kit's own metric instead of the official file"
    )
    p.add_argument(
        "--json", action="store_true",
        help="print {file: {arm: {category 1-5 and overall: n, f1, recall, judge, mem0_f1, mem0_bleu}}, "
             "with the file's \"signature\" beside its arms} instead",
    )
    key.flag(p)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``locomo-repro official FILE... [--evaluation-py PATH] [--kit]``."""
    p = parser()
    args = p.parse(argv)
    name = signature.KIT if args.kit else signature.official_scorer(EVALUATION_SHA256)
    try:
        scorer = kit_eval_question_answering if args.kit else official_scorer(args.evaluation_py)
        if args.json:
            found: dict[str, object] = {}
            signed: list[signature.Signature] = []
            for path in args.files:
                predictions, graded = key.keyed(args.key, read(path))
                signed.append(signature.predictions(path, name, *graded.signed(), sha256=predictions.sha256))
                found[path] = {**figures(predictions, scorer), "signature": str(signed[-1])}
            sys.stdout.write(jsonio.dumps(found, indent=2) + "\n")
            for sig in signed:
                signature.emit(sig)
            return 0
        for path in args.files:
            predictions, graded = key.keyed(args.key, read(path))
            text = report(predictions, scorer)
            if len(args.files) > 1:
                text = f"{path}:{text}"
            sys.stdout.write(text)
            signature.emit(signature.predictions(path, name, *graded.signed(), sha256=predictions.sha256))
            if absent := blind(predictions):  # say why a recall column is "-"
                print(f"note: {path}: no _prediction_context for {', '.join(absent)}: the official scorer counts "
                      f"recall 1 for every such question, so that recall is shown as - "
                      f"(--json gives null)", file=sys.stderr)
    except (PredictionsError, OfficialUnavailable, AuditError, DatasetError) as err:
        print(err, file=sys.stderr)
        return 2
    return 0
