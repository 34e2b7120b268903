"""The spinner's light share, the truth probability and the perturbation itself."""

import math

import mpmath
import numpy as np
import pytest

import rr

LN3 = math.log(3)


@pytest.mark.parametrize(
    ("procedure", "expected"),
    [("spinner_coin", 0.5), ("spinner", 0.75)],  # e^ε = 3: (3−1)/(3+1) and 3/(1+3)
)
def test_light_fraction_by_hand(procedure, expected):
    assert rr.light_fraction(LN3, procedure) == pytest.approx(expected, rel=1e-15)


def test_default_procedure_is_spinner_coin():
    assert rr.light_fraction(1.0) == rr.light_fraction(1.0, "spinner_coin")
    assert rr.PROCEDURES == ("spinner", "spinner_coin")


@pytest.mark.parametrize("epsilon", [1e-6, 1e-4, 0.01, 0.5, 1.0, 4.0, 10.0, 30.0, 50.0])
def test_light_fraction_is_accurate_across_the_range(epsilon):
    e = mpmath.mpf(epsilon)
    with mpmath.workdps(50):
        exact = {
            "spinner_coin": (mpmath.exp(e) - 1) / (mpmath.exp(e) + 1),
            "spinner": mpmath.exp(e) / (1 + mpmath.exp(e)),
        }
    for procedure, value in exact.items():
        got = rr.light_fraction(epsilon, procedure)
        # Two ulps: the naive (e^ε − 1)/(e^ε + 1) is off by 1e-11 relative at ε = 1e-6.
        assert abs(got - float(value)) <= 2 * math.ulp(float(value))


@pytest.mark.parametrize("procedure", rr.PROCEDURES)
@pytest.mark.parametrize("epsilon", [1e-6, 0.5, 10.0, 36.7, 38.1, 50.0, 200.0, 700.0])
def test_report_probabilities_keep_their_precision_at_large_epsilon(epsilon, procedure):
    with mpmath.workdps(50):
        e = mpmath.exp(mpmath.mpf(epsilon))
        yes_given_yes, yes_given_no, ratio = float(e / (1 + e)), float(1 / (1 + e)), float(e)
    got = rr.report_probabilities(epsilon, procedure)
    assert got.yes_given_yes == pytest.approx(yes_given_yes, rel=4e-16)
    assert got.yes_given_no == pytest.approx(yes_given_no, rel=1e-14)
    assert rr.privacy_loss_ratio(epsilon, procedure) == pytest.approx(ratio, rel=1e-13)


def test_privacy_loss_ratio_beyond_the_largest_double_is_infinite():
    assert rr.privacy_loss_ratio(709.0) < math.inf
    assert rr.privacy_loss_ratio(710.0) == math.inf
    assert rr.privacy_loss_ratio(1000.0, "spinner") == math.inf


def test_extreme_epsilon_does_not_overflow():
    assert rr.light_fraction(1000.0) == 1.0
    assert rr.truth_probability(1000.0) == 1.0
    assert rr.estimate_proportion(5, 10, 1000.0).estimate == pytest.approx(0.5)


@pytest.mark.parametrize("epsilon", [0.1, LN3, 1.0, 2.5, 8.0])
def test_both_procedures_tell_the_truth_equally_often(epsilon):
    coin_p = rr.light_fraction(epsilon, "spinner_coin")
    spinner_p = rr.light_fraction(epsilon, "spinner")
    # spinner_coin: light tells the truth, dark's coin is right half the time.
    assert coin_p + (1 - coin_p) / 2 == pytest.approx(rr.truth_probability(epsilon), rel=1e-12)
    # spinner: the truth exactly on light.
    assert spinner_p == pytest.approx(rr.truth_probability(epsilon), rel=1e-12)
    assert rr.truth_probability(epsilon) == pytest.approx(
        math.exp(epsilon) / (1 + math.exp(epsilon)), rel=1e-12
    )


@pytest.mark.parametrize("procedure", rr.PROCEDURES)
@pytest.mark.parametrize("epsilon", [0.25, 1.0, LN3, 3.0])
def test_privacy_loss_ratio_is_e_to_the_epsilon(procedure, epsilon):
    assert rr.privacy_loss_ratio(epsilon, procedure) == pytest.approx(math.exp(epsilon), rel=1e-12)


def test_report_probabilities_by_hand():
    # e^ε = 3: spinner_coin p = 1/2 → yes|yes = 1/2 + 1/4, yes|no = 1/4.
    assert rr.report_probabilities(LN3, "spinner_coin") == pytest.approx((0.75, 0.25))
    assert rr.report_probabilities(LN3, "spinner") == pytest.approx((0.75, 0.25))


@pytest.mark.parametrize("procedure", rr.PROCEDURES)
@pytest.mark.parametrize("epsilon", [0.5, 2.0])
def test_perturb_matches_report_probabilities(procedure, epsilon):
    n = 200_000
    truth = np.repeat([1, 0], n // 2)
    reported = rr.perturb(truth, epsilon, procedure, rng=np.random.default_rng(7))
    expected = rr.report_probabilities(epsilon, procedure)
    for observed, p in [
        (reported[: n // 2].mean(), expected.yes_given_yes),
        (reported[n // 2 :].mean(), expected.yes_given_no),
    ]:
        tolerance = 4 * math.sqrt(p * (1 - p) / (n // 2))
        assert abs(observed - p) < tolerance
    truthful = (reported == truth).mean()
    q = rr.truth_probability(epsilon)
    assert abs(truthful - q) < 4 * math.sqrt(q * (1 - q) / n)


def test_spinner_coin_dark_answers_follow_the_coin_not_the_truth():
    # At tiny ε the spinner is almost all dark, so yes-answers and no-answers report alike.
    truth = np.repeat([1, 0], 50_000)
    reported = rr.perturb(truth, 1e-6, "spinner_coin", rng=1)
    assert abs(reported[:50_000].mean() - 0.5) < 0.01
    assert abs(reported[50_000:].mean() - 0.5) < 0.01


def test_spinner_dark_answers_are_the_opposite():
    truth = np.repeat([1, 0], 50_000)
    reported = rr.perturb(truth, 1e-6, "spinner", rng=1)
    # Near ε = 0 the spinner is a fair coin between truth and its opposite.
    assert abs((reported == truth).mean() - 0.5) < 0.01


def test_perturb_keeps_shape_and_is_repeatable_with_a_seed():
    truth = np.array([[1, 0, 1], [0, 0, 1]], dtype=bool)
    first = rr.perturb(truth, 1.0, rng=42)
    assert first.shape == (2, 3) and first.dtype == np.uint8
    assert np.array_equal(first, rr.perturb(truth, 1.0, rng=42))
    assert set(np.unique(first)) <= {0, 1}


def test_the_dark_share_is_a_coin_for_spinner_coin_and_the_opposite_for_spinner():
    assert rr.dark_report("spinner_coin") == "coin"
    assert rr.dark_report("spinner") == "opposite"
    with pytest.raises(ValueError, match="procedure must be one of"):
        rr.dark_report("forced_response")
