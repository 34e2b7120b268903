"""Monte Carlo checks with fixed seeds; every tolerance comes from the Monte Carlo standard error."""

import itertools
import math

import numpy as np
import pytest
from scipy import stats

import rr
from rr.mechanism import noise_line
from tests.rr import spins

SIZES = (30, 100, 1000, 10_000, 1_000_000)
EPSILONS = (0.5, 1.0, 2.0, 4.0)
SHARES = (0.05, 0.1, 0.25, 0.5)
GRID = list(itertools.product(SIZES, EPSILONS, SHARES))
Z = stats.norm.ppf(0.975)


def _cell_seed(n, epsilon, share) -> list[int]:
    """A fixed, distinct seed for each cell of the grid."""
    return [SIZES.index(n), EPSILONS.index(epsilon), SHARES.index(share)]


@pytest.mark.parametrize(("n", "epsilon", "share"), GRID)
def test_simulated_coverage_holds_the_nominal_level(n, epsilon, share):
    # simulate_coverage draws the reported-yes count, whose law is the same for both procedures;
    # the test below spins each procedure respondent by respondent.
    trials = 4000
    result = rr.simulate_coverage(
        share, n, epsilon, trials=trials, seed=_cell_seed(n, epsilon, share)
    )
    assert result.coverage >= 0.95 - 3 * math.sqrt(0.95 * 0.05 / trials)


@pytest.mark.parametrize("procedure", rr.PROCEDURES)
@pytest.mark.parametrize(
    ("n", "epsilon", "share"), list(itertools.product((30, 200), EPSILONS, (0.05, 0.5)))
)
def test_classes_that_really_spin_are_covered_at_the_nominal_level(n, epsilon, share, procedure):
    classes = 4000
    rng = np.random.default_rng(
        [n, EPSILONS.index(epsilon), int(share * 100), rr.PROCEDURES.index(procedure)]
    )
    reported = spins.spin(rng.random((classes, n)) < share, epsilon, procedure, rng).sum(axis=1)
    result = rr.estimate_proportion(reported, n, epsilon, procedure)
    covered = np.mean((result.ci_low <= share) & (share <= result.ci_high))
    assert covered >= 0.95 - 3 * math.sqrt(0.95 * 0.05 / classes)


@pytest.mark.parametrize(("n", "epsilon", "share"), GRID)
def test_exact_coverage_is_at_least_nominal(n, epsilon, share):
    assert rr.exact_coverage(share, n, epsilon).coverage >= 0.95 - 1e-9


def _wald_coverage(share, n, epsilon, trials, seed):
    offset, slope = noise_line(epsilon)
    estimates = rr.simulate_estimates(share, n, epsilon, trials=trials, seed=seed)
    noisy = offset + slope * estimates
    half = Z * np.sqrt(noisy * (1 - noisy) / n) / slope
    return float(np.mean(np.abs(estimates - share) <= half))


def test_plain_wald_interval_falls_short_at_classroom_size():
    trials = 4000
    worst = min(
        _wald_coverage(share, 30, epsilon, trials, seed=index)
        for index, (epsilon, share) in enumerate(itertools.product(EPSILONS, SHARES))
    )
    assert worst < 0.95 - 6 * math.sqrt(0.95 * 0.05 / trials)


def _wilson_width(share, n, epsilon):
    offset, slope = noise_line(epsilon)
    theta = offset + slope * share
    yes = np.arange(n + 1)
    weights = stats.binom.pmf(yes, n, theta)
    observed = yes / n
    centre = (observed + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * np.sqrt(observed * (1 - observed) / n + Z * Z / (4 * n * n))
    low = np.clip((centre - half - offset) / slope, 0, 1)
    high = np.clip((centre + half - offset) / slope, 0, 1)
    return float((weights * (high - low)).sum())


def test_interval_is_not_needlessly_wide_at_classroom_size():
    ratios = [
        rr.exact_coverage(share, 30, epsilon).mean_width / _wilson_width(share, 30, epsilon)
        for epsilon, share in itertools.product(EPSILONS, SHARES)
    ]
    assert np.mean(ratios) <= 1.09 and max(ratios) <= 1.12


@pytest.mark.parametrize(("n", "limit"), [(10_000, 1.015), (1_000_000, 1.002)])
def test_interval_is_as_narrow_as_wald_at_large_n(n, limit):
    for epsilon, share in itertools.product(EPSILONS, SHARES):
        offset, slope = noise_line(epsilon)
        theta = offset + slope * share
        wald_width = 2 * Z * math.sqrt(theta * (1 - theta) / n) / slope
        assert rr.exact_coverage(share, n, epsilon).mean_width <= limit * wald_width


@pytest.mark.parametrize(
    ("n", "epsilon", "share"), [(30, 0.5, 0.1), (1000, 1.0, 0.3), (10**6, 4.0, 0.05)]
)
def test_simulated_estimates_are_unbiased_with_the_stated_variance(n, epsilon, share):
    trials = 200_000
    draws = rr.simulate_estimates(share, n, epsilon, trials=trials, seed=11)
    variance = spins.textbook_variance(share, n, epsilon, "spinner")
    assert abs(draws.mean() - share) < 4 * math.sqrt(variance / trials)
    # The sample variance's relative standard error is about sqrt(2/trials).
    assert abs(draws.var(ddof=1) / variance - 1) < 4 * math.sqrt(2 / trials)


@pytest.mark.parametrize("procedure", rr.PROCEDURES)
def test_simulated_estimates_match_a_class_that_really_spins(procedure):
    classes, n, epsilon, share = 4000, 40, 1.0, 0.3
    rng = np.random.default_rng(5)
    truth = rng.random((classes, n)) < share
    reported = rr.perturb(truth, epsilon, procedure, rng=rng)
    spun = rr.estimate_proportion(reported.sum(axis=1), n, epsilon, procedure).estimate
    drawn = rr.simulate_estimates(share, n, epsilon, procedure, trials=classes, seed=6)
    result = stats.ks_2samp(spun, drawn)
    assert result.pvalue > 0.001


def test_simulate_estimates_is_repeatable_and_shaped():
    first = rr.simulate_estimates(0.2, 500, 1.0, trials=7, seed=3)
    assert first.shape == (7,)
    assert np.array_equal(first, rr.simulate_estimates(0.2, 500, 1.0, trials=7, seed=3))


@pytest.mark.parametrize(
    ("margin", "epsilon", "share"),
    [(0.1, 1.0, 0.5), (0.05, 2.0, 0.5), (0.15, 0.5, 0.2), (0.03, 4.0, 0.1)],
)
def test_sample_size_keeps_its_promise(margin, epsilon, share):
    n = rr.sample_size(margin, epsilon, true_proportion=share)
    trials = 4000

    def mean_half_width(size, seed):
        offset, slope = noise_line(epsilon)
        yes = np.random.default_rng(seed).binomial(size, offset + slope * share, trials)
        result = rr.estimate_proportion(yes, size, epsilon)
        return float(np.mean(result.ci_high - result.ci_low) / 2)

    assert mean_half_width(n, seed=1) <= margin
    assert mean_half_width(math.floor(0.9 * n), seed=2) > margin


@pytest.mark.parametrize("epsilon", [1e-6, 1e-5, 1e-4])
def test_sample_size_stays_right_at_tiny_epsilon(epsilon):
    # Millions of billions of respondents: the normal formula is exact to many digits there.
    slope = math.tanh(epsilon / 2)
    formula = Z**2 * 0.25 / (slope**2 * 0.05**2)
    assert rr.sample_size(0.05, epsilon) == pytest.approx(formula, rel=1e-6)


def test_sample_size_by_hand_at_large_n():
    # Normal approximation: n ≈ z²·θ(1−θ)/(b²·m²); at π = 0.5, θ = 0.5 for both procedures.
    margin, epsilon = 0.01, 1.0
    slope = math.tanh(epsilon / 2)
    approximate = Z**2 * 0.25 / (slope**2 * margin**2)
    # Clopper–Pearson adds about 1/(2n) at each end, so a little more than the normal n.
    assert approximate <= rr.sample_size(margin, epsilon) <= 1.01 * approximate
    assert rr.sample_size(margin, epsilon, "spinner") == rr.sample_size(margin, epsilon)


def test_sample_size_falls_as_epsilon_rises():
    sizes = [rr.sample_size(0.05, epsilon) for epsilon in (0.5, 1.0, 2.0, 4.0)]
    assert sizes == sorted(sizes, reverse=True) and sizes[-1] < sizes[0] / 5


@pytest.mark.parametrize(("margin", "epsilon"), [(0.1, 1.0), (0.05, 2.0), (0.2, 0.5)])
def test_margin_of_error_inverts_sample_size(margin, epsilon):
    n = rr.sample_size(margin, epsilon)
    assert rr.margin_of_error(n, epsilon) <= margin < rr.margin_of_error(n - 1, epsilon)


def test_margin_of_error_by_hand_at_large_n():
    n, epsilon = 100_000, 1.0
    slope = math.tanh(epsilon / 2)
    normal = Z * math.sqrt(0.25 / n) / slope
    # Clopper–Pearson adds about 1/(2n) at each end: a relative excess of 1/(2z·sqrt(n·θ(1−θ))).
    excess = 1 / (2 * Z * math.sqrt(n * 0.25))
    assert normal <= rr.margin_of_error(n, epsilon) <= (1 + 2 * excess) * normal


def test_margin_of_error_refuses_bad_n():
    with pytest.raises(ValueError, match="n must be"):
        rr.margin_of_error(0, 1.0)
