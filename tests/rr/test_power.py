"""Power to see a change between two waves (or two groups): exact sums against simulation, the
normal approximation against the exact sum, and the sample size and detectable change that
invert them."""

import math

import pytest

import rr
from rr.errors import ParameterError
from rr.power import EXACT_UP_TO, STEADY_RUN

TRIALS = 40_000


@pytest.mark.parametrize(
    ("design", "n", "baseline", "change"),
    [
        (rr.spinner_coin(2.0), 500, 0.2, 0.1),
        (rr.spinner_coin(1.0), 300, 0.5, -0.15),
        (rr.forced_response(0.75, 0.15, 0.10), 120, 0.1, 0.2),
        (rr.crosswise(0.2), 400, 0.3, 0.0),
    ],
)
def test_the_exact_power_is_what_simulation_finds(design, n, baseline, change):
    exact = rr.change_power(design, n, baseline, change)
    assert exact.method == "exact"
    simulated = rr.simulate_change_power(design, n, baseline, change, trials=TRIALS, seed=7)
    # Four standard errors of a simulated share: fails by chance about once in 16,000 runs of a
    # different seed; with this seed it is fixed.
    tolerance = 4 * math.sqrt(exact.power * (1 - exact.power) / TRIALS)
    assert simulated == pytest.approx(exact.power, abs=tolerance)


def test_with_no_change_the_power_is_the_tests_size():
    size = rr.change_power(rr.spinner_coin(1.0), 800, 0.3, 0.0).power
    assert 0.04 <= size <= 0.06


def test_past_the_exact_range_the_normal_approximation_takes_over_where_they_agree():
    design = rr.spinner_coin(1.0)
    exact = rr.change_power(design, EXACT_UP_TO, 0.2, 0.03)
    normal = rr.change_power(design, EXACT_UP_TO + 1, 0.2, 0.03)
    assert (exact.method, normal.method) == ("exact", "normal")
    assert normal.power == pytest.approx(exact.power, abs=0.005)


def test_randomized_response_needs_about_one_over_b_squared_the_respondents():
    direct = rr.spinner_coin(30.0)  # slope 1 - 2e-13: the reports are the truth
    noisy = rr.spinner_coin(1.0)
    ratio = rr.change_sample_size(noisy, 0.3, 0.1) / rr.change_sample_size(direct, 0.3, 0.1)
    assert ratio == pytest.approx(1 / noisy.slope**2, rel=0.1)


@pytest.mark.parametrize(("epsilon", "baseline", "change"), [(2.0, 0.2, 0.1), (4.0, 0.05, 0.05)])
def test_the_sample_size_reaches_the_power_and_keeps_it(epsilon, baseline, change):
    design = rr.spinner_coin(epsilon)
    n = rr.change_sample_size(design, baseline, change, power=0.8)
    powers = [rr.change_power(design, m, baseline, change).power for m in range(n, n + STEADY_RUN)]
    assert min(powers) >= 0.8
    assert rr.change_power(design, n - 1, baseline, change).power < 0.8 or any(
        rr.change_power(design, m, baseline, change).power < 0.8
        for m in range(n - 1, n - 1 + STEADY_RUN)
    )


def test_a_large_sample_size_comes_from_the_normal_formula():
    n = rr.change_sample_size(rr.spinner_coin(0.5), 0.3, 0.05)
    assert n > EXACT_UP_TO
    assert rr.change_power(rr.spinner_coin(0.5), n, 0.3, 0.05).power == pytest.approx(0.8, abs=1e-3)


def test_the_detectable_change_is_the_smallest_with_the_power():
    design = rr.spinner_coin(2.0)
    found = rr.detectable_change(design, 500, 0.2)
    assert rr.change_power(design, 500, 0.2, found).power >= 0.8
    assert rr.change_power(design, 500, 0.2, found - 1e-3).power < 0.8
    down = rr.detectable_change(design, 500, 0.2, direction=-1)
    assert rr.change_power(design, 500, 0.2, -down).power >= 0.8 and down < 0.2
    # Three respondents a wave detect nothing within [0, 1] at 80% under ε = 0.1.
    assert rr.detectable_change(rr.spinner_coin(0.1), 3, 0.5) is None


@pytest.mark.parametrize(
    ("call", "parameter"),
    [
        (lambda: rr.change_power("spinner_coin", 100, 0.2, 0.1), "design"),
        (lambda: rr.change_power(rr.spinner_coin(1.0), 1, 0.2, 0.1), "n"),
        (lambda: rr.change_power(rr.spinner_coin(1.0), 100, 1.2, 0.1), "baseline"),
        (lambda: rr.change_power(rr.spinner_coin(1.0), 100, 0.95, 0.1), "change"),
        (lambda: rr.change_power(rr.spinner_coin(1.0), 100, 0.5, 0.1, alpha=1.0), "alpha"),
        (lambda: rr.change_sample_size(rr.spinner_coin(1.0), 0.5, 0.0), "change"),
        (lambda: rr.change_sample_size(rr.spinner_coin(1.0), 0.5, 0.1, power=0.01), "power"),
        (lambda: rr.detectable_change(rr.spinner_coin(1.0), 100, 0.5, direction=0), "direction"),
    ],
)
def test_bad_arguments_are_refused_by_name(call, parameter):
    with pytest.raises(rr.ParameterError) as refused:
        call()
    assert refused.value.parameter == parameter


@pytest.mark.parametrize("change", [5.4e-240, 1e-12])
def test_a_change_too_small_for_any_sample_is_refused_by_name(change):
    with pytest.raises(ParameterError, match="too small for any survey") as refused:
        rr.change_sample_size(rr.spinner_coin(1.0), 0.7372293723546185, change)
    assert refused.value.parameter == "change"
