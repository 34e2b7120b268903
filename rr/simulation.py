"""Simulated surveys: the sampling distribution of the estimator, drawn exactly and fast."""

from __future__ import annotations

import numpy as np

from ._validate import check_count, check_epsilon, check_probability, check_procedure
from .mechanism import noise_line


def simulate_estimates(
    true_proportion,
    n,
    epsilon,
    procedure: str = "spinner_coin",
    trials: int = 1000,
    seed=None,
) -> np.ndarray:
    """Draws of the raw estimator π̂ over ``trials`` simulated surveys of ``n`` respondents.

    Each respondent is drawn from a population with true share π and reports through the procedure,
    so a survey's reported-yes count is exactly Binomial(n, θ) with θ = a + b·π (a = 1/(1 + e^ε),
    b = tanh(ε/2)). Drawing that count directly costs O(trials), not O(n·trials): n = 10^6 with
    2·10^5 trials takes milliseconds.

    Parameters
    ----------
    true_proportion : float
        π in [0, 1].
    n : int
        Respondents per survey, ≥ 1.
    epsilon : float
        Privacy loss of one spin, ε > 0.
    procedure : {"spinner_coin", "spinner"}
        Both give the same distribution at equal ε.
    trials : int
        Number of simulated surveys, ≥ 1.
    seed : int, numpy.random.Generator or None
        Seed or generator, for repeatable draws.

    Returns
    -------
    numpy.ndarray of float, shape (trials,)
        Raw estimates, unclipped: E = π and Var = θ(1 − θ)/(n·b²).
    """
    true_proportion = check_probability(true_proportion, "true_proportion", closed=True)
    n = check_count(n, "n", minimum=1)
    epsilon = check_epsilon(epsilon)
    check_procedure(procedure)
    trials = check_count(trials, "trials", minimum=1)
    return _simulate(true_proportion, n, epsilon, trials, np.random.default_rng(seed))


def simulate_counts(
    true_proportion: float, n: int, epsilon: float, trials: int, rng: np.random.Generator
) -> np.ndarray:
    """Reported-yes counts of ``trials`` surveys; assumes validated input."""
    offset, slope = noise_line(epsilon)
    return rng.binomial(n, offset + slope * true_proportion, size=trials)


def _simulate(true_proportion, n, epsilon, trials, rng) -> np.ndarray:
    """Raw estimates from simulated counts; assumes validated input."""
    offset, slope = noise_line(epsilon)
    counts = simulate_counts(true_proportion, n, epsilon, trials, rng)
    return (counts / n - offset) / slope


__all__ = ["simulate_counts", "simulate_estimates"]
