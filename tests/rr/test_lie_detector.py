"""The stochastic lie detector's estimates: exact on expected counts, unbiased by simulation
within the Monte Carlo error, refusals named."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rr.errors import ParameterError
from rr.lie_detector import lie_detector

DESIGN = lie_detector((2 / 12, 10 / 12))


def test_expected_counts_give_back_the_shares():
    n = (600_000, 600_000)
    yes = [round(n[arm] * DESIGN.yes_share(arm, 0.3, 0.8)) for arm in (0, 1)]
    found = DESIGN.estimate(yes, n)
    assert found.carriers.estimate == pytest.approx(0.3, abs=1e-5)
    assert found.honesty.estimate == pytest.approx(0.8, abs=1e-4)


def test_the_estimate_of_carriers_is_unbiased_and_its_error_honest():
    rng = np.random.default_rng(7)
    n, trials = 500, 4000
    shares = np.array([DESIGN.yes_share(arm, 0.3, 0.8) for arm in (0, 1)])
    yes = rng.binomial(n, shares, size=(trials, 2))
    found = [DESIGN.estimate(row, (n, n)) for row in yes]
    estimates = np.array([one.carriers.estimate for one in found])
    errors = np.array([one.carriers.std_error for one in found])
    # The mean's Monte Carlo standard error is the spread over √trials: four of them.
    assert abs(estimates.mean() - 0.3) < 4 * estimates.std() / math.sqrt(trials)
    # The spread's own relative error over 4,000 trials is about 1/√(2·4000) ≈ 1.1%: 5% is over
    # four of them.
    assert errors.mean() == pytest.approx(estimates.std(), rel=0.05)


def test_it_has_no_epsilon_bound():
    assert DESIGN.epsilon == math.inf


@pytest.mark.parametrize(
    ("p_no", "message"),
    [((0.3, 0.3), "the two arms must differ"), ((0.3,), "needs two arms"), ((0.3, 1.2), "p_no")],
)
def test_arms_that_identify_nothing_are_refused(p_no, message):
    with pytest.raises(ParameterError, match=message):
        lie_detector(p_no)


def test_counts_out_of_range_are_refused():
    with pytest.raises(ValueError, match="0 <= yes <= n"):
        DESIGN.estimate((30, 900), (100, 100))


def test_perturbed_respondents_give_back_carriers_and_honesty():
    rng = np.random.default_rng(11)
    size = 200_000
    truth = rng.random(size) < 0.3
    liars = rng.random(size) < 0.2  # only carriers' lies matter: t = 0.8
    reported, arm = DESIGN.perturb(truth, liars, rng)
    yes = [int(reported[arm == k].sum()) for k in (0, 1)]
    n = [int((arm == k).sum()) for k in (0, 1)]
    found = DESIGN.estimate(yes, n)
    # Four standard errors: a fixed seed, and a tolerance the estimate's own error sets.
    assert abs(found.carriers.estimate - 0.3) < 4 * found.carriers.std_error
    assert abs(found.honesty.estimate - 0.8) < 4 * found.honesty.std_error
    assert found.prevalence == found.carriers


def test_the_planned_margin_is_the_spread_of_simulated_estimates():
    rng = np.random.default_rng(3)
    n, trials = 800, 4000
    shares = np.array([DESIGN.yes_share(arm, 0.5, 1.0) for arm in (0, 1)])
    yes = rng.binomial(n // 2, shares, size=(trials, 2))
    spread = np.std([DESIGN.estimate(row, (n // 2, n // 2)).carriers.estimate for row in yes])
    # The spread's relative error over 4,000 trials is about 1.1%: 5% is over four of them.
    assert DESIGN.margin_of_error(n) / 1.959964 == pytest.approx(spread, rel=0.05)


def test_a_difference_between_groups_covers_the_true_one():
    n = (400_000, 400_000)
    first = [round(n[arm] * DESIGN.yes_share(arm, 0.4, 0.9)) for arm in (0, 1)]
    second = [round(n[arm] * DESIGN.yes_share(arm, 0.25, 0.9)) for arm in (0, 1)]
    found = DESIGN.difference((first, n), (second, n))
    assert found.estimate == pytest.approx(0.15, abs=1e-5)
    assert found.ci_low < 0.15 < found.ci_high
    assert found.p_value < 1e-12
    same = DESIGN.difference((first, n), (first, n))
    assert same.estimate == 0 and same.p_value == 1


def test_each_arm_is_a_line_whose_no_is_unprotected():
    first, second = DESIGN.arms
    assert (first.yes_given_yes, first.yes_given_no) == (1.0, pytest.approx(10 / 12))
    assert (second.yes_given_yes, second.yes_given_no) == (1.0, pytest.approx(2 / 12))
    assert first.epsilon == math.inf
