"""The double list experiment: the mean of the two lists' differences equals half the difference
of the arms' mean A − B, its standard error is the arms' HC3 form halved, each list is its own list
experiment on the two arms, and bad input is refused by name."""

from __future__ import annotations

import math

import numpy as np
import pytest

import rr


def drawn(n: int, prevalence: float, seed: int):
    """n respondents: arm a or b half and half, three control items in A and four in B held with
    ½ each, the sensitive item with ``prevalence`` counted in the arm's list."""
    rng = np.random.default_rng(seed)
    arms = np.where(rng.random(n) < 0.5, "a", "b")
    held = rng.random(n) < prevalence
    counts_a = rng.binomial(3, 0.5, n) + (held & (arms == "a"))
    counts_b = rng.binomial(4, 0.5, n) + (held & (arms == "b"))
    return list(arms), counts_a.tolist(), counts_b.tolist()


def test_the_estimate_is_the_mean_of_the_two_lists_differences():
    arms, a, b = drawn(400, 0.3, 1)
    found = rr.double_list(3, 4).estimate(arms, a, b)
    first, second = found.by_list
    assert found.estimate == pytest.approx((first.estimate + second.estimate) / 2, abs=1e-12)
    d = np.array(a) - np.array(b)
    in_a = np.array(arms) == "a"
    spread = [np.var(d[group], ddof=1) / (group.sum() - 1) for group in (in_a, ~in_a)]
    assert found.std_error == pytest.approx(math.sqrt(sum(spread)) / 2, abs=1e-12)
    assert found.ci_high - found.estimate == pytest.approx(1.959964 * found.std_error, rel=1e-6)
    # Each list: the arm holding the sensitive item there is its long list.
    assert first.by_arm[1].n == in_a.sum() and second.by_arm[1].n == (~in_a).sum()
    assert math.isinf(rr.double_list(3, 4).epsilon)


def test_the_double_list_is_more_precise_than_either_list_and_finds_the_share():
    """Over 300 drawn samples the estimates centre on the truth within four standard errors of
    their mean, and their spread is below each single list's."""
    found = [rr.double_list(3, 4).estimate(*drawn(600, 0.3, seed)) for seed in range(300)]
    estimates = np.array([each.estimate for each in found])
    assert abs(estimates.mean() - 0.3) < 4 * estimates.std() / math.sqrt(len(found))
    for index in range(2):
        single = np.array([each.by_list[index].estimate for each in found])
        assert estimates.std() < single.std()
    # The standard error tracks the spread of the estimates (within 15%).
    assert np.mean([each.std_error for each in found]) == pytest.approx(estimates.std(), rel=0.15)


@pytest.mark.parametrize(
    ("arguments", "culprit"),
    [
        ((["a", "c"], [1, 1], [1, 1]), "arms"),
        ((["a", "b"], [1], [1, 1]), "arms"),
        ((["a", "a", "b", "b"], [5, 1, 1, 1], [1, 1, 1, 1]), "counts_a"),
        ((["a", "a", "b", "b"], [1, 1, 4, 1], [1, 1, 1, 1]), "counts_a"),
        ((["a", "a", "b", "b"], [1, 1, 1, 1], [5, 1, 1, 1]), "counts_b"),
        ((["a", "b", "b", "b"], [1, 1, 1, 1], [1, 1, 1, 1]), "arms"),
    ],
)
def test_bad_input_is_refused_by_name(arguments, culprit):
    with pytest.raises(ValueError, match=culprit):
        rr.double_list(3, 4).estimate(*arguments)
