"""The extended crosswise model: exact on expected counts, unbiased by simulation within the
Monte Carlo error, a model test that holds its level and sees respondents who do not comply,
refusals named."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rr.errors import ParameterError
from rr.extended_crosswise import extended_crosswise

MODEL = extended_crosswise((0.25, 0.75))


def test_expected_counts_give_back_the_share_and_fit_perfectly():
    n = (100_000, 100_000)
    same = [round(n[arm] * MODEL.same_share(arm, 0.3)) for arm in (0, 1)]
    found = MODEL.estimate(same, n)
    assert found.estimate == pytest.approx(0.3, abs=1e-9)
    assert found.model_test.g2 == pytest.approx(0.0, abs=1e-9)
    assert found.model_test.p_value == pytest.approx(1.0)


def test_its_epsilon_is_the_larger_arm_s():
    assert MODEL.epsilon == pytest.approx(math.log(3))
    assert extended_crosswise((0.2, 0.7)).epsilon == pytest.approx(math.log(4))


def simulated(prevalence, n, trials, seed, say_same=0.0):
    """Counts of "the same" per arm; ``say_same`` of respondents answer "the same" whatever."""
    rng = np.random.default_rng(seed)
    shares = np.array([MODEL.same_share(arm, prevalence) for arm in (0, 1)])
    shares = say_same + (1 - say_same) * shares
    return [MODEL.estimate(row, (n, n)) for row in rng.binomial(n, shares, size=(trials, 2))]


def test_the_estimate_is_unbiased_and_its_error_honest():
    found = simulated(0.3, 500, 3000, seed=11)
    estimates = np.array([one.estimate for one in found])
    # Four Monte Carlo standard errors of the mean; the spread's own error is ≈1/√6000 ≈ 1.3%.
    assert abs(estimates.mean() - 0.3) < 4 * estimates.std() / math.sqrt(len(found))
    assert np.mean([one.std_error for one in found]) == pytest.approx(estimates.std(), rel=0.06)


def test_the_model_test_holds_its_level_and_sees_noncompliance():
    trials = 3000
    rejected = np.mean([one.model_test.p_value < 0.05 for one in simulated(0.3, 500, trials, 5)])
    # 5% with a binomial standard error of √(0.05·0.95/3000) ≈ 0.4%: four of them either way.
    assert abs(rejected - 0.05) < 4 * math.sqrt(0.05 * 0.95 / trials)
    cheating = simulated(0.3, 500, 400, seed=6, say_same=0.2)
    assert np.mean([one.model_test.p_value < 0.05 for one in cheating]) > 0.9


@pytest.mark.parametrize(
    ("prevalences", "message"),
    [
        ((0.3, 0.3), "the two arms must differ"),
        ((0.5, 0.7), "gives no information"),
        ((0.3,), "needs two arms"),
        ((0.0, 0.7), "must lie in"),
    ],
)
def test_arms_that_identify_nothing_are_refused(prevalences, message):
    with pytest.raises(ParameterError, match=message):
        extended_crosswise(prevalences)


def test_perturbed_respondents_give_back_the_share_and_pass_the_model_test():
    design = extended_crosswise((0.25, 0.75))
    rng = np.random.default_rng(21)
    truth = rng.random(100_000) < 0.3
    reported, arm = design.perturb(truth, False, rng)
    same = [int(reported[arm == k].sum()) for k in (0, 1)]
    n = [int((arm == k).sum()) for k in (0, 1)]
    found = design.estimate(same, n)
    # Four standard errors, and a test at 0.001 that an adherent sample passes.
    assert abs(found.estimate - 0.3) < 4 * found.std_error
    assert found.model_test.p_value > 0.001
    assert found.prevalence == (found.estimate, found.std_error, found.ci_low, found.ci_high)
    # One in ten answering "different" whatever they are: the two arms no longer fit one π.
    reported, arm = design.perturb(truth, rng.random(100_000) < 0.1, rng)
    same = [int(reported[arm == k].sum()) for k in (0, 1)]
    n = [int((arm == k).sum()) for k in (0, 1)]
    assert design.estimate(same, n).model_test.p_value < 1e-6


def test_the_planned_margin_is_the_spread_of_simulated_estimates():
    design = extended_crosswise((0.2, 0.8))
    rng = np.random.default_rng(5)
    n, trials = 800, 4000
    shares = np.array([design.same_share(arm, 0.5) for arm in (0, 1)])
    same = rng.binomial(n // 2, shares, size=(trials, 2))
    spread = np.std([design.estimate(row, (n // 2, n // 2)).estimate for row in same])
    # The spread's relative error over 4,000 trials is about 1.1%: 5% is over four of them.
    assert design.margin_of_error(n) / 1.959964 == pytest.approx(spread, rel=0.05)


def test_a_difference_between_groups_covers_the_true_one():
    design = extended_crosswise((0.25, 0.75))
    n = (200_000, 200_000)
    first = [round(n[arm] * design.same_share(arm, 0.4)) for arm in (0, 1)]
    second = [round(n[arm] * design.same_share(arm, 0.1)) for arm in (0, 1)]
    found = design.difference((first, n), (second, n))
    assert found.estimate == pytest.approx(0.3, abs=1e-5)
    assert found.ci_low < 0.3 < found.ci_high and found.p_value < 1e-12
