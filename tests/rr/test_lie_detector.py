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
