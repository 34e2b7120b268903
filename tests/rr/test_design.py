"""Binary designs as report probabilities: the symmetric spinner keeps its numbers exactly; every
design matches its closed forms, its exact interval covers, and impossible designs are refused."""

import math

import numpy as np
import pytest

import rr
from rr.cheating import cheating_detection
from rr.design import (
    check_stated_epsilon,
    crosswise,
    design_epsilon,
    forced_response,
    kuk,
    spinner,
    spinner_coin,
    unrelated_question,
)
from rr.estimate import _estimate

FIELDS = ("estimate", "std_error", "ci_low", "ci_high", "estimated_count")
DESIGNS = {
    "forced_response": (forced_response(0.75, 1 / 6, 1 / 12), (0.75 + 1 / 6, 1 / 6)),
    "unrelated_question": (unrelated_question(0.7, 0.25), (0.7 + 0.3 * 0.25, 0.3 * 0.25)),
    "crosswise (q < 1/2)": (crosswise(0.25), (0.25, 0.75)),
    "crosswise (q > 1/2)": (crosswise(0.85), (0.85, 0.15)),
    "spinner_coin": (spinner_coin(1.0), (math.e / (1 + math.e), 1 / (1 + math.e))),
    "kuk (redder yes deck)": (kuk(0.7, 0.2), (0.7, 0.2)),
    "kuk (redder no deck)": (kuk(0.25, 0.6), (0.25, 0.6)),
}


@pytest.mark.parametrize("procedure", ["spinner_coin", "spinner"])
@pytest.mark.parametrize("epsilon", [1e-6, 0.5, 1.0, 3.0, 10.0])
def test_the_spinner_designs_keep_every_number_exactly(procedure, epsilon):
    design = (spinner_coin if procedure == "spinner_coin" else spinner)(epsilon)
    assert design.epsilon == epsilon
    yes, n = np.arange(0, 301, 7), np.full(43, 300)
    mine = design.estimate(yes, n)
    # The estimator on the noise line as it was before designs were objects (rr.estimate's own
    # path, which the coverage tables still use), compared bit for bit.
    theirs = dict(zip(FIELDS, _estimate(yes, n, epsilon, 0.95), strict=True))
    for name in FIELDS:
        assert np.array_equal(getattr(mine, name), theirs[name]), name
    assert rr.estimate_proportion(60, 100, epsilon, procedure) == design.estimate(60, 100)
    assert design.margin_of_error(250) == rr.margin_of_error(250, epsilon, procedure)


@pytest.mark.parametrize("name", DESIGNS)
def test_each_design_matches_its_closed_forms(name):
    design, (given_yes, given_no) = DESIGNS[name]
    assert design.yes_given_yes == pytest.approx(given_yes, abs=1e-12)
    assert design.yes_given_no == pytest.approx(given_no, abs=1e-12)
    by_hand = max(
        abs(math.log(given_yes / given_no)), abs(math.log((1 - given_yes) / (1 - given_no)))
    )
    assert design.epsilon == pytest.approx(by_hand, rel=1e-12)
    for yes, n in ((0, 30), (11, 30), (30, 30), (1234, 3000)):
        found = design.estimate(yes, n)
        share = yes / n
        assert found.estimate == pytest.approx(
            (share - given_no) / (given_yes - given_no), abs=1e-12
        )
        held = min(max(share, min(given_yes, given_no)), max(given_yes, given_no))
        std_error = math.sqrt(held * (1 - held) / n) / abs(given_yes - given_no)
        assert found.std_error == pytest.approx(std_error, rel=1e-12)
        assert 0 <= found.ci_low <= found.ci_high <= 1


def test_crosswise_epsilon_is_the_log_odds_of_its_prevalence():
    for q in (0.1, 0.25, 0.7, 0.9):
        assert crosswise(q).epsilon == pytest.approx(abs(math.log(q / (1 - q))), rel=1e-12)


@pytest.mark.parametrize("name", DESIGNS)
@pytest.mark.parametrize("n", [30, 300, 3000])
def test_the_exact_interval_covers_at_least_its_level(name, n):
    design = DESIGNS[name][0]
    for pi in (0.0, 0.1, 0.3, 0.5):
        assert design.exact_coverage(pi, n) >= 0.95, (name, n, pi)


def test_reports_follow_the_design():
    rng = np.random.default_rng(5)
    design = forced_response(0.5, 0.25, 0.25)
    truth = np.repeat([1, 0], 200_000)
    reports = design.perturb(truth, rng)
    # Each mean is within 4 standard errors of its probability (sqrt(0.75·0.25/2e5) ≈ 0.001).
    assert abs(reports[:200_000].mean() - 0.75) < 4 * math.sqrt(0.75 * 0.25 / 200_000)
    assert abs(reports[200_000:].mean() - 0.25) < 4 * math.sqrt(0.75 * 0.25 / 200_000)


def test_sample_size_is_the_least_n_reaching_the_margin():
    design = unrelated_question(0.7, 0.25)
    n = design.sample_size(0.05)
    assert design.margin_of_error(n) <= 0.05 < design.margin_of_error(n - 1)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: crosswise(0.5), "gives no information"),
        (lambda: unrelated_question(0.0, 0.3), "gives no information"),
        (lambda: unrelated_question(1.0, 0.3), "infinite epsilon"),
        (lambda: forced_response(0.8, 0.2, 0.0), "p_forced_no must be > 0"),
        (lambda: forced_response(0.5, 0.3, 0.3), "must be 1, got 0.5 + 0.3 + 0.3 = 1.1"),
        (lambda: crosswise(1.0), "prevalence"),
        (lambda: kuk(0.4, 0.4), "gives no information"),
        (lambda: kuk(1.0, 0.4), "theta_yes must lie in"),
        (lambda: kuk(0.4, 0.0), "theta_no must lie in"),
    ],
)
def test_designs_that_cannot_be_used_are_refused_with_the_reason(make, message):
    with pytest.raises(ValueError, match=message.replace("+", r"\+").replace(".", r"\.")):
        make()


def test_a_stated_epsilon_must_match_the_derived_one():
    design = crosswise(0.25)
    check_stated_epsilon(design, math.log(3) * (1 + 1e-12))
    with pytest.raises(ValueError, match=r"epsilon is 1\.0986.* but 1\.1 was stated"):
        check_stated_epsilon(design, 1.1)


def test_epsilon_is_infinite_when_a_report_only_one_truth_gives():
    assert design_epsilon(0.5, 0.0) == math.inf and design_epsilon(1.0, 0.5) == math.inf
    assert design_epsilon(0.5, 0.5) == 0.0


# Cheating detection

ARMS = [(0.6, 0.3, 0.1), (0.6, 0.1, 0.3)]


def test_cheating_detection_solves_the_two_arms_exactly():
    model = cheating_detection(ARMS)
    pi, gamma = 0.15, 0.2
    lambdas = [model.report_share(arm, pi, gamma) for arm in (0, 1)]
    assert lambdas == pytest.approx([0.6 * pi + 0.3 * (1 - gamma), 0.6 * pi + 0.1 * (1 - gamma)])
    # Counts that hit each arm's share exactly give π and γ back.
    found = model.estimate([round(lambdas[0] * 10**6), round(lambdas[1] * 10**6)], [10**6, 10**6])
    assert found.honest_yes.estimate == pytest.approx(pi, abs=1e-6)
    assert found.cheating.estimate == pytest.approx(gamma, abs=1e-6)
    assert model.epsilon == pytest.approx(max(a.epsilon for a in model.arms))


@pytest.mark.parametrize("gamma", [0.0, 0.2])
def test_cheating_detection_is_unbiased_at_n_10000(gamma):
    model = cheating_detection(ARMS)
    yes, n = model.simulate_counts(0.2, gamma, 10_000, trials=4000, seed=11)
    found = [model.estimate(y, m) for y, m in zip(yes, n, strict=True)]
    for name, truth in (("honest_yes", 0.2), ("cheating", gamma)):
        values = np.array([getattr(f, name).estimate for f in found])
        spread = values.std()
        # Bias below a tenth of one survey's standard error (the mean's own SE is spread/63).
        assert abs(values.mean() - truth) < 0.1 * spread, name
        # The interval's coverage, measured: Monte Carlo SE sqrt(0.95·0.05/4000) ≈ 0.0034.
        inside = np.mean(
            [getattr(f, name).ci_low <= truth <= getattr(f, name).ci_high for f in found]
        )
        assert inside >= 0.94, (name, inside)


def test_arms_that_cannot_tell_cheaters_from_honest_no_are_refused():
    with pytest.raises(ValueError, match="the two arms must differ"):
        cheating_detection([(0.6, 0.2, 0.2), (0.6, 0.2, 0.2)])
    with pytest.raises(ValueError, match="two arms"):
        cheating_detection([(0.6, 0.2, 0.2)])


def test_groups_difference_and_regression_take_the_design():
    design = spinner(1.5)
    assert design.difference(30, 100, 12, 80) == rr.difference(30, 100, 12, 80, 1.5, "spinner")
    cells = np.array([[1.0, 0.0], [1.0, 1.0]])
    mine = design.regression(cells, [400, 300], [150, 160], terms=["(Intercept)", "b"])
    theirs = rr.rr_logistic_regression(
        cells, [400, 300], [150, 160], 1.5, "spinner", terms=["(Intercept)", "b"]
    )
    assert mine.coefficients == theirs.coefficients


def test_a_crosswise_regression_recovers_its_coefficients():
    # Negative slope (q < 1/2): two groups with true shares 0.1 and 0.4, 20,000 each.
    design = crosswise(0.2)
    rng = np.random.default_rng(3)
    shares = np.array([0.1, 0.4])
    n = np.array([20_000, 20_000])
    yes = rng.binomial(n, design.offset + design.slope * shares)
    fit = design.regression(np.array([[1.0, 0.0], [1.0, 1.0]]), n, yes, terms=["(Intercept)", "g"])
    truth = [math.log(0.1 / 0.9), math.log(0.4 / 0.6) - math.log(0.1 / 0.9)]
    for coefficient, expected in zip(fit.coefficients, truth, strict=True):
        assert abs(coefficient.estimate - expected) < 4 * coefficient.std_error
    gap = design.difference(yes[1], n[1], yes[0], n[0])
    assert gap.ci_low <= 0.3 <= gap.ci_high


@pytest.mark.parametrize("epsilon", [0.1, 1.0, 2.5])
def test_at_the_same_epsilon_the_symmetric_spinner_is_the_most_precise(epsilon):
    designs = rr.designs_at_epsilon(epsilon)
    assert set(designs) == {"spinner_coin", "forced_response", "unrelated_question", "crosswise"}
    spinner_design = designs["spinner_coin"]
    for name, design in designs.items():
        assert design.epsilon == pytest.approx(epsilon, rel=1e-9), name
        for pi in (0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0):
            assert design.variance(pi, 1) >= spinner_design.variance(pi, 1) * (1 - 1e-9), (name, pi)
    # The crosswise model at a given ε is the spinner's mechanism.
    crosswise_design = designs["crosswise"]
    assert crosswise_design.yes_given_yes == pytest.approx(spinner_design.yes_given_yes, rel=1e-12)


def test_cheating_detection_respondent_by_respondent_matches_the_two_arms():
    model = cheating_detection(ARMS)
    rng = np.random.default_rng(4)
    truth = rng.random(200_000) < 0.3
    cheaters = rng.random(200_000) < 0.2
    reported, arm = model.perturb(truth, cheaters, rng=rng)
    assert reported[cheaters].sum() == 0  # a cheater says no whatever the arm tells them
    yes = [int(reported[arm == i].sum()) for i in (0, 1)]
    n = [int((arm == i).sum()) for i in (0, 1)]
    assert abs(n[0] - 100_000) < 5 * math.sqrt(50_000)
    found = model.estimate(yes, n)
    # π is the honest-yes share of everyone: truth and cheating drawn independently here.
    for share, true in ((found.honest_yes, 0.3 * 0.8), (found.cheating, 0.2)):
        assert abs(share.estimate - true) < 4 * share.std_error


def test_cheating_detection_difference_of_two_groups_covers_the_truth():
    model = cheating_detection(ARMS)
    first = model.simulate_counts(0.4, 0.1, 3000, trials=400, seed=11)
    second = model.simulate_counts(0.1, 0.1, 3000, trials=400, seed=12)
    covered = 0
    for (yes_1, n_1), (yes_2, n_2) in zip(
        zip(*first, strict=True), zip(*second, strict=True), strict=True
    ):
        found = model.difference((yes_1, n_1), (yes_2, n_2))
        covered += found.ci_low <= 0.3 <= found.ci_high
    # 400 surveys: a 95% interval covers between 91% and 99% of them (about 4 SE of a proportion).
    assert 0.91 <= covered / 400 <= 0.995
    one = model.difference(([300, 500], [1000, 1000]), ([300, 500], [1000, 1000]))
    assert one.estimate == 0 and one.p_value == 1 and one.ci_low < 0 < one.ci_high


def test_cheating_detections_planned_margin_matches_simulated_spread():
    model = cheating_detection(ARMS)
    margin = model.margin_of_error(2000, honest_yes=0.3, cheating=0.1)
    yes, n = model.simulate_counts(0.3, 0.1, 2000, trials=4000, seed=21)
    estimates = [model.estimate(y, k).honest_yes.estimate for y, k in zip(yes, n, strict=True)]
    # The simulated 95% spread of π̂ (its SD × 1.96) agrees with the planned half-width.
    assert abs(1.96 * np.std(estimates) / margin - 1) < 0.05
    with pytest.raises(ValueError, match="honest_yes"):
        model.margin_of_error(100, honest_yes=0.8, cheating=0.3)


def test_kuk_estimates_the_known_numbers():
    # θ₁ = 0.7, θ₂ = 0.2: π̂ = (θ̂ − 0.2)/0.5; 220 red of 500 → θ̂ = 0.44, π̂ = 0.48,
    # SE = √(0.44·0.56/500)/0.5 = 0.0444; ε = max(ln 3.5, ln(0.8/0.3)) = ln 3.5.
    design = kuk(0.7, 0.2)
    found = design.estimate(220, 500)
    assert found.estimate == pytest.approx(0.48, abs=1e-12)
    assert found.std_error == pytest.approx(math.sqrt(0.44 * 0.56 / 500) / 0.5, rel=1e-12)
    assert design.epsilon == pytest.approx(math.log(3.5), rel=1e-12)
    assert dict(design.parameters) == {"theta_yes": 0.7, "theta_no": 0.2}
