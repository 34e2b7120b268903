"""Split-ballot experiments: contrasts between conditions, the allocation check and planning."""

import itertools
import math
from statistics import NormalDist

import numpy as np
import pytest
from scipy import stats

import rr

DIRECT = rr.asked_directly()
DESIGNS = {
    "spinner_coin": rr.spinner_coin(1.0),
    "spinner": rr.spinner(2.0),
    "crosswise": rr.crosswise(0.2),
    "forced_response": rr.forced_response(0.75, 0.125, 0.125),
    "direct": DIRECT,
}


def test_asking_directly_is_the_identity_line():
    assert (DIRECT.yes_given_yes, DIRECT.yes_given_no, DIRECT.epsilon) == (1.0, 0.0, math.inf)
    found = DIRECT.estimate(30, 100)
    low, high = stats.beta.ppf([0.025, 0.975], [30, 31], [71, 70])
    assert found.estimate == 0.3
    assert (found.ci_low, found.ci_high) == pytest.approx((low, high), abs=1e-12)


def test_a_contrast_matches_the_formulas_worked_by_hand():
    design = rr.spinner_coin(1.0)
    result = rr.contrast(design, 400, 1000, DIRECT, 150, 1000)
    randomized = design.estimate(400, 1000)
    a, b = design.offset, design.slope
    low_r, high_r = (
        (stats.beta.ppf(0.025, 400, 601) - a) / b,
        (stats.beta.ppf(0.975, 401, 600) - a) / b,
    )
    low_d, high_d = stats.beta.ppf(0.025, 150, 851), stats.beta.ppf(0.975, 151, 850)
    d = randomized.estimate - 0.15
    se_d = math.sqrt(0.15 * 0.85 / 1000)
    assert result.difference == pytest.approx(d, abs=1e-12)
    assert result.ci_low == pytest.approx(
        d - math.hypot(randomized.estimate - low_r, high_d - 0.15), abs=1e-12
    )
    assert result.ci_high == pytest.approx(
        d + math.hypot(high_r - randomized.estimate, 0.15 - low_d), abs=1e-12
    )
    z = d / math.hypot(float(randomized.std_error), se_d)
    assert result.p_more == pytest.approx(1 - NormalDist().cdf(z), abs=1e-12)
    assert "p_more" in repr(result)


def test_the_p_value_is_one_sided_more():
    design = rr.spinner_coin(1.0)
    more = rr.contrast(design, 450, 1000, DIRECT, 100, 1000).p_more
    less = rr.contrast(DIRECT, 100, 1000, design, 450, 1000).p_more
    assert more < 0.001 and less > 0.999
    assert more + less == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(
    ("name", "sizes", "shares"),
    list(
        itertools.product(
            DESIGNS,
            [(30, 30), (100, 400), (500, 500)],
            [(0.0, 0.0), (0.1, 0.05), (0.3, 0.2), (0.05, 0.0), (1.0, 0.8)],
        )
    ),
)
def test_the_contrast_covers_at_least_95_percent_by_exact_enumeration(name, sizes, shares):
    coverage = rr.contrast_coverage(DESIGNS[name], shares[0], sizes[0], DIRECT, shares[1], sizes[1])
    assert coverage >= 0.95


def test_the_enumeration_agrees_with_simulation():
    design, rng = rr.spinner_coin(1.0), np.random.default_rng(7)
    trials, n = 20_000, 200
    yes_r = rng.binomial(n, design.offset + design.slope * 0.3, trials)
    yes_d = rng.binomial(n, 0.2, trials)
    covered = 0
    for first, second in zip(yes_r, yes_d, strict=True):
        found = rr.contrast(design, int(first), n, DIRECT, int(second), n)
        covered += found.ci_low <= 0.1 <= found.ci_high
    exact = rr.contrast_coverage(design, 0.3, n, DIRECT, 0.2, n)
    # Four standard errors of a simulated share.
    assert covered / trials == pytest.approx(exact, abs=4 * math.sqrt(exact * (1 - exact) / trials))


def test_the_allocation_check_is_pearsons_chi_square():
    found = rr.allocation_check([980, 1010, 1010], [1, 1, 1])
    expected = stats.chisquare([980, 1010, 1010])
    assert found.chi_square == pytest.approx(expected.statistic, abs=1e-12)
    assert found.p_value == pytest.approx(expected.pvalue, abs=1e-12)
    assert found.df == 2
    unequal = rr.allocation_check([200, 100], [2, 1])
    assert (unequal.chi_square, unequal.p_value) == (0.0, 1.0)
    assert rr.allocation_check([0, 0], [1, 1]) == rr.Allocation(0.0, 1, 1.0)


def test_a_lopsided_assignment_is_caught():
    rng = np.random.default_rng(3)
    drawn = rng.random(3000) < 0.7
    found = rr.allocation_check([int(drawn.sum()), int((~drawn).sum())], [1, 1])
    assert found.p_value < 1e-20


@pytest.mark.parametrize(
    ("counts", "shares", "culprit"),
    [([10], [1], "counts"), ([10, -1], [1, 1], "counts"), ([10, 5], [1], "shares"),
     ([10, 5], [1, 0], "shares[1]"), ([10, 5], [1, True], "shares[1]"), ([1.5, 2], [1, 1], "counts")],
)  # fmt: skip
def test_the_allocation_check_names_a_bad_value(counts, shares, culprit):
    with pytest.raises(ValueError, match=culprit.replace("[", r"\[").replace("]", r"\]")):
        rr.allocation_check(counts, shares)


def test_a_contrast_refuses_counts_out_of_range():
    with pytest.raises(ValueError, match="condition 2"):
        rr.contrast(DIRECT, 1, 10, DIRECT, 11, 10)
    with pytest.raises(ValueError, match="condition 1"):
        rr.contrast(DIRECT, 0, 0, DIRECT, 1, 10)


def test_the_plan_meets_its_power_in_simulation():
    design = rr.spinner_coin(1.0)
    plan = rr.plan_experiment(design, baseline=0.2, lift=0.1, power=0.8)
    assert plan.power >= 0.8
    assert rr.plan_experiment(design, 0.2, 0.1, n=plan.n_per_condition - 1).power < 0.8
    trials = 4000
    simulated = rr.simulate_power(design, 0.2, 0.1, plan.n_per_condition, trials=trials, seed=11)
    # Four standard errors of the simulated share, and 0.02 for the normal approximation.
    assert simulated == pytest.approx(plan.power, abs=4 * math.sqrt(0.8 * 0.2 / trials) + 0.02)


def test_a_list_conditions_plan_meets_its_power_in_simulation():
    """A list of three control items against asking directly: the planned n per condition gives
    the planned power when each condition is drawn and tested as the experiment document does
    (the list's difference in means with its HC3 standard error, the direct share's)."""
    listed = rr.list_experiment(3)
    plan = rr.plan_experiment(listed, baseline=0.2, lift=0.1, power=0.8)
    assert plan.power >= 0.8
    assert rr.plan_experiment(listed, 0.2, 0.1, n=plan.n_per_condition - 1).power < 0.8
    # Asking as a list costs respondents: far more than the spinner at ε = 1 needs.
    assert (
        plan.n_per_condition
        > 2 * rr.plan_experiment(rr.spinner_coin(1.0), 0.2, 0.1).n_per_condition
    )
    n, trials, found = plan.n_per_condition, 1000, 0
    rng = np.random.default_rng(5)
    z = NormalDist().inv_cdf(0.95)
    for _ in range(trials):
        direct = (rng.random(n) < 0.2).mean()
        arm = rng.integers(0, 2, n)
        counts = rng.binomial(3, 0.5, n) + arm * (rng.random(n) < 0.3)
        short, long = counts[arm == 0], counts[arm == 1]
        difference = listed.difference(
            np.bincount(short, minlength=4), np.bincount(long, minlength=5)
        )
        spread = math.hypot(difference.std_error, math.sqrt(direct * (1 - direct) / n))
        found += (difference.estimate - direct) / spread > z
    # Four standard errors of the simulated share, and 0.02 for the normal approximation.
    assert found / trials == pytest.approx(plan.power, abs=4 * math.sqrt(0.8 * 0.2 / trials) + 0.02)


def test_the_plan_grows_with_the_noise():
    weak, strong = rr.spinner_coin(0.5), rr.spinner_coin(3.0)
    assert (
        rr.plan_experiment(weak, 0.2, 0.1).n_per_condition
        > rr.plan_experiment(strong, 0.2, 0.1).n_per_condition
        > rr.plan_experiment(DIRECT, 0.2, 0.1).n_per_condition
    )


@pytest.mark.parametrize(
    ("arguments", "culprit"),
    [({"baseline": 1.2, "lift": 0.1}, "baseline"), ({"baseline": 0.2, "lift": 0}, "lift"),
     ({"baseline": 0.95, "lift": 0.1}, "lift"), ({"baseline": 0.2, "lift": 0.1, "power": 1}, "power"),
     ({"baseline": 0.2, "lift": 0.1, "n": 0}, "n")],
)  # fmt: skip
def test_the_plan_names_a_bad_value(arguments, culprit):
    with pytest.raises(ValueError, match=culprit):
        rr.plan_experiment(rr.spinner_coin(1.0), **arguments)


def test_the_split_ballot_lab_finds_what_the_formulas_say():
    design = rr.spinner_coin(1.0)
    found = rr.split_ballot(design, 0.3, denial=0.4, noncompliance=0.1, n=400, trials=2000, seed=3)
    a, b = design.offset, design.slope
    assert found.expected_direct == pytest.approx(0.3 * 0.6)
    assert found.expected_randomized == pytest.approx(0.9 * 0.3 - 0.1 * a / b)
    assert found.expected_zero_randomized == pytest.approx(-0.1 * a / b)
    assert found.zero_direct.estimate == 0.0
    # The class's estimates sit within four standard errors of their expectations.
    direct_se = math.sqrt(0.18 * 0.82 / 400)
    assert found.direct.estimate == pytest.approx(0.18, abs=4 * direct_se)
    # The planned power agrees with the simulated one (four standard errors, 0.02 for the
    # normal approximation).
    assert found.simulated_power == pytest.approx(
        found.power, abs=4 * math.sqrt(0.25 / 2000) + 0.02
    )
    honest = rr.split_ballot(design, 0.3, 0.0, 0.0, 400, trials=200, seed=3)
    assert honest.expected_randomized == pytest.approx(honest.expected_direct) == pytest.approx(0.3)
    assert honest.power < 0.06  # no gap: the test's size
    with pytest.raises(ValueError, match="denial"):
        rr.split_ballot(design, 0.3, 1.5, 0.0, 10)
    assert "power" in repr(found)


def test_a_contrast_of_figures_is_the_contrast_of_the_lines_it_came_from():
    import rr as rr_module
    from rr.experiment import _condition_figures

    spinner, direct = rr_module.designs_at_epsilon(1.0)["spinner_coin"], rr_module.asked_directly()
    expected = rr_module.contrast(spinner, 420, 1000, direct, 180, 900)
    found = rr_module.contrast_of(
        _condition_figures(spinner, 420, 1000, 0.95, 1),
        _condition_figures(direct, 180, 900, 0.95, 2),
    )
    assert found == expected
    with pytest.raises(ValueError, match="ci_low <= ci_high"):
        rr_module.contrast_of((0.1, 0.02, 0.2, 0.1), (0.1, 0.02, 0.05, 0.15))
