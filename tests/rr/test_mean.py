"""The one-bit mean of a bounded quantity: closed forms, unbiasedness, exact coverage, sample size,
the difference of two groups, the linear regression with sandwich errors, and the comparison with
the Laplace and Gaussian mechanisms."""

import math

import numpy as np
import pytest

import rr
from rr.mean import bounded_mean, mechanism_variances
from rr.regression import RegressionError

LOW, HIGH = 0.0, 30.0
# The populations of the issue: a point mass at each end, a uniform and a skewed distribution
# (values 0..30 with weights halving every three steps: mean about 4).
VALUES = np.arange(0, 31)
SKEWED_WEIGHTS = 0.5 ** (VALUES / 3)
POPULATIONS = {
    "at low": np.array([0.0]),
    "at high": np.array([30.0]),
    "uniform": VALUES.astype(float),
    "skewed": np.repeat(VALUES, np.round(1000 * SKEWED_WEIGHTS / SKEWED_WEIGHTS.sum()).astype(int)),
}


@pytest.mark.parametrize("epsilon", [0.5, 1.0, 2.0])
@pytest.mark.parametrize("noisy_yes", [0, 1, 140, 299, 300])
def test_estimate_matches_the_closed_forms(epsilon, noisy_yes):
    n, width = 300, HIGH - LOW
    share = noisy_yes / n
    coin = (math.exp(epsilon) - 1) / (math.exp(epsilon) + 1)
    mirror = math.exp(epsilon) / (1 + math.exp(epsilon))
    closed = {
        "spinner_coin": LOW + width * (share - (1 - coin) / 2) / coin,
        "spinner": LOW + width * (share - (1 - mirror)) / (2 * mirror - 1),
    }
    for procedure, expected in closed.items():
        found = bounded_mean(LOW, HIGH, epsilon, procedure).estimate(noisy_yes, n)
        assert found.estimate == pytest.approx(expected, rel=1e-12, abs=1e-12)
        theta = min(max(share, (1 - coin) / 2), (1 + coin) / 2)
        assert found.std_error == pytest.approx(
            width * math.sqrt(theta * (1 - theta) / n) / coin, rel=1e-12
        )
        assert LOW <= found.ci_low <= found.ci_high <= HIGH
        on_shares = rr.estimate_proportion(noisy_yes, n, epsilon, procedure)
        assert found.ci_low == pytest.approx(LOW + width * on_shares.ci_low, rel=1e-12, abs=1e-12)
        assert found.ci_high == pytest.approx(LOW + width * on_shares.ci_high, rel=1e-12)


@pytest.mark.parametrize("procedure", ["spinner_coin", "spinner"])
@pytest.mark.parametrize("name", list(POPULATIONS))
def test_unbiased_over_ten_thousand_classes(procedure, name):
    population = POPULATIONS[name]
    mean = bounded_mean(LOW, HIGH, 1.0, procedure)
    estimates = mean.simulate_estimates(population, 300, trials=10_000, seed=20261125)
    truth = float(population.mean())
    standard_error = math.sqrt(mean.variance(truth, 300))
    # The average of 10⁴ estimates has a spread of SE/100: a bias of 0.05 SE is five of those.
    assert abs(estimates.mean() - truth) < 0.05 * standard_error
    assert estimates.std() == pytest.approx(standard_error, rel=0.05)


@pytest.mark.parametrize("n", [30, 300, 3000])
@pytest.mark.parametrize("epsilon", [0.5, 1.0, 2.0])
@pytest.mark.parametrize("name", list(POPULATIONS))
def test_interval_covers_exactly(n, epsilon, name):
    mean = bounded_mean(LOW, HIGH, epsilon)
    assert mean.exact_coverage(float(POPULATIONS[name].mean()), n) >= 0.95


def test_reports_follow_the_line_whatever_the_spread():
    mean = bounded_mean(2, 12, 1.5, "spinner")
    rng = np.random.default_rng(7)
    values = rng.choice([2.0, 12.0], size=200_000)  # mean 7, as spread out as it can be
    share = mean.perturb(values, rng).mean()
    theta = mean.report_share(7.0)
    assert abs(share - theta) < 4 * math.sqrt(theta * (1 - theta) / 200_000)


def test_margin_and_sample_size_are_in_units():
    mean = bounded_mean(0, 30, 1.0)
    n = mean.sample_size(2.0)
    assert mean.margin_of_error(n) <= 2.0 < mean.margin_of_error(n - 1)
    assert mean.margin_of_error(n) == pytest.approx(30 * rr.spinner_coin(1.0).margin_of_error(n))
    assert mean.sample_size(2.0, true_mean=3.0) < n  # nearer an end, fewer are needed


def test_difference_of_two_groups_is_the_shares_difference_in_units():
    mean = bounded_mean(0, 30, 1.0)
    found = mean.difference(420, 1000, 300, 1000)
    on_shares = rr.spinner_coin(1.0).difference(420, 1000, 300, 1000)
    assert found.estimate == pytest.approx(30 * on_shares.estimate, rel=1e-12)
    assert (found.ci_low, found.ci_high) == pytest.approx(
        (30 * on_shares.ci_low, 30 * on_shares.ci_high), rel=1e-12
    )
    assert found.p_value == on_shares.p_value


def _grouped_reports(mean, means, size, rng):
    """Reports of groups whose values are spread uniformly ±3 around each mean."""
    n, yes = [], []
    for centre in means:
        values = np.clip(rng.integers(-3, 4, size) + centre, mean.low, mean.high)
        n.append(size)
        yes.append(int(mean.perturb(values, rng).sum()))
    return n, yes


def test_regression_recovers_group_means_with_honest_sandwich_errors():
    mean = bounded_mean(0, 30, 1.0)
    rng = np.random.default_rng(11)
    design = [[1, 0, 0], [1, 1, 0], [1, 0, 1]]
    fits = []
    for _ in range(400):
        n, yes = _grouped_reports(mean, (5, 12, 8), 2000, rng)
        fits.append(mean.regression(design, n, yes, terms=["(intercept)", "b", "c"]))
    coefficients = np.array([[c.estimate for c in fit.coefficients] for fit in fits])
    errors = np.array([[c.std_error for c in fit.coefficients] for fit in fits])
    truth = np.array([5.0, 7.0, 3.0])
    spread = coefficients.std(axis=0)
    # Mean of 400 fits: its own spread is SD/20, so 4 of those bound the bias.
    assert np.all(np.abs(coefficients.mean(axis=0) - truth) < 4 * spread / 20)
    # The sandwich SE matches the fits' real spread (an SD from 400 fits is known to ±3.5%).
    assert errors.mean(axis=0) == pytest.approx(spread, rel=0.12)
    covered = (np.array([[c.ci_low for c in f.coefficients] for f in fits]) <= truth) & (
        truth <= np.array([[c.ci_high for c in f.coefficients] for f in fits])
    )
    assert covered.mean() >= 0.93


def test_intercept_only_regression_is_the_survey_wide_estimate():
    mean = bounded_mean(1, 7, 2.0, "spinner")
    fit = mean.regression([[1.0], [1.0]], [120, 80], [70, 35])
    found = mean.estimate(105, 200)
    assert fit.coefficients[0].estimate == pytest.approx(found.estimate, rel=1e-12)
    prediction = fit.predict([1.0])
    assert prediction.estimate == pytest.approx(found.estimate, rel=1e-12)
    assert prediction.ci_low < found.estimate < prediction.ci_high


def test_regression_refuses_what_it_cannot_fit():
    mean = bounded_mean(0, 10, 1.0)
    with pytest.raises(RegressionError, match="collinear"):
        mean.regression([[1, 1], [1, 1]], [100, 100], [50, 50])
    with pytest.raises(RegressionError, match="too few"):
        mean.regression([[1, 0], [1, 1]], [5, 5], [2, 2])
    with pytest.raises(RegressionError, match="no respondents"):
        mean.regression([[1, 0], [1, 1]], [0, 100], [0, 50])


def test_one_bit_beats_laplace_at_one_epsilon():
    figures = mechanism_variances(0, 1, 1.0, true_mean=0.5, value_variance=0.25)
    coin = math.tanh(0.5)
    assert figures.one_bit == pytest.approx(0.25 / coin**2, rel=1e-12)
    assert figures.laplace == pytest.approx(0.25 + 2.0, rel=1e-12)
    assert figures.gaussian > figures.laplace
    assert figures.one_bit / figures.laplace == pytest.approx(0.52, abs=0.01)
    # Simulated: classes of 500 answering through the Laplace mechanism.
    rng = np.random.default_rng(5)
    values = rng.choice([0.0, 1.0], size=(4000, 500))
    laplace = (values + rng.laplace(0, 1.0, values.shape)).mean(axis=1)
    assert 500 * laplace.var() == pytest.approx(figures.laplace, rel=0.08)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((5, 5, 1.0), "low must be below high"),
        ((7, 2, 1.0), "low must be below high"),
        ((0, math.inf, 1.0), "high must be a finite number"),
        ((True, 3, 1.0), "low must be a finite number"),
        ((0, 3, 0.0), "epsilon"),
        ((0, 3, 1.0, "coin"), "procedure"),
    ],
)
def test_bounded_mean_refuses_bad_arguments(arguments, message):
    with pytest.raises(ValueError, match=message):
        bounded_mean(*arguments)


def test_values_outside_the_range_are_refused():
    mean = bounded_mean(0, 30, 1.0)
    with pytest.raises(ValueError, match=r"values must lie in \[0, 30\]"):
        mean.perturb([3, 31])
    with pytest.raises(ValueError, match="true_mean"):
        mean.variance(-1, 10)
    with pytest.raises(ValueError, match="value_variance"):
        mechanism_variances(0, 1, 1.0, true_mean=0.5, value_variance=0.3)
