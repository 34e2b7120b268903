"""The list experiment's estimates: exact on expected frequencies, the difference in means
unbiased by simulation within the Monte Carlo error, the counts that give the answer away
counted, refusals named."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rr.errors import ParameterError
from rr.list_experiment import list_experiment

EXPERIMENT = list_experiment(3)


def expected(n, delta, psi, controls=3):
    """Each arm's expected frequencies: control counts Binomial(J, ψ), plus one with chance δ."""
    k = np.arange(controls + 1)
    binomial = np.array([math.comb(controls, i) for i in k]) * psi**k * (1 - psi) ** (controls - k)
    long = delta * np.concatenate([[0], binomial]) + (1 - delta) * np.concatenate([binomial, [0]])
    return n * binomial, n * long


def test_expected_frequencies_give_back_the_share_both_ways():
    short, long = expected(1_000_000, 0.2, 0.4)
    # Whole numbers, as counts are: the rounding moves the figures by about 1e-6.
    found = EXPERIMENT.estimate(np.rint(short).astype(int), np.rint(long).astype(int))
    assert found.estimate == pytest.approx(0.2, abs=1e-5)
    assert found.ml.estimate == pytest.approx(0.2, abs=1e-5)
    assert found.ml.control_logit == pytest.approx(math.log(0.4 / 0.6), abs=1e-4)
    assert found.by_arm[0].mean == pytest.approx(1.2, abs=1e-5)


def test_the_difference_in_means_is_unbiased_and_its_error_honest():
    rng = np.random.default_rng(3)
    trials, n = 2000, 400
    estimates, errors = [], []
    for _ in range(trials):
        short = rng.binomial(3, 0.4, n)
        long = rng.binomial(3, 0.4, n) + (rng.random(n) < 0.2)
        found = EXPERIMENT.difference(
            np.bincount(short, minlength=4), np.bincount(long, minlength=5)
        )
        estimates.append(found.estimate)
        errors.append(found.std_error)
    spread = np.std(estimates)
    # Four Monte Carlo standard errors of the mean; the spread's own error is ≈1/√4000 ≈ 1.6%.
    assert abs(np.mean(estimates) - 0.2) < 4 * spread / math.sqrt(trials)
    assert np.mean(errors) == pytest.approx(spread, rel=0.07)


def test_a_fit_on_the_boundary_has_no_standard_error_and_the_difference_still_has_one():
    found = EXPERIMENT.estimate([10, 40, 40, 10], [10, 40, 40, 10, 0])
    assert found.ml.estimate < 1e-6 and math.isnan(found.ml.std_error)
    assert found.estimate == 0 and found.std_error > 0


def test_answers_that_give_the_item_away_are_counted():
    found = EXPERIMENT.estimate([8, 132, 222, 227], [19, 123, 229, 219, 34])
    assert (found.ceiling, found.floor) == (34, 19)
    assert EXPERIMENT.epsilon == math.inf


@pytest.mark.parametrize(
    ("control", "treatment", "message"),
    [
        ([1, 2, 3], [1, 2, 3, 4, 5], "control needs 4 frequencies"),
        ([1, 2, 3, 4], [1, 2, 3, 4], "treatment needs 5 frequencies"),
        ([1, 0, 0, 0], [1, 2, 3, 4, 5], "at least two respondents"),
        ([1, -2, 3, 4], [1, 2, 3, 4, 5], "control"),
    ],
)
def test_frequencies_that_do_not_fit_are_refused(control, treatment, message):
    with pytest.raises(ValueError, match=message):
        EXPERIMENT.estimate(control, treatment)


def test_a_list_needs_control_items():
    with pytest.raises(ParameterError, match="controls"):
        list_experiment(0)
    with pytest.raises(ParameterError, match="at most 20"):
        list_experiment(21)
