"""The lab's number question: one simulated class answers "how many nights?" with one spin each,
and the same class through the Laplace and Gaussian mechanisms at the same ε, for comparison."""

from __future__ import annotations

import numpy as np

import rr
from rr.noise import gaussian_sigma, laplace_scale

LOW, HIGH = 0, 20
VALUES = np.arange(LOW, HIGH + 1)
# Skewed as such counts are: most answers 0 to 2, a few far more (weights halve every 2 nights).
WEIGHTS = 0.5 ** (VALUES / 2)
WEIGHTS = WEIGHTS / WEIGHTS.sum()
DELTA = 1e-5


def number_class(n: int, epsilon: float, procedure: str, rng: np.random.Generator) -> dict:
    """One class of ``n``: its true mean, the one-bit running mean with its 95% interval after
    each respondent, the Laplace and Gaussian running means, and each mechanism's variance per
    respondent at the population's mean and spread (formula)."""
    values = rng.choice(VALUES, size=n, p=WEIGHTS).astype(float)
    mean = rr.bounded_mean(LOW, HIGH, epsilon, procedure)
    reports = mean.perturb(values, rng)
    counted = np.arange(1, n + 1)
    running = mean.design.estimate(np.cumsum(reports), counted)
    width = mean.width
    scale = laplace_scale(width, epsilon)
    sigma = gaussian_sigma(width, epsilon, DELTA)
    laplace = np.cumsum(values + rng.laplace(0, scale, n)) / counted
    gaussian = np.cumsum(values + rng.normal(0, sigma, n)) / counted
    population_mean = float(VALUES @ WEIGHTS)
    spread = float(((VALUES - population_mean) ** 2) @ WEIGHTS)
    variances = rr.mechanism_variances(LOW, HIGH, epsilon, population_mean, spread, DELTA)
    return {
        "min": LOW,
        "max": HIGH,
        "n": n,
        "true_mean": float(values.mean()),
        "population_mean": population_mean,
        "estimate": (LOW + width * np.asarray(running.estimate)).tolist(),
        "ci_low": (LOW + width * np.asarray(running.ci_low)).tolist(),
        "ci_high": (LOW + width * np.asarray(running.ci_high)).tolist(),
        "laplace": laplace.tolist(),
        "gaussian": gaussian.tolist(),
        "laplace_scale": scale,
        "gaussian_sigma": sigma,
        "variance": variances._asdict(),
        "ratio_laplace": variances.one_bit / variances.laplace,
        "ratio_gaussian": variances.one_bit / variances.gaussian,
    }
