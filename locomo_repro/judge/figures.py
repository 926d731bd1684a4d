"""A run's replies judged (``-judge NAME`` on a run) and the judge figures of its arms for the results file;
a predictions file's replies paired with a judged file's verdicts (``peers table --judged``, the report).

The run's predictions, as ``-out`` writes them, are sent to one judge by ``judge run``'s machinery (``run``:
its tasks, memo, retries and threads; no probes, one repeat), and each arm's verdicts are measured by
:mod:`.measures` on the results file's rows (each category, answerable 1-4, overall 1-5): the questions with a
verdict, the failed judgements, J with its exact bootstrap interval over conversations, and how far the judge
parts from the official F1 of the same replies (``f1 auc``, J at F1 0 and 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..data import jsonio
from ..data.categories import LOCOMO
from ..data.progress import Progress
from ..read.chat import ChatClient
from ..score import predictions, results, signature
from ..score.figures import verdicts as own_verdicts
from . import measures as m, prompts, run
from .ask import Asker
from .verdicts import Verdict


@dataclass(frozen=True)
class Judging:
    """What ``-judge`` asks: the judge (read from its source), its client (model, endpoint, key), where its
    verdicts are kept (None: nowhere), how many requests at once, and the dataset's conversations by id where
    the judge shows evidence turns (LoCoMo-Plus's), else None."""

    judge: prompts.Judge
    client: ChatClient
    memo: str | None
    concurrency: int
    conversations: dict[str, dict[str, Any]] | None = None

    def ask(self, data: bytes, name: str, apart: frozenset[tuple[str, int]] = frozenset()
            ) -> tuple[list[Verdict], dict[str, object]]:
        """Every reply of the predictions ``data`` (as ``-out`` writes them; ``name`` labels messages) judged
        once but those of the questions held ``apart`` (conversation id, index: the answer key's ambiguous
        ones), and the judge's facts for the results file (name, source, model, prompt sha256, endpoint,
        temperature, judgements, failed, the tokens the endpoint reported)."""
        read_once = jsonio.Source(name, data)
        file = predictions.parse(predictions.decode(read_once), name, read_once.sha256)
        asking = run.Run(self.judge, Asker(self.client), self.memo, {}, self.judge.optional)
        work = [t for t in run.tasks([file], self.judge, False, self.conversations) if (t.sample_id, t.qa) not in apart]
        with Progress(f"judge {self.judge.name}", len(work), verb="judged") as progress:
            made = run.judge_all(asking, work, 1, self.concurrency, progress)
        temperature = asking.request(work[0].item).params.get("temperature") if work else None
        facts: dict[str, object] = {
            "name": self.judge.name, "source": self.judge.source, "model": self.client.model,
            "prompt_sha256": self.judge.prompt_sha256, "endpoint": signature.endpoint(self.client.base_url),
            "temperature": temperature, "repeats": 1, "judgements": len(made), "failed": sum(v.failed for v in made),
            "usage": vars(asking.kept)}
        return made, facts


def on_replies(file: predictions.Predictions, made: Sequence[Verdict]) -> list[Verdict]:
    """The verdicts of ``made`` on the file's very replies: of an arm of the file, about one of its questions
    (conversation id, index), with the reply the file gives (probes and verdicts on other replies left out)."""
    replies = {(q.sample, q.index, arm): q.predictions[arm].reply for q in file.questions for arm in file.arms}
    return [v for v in made if replies.get((v.sample_id, v.qa, v.arm)) == v.reply]


def own(file: predictions.Predictions, arm: str) -> list[Verdict]:
    """The file's own verdicts of ``arm`` (``<arm>_judge``, ``score.figures.verdicts``) as verdicts, for the
    agreement measures."""
    return [Verdict(sample_id=q.sample, qa=q.index, category=q.category, question=str(q.question),
                    gold=str(predictions.gold(file, q)), reply=q.predictions[arm].reply, arm=arm, label=str(j),
                    score=float(j), judge="own") for q, j in zip(file.questions, own_verdicts(file)[arm])
            if j is not None]


def kinds(key: str) -> tuple[int, ...]:
    """The categories of a results file's row (``results.ROWS``; overall is every official category)."""
    return dict(results.ROWS)[key] or LOCOMO


def judgement(verdicts: Sequence[Verdict], conversations: Sequence[str]) -> results.Judgement:
    """One arm's judge figures on every row of a results file, and each conversation's judged questions (in
    ``conversations``' order, each in question order) with their scores (``measures.score``)."""
    rows = {}
    for key, _ in results.ROWS:
        got = m.j(verdicts, kinds(key))
        rows[key] = results.JudgeRow(
            n=got.n, failed=got.failed, j=got.value,
            j_interval=None if got.low is None or got.high is None else (got.low, got.high),
            f1_auc=m.f1_auc(verdicts, kinds(key)).value, j_at_f1_0=m.j_at_f1(verdicts, kinds(key), 0.0).value,
            j_at_f1_1=m.j_at_f1(verdicts, kinds(key), 1.0).value)
    asked: dict[str, list[tuple[int, int, float | None]]] = {sample: [] for sample in conversations}
    for (sample, qa, _), group in m.questions(verdicts).items():
        asked.setdefault(sample, []).append((qa, group[0].category, m.score(group)))
    return results.Judgement(rows=rows, conversations=tuple((s, tuple(sorted(asked[s]))) for s in conversations))


def by_arm(verdicts: Sequence[Verdict], conversations: Sequence[str], arms: Sequence[str]
           ) -> dict[str, results.Judgement]:
    """The judge figures (:func:`judgement`) of each of ``arms``, by arm (an arm without a verdict has its rows
    too, with n 0)."""
    return {arm: judgement([v for v in verdicts if v.arm == arm], conversations) for arm in arms}
