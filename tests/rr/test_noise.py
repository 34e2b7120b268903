"""Laplace and Gaussian mechanisms: hand values, the defining equations, and an independent check."""

import math

import mpmath
import numpy as np
import pytest
from scipy import integrate, stats

import rr


def test_laplace_scale_by_hand():
    assert rr.laplace_scale(1, 0.5) == 2.0
    assert rr.laplace_scale(3, 1.5) == 2.0


def test_laplace_noise_is_epsilon_dp():
    # The density ratio of Laplace(0, b) and Laplace(Δ, b) is at most e^(Δ/b) = e^ε.
    sensitivity, epsilon = 2.0, 0.7
    scale = rr.laplace_scale(sensitivity, epsilon)
    x = np.linspace(-20, 20, 2001)
    ratio = stats.laplace.pdf(x, 0, scale) / stats.laplace.pdf(x, sensitivity, scale)
    assert ratio.max() == pytest.approx(math.exp(epsilon), rel=1e-9)


def test_classical_sigma_by_hand():
    assert rr.gaussian_sigma(1, 0.5, 1e-5, "classical") == pytest.approx(
        math.sqrt(2 * math.log(1.25e5)) / 0.5
    )


def _sigma_by_mpmath(sensitivity, epsilon, delta, method):
    """σ solved at 40 digits with mpmath's own normal CDF: independent of rr and of SciPy."""
    with mpmath.workdps(40):

        def excess(sigma):
            ratio, shift = sensitivity / (2 * sigma), epsilon * sigma / sensitivity
            value = mpmath.ncdf(ratio - shift)
            if method == "analytic":
                value -= mpmath.exp(epsilon) * mpmath.ncdf(-ratio - shift)
            return value - delta

        # δ(σ) falls as σ grows: bisect a bracket wide enough for every case below.
        low, high = mpmath.mpf(sensitivity) / 1000, mpmath.mpf(sensitivity) * 1000
        for _ in range(150):
            middle = (low + high) / 2
            low, high = (middle, high) if excess(middle) > 0 else (low, middle)
        return float(high)


@pytest.mark.parametrize(("epsilon", "delta"), [(0.1, 1e-5), (1.0, 1e-5), (1.0, 1e-3), (4.0, 1e-8)])
@pytest.mark.parametrize("method", ["reference", "analytic"])
def test_sigma_matches_an_independent_solution(epsilon, delta, method):
    expected = _sigma_by_mpmath(1.5, epsilon, delta, method)
    assert rr.gaussian_sigma(1.5, epsilon, delta, method) == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize(
    ("epsilon", "delta", "excess"),
    [(1.0, 1e-5, 1.174), (0.1, 1e-5, 1.391), (0.001, 1e-5, 2.474), (0.001, 1e-2, 61.16)],
)
def test_reference_sigma_is_this_much_above_the_exact_one(epsilon, delta, excess):
    # What docs/statistics.md states: the reference form overshoots more as ε and δ grow apart.
    sigmas = rr.gaussian_sigmas(1, epsilon, delta)
    assert sigmas.reference / sigmas.analytic == pytest.approx(excess, rel=1e-3)


def test_reference_equation_is_the_one_in_the_notes():
    sensitivity, epsilon, delta = 1.0, 1.0, 1e-5
    sigma = rr.gaussian_sigma(sensitivity, epsilon, delta, "reference")
    value = stats.norm.cdf(sensitivity / (2 * sigma) - epsilon * sigma / sensitivity)
    assert value == pytest.approx(delta, rel=1e-8)


def test_analytic_sigma_matches_the_published_value():
    # Balle & Wang (2018): ε = 1, δ = 1e-5, Δ = 1 needs σ ≈ 3.73.
    assert rr.gaussian_sigma(1, 1, 1e-5) == pytest.approx(3.7306, abs=5e-4)


@pytest.mark.parametrize(("epsilon", "delta"), [(0.5, 1e-4), (1.0, 1e-6), (3.0, 1e-5)])
def test_analytic_delta_matches_the_privacy_loss_distribution(epsilon, delta):
    # The privacy loss of N(0, σ²) against N(Δ, σ²) is N(μ, 2μ) with μ = Δ²/(2σ²), and
    # δ(ε) = E[(1 − e^(ε − L))₊]: integrate it numerically, independently of the closed form.
    sensitivity = 1.0
    sigma = rr.gaussian_sigma(sensitivity, epsilon, delta)
    mu = sensitivity**2 / (2 * sigma**2)
    loss = stats.norm(mu, math.sqrt(2 * mu))
    integral, _ = integrate.quad(
        lambda value: (1 - math.exp(epsilon - value)) * loss.pdf(value),
        epsilon,
        mu + 40 * math.sqrt(2 * mu),
    )
    assert integral == pytest.approx(delta, rel=1e-5)


@pytest.mark.parametrize(
    ("epsilon", "delta"), [(0.1, 1e-5), (0.5, 1e-6), (1.0, 1e-5), (5.0, 1e-5), (20.0, 1e-10)]
)
def test_dropping_a_term_makes_the_reference_conservative(epsilon, delta):
    sigmas = rr.gaussian_sigmas(1, epsilon, delta)
    assert sigmas.reference >= sigmas.analytic


def test_classical_sigma_is_too_small_for_large_epsilon():
    # Its proof needs ε < 1; at ε = 20 it falls below what the exact condition demands.
    sigmas = rr.gaussian_sigmas(1, 20, 1e-10)
    assert sigmas.classical < sigmas.analytic
    assert rr.gaussian_delta(sigmas.classical, 1, 20) > 1e-10


def test_more_privacy_needs_more_noise():
    sigmas = [rr.gaussian_sigma(1, epsilon, 1e-5) for epsilon in (0.25, 0.5, 1, 2, 4)]
    assert sigmas == sorted(sigmas, reverse=True)
    assert rr.gaussian_sigma(2, 1, 1e-5) == pytest.approx(
        2 * rr.gaussian_sigma(1, 1, 1e-5), rel=1e-9
    )


@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda: rr.laplace_scale(0, 1), "sensitivity"),
        (lambda: rr.laplace_scale(1, -1), "epsilon"),
        (lambda: rr.gaussian_sigma(1, 1, 0), "delta"),
        (lambda: rr.gaussian_sigma(1, 1, 1), "delta"),
        (lambda: rr.gaussian_sigma(1, 1, 1e-5, "exact"), "'exact'"),
        (lambda: rr.gaussian_delta(0, 1, 1), "sigma"),
        (lambda: rr.gaussian_delta(1, 1, 1, "classical"), "'classical'"),
    ],
)
def test_bad_input_is_named(call, named):
    with pytest.raises(ValueError, match=named):
        call()
