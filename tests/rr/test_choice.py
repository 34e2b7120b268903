"""Generalized randomized response for single-choice questions, checked against formulas written
out here independently, against the yes/no functions at k = 2, and by simulating real spins."""

import itertools
import math

import numpy as np
import pytest
from scipy import stats

import rr

EPSILONS = (0.5, 1.0, 2.0, 4.0)


def by_hand(counts, epsilon, confidence=0.95):
    """The GRR estimator written from its definition, with scipy.stats' beta quantiles."""
    counts = np.asarray(counts)
    k, n = len(counts), counts.sum()
    e = math.exp(epsilon)
    truth, other = e / (e + k - 1), 1 / (e + k - 1)
    share = counts / n
    estimate = (share * (e + k - 1) - 1) / (e - 1)
    theta = np.clip(share, other, truth)
    std_error = np.sqrt(theta * (1 - theta) / n) / (truth - other)
    alpha = 1 - confidence
    low = np.where(counts > 0, stats.beta.ppf(alpha / 2, counts, n - counts + 1), 0.0)
    high = np.where(counts < n, stats.beta.ppf(1 - alpha / 2, counts + 1, n - counts), 1.0)
    to_share = lambda f: np.clip((f - other) / (truth - other), 0, 1)  # noqa: E731
    return estimate, std_error, to_share(low), to_share(high)


@pytest.mark.parametrize(
    ("counts", "epsilon"),
    [
        ([50, 30, 20], 2.0),
        ([0, 7, 3, 20, 0], 1.0),
        ([1, 1, 1, 1, 1, 1, 1, 993], 4.0),
        ([9, 0, 0], 0.5),
    ],
)
def test_matches_the_formula_written_out_by_hand(counts, epsilon):
    result = rr.estimate_choice(counts, epsilon)
    for got, expected in zip(result[:4], by_hand(counts, epsilon), strict=True):
        assert np.allclose(got, expected, rtol=0, atol=1e-9)
    assert result.n == sum(counts)
    assert np.allclose(result.estimated_count, result.estimate * sum(counts))


@pytest.mark.parametrize("epsilon", EPSILONS)
@pytest.mark.parametrize("procedure", rr.PROCEDURES)
def test_two_options_are_exactly_a_yes_no_question(epsilon, procedure):
    choice = rr.estimate_choice([37, 63], epsilon, procedure)
    binary = rr.estimate_proportion(37, 100, epsilon, procedure)
    for name in ("estimate", "std_error", "ci_low", "ci_high"):
        assert getattr(choice, name)[0] == pytest.approx(getattr(binary, name), abs=1e-12)
    assert rr.choice_light_fraction(epsilon, 2, procedure) == pytest.approx(
        rr.light_fraction(epsilon, procedure), abs=1e-15
    )


@pytest.mark.parametrize(("epsilon", "k"), list(itertools.product(EPSILONS, (3, 5, 8))))
def test_estimates_sum_to_one_and_the_ratio_is_e_to_the_epsilon(epsilon, k):
    counts = np.random.default_rng(k).integers(0, 50, size=k)
    assert rr.estimate_choice(counts, epsilon).estimate.sum() == pytest.approx(1, abs=1e-12)
    truth, other = rr.choice_probabilities(epsilon, k)
    assert truth / other == pytest.approx(math.exp(epsilon))
    assert truth + (k - 1) * other == pytest.approx(1)


@pytest.mark.parametrize("procedure", rr.PROCEDURES)
@pytest.mark.parametrize(("epsilon", "k"), [(1.0, 3), (2.0, 5), (0.5, 8)])
def test_real_spins_report_with_the_stated_probabilities(procedure, epsilon, k):
    # Wheel, then die, for 200,000 respondents whose true option is 0: each report's share is
    # within 4.5 standard errors of the stated probability.
    n = 200_000
    reports = rr.perturb_choice(np.zeros(n, dtype=int), epsilon, k, procedure, rng=7)
    shares = np.bincount(reports, minlength=k) / n
    truth, other = rr.choice_probabilities(epsilon, k)
    expected = np.array([truth] + [other] * (k - 1))
    assert np.all(np.abs(shares - expected) < 4.5 * np.sqrt(expected * (1 - expected) / n))


def test_the_spinner_only_die_never_lands_on_the_truth():
    truth = np.arange(30_000) % 4
    light = rr.choice_light_fraction(1.0, 4, "spinner")
    reports = rr.perturb_choice(truth, 1.0, 4, "spinner", rng=3)
    told = (reports == truth).mean()
    # Truth only on light: its share is the light share, within 4.5 standard errors.
    assert abs(told - light) < 4.5 * math.sqrt(light * (1 - light) / len(truth))


@pytest.mark.parametrize(
    "distribution", [(0.6, 0.3, 0.1), (0.0, 0.5, 0.5), (0.2, 0.2, 0.2, 0.2, 0.2)]
)
@pytest.mark.parametrize("epsilon", (1.0, 2.0))
def test_simulated_estimates_are_unbiased_with_the_stated_variance(distribution, epsilon):
    n, trials = 500, 4000
    counts = rr.simulate_choice_counts(distribution, n, epsilon, trials=trials, seed=5)
    estimates = np.array([rr.estimate_choice(row, epsilon).estimate for row in counts[:800]])
    offset, slope = rr.mechanism.noise_line(epsilon, len(distribution))
    theta = offset + slope * np.asarray(distribution)
    sd = np.sqrt(theta * (1 - theta) / n) / slope
    assert np.all(np.abs(estimates.mean(axis=0) - distribution) < 4.5 * sd / math.sqrt(800))
    assert np.allclose(estimates.std(axis=0, ddof=1), sd, rtol=0.12)


DISTRIBUTIONS = {
    3: [(0.6, 0.3, 0.1), (0.0, 0.2, 0.8)],
    5: [(0.2,) * 5, (0.5, 0.3, 0.1, 0.1, 0.0)],
    8: [(0.125,) * 8, (0.65, 0.05, 0.05, 0.05, 0.05, 0.05, 0.1, 0.0)],
}


@pytest.mark.parametrize("n", (30, 200, 2000))
@pytest.mark.parametrize("epsilon", EPSILONS)
@pytest.mark.parametrize("k", (3, 5, 8))
def test_every_option_interval_covers_at_least_94_percent(n, epsilon, k):
    for index, distribution in enumerate(DISTRIBUTIONS[k]):
        coverage = rr.simulate_choice_coverage(
            distribution, n, epsilon, trials=3000, seed=[n, k, index, int(epsilon * 10)]
        )
        assert coverage.min() >= 0.94, (distribution, coverage)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: rr.estimate_choice([5], 1.0), "at least 2 options"),
        (lambda: rr.estimate_choice([0, 0, 0], 1.0), "positive sum"),
        (lambda: rr.estimate_choice([1, -1, 3], 1.0), "positive sum"),
        (lambda: rr.estimate_choice([1, 2.5], 1.0), "whole numbers"),
        (lambda: rr.estimate_choice([1, 2], 0), "epsilon"),
        (lambda: rr.estimate_choice([1, 2], 1.0, "dice"), "procedure"),
        (lambda: rr.choice_light_fraction(1.0, 1), "k must be >= 2"),
        (lambda: rr.perturb_choice([0, 3], 1.0, 3), r"\[0, 3\)"),
        (lambda: rr.simulate_choice_counts([0.5, 0.6], 10, 1.0), "summing to 1"),
        (lambda: rr.choice_margin_of_error(0, 1.0, 3), "n must be >= 1"),
    ],
)
def test_bad_input_names_the_bad_value(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_margin_shrinks_with_n_and_matches_the_normal_width_at_large_n():
    small, large = (rr.choice_margin_of_error(n, 1.0, 4) for n in (100, 1_000_000))
    assert small > large
    offset, slope = rr.mechanism.noise_line(1.0, 4)
    theta = offset + slope * 0.5
    normal = stats.norm.ppf(0.975) * math.sqrt(theta * (1 - theta) / 1_000_000) / slope
    assert large == pytest.approx(normal, rel=1e-3)
    assert "k=3" in repr(rr.estimate_choice([1, 2, 3], 1.0))


@pytest.mark.parametrize(("n", "epsilon"), [(30, 1.0), (200, 0.5), (2000, 4.0)])
def test_exact_coverage_is_at_least_nominal_and_agrees_with_simulation(n, epsilon):
    distribution = (0.5, 0.3, 0.1, 0.1, 0.0)
    exact = rr.exact_choice_coverage(distribution, n, epsilon)
    simulated = rr.simulate_choice_coverage(distribution, n, epsilon, trials=20_000, seed=n)
    assert exact.min() >= 0.95
    assert np.all(np.abs(exact - simulated) < 4.5 * np.sqrt(exact * (1 - exact) / 20_000))


def test_the_variance_advantage_over_multi_select_at_the_same_total_epsilon():
    # The audit's table: each option's variance as single choice at total ε over that of a
    # multi-select question with ε/k per option, at π = 1/k (normal widths at a huge n).
    for (k, total), expected in zip(
        [(3, 3.0), (5, 5.0), (8, 8.0), (8, 4.0)], [0.26, 0.16, 0.11, 0.04], strict=True
    ):
        grr = rr.choice_margin_of_error(10**12, total, k, true_proportion=1 / k)
        multi = rr.margin_of_error(10**12, total / k, true_proportion=1 / k)
        assert (grr / multi) ** 2 == pytest.approx(expected, abs=0.006)
