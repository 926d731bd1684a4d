"""``-stats``: the reference's three reports, byte for byte, and the pieces they rest on."""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from locomo_repro.score import resamples, signature, stats
from locomo_repro.score.predictions import PredictionsError

REFERENCE_FILES = ("answers.json", "answers-walk.json", "answers-factor.json")


@pytest.fixture(scope="module")
def decoded(reference_answers):
    """The three reference predictions files, each decoded once for this module."""
    return {name: json.loads(reference_answers[name]) for name in REFERENCE_FILES}


@pytest.mark.slow
@pytest.mark.parametrize("name", REFERENCE_FILES)
def test_report_is_the_reference_byte_for_byte(decoded, reference_dir, name):
    want = (reference_dir / f"stats-{name.removesuffix('.json')}.txt").read_text()
    assert stats.report(name, decoded[name]) == want


@pytest.mark.slow
def test_main_prints_the_report_and_names_the_file_as_given(reference_answers, reference_dir, tmp_path, monkeypatch, capsys):
    (tmp_path / "answers-factor.json").write_bytes(reference_answers["answers-factor.json"])
    monkeypatch.chdir(tmp_path)
    assert stats.main(["answers-factor.json"]) == 0
    out, err = capsys.readouterr()
    assert out == (reference_dir / "stats-answers-factor.txt").read_text()
    assert out.startswith("answers-factor.json: 1986 questions, graph, scoped, span, vector\n")
    assert err == f"signature: {signature.predictions('answers-factor.json', signature.KIT, signature.EXACT)}\n"


# --- a file small enough to work out by hand ------------------------------------------

DECLINE = "No information available"


def qa(category, answer, a, b, sure_a, sure_b=0.5):
    return {
        "question": "?",
        "answer": answer,
        "category": category,
        "evidence": [],
        "a_prediction": a,
        "a_prediction_context": [],
        "a_prediction_confidence": sure_a,
        "b_prediction": b,
        "b_prediction_context": [],
        "b_prediction_confidence": sure_b,
    }


THREE = [
    {"sample_id": "s1", "qa": [qa(4, "red", "red", DECLINE, 0.9), qa(5, "x", "blue", "Not mentioned", 0.2)]},
    {"sample_id": "s2", "qa": [qa(4, "cat", "cat", "cat", 0.8), qa(5, "x", DECLINE, DECLINE, 0.1)]},
    {"sample_id": "s3", "qa": [qa(2, "May 2023", "May 2023", "June", 0.7), qa(5, "x", DECLINE, "yes", 0.3)]},
]

# Worked by hand.  Abstention: no multi-hop or open-domain question, so 0/0,
# printed as Go prints NaN.  AUC of a's confidence: every answerable above every
# adversarial; b's are all 0.5.  Decided: a answers [1,1,1] vs [1,0,0] -> 7.5/9;
# b answers [0,1,1] vs [0,0,1] -> 6/9.  Paired a - b per conversation:
# adversarial (-1, 0, +1), answerable (+1, 0, +1); over the 10 draws of three
# conversations (weights 1, 3 or 6, total 27) the 2.5% and 97.5% points are the
# extreme statistics.
THREE_REPORT = """\
three.json: 6 questions, a, b

constant abstention, "No information available" to everything
category           n      F1
single hop         2   0.000
multi hop          0     NaN
temporal           1   0.000
open domain        0     NaN
adversarial        3   1.000
answerable         3   0.000
overall            6   0.500

answerable against adversarial, area under the ROC curve
arm               sure  decided  quiet 1-4  quiet adv
a                1.000    0.833       0.0%      66.7%
b                0.500    0.667      33.3%      66.7%

paired difference, 95% percentile bootstrap over 3 conversations
                                         adversarial                  answerable
a          - b            +0.000 [-1.000, +1.000]  +0.667 [+0.000, +1.000]
"""


def test_three_conversations_worked_by_hand():
    assert stats.report("three.json", THREE) == THREE_REPORT


def test_a_numeric_answer_grades_as_its_digits_as_the_official_scorer_reads_it():
    # The Go reference would grade 2022 (a JSON number, as the dataset writes it) as "": its own files hold
    # only string answers, where both readings agree; elsewhere -stats gives the official cross-check's F1.
    one = [{"sample_id": "s", "qa": [qa(2, 2022, "2022", "nothing", 1.0), qa(5, "x", DECLINE, DECLINE, 0.0)]}]
    as_text = [{"sample_id": "s", "qa": [qa(2, "2022", "2022", "nothing", 1.0), qa(5, "x", DECLINE, DECLINE, 0.0)]}]
    assert stats.report("n.json", one) == stats.report("n.json", as_text)
    assert stats.report("n.json", one).endswith("+1.000 [+1.000, +1.000]\n")


def test_a_question_without_any_answer_is_refused_as_the_official_cross_check_refuses_it():
    bare = {k: v for k, v in qa(2, "x", "x", "y", 1.0).items() if k != "answer"}
    with pytest.raises(PredictionsError, match=r"^n\.json: s qa\[0\]: neither answer nor adversarial_answer$"):
        stats.report("n.json", [{"sample_id": "s", "qa": [bare, qa(5, "x", DECLINE, DECLINE, 0.0)]}])


def test_more_conversations_than_the_enumeration_allows_take_the_monte_carlo_bootstrap():
    many = [{"sample_id": f"s{i}", "qa": [qa(4, "red", "red", "red", 0.5)]} for i in range(13)]
    assert "95% percentile bootstrap over 13 conversations (Monte Carlo: 10,000 resamples, seed 0)\n" in \
        stats.report("big.json", many)


# --- AUC ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pos", "neg", "want"),
    [
        ([1.0], [0.0], 1.0),
        ([0.0], [1.0], 0.0),
        ([1.0, 1.0], [1.0], 0.5),  # all tied: every pair counts a half
        ([0.5, 0.2], [0.2, 0.1], 0.875),  # (1 + 1 + 0.5 + 1) / 4
        ([0.0, 1.0, 1.0], [0.0, 0.0, 1.0], 6 / 9),
        ([3.0, 1.0, 2.0], [2.0, 2.0], 0.5),  # ranks with a tie between the halves
    ],
)
def test_auc_hand_cases(pos, neg, want):
    assert stats.auc(pos, neg) == pytest.approx(want, abs=1e-15)


def test_auc_of_an_empty_half_is_nan():
    assert math.isnan(stats.auc([], [1.0]))
    assert math.isnan(stats.auc([1.0], []))


small = st.lists(st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.7, 1.0]), min_size=1, max_size=12)


@given(small, small)
def test_auc_is_the_share_of_pairs_ordered_with_ties_as_halves(pos, neg):
    pairs = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    assert stats.auc(pos, neg) == pairs / (len(pos) * len(neg))


# --- the enumeration and the quantile rule ------------------------------------------


def test_ten_conversations_have_92378_draws_weighing_ten_to_the_tenth():
    counts, weights = stats.draws(10)
    assert len(counts) == 92_378 == math.comb(19, 9) == resamples.draw_count(10)
    assert (counts.sum(axis=1) == 10).all()
    assert weights.sum() == 10.0**10
    assert weights.max() == math.factorial(10)  # one of each
    assert weights.min() == 1.0  # one conversation ten times


def test_three_conversations_in_lexicographic_order_with_multinomial_weights():
    counts, weights = stats.draws(3)
    assert resamples.draw_count(3) == math.comb(5, 3) == 10
    assert counts.tolist() == [
        [0, 0, 3], [0, 1, 2], [0, 2, 1], [0, 3, 0], [1, 0, 2],
        [1, 1, 1], [1, 2, 0], [2, 0, 1], [2, 1, 0], [3, 0, 0],
    ]  # fmt: skip
    assert weights.tolist() == [1, 3, 3, 1, 3, 6, 3, 3, 3, 1]


@pytest.mark.parametrize("n", range(1, 8))
def test_draws_are_every_multiset_once_weighted_by_its_ordered_samples(n):
    counts, weights = stats.draws(n)
    assert len(counts) == resamples.draw_count(n) == math.comb(2 * n - 1, n - 1)
    assert len({tuple(row) for row in counts.tolist()}) == len(counts)
    assert weights.sum() == n**n


def test_quantile_is_the_first_point_whose_cumulative_weight_is_at_least_q():
    values, weights = np.array([3.0, 1.0, 2.0]), np.array([1.0, 1.0, 2.0])  # sorted: 1 (1), 2 (2), 3 (1)
    assert stats.quantile(values, weights, 0.25) == 1.0  # exactly 1 of 4
    assert stats.quantile(values, weights, 0.26) == 2.0
    assert stats.quantile(values, weights, 0.75) == 2.0  # exactly 3 of 4
    assert stats.quantile(values, weights, 0.76) == 3.0
    assert stats.quantile(values, weights, 1.0) == 3.0
    assert stats.quantile(values, weights, 0.0) == 1.0


@given(st.data())
def test_quantile_does_not_depend_on_the_order_of_ties(data):
    values = data.draw(st.lists(st.sampled_from([-1.0, 0.0, 0.5, 2.0]), min_size=1, max_size=10))
    weights = data.draw(st.lists(st.integers(1, 5), min_size=len(values), max_size=len(values)))
    q = data.draw(st.sampled_from([0.0, 0.025, 0.3, 0.5, 0.975, 1.0]))
    order = data.draw(st.permutations(range(len(values))))
    v, w = np.array(values), np.array(weights, dtype=float)
    assert stats.quantile(v, w, q) == stats.quantile(v[list(order)], w[list(order)], q)


def test_interval_of_two_conversations_by_hand():
    # Draws (0,2) w1 -> 0, (1,1) w2 -> 0.5, (2,0) w1 -> 1; total 4.
    assert stats.interval([1.0, 0.0], [1.0, 1.0]) == (0.5, 0.0, 1.0)
    assert stats.interval([1.0, 0.0], [1.0, 1.0], p=0.25) == (0.5, 0.0, 0.5)
    assert stats.interval([1.0, 0.0], [1.0, 1.0], p=0.26) == (0.5, 0.5, 0.5)


def test_a_draw_with_no_question_is_left_out():
    # Conversation 2 has no question of this half: the draw of it three times
    # has no statistic; the 26 other ordered samples decide.
    got, lo, hi = stats.interval([0.0, 0.0, 1.0], [2.0, 0.0, 1.0], p=0.0)
    assert got == 1 / 3 and lo == 0.0 and hi == 1.0


def _brute_force(diff, size, q):
    """Every one of the n^n ordered resamples, each weighing 1, summed in conversation order."""
    n = len(diff)
    points = []
    for sample in itertools.product(range(n), repeat=n):
        count = [sample.count(i) for i in range(n)]
        total, questions = 0.0, 0.0
        for i in range(n):
            total += float(count[i]) * diff[i]
            questions += float(count[i]) * size[i]
        if questions:
            points.append(total / questions)
    points.sort()
    target = q * len(points)
    for at, value in enumerate(points, start=1):
        if at >= target:
            return value
    return points[-1]


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_interval_equals_brute_force_over_ordered_resamples(data):
    n = data.draw(st.integers(1, 5))
    size = data.draw(st.lists(st.integers(0, 4).map(float), min_size=n, max_size=n))
    if not any(size):
        size[0] = 1.0
    diff = [data.draw(st.floats(-s, s, allow_nan=False)) if s else 0.0 for s in size]
    got, lo, hi = stats.interval(diff, size)
    assert lo == _brute_force(diff, size, 0.025)
    assert hi == _brute_force(diff, size, 1 - 0.025)
    whole = sum(diff) / sum(size)
    assert got == pytest.approx(whole)


# --- Go's formatting ------------------------------------------------------------------


def test_go_float_formatting():
    assert stats.go_f(math.nan, 6, 3) == "   NaN"
    assert stats.go_f(math.nan, 6, 3, plus=True) == "  +NaN"
    assert stats.go_f(math.inf, 6, 3) == "  +Inf"
    assert stats.go_f(-math.inf, 6, 3, plus=True) == "  -Inf"
    assert stats.go_f(-0.0004, 6, 3, plus=True) == "-0.000"
    assert stats.go_f(0.0125, 6, 3) == " 0.013"  # 0.0125 is a little above in binary
    assert stats.go_f(0.5, 10, 1) == "       0.5"
    assert math.isnan(stats.go_div(0.0, 0.0)) and stats.go_div(-1.0, 0.0) == -math.inf


@pytest.mark.parametrize(("argv", "says"), [
    (["--bogus"], "unrecognized arguments: --bogus"),
    (["--bogus", "answers.json"], "unrecognized arguments: --bogus"),
    ([], "a predictions FILE is required"),
])
def test_bad_arguments_are_one_line_and_exit_2(argv, says, capsys):
    assert stats.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"locomo-repro stats: error: {says}\n"
