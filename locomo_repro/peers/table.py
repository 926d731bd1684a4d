"""Several systems' answers side by side, like with like: ``locomo-repro peers table FILE``.

For an official-shape file (``peers import`` writes one), per category -- named by number and official name,
``1 multi hop`` ... ``5 adversarial``, then ``overall`` -- and per arm:

* ``F1``: the official F1 (``score.metric``, equal to the official ``evaluation.py``, which the kit checks);
* ``mem0 F1``, ``mem0 BLEU-1``: mem0's harness metrics (``score.mem0``), what Memobase and mem0 publish;
* ``Refined F1``, ``Refined BLEU-1``: LoCoMo-Refined's lexical metrics (``refined.lexical``) of the cleaned reply;
* ``judge``: the share of the file's own judge verdicts (``<arm>_judge``) that are true ("-" without verdicts).
  Each system's judge is its own (model, prompt): two systems' judge columns are not one metric.

Then, for every pair of arms, the paired difference on the questions both answer, of the official F1 and of the
judge (over the questions both have a verdict for), with the exact 95% percentile bootstrap interval over
conversations that ``-stats`` computes (``score.stats.interval``).

With ``--judged FILE`` (a judged file of the same replies, as ``judge run`` writes it: one judge for every
arm), a column ``J``: the score of that judge's verdicts (``judge.measures.score``: the mean of a question's
judged repeats; a failed judgement or a verdict on another reply is no value), like with like; its paired
difference beside the others; and per arm its agreement and Cohen's kappa with the file's own verdicts
(``judge.measures``) over the questions both judged.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..data.dataset import CATEGORIES, LOCOMO
from ..judge import measures
from ..judge.figures import on_replies, own
from ..judge.verdicts import Verdict
from ..refined.lexical import bleu1 as refined_bleu1
from ..refined.lexical import token_f1 as refined_f1
from ..refined.score import clean_prediction
from ..score import mem0
from ..score.figures import verdicts
from ..score.metric import grade
from ..score.predictions import Predictions, PredictionsError, gold
from ..score.stats import MAX_DRAWS, draw_count, interval

#: The columns, in print order, with the per-question measure each averages.
COLUMNS = ("F1", "mem0 F1", "mem0 BLEU-1", "Refined F1", "Refined BLEU-1", "judge")


def rejudged(predictions: Predictions, made: Sequence[Verdict]) -> dict[str, list[float | None]]:
    """Per arm, per question (file order), the score the verdicts ``made`` give its reply (None: no verdict on
    that very reply, or only failed judgements)."""
    by_key = measures.questions(on_replies(predictions, made))
    return {arm: [measures.score(by_key.get((q.sample, q.index, arm), [])) for q in predictions.questions]
            for arm in predictions.arms}


def marks(predictions: Predictions, made: Sequence[Verdict] | None = None) -> dict[str, list[dict[str, float | None]]]:
    """Per arm, per question (file order), every column's value (judge None when the file has no verdict; with
    ``made``, J: :func:`rejudged`)."""
    judged = verdicts(predictions)
    again = rejudged(predictions, made) if made is not None else None
    out: dict[str, list[dict[str, float | None]]] = {}
    for arm in predictions.arms:
        rows: list[dict[str, float | None]] = []
        for q, j in zip(predictions.questions, judged[arm]):
            reply, answer = q.predictions[arm].reply, str(gold(predictions, q))
            cleaned = clean_prediction(reply)
            rows.append({
                "F1": grade(q.category, reply, answer),
                "mem0 F1": mem0.token_f1(reply, answer), "mem0 BLEU-1": mem0.bleu1(reply, answer),
                "Refined F1": refined_f1(cleaned, answer), "Refined BLEU-1": refined_bleu1(cleaned, answer),
                "judge": None if j is None else float(j),
                **({} if again is None else {"J": again[arm][len(rows)]}),
            })
        out[arm] = rows
    return out


def _mean(values: Sequence[float | None]) -> str:
    got = [v for v in values if v is not None]
    return f"{math.fsum(got) / len(got):.3f}" if got else "-"


def _signed(x: float) -> str:
    return "nan" if math.isnan(x) else f"{x:+.3f}"


def render(predictions: Predictions, made: Sequence[Verdict] | None = None, judged_by: str = "") -> str:
    """The side-by-side table and the paired differences of a read predictions file; with ``made`` (the
    verdicts of the judged file ``judged_by``), the column J, its differences and its agreement."""
    n = len(predictions.conversations)
    if draw_count(n) > MAX_DRAWS:
        raise PredictionsError(f"{predictions.path}: {n} conversations: too many to enumerate every resample")
    values = marks(predictions, made)
    columns = COLUMNS if made is None else (*COLUMNS, "J")
    arms = predictions.arms
    width = max(len(a) for a in arms)
    lines = [f"{predictions.path}: {len(predictions.questions)} questions, {', '.join(arms)}", "",
             f"{'category':<16}{'n':>6}  {'arm':<{width}}" + "".join(f"{c:>16}" for c in columns)]
    rows = [(f"{k} {CATEGORIES[k]}", (k,)) for k in sorted(LOCOMO)] + [("overall", LOCOMO)]
    for label, kinds in rows:
        picked = [i for i, q in enumerate(predictions.questions) if q.category in kinds]
        if not picked:
            lines.append(f"{label:<16}{0:>6}  (no question of this category in the file)")
            continue
        for order, arm in enumerate(arms):
            head = f"{label:<16}{len(picked):>6}" if order == 0 else " " * 22
            means = "".join(f"{_mean([values[arm][i][c] for i in picked]):>16}" for c in columns)
            lines.append(f"{head}  {arm:<{width}}{means}")
    paired = ("F1", "judge") if made is None else ("F1", "judge", "J")
    lines += ["", f"paired difference on the questions both arms answer, exact 95% percentile bootstrap over "
                  f"{n} conversations (judge{', J' if made is not None else ''}: over the questions both have a "
                  f"verdict for)",
              f"{'':<{2 * width + 3}}  {'official F1':>26}  {'judge':>26}" + (f"  {'J':>26}" if made else "")]
    at = {sample: i for i, sample in enumerate(predictions.conversations)}
    for i, one in enumerate(arms):
        for two in arms[i + 1:]:
            cells: list[str] = []
            for column in paired:
                diff, size = [0.0] * n, [0.0] * n
                for q, a, b in zip(predictions.questions, values[one], values[two]):
                    x, y = a[column], b[column]
                    if x is not None and y is not None:
                        diff[at[q.sample]] += x - y
                        size[at[q.sample]] += 1
                if not any(size):
                    cells.append(f"{'- (no shared verdicts)':>26}")
                    continue
                got, lo, hi = interval(diff, size)
                cells.append(f"{_signed(got):>7} [{_signed(lo):>7}, {_signed(hi):>7}]".rjust(26))
            lines.append(f"{one:<{width}} - {two:<{width}}  " + "  ".join(cells))
    if len(arms) == 1:
        lines.append("(one arm: no pair to compare)")
    if made is not None:
        lines += ["", f"J ({judged_by}) against the file's own judge, over the questions both judged the same reply",
                  f"{'arm':<{width}}  {'n':>6}  {'agreement':>9}  {'kappa':>7}"]
        for arm in arms:
            again = [v for v in on_replies(predictions, made) if v.arm == arm]
            mine = own(predictions, arm)
            said = measures.agreement(again, mine, LOCOMO)
            kappa = measures.cohen_kappa(again, mine, LOCOMO)
            if not said.n or said.value is None:
                lines.append(f"{arm:<{width}}  {0:>6}  {'-':>9}  {'-':>7}")
                continue
            shown = "-" if kappa.value is None else f"{kappa.value:.3f}"
            lines.append(f"{arm:<{width}}  {said.n:>6}  {said.value:>9.3f}  {shown:>7}")
    return "\n".join(lines) + "\n"
