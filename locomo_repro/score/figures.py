"""A predictions file's figures per arm and category, for scripts: ``locomo-repro official FILE --json``.

For every arm and every category (keys ``"1"``...``"5"``, then ``"overall"``):

* ``n``: questions;
* ``f1``: the official F1 (the scorer ``official.sums`` runs, by default the LoCoMo authors' own
  ``evaluation.py``), its categories' sums added in turn in category order, as the results file adds them
  (``official.recorded``: the same float for the same mean);
* ``recall``: the official evidence recall, ``null`` when the arm gives no ``_prediction_context`` at all
  (the official scorer would count 1.000 for every question: no evidence of anything);
* ``judge``: the share of the file's own judge verdicts (``<arm>_judge``, 1/0, as ``peers import`` writes
  a system's ``llm_score``, ``grade`` or ``is_correct``) that are 1, over the questions that have one;
  ``null`` when none has;
* ``mem0_f1``, ``mem0_bleu``: the means of mem0's harness token F1 and BLEU-1 (``score.mem0``), the
  numbers Memobase and mem0 publish as ``f1_score`` and ``bleu_score`` -- not the official F1.

An empty category has ``n`` 0 and ``null`` for every mean.  ``"name"`` gives the official category name.
"""

from __future__ import annotations

import math

from ..data.dataset import CATEGORIES, LOCOMO
from .official import Scorer, blind, recorded
from .predictions import Predictions, PredictionsError, gold

#: The official names of the categories, by number (1 multi hop, 2 temporal, 3 open domain, 4 single hop,
#: 5 adversarial); other systems' files and tables often use other names for the same numbers.
NAMES = {k: CATEGORIES[k] for k in sorted(LOCOMO)}


def _mean(values: list[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def verdicts(predictions: Predictions) -> dict[str, list[int | None]]:
    """Every arm's ``<arm>_judge`` per question of the file, in ``predictions.questions`` order (None: absent)."""
    out: dict[str, list[int | None]] = {}
    for arm in predictions.arms:
        marks = []
        for q in predictions.questions:
            mark = q.predictions[arm].judge
            if mark is not None and (isinstance(mark, bool) or mark not in (0, 1)):
                raise PredictionsError(f"{predictions.path}: {q.where}: {arm}_judge is {mark!r}, not 1 or 0")
            marks.append(None if mark is None else int(mark))
        out[arm] = marks
    return out


def figures(predictions: Predictions, scorer: Scorer) -> dict[str, dict[str, dict[str, object]]]:
    """``{arm: {"1".."5", "overall": {name, n, f1, recall, judge, mem0_f1, mem0_bleu}}}`` (see the module)."""
    from . import mem0  # here: NLTK's tokenisers and BLEU are loaded by what scores a file, not by every import

    means = recorded(predictions, scorer)  # the results file's floats: categories added in turn
    judged = verdicts(predictions)
    out: dict[str, dict[str, dict[str, object]]] = {}
    absent = set(blind(predictions))
    for arm in predictions.arms:
        each = []  # (category, judge, mem0 F1, mem0 BLEU-1) per question
        for q, j in zip(predictions.questions, judged[arm]):
            answer, reply = str(gold(predictions, q)), q.predictions[arm].reply
            each.append((q.category, j, mem0.token_f1(reply, answer), mem0.bleu1(reply, answer)))
        rows: dict[str, dict[str, object]] = {}
        for key, kinds in [*((str(k), (k,)) for k in NAMES), ("overall", tuple(NAMES))]:
            picked = [e for e in each if e[0] in kinds]
            score, reach = means[arm][NAMES[kinds[0]] if len(kinds) == 1 else "overall"] if picked else (None, None)
            rows[key] = {
                "name": NAMES[kinds[0]] if len(kinds) == 1 else "overall",
                "n": len(picked),
                "f1": score,
                "recall": None if arm in absent else reach,
                "judge": _mean([float(e[1]) for e in picked if e[1] is not None]),
                "mem0_f1": _mean([e[2] for e in picked]),
                "mem0_bleu": _mean([e[3] for e in picked]),
            }
        out[arm] = rows
    return out
