"""The estimator, its standard error and its interval, by hand and as properties."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rr
from rr.estimate import clopper_pearson
from tests.rr import spins

LN3 = math.log(3)
epsilons = st.floats(min_value=0.05, max_value=8.0)
procedures = st.sampled_from(rr.PROCEDURES)


@st.composite
def counts(draw):
    n = draw(st.integers(min_value=1, max_value=10**6))
    return draw(st.integers(min_value=0, max_value=n)), n


@pytest.mark.parametrize("procedure", rr.PROCEDURES)
def test_estimate_by_hand(procedure):
    # e^ε = 3: π_noisy = 0.4, offset 1/4, slope 1/2 → π̂ = 0.3; SE = sqrt(0.24/100)/0.5.
    result = rr.estimate_proportion(40, 100, LN3, procedure)
    assert result.estimate == pytest.approx(0.3, rel=1e-12)
    assert result.std_error == pytest.approx(math.sqrt(0.24 / 100) / 0.5, rel=1e-12)
    assert result.estimated_count == pytest.approx(30.0, rel=1e-12)
    assert (result.n, result.noisy_yes, result.confidence) == (100, 40, 0.95)


def test_issue_formulas_by_hand():
    epsilon = 1.0
    p_coin = (math.e - 1) / (math.e + 1)
    p_spin = math.e / (1 + math.e)
    coin = rr.estimate_proportion(60, 100, epsilon, "spinner_coin")
    spin = rr.estimate_proportion(60, 100, epsilon, "spinner")
    assert coin.estimate == pytest.approx((0.6 - (1 - p_coin) / 2) / p_coin, rel=1e-12)
    assert spin.estimate == pytest.approx((0.6 - (1 - p_spin)) / (2 * p_spin - 1), rel=1e-12)
    assert spin.std_error == pytest.approx(math.sqrt(0.24 / 100) / (2 * p_spin - 1), rel=1e-12)


def test_clopper_pearson_by_hand():
    # x = 0: high = 1 − (α/2)^(1/n); x = n: low = (α/2)^(1/n).
    low, high = clopper_pearson(np.array([0, 30]), np.array([30, 30]), 0.95)
    assert low[0] == 0 and high[1] == 1
    assert high[0] == pytest.approx(1 - 0.025 ** (1 / 30), rel=1e-10)
    assert low[1] == pytest.approx(0.025 ** (1 / 30), rel=1e-10)


def test_raw_estimate_is_not_clipped_but_interval_is():
    result = rr.estimate_proportion(5, 30, 1.0)
    assert result.estimate < 0
    assert result.ci_low == 0.0 and 0 < result.ci_high < 1
    high = rr.estimate_proportion(25, 30, 1.0)
    assert high.estimate > 1 and high.ci_high == 1.0 and 0 < high.ci_low < 1


def test_interval_collapses_to_the_edge_when_no_share_fits():
    # 0 of 30 at ε = 2: even π = 0 gives P(0 yes) = (1 − 1/(1 + e²))^30 ≈ 0.022 < 0.025.
    low_end = rr.estimate_proportion(0, 30, 2.0)
    assert (low_end.ci_low, low_end.ci_high) == (0.0, 0.0)
    high_end = rr.estimate_proportion(30, 30, 2.0)
    assert (high_end.ci_low, high_end.ci_high) == (1.0, 1.0)


def test_vectorised_counts_match_scalars():
    yes = np.array([0, 7, 15, 30])
    many = rr.estimate_proportion(yes, 30, 1.0)
    for index, count in enumerate(yes):
        one = rr.estimate_proportion(int(count), 30, 1.0)
        for field in ("estimate", "std_error", "ci_low", "ci_high", "estimated_count"):
            assert getattr(many, field)[index] == pytest.approx(getattr(one, field), rel=1e-12)
    assert isinstance(rr.estimate_proportion(3, 30, 1.0).estimate, float)


def test_repr_is_readable():
    text = repr(rr.estimate_proportion(40, 100, LN3))
    assert text.startswith("Estimate(estimate=0.3000, std_error=0.0980")
    assert "n=100" in text and "95%" in text


@pytest.mark.parametrize("confidence", [0.8, 0.9, 0.99])
def test_higher_confidence_gives_a_wider_interval(confidence):
    narrow = rr.estimate_proportion(40, 100, 1.0, confidence=confidence)
    wide = rr.estimate_proportion(40, 100, 1.0, confidence=(1 + confidence) / 2)
    assert wide.ci_low <= narrow.ci_low and wide.ci_high >= narrow.ci_high


@given(counts(), epsilons, procedures)
def test_estimator_inverts_the_expected_noisy_share(count, epsilon, procedure):
    yes, n = count
    pi_hat = rr.estimate_proportion(yes, n, epsilon, procedure).estimate
    given_yes, given_no = rr.report_probabilities(epsilon, procedure)
    assert pi_hat * given_yes + (1 - pi_hat) * given_no == pytest.approx(yes / n, abs=1e-9)


@given(counts(), epsilons, procedures)
def test_interval_contains_the_clipped_estimate(count, epsilon, procedure):
    result = rr.estimate_proportion(*count, epsilon, procedure)
    clipped = min(max(result.estimate, 0.0), 1.0)
    assert 0.0 <= result.ci_low <= clipped + 1e-12
    assert clipped - 1e-12 <= result.ci_high <= 1.0


@given(st.integers(min_value=2, max_value=5000), epsilons, procedures)
def test_estimates_rise_with_noisy_yes(n, epsilon, procedure):
    result = rr.estimate_proportion(np.arange(n + 1), n, epsilon, procedure)
    assert np.all(np.diff(result.estimate) > 0)
    assert np.all(np.diff(result.ci_low) >= 0) and np.all(np.diff(result.ci_high) >= 0)


@pytest.mark.parametrize("procedure", rr.PROCEDURES)
@pytest.mark.parametrize(
    ("n", "epsilon", "share"), [(30, 0.5, 0.1), (200, 1.0, 0.3), (1000, 3.0, 0.05)]
)
def test_classes_that_really_spin_are_estimated_without_bias(n, epsilon, share, procedure):
    # Each of 20,000 classes spins respondent by respondent (tests/rr/spins.py, not rr); the mean of
    # rr's estimates must be the true share and their variance the procedure's stated one.
    classes = 20_000
    rng = np.random.default_rng([n, int(epsilon * 10), rr.PROCEDURES.index(procedure)])
    truth = rng.random((classes, n)) < share
    reported = spins.spin(truth, epsilon, procedure, rng).sum(axis=1)
    result = rr.estimate_proportion(reported, n, epsilon, procedure)
    assert np.allclose(
        result.estimate, spins.textbook_estimate(reported / n, epsilon, procedure), rtol=1e-9
    )
    variance = spins.textbook_variance(share, n, epsilon, procedure)
    assert abs(result.estimate.mean() - share) < 4 * math.sqrt(variance / classes)
    assert abs(result.estimate.var(ddof=1) / variance - 1) < 4 * math.sqrt(2 / classes)


@pytest.mark.parametrize(
    ("yes", "n", "epsilon"), [(0, 30, 2.0), (30, 30, 2.0), (0, 1, 0.5), (1000, 1000, 4.0)]
)
def test_standard_error_is_never_zero_at_the_edges(yes, n, epsilon):
    # All reports alike: the plug-in share is 0 or 1, but no true share can give that; the standard
    # error is the one at the nearest possible true share (0 or 1), θ = 1/(1 + e^ε) or its mirror.
    theta = 1 / (1 + math.exp(epsilon))
    expected = math.sqrt(theta * (1 - theta) / n) / math.tanh(epsilon / 2)
    assert rr.estimate_proportion(yes, n, epsilon).std_error == pytest.approx(expected, rel=1e-12)


def test_standard_error_inside_the_possible_range_is_the_plug_in_one():
    # e^ε = 3: a = 1/4, so a reported share of 0.3 is possible and its plug-in SE stands.
    result = rr.estimate_proportion(30, 100, LN3)
    assert result.std_error == pytest.approx(math.sqrt(0.3 * 0.7 / 100) / 0.5, rel=1e-12)
