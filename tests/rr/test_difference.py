"""Group differences: the MOVER interval on exact limits, its coverage, and the Wald p-value."""

import itertools
import math

import numpy as np
import pytest
from scipy import stats

import rr

GRID = list(
    itertools.product(
        (30, 200, 2000),
        (0.5, 1.0, 2.0),
        [(0.1, 0.1), (0.1, 0.4), (0.3, 0.5), (0.0, 0.2), (0.5, 0.5)],
    )
)


@pytest.mark.parametrize(("n", "epsilon", "shares"), GRID)
def test_the_interval_covers_at_least_94_percent(n, epsilon, shares):
    seed = GRID.index((n, epsilon, shares))
    assert rr.simulate_difference_coverage(*shares, n, epsilon, trials=4000, seed=seed) >= 0.94


def test_matches_the_formula_worked_by_hand():
    result = rr.difference(60, 100, 30, 100, 1.0)
    first, second = rr.estimate_proportion(60, 100, 1.0), rr.estimate_proportion(30, 100, 1.0)
    a, b = 1 / (1 + math.e), math.tanh(0.5)
    limits = [stats.beta.ppf([0.025, 0.975], [x, x + 1], [100 - x + 1, 100 - x]) for x in (60, 30)]
    (l1, u1), (l2, u2) = [((low - a) / b, (high - a) / b) for low, high in limits]
    d = first.estimate - second.estimate
    assert result.estimate == pytest.approx(d)
    assert result.ci_low == pytest.approx(d - math.hypot(first.estimate - l1, u2 - second.estimate))
    assert result.ci_high == pytest.approx(
        d + math.hypot(u1 - first.estimate, second.estimate - l2)
    )
    z = d / math.hypot(first.std_error, second.std_error)
    assert result.p_value == pytest.approx(2 * stats.norm.sf(abs(z)))
    assert "MOVER" in result.method and "p=" in repr(result)


def test_equal_groups_give_a_large_p_value_and_an_interval_around_zero():
    result = rr.difference(50, 100, 50, 100, 1.0)
    assert (
        result.estimate == 0
        and result.p_value == pytest.approx(1.0)
        and result.ci_low < 0 < result.ci_high
    )


def test_single_choice_options_use_their_own_line():
    result = rr.difference(40, 100, 20, 100, 1.0, k=4)
    first = rr.estimate_choice([40, 60, 0, 0], 1.0).estimate[0]
    second = rr.estimate_choice([20, 80, 0, 0], 1.0).estimate[0]
    assert result.estimate == pytest.approx(first - second)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((5, 0, 1, 10, 1.0), "n >= 1"),
        ((11, 10, 1, 10, 1.0), "0 <= yes <= n"),
        ((1, 10, 1, 10, 0), "epsilon"),
    ],
)
def test_bad_input_names_the_bad_value(arguments, message):
    with pytest.raises(ValueError, match=message):
        rr.difference(*arguments)
    assert np.isfinite(rr.difference(0, 10, 10, 10, 1.0).ci_low)


@pytest.mark.parametrize("design", [rr.spinner_coin(1.0), rr.spinner(3.0),
                                    rr.forced_response(0.75, 0.15, 0.1)])  # fmt: skip
@pytest.mark.parametrize("sizes", [(30, 30), (200, 60)])
def test_a_changes_interval_covers_at_least_95_percent_by_exact_enumeration(design, sizes):
    for share_1, share_2 in ((0.0, 0.0), (0.3, 0.2), (0.5, 0.3), (1.0, 0.8)):
        assert design.difference_coverage(share_1, share_2, *sizes) >= 0.95


def test_exact_change_coverage_is_what_simulation_finds():
    exact = rr.spinner_coin(1.0).difference_coverage(0.3, 0.2, 150)
    trials = 20_000
    simulated = rr.simulate_difference_coverage(0.3, 0.2, 150, 1.0, trials=trials, seed=7)
    assert abs(exact - simulated) < 4 * math.sqrt(exact * (1 - exact) / trials)


def test_change_coverage_refuses_what_it_cannot_enumerate():
    with pytest.raises(ValueError, match="n_2 must be at most 5000 to enumerate, got 6000"):
        rr.spinner_coin(1.0).difference_coverage(0.3, 0.2, 100, 6000)
    with pytest.raises(ValueError, match="share_1"):
        rr.spinner_coin(1.0).difference_coverage(1.3, 0.2, 100)
