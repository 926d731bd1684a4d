"""A results file's F1 intervals are ``-stats``'s exact bootstrap over the same run's grades, to the last bit.

``stats.pooled`` over the ``-out`` file's grades (as ``-stats`` grades them) gives every arm's and row's
interval; each conversation's summed score is the sum of its grades in question order.  Over two
conversations the interval is, by hand, from the lower conversation's mean to the higher.  Past twelve
conversations no interval is taken, and the file says why.
"""

from __future__ import annotations

import io

import pytest

from locomo_repro import cli
from locomo_repro.data.dataset import CATEGORIES
from locomo_repro.score import predictions, results, stats
from locomo_repro.score.metric import grade


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> tuple[results.Results, predictions.Predictions]:
    folder = tmp_path_factory.mktemp("pair")
    argv = ["-only", "2", "-jobs", "1", "-quiet", "-out", str(folder / "p.json"), "-json", str(folder / "r.json")]
    assert cli.run(cli.parser().parse_args(argv), io.StringIO()) == 0
    return results.read(folder / "r.json"), predictions.read(folder / "p.json")


def test_every_interval_is_stats_pooled_over_the_predictions_files_grades(run):
    got, answers = run
    marks = stats.grades(answers)
    (only,) = got.passes
    assert list(only.arms) == list(answers.arms)
    for arm, a in only.arms.items():
        for key, kinds in results.ROWS:
            _, low, high = stats.pooled(answers, marks[arm], kinds or tuple(CATEGORIES))
            assert a.rows[key].f1_interval == (low, high), (arm, key)


def graded(answers: predictions.Predictions) -> dict[str, list[float]]:
    """Every arm's grade of every question by the official metric, in file order (the adversarial category's
    grade reads the reply alone; the dataset's numeric answers are read as text, as the official scorer reads them)."""
    return {arm: [grade(q.category, q.predictions[arm].reply, "" if q.category == 5 else str(q.answer))
                  for q in answers.questions] for arm in answers.arms}


def means(answers: predictions.Predictions, marks: list[float], kinds: tuple[int, ...]) -> list[float]:
    """Each conversation's mean mark over the questions of ``kinds`` (of those that ask one), summed in order."""
    out = []
    for sample in answers.conversations:
        mine = [m for q, m in zip(answers.questions, marks) if q.sample == sample and (not kinds or q.category in kinds)]
        total = 0.0
        for m in mine:
            total += m
        if mine:
            out.append(total / len(mine))
    return out


def test_over_two_conversations_each_interval_runs_from_the_lower_conversations_mean_to_the_higher(run):
    """By hand: the resamples {A, A}, {A, B}, {B, B} weigh 1, 2, 1 of 4; the 2.5% quantile (0.1 of 4) is the
    lowest value, the 97.5% one (3.9) the highest, and a resample of one conversation twice is its mean."""
    got, answers = run
    assert len(answers.conversations) == 2
    marks = graded(answers)
    for arm, a in got.passes[0].arms.items():
        for key, kinds in results.ROWS:
            each = means(answers, marks[arm], kinds)
            assert a.rows[key].f1_interval == ((min(each), max(each)) if each else None), (arm, key)


def test_each_conversations_sums_are_its_grades_added_in_question_order(run):
    got, answers = run
    marks = graded(answers)
    for arm, a in got.passes[0].arms.items():
        for sample, sums in a.conversations:
            for key, kinds in results.ROWS:
                mine = [m for q, m in zip(answers.questions, marks[arm])
                        if q.sample == sample and (not kinds or q.category in kinds)]
                total = 0.0
                for m in mine:
                    total += m
                assert sums[key] == (len(mine), total)


class Fixed:
    """A tally whose every figure is a given number."""

    def __init__(self, n: int) -> None:
        self.n = n

    def count(self, kinds=()):
        return self.n

    def mean(self, kinds=()):
        return 0.5

    def reach(self, kinds=()):
        return None

    def quiet_share(self, kinds=()):
        return 0.0


def sums(n: int, score: float) -> results.Sums:
    return {key: (n, score) for key, _ in results.ROWS}


def test_two_conversations_one_right_one_wrong_give_the_interval_zero_to_one():
    """By hand: the resamples {A, A}, {A, B}, {B, B} weigh 1, 2, 1 and score 1, 0.5, 0; the 2.5% and 97.5%
    quantiles of that are 0 and 1."""
    arm = results.arm(Fixed(2), [("A", sums(1, 1.0)), ("B", sums(1, 0.0))])
    assert {row.f1_interval for row in arm.rows.values()} == {(0.0, 1.0)}
    assert {row.recall for row in arm.rows.values()} == {None}


def test_past_twelve_conversations_the_interval_is_the_seeded_monte_carlo_one_and_the_file_says_so():
    many = [(f"c{i}", sums(1, 1.0)) for i in range(13)]
    arm = results.arm(Fixed(13), many)
    assert {row.f1_interval for row in arm.rows.values()} == {(1.0, 1.0)}
    made = results.Results(sha256="0" * 64, conversations=tuple(s for s, _ in many), settings={}, signature="",
                           kit_version="0", passes=(results.Pass(None, {}, {"a": arm}),))
    assert results.document(made)["bootstrap"] == {"over": "conversations", "level": 0.95, "method": "monte-carlo",
                                                    "resamples": 10_000, "seed": 0, "unavailable": None}


def test_a_row_without_questions_has_no_interval():
    arm = results.arm(Fixed(0), [("A", sums(0, 0.0))])
    assert {row.f1_interval for row in arm.rows.values()} == {None}
