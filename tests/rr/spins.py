"""Respondents who really spin, written here from the mission's formulas and not from rr.

Each procedure is drawn step by step (a spinner with light share p, then a coin or the opposite
answer), so tests that use it check rr's estimator against the procedures themselves.
"""

import math

import numpy as np


def light_share(epsilon: float, procedure: str) -> float:
    """p from the textbook forms: (e^ε − 1)/(e^ε + 1) or e^ε/(1 + e^ε)."""
    if procedure == "spinner_coin":
        return (math.exp(epsilon) - 1) / (math.exp(epsilon) + 1)
    return math.exp(epsilon) / (1 + math.exp(epsilon))


def spin(truth: np.ndarray, epsilon: float, procedure: str, rng: np.random.Generator) -> np.ndarray:
    """Each respondent spins; light → the truth, dark → a coin (heads = yes) or the opposite."""
    light = rng.random(truth.shape) < light_share(epsilon, procedure)
    dark = rng.random(truth.shape) < 0.5 if procedure == "spinner_coin" else ~truth
    return np.where(light, truth, dark)


def textbook_estimate(noisy_share, epsilon: float, procedure: str):
    """π̂ as the mission states it for each procedure."""
    p = light_share(epsilon, procedure)
    if procedure == "spinner_coin":
        return (noisy_share - (1 - p) / 2) / p
    return (noisy_share - (1 - p)) / (2 * p - 1)


def textbook_variance(share: float, n: int, epsilon: float, procedure: str) -> float:
    """Var(π̂) = θ(1 − θ)/(n·slope²), slope p or 2p − 1, θ the expected reported-yes share."""
    p = light_share(epsilon, procedure)
    if procedure == "spinner_coin":
        slope, theta = p, p * share + (1 - p) / 2
    else:
        slope, theta = 2 * p - 1, p * share + (1 - p) * (1 - share)
    return theta * (1 - theta) / (n * slope**2)
