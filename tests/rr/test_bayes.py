"""The posterior of one item's share (checked against scipy.integrate.quad on the unnormalised
density, for every design), and the Dirichlet posterior of a single-choice question's shares."""

import math

import numpy as np
import pytest

import rr
from rr.bayes import _log_density, choice_posterior, posterior

DESIGNS = {
    "spinner_coin": rr.spinner_coin(1.0),
    "spinner": rr.spinner(2.0),
    "forced_response": rr.forced_response(0.75, 0.15, 0.1),
    "unrelated_question": rr.unrelated_question(0.7, 0.25),
    "crosswise": rr.crosswise(0.25),  # a negative slope
    "choice option (k = 4)": rr.Design("choice", *rr.mechanism.noise_line(1.0, 4), 1.0),
}


def by_quad(yes, n, design, prior=(1.0, 1.0)):
    """Mean and 2.5% / 97.5% quantiles by adaptive quadrature of the density, written anew: over
    the window where the log-density is within 80 of its peak (found by root finding), in the
    variable t with π = sin²(t), which smooths a prior's singularities at 0 and 1."""
    from scipy import integrate, optimize

    def log_f(p):
        return _log_density(np.array([p]), yes, n, prior, design.offset, design.slope)[0]

    mode = optimize.minimize_scalar(lambda p: -log_f(p), bounds=(0, 1), method="bounded",
                                    options={"xatol": 1e-14}).x  # fmt: skip
    peak = log_f(mode)

    def end(towards):
        if log_f(towards) - peak > -80:
            return towards
        return optimize.brentq(lambda p: log_f(p) - peak + 80, min(mode, towards),
                               max(mode, towards), xtol=1e-16)  # fmt: skip

    low, high = end(1e-300), end(1 - 1e-16)
    if low <= 1e-300:
        low = 0.0
    if high >= 1 - 1e-16:
        high = 1.0

    def to_t(p):
        return math.asin(math.sqrt(p))

    def g(t):
        p = math.sin(t) ** 2
        return math.exp(log_f(p) - peak) * math.sin(2 * t) if 0 < p < 1 else 0.0

    def integral(a, b, h=g):
        return integrate.quad(h, to_t(a), to_t(b), limit=500, epsabs=0, epsrel=1e-12)[0]

    total = integral(low, high)
    mean = integral(low, high, lambda t: math.sin(t) ** 2 * g(t)) / total

    def quantile(q):
        return optimize.brentq(lambda x: integral(low, x) / total - q, low, high, xtol=1e-15)

    return mean, quantile(0.025), quantile(0.975)


@pytest.mark.filterwarnings("ignore::scipy.integrate.IntegrationWarning")
@pytest.mark.parametrize("name", list(DESIGNS))
@pytest.mark.parametrize("n", [1, 10, 1000, 1_000_000])
def test_matches_quadrature_to_1e6(name, n):
    design = DESIGNS[name]
    for yes in sorted({0, n // 3, n}):
        found = posterior(yes, n, design.offset, design.slope)
        mean, low, high = by_quad(yes, n, design)
        assert found.mean == pytest.approx(mean, abs=1e-6), (yes, n)
        assert found.interval() == pytest.approx((low, high), abs=1e-6), (yes, n)
        assert 0 <= found.interval()[0] <= found.median <= found.interval()[1] <= 1


def test_a_prior_below_one_at_the_ends_is_integrated_too():
    design = DESIGNS["spinner_coin"]
    found = posterior(3, 10, design.offset, design.slope, prior=(0.5, 0.5))
    mean, low, high = by_quad(3, 10, design, prior=(0.5, 0.5))
    assert found.mean == pytest.approx(mean, abs=1e-6)
    assert found.interval() == pytest.approx((low, high), abs=1e-6)


def test_a_negative_raw_estimate_gets_a_posterior_inside_zero_to_one():
    design = rr.spinner_coin(1.0)
    raw = design.estimate(5, 25)
    assert raw.estimate < 0
    found = posterior(5, 25, design.offset, design.slope)
    assert 0 < found.mean < 0.2 and found.interval()[0] >= 0
    assert found.prob_above(0.1) == pytest.approx(1 - found.cdf(0.1))
    assert found.prob_above(0.0) == pytest.approx(1.0)


def test_the_highest_density_interval_is_the_shortest_with_its_mass():
    design = rr.spinner(1.0)
    for yes, n in ((0, 30), (12, 30), (700, 1000)):
        found = posterior(yes, n, design.offset, design.slope)
        low, high = found.hdi()
        assert found.cdf(high) - found.cdf(low) == pytest.approx(0.95, abs=1e-8)
        equal = found.interval()
        assert high - low <= equal[1] - equal[0] + 1e-9
        if low > 0:  # an inner interval: its ends have the same density
            ends = found._log_density(np.array([low, high]))
            assert ends[0] == pytest.approx(ends[1], abs=1e-4)


def test_no_reports_give_the_prior():
    found = posterior(0, 0, 0.2, 0.6, prior=(2.0, 5.0))
    assert found.mean == pytest.approx(2 / 7, abs=1e-10)
    assert found.sd == pytest.approx(math.sqrt(2 * 5 / (7**2 * 8)), abs=1e-10)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((5, 3, 0.2, 0.6), "noisy_yes must lie"),
        ((1, 3, 0.2, 0.0), "design's line"),
        ((1, 3, 0.5, 0.6), "design's line"),
        ((1, 3, 0.2, 0.6, (0.0, 1.0)), "alpha"),
        ((1.5, 3, 0.2, 0.6), "noisy_yes"),
    ],
)
def test_bad_arguments_are_refused(arguments, message):
    with pytest.raises(ValueError, match=message):
        posterior(*arguments)


def test_choice_posterior_recovers_known_shares_and_sums_to_one():
    truth = np.array([0.5, 0.3, 0.15, 0.05])
    rng = np.random.default_rng(3)
    options = rng.choice(4, size=20_000, p=truth)
    reports = rr.perturb_choice(options, 2.0, 4, rng=rng)
    counts = np.bincount(reports, minlength=4)
    found = choice_posterior(counts, 2.0, draws=2000, seed=1)
    assert np.allclose(found.draws.sum(axis=1), 1)
    assert np.all(np.abs(found.mean - truth) < 4 * found.sd)
    low, high = found.interval()
    assert np.all((low <= truth) & (truth <= high))
    frequentist = rr.estimate_choice(counts, 2.0)
    assert np.allclose(found.mean, frequentist.estimate, atol=3 * found.sd.max())
    hdi_low, hdi_high = found.hdi()
    assert np.all(hdi_high - hdi_low <= high - low + 2e-3)  # order statistics against interpolation


def test_choice_posterior_is_repeatable_and_refuses_bad_counts():
    first = choice_posterior([5, 3, 2], 1.0, draws=200, seed=7)
    assert np.array_equal(first.draws, choice_posterior([5, 3, 2], 1.0, draws=200, seed=7).draws)
    with pytest.raises(ValueError, match="counts"):
        choice_posterior([5], 1.0)
    with pytest.raises(ValueError, match="counts"):
        choice_posterior([5, -1], 1.0)


def test_cheating_posterior_agrees_with_the_moment_estimates_at_large_n():
    from rr.arm_posteriors import cheating_posterior

    model = rr.cheating_detection([(0.6, 0.3, 0.1), (0.6, 0.1, 0.3)])
    yes, n = model.simulate_counts(0.2, 0.2, 10_000, trials=1, seed=3)
    found = cheating_posterior(model, yes[0], n[0])
    moment = model.estimate(yes[0], n[0])
    for marginal, share in (
        (found.honest_yes, moment.honest_yes),
        (found.cheating, moment.cheating),
    ):
        assert marginal.mean == pytest.approx(share.estimate, abs=0.2 * share.std_error)
        assert marginal.sd == pytest.approx(share.std_error, rel=0.1)
        assert marginal.cri_low == pytest.approx(share.ci_low, abs=0.3 * share.std_error)
        assert 0 <= marginal.cri_low <= marginal.mean <= marginal.cri_high <= 1


def test_cheating_posterior_stays_on_the_simplex_with_few_respondents():
    from rr.arm_posteriors import cheating_posterior

    model = rr.cheating_detection([(0.6, 0.3, 0.1), (0.6, 0.1, 0.3)])
    found = cheating_posterior(model, [2, 1], [10, 9])
    assert found.honest_yes.cri_low >= 0 and found.honest_yes.cri_high <= 1
    assert found.cheating.cri_low >= 0 and found.cheating.cri_high <= 1
    assert found.honest_yes.mean + found.cheating.mean <= 1
    with pytest.raises(ValueError, match="two arms"):
        cheating_posterior(model, [5, 1], [4, 9])


def test_the_two_arm_posteriors_sit_on_the_estimates_when_data_are_plenty():
    import rr

    n = (20_000, 20_000)
    detector = rr.lie_detector((0.25, 0.75))
    yes = [round(n[arm] * detector.yes_share(arm, 0.3, 0.8)) for arm in (0, 1)]
    found = detector.estimate(yes, n)
    posterior = rr.lie_detector_posterior(detector, yes, n)
    # With this much data the posterior is the likelihood: its mean within a tenth of an SE of the
    # estimate, its SD within 5% of the SE.
    assert abs(posterior.carriers.mean - found.carriers.estimate) < 0.1 * found.carriers.std_error
    assert posterior.carriers.sd == pytest.approx(found.carriers.std_error, rel=0.05)
    assert posterior.honesty.sd == pytest.approx(found.honesty.std_error, rel=0.05)
    crossed = rr.extended_crosswise((0.25, 0.75))
    same = [round(n[arm] * crossed.same_share(arm, 0.3)) for arm in (0, 1)]
    fit = crossed.estimate(same, n)
    marginal = rr.extended_crosswise_posterior(crossed, same, n)
    assert abs(marginal.mean - fit.estimate) < 0.1 * fit.std_error
    assert marginal.sd == pytest.approx(fit.std_error, rel=0.05)
