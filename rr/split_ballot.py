"""A split ballot with respondents who do not cooperate, for the classroom lab: what asking
directly and asking through a design find when some respondents hide the truth.

Two kinds of respondents spoil an estimate (John et al. 2018; Höglinger & Jann 2018):

- asked **directly**, a share ``denial`` of those whose true answer is yes say no, so the direct
  condition finds π(1 − denial);
- asked through the design, a share ``noncompliance`` of respondents report "no" whatever the
  randomizer says (self-protective no-saying), the rest follow it. Their reports of 1 have mean
  θ = (1 − c)(a + bπ), so the design finds (θ − a)/b = (1 − c)π − c·a/b: below the truth, and
  below zero on an item nobody has (π = 0: a known-prevalence item shows it).

The power of the one-sided test that the design finds more (:func:`rr.contrast`) at n per
condition is Φ(d / √((v_d + v_r)/n) − z₁₋α) with d the difference of the two expectations,
v_d = p_d(1 − p_d) and v_r = θ(1 − θ)/b².
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import NamedTuple

import numpy as np

from ._validate import check_count, check_probability
from .design import Design, asked_directly
from .experiment import Contrast, contrast, p_more_of


class ClassFigures(NamedTuple):
    """One condition's estimate in one simulated class, with its 95% interval."""

    estimate: float
    ci_low: float
    ci_high: float


class SplitBallot(NamedTuple):
    """What each condition finds in expectation and in one simulated class, and the power."""

    expected_direct: float
    expected_randomized: float
    expected_zero_randomized: float
    power: float
    simulated_power: float
    direct: ClassFigures
    randomized: ClassFigures
    zero_direct: ClassFigures
    zero_randomized: ClassFigures
    contrast: Contrast

    def __repr__(self) -> str:
        return (
            f"SplitBallot(direct={self.expected_direct:.4f}, randomized="
            f"{self.expected_randomized:.4f}, zero item={self.expected_zero_randomized:.4f}, "
            f"power={self.power:.3f})"
        )


def split_ballot(
    design: Design,
    prevalence,
    denial,
    noncompliance,
    n,
    alpha: float = 0.05,
    trials: int = 2000,
    seed=None,
) -> SplitBallot:
    """A split ballot of ``n`` per condition: asking directly against ``design``.

    Parameters
    ----------
    design : rr.Design
        The randomized condition's design.
    prevalence : float
        π, the true share of yes, in [0, 1].
    denial : float
        The share of true-yes respondents who say no when asked directly, in [0, 1].
    noncompliance : float
        The share of the randomized condition who report "no" whatever they are told, in [0, 1].
    n : int
        Respondents per condition, ≥ 1.
    alpha : float
        The one-sided test's level, in (0, 1).
    trials : int
        Simulated experiments for the simulated power.
    seed : int or None
        For the one class and the trials.

    Raises
    ------
    ValueError
        On a share outside [0, 1], n or trials below 1, or alpha outside (0, 1).
    """
    prevalence = check_probability(prevalence, "prevalence", closed=True)
    denial = check_probability(denial, "denial", closed=True)
    noncompliance = check_probability(noncompliance, "noncompliance", closed=True)
    n = check_count(n, "n", minimum=1)
    trials = check_count(trials, "trials", minimum=1)
    alpha = check_probability(alpha, "alpha", closed=False)
    a, b = design.offset, design.slope
    told = prevalence * (1 - denial)
    theta = (1 - noncompliance) * (a + b * prevalence)
    zero_theta = (1 - noncompliance) * a
    spread = told * (1 - told) + theta * (1 - theta) / b**2
    gap = (theta - a) / b - told
    z = -NormalDist().inv_cdf(alpha)
    power = NormalDist().cdf(gap * math.sqrt(n / spread) - z) if spread > 0 else float(gap > 0)
    rng = np.random.default_rng(seed)
    plain = asked_directly()
    yes_d, yes_r, zero_r = (int(rng.binomial(n, p)) for p in (told, theta, zero_theta))
    randomized, direct = rng.binomial(n, theta, trials), rng.binomial(n, told, trials)
    hits = int(np.sum(p_more_of(design, randomized, plain, direct, n) < alpha))
    return SplitBallot(
        told,
        (theta - a) / b,
        (zero_theta - a) / b,
        power,
        hits / trials,
        _figures(plain, yes_d, n),
        _figures(design, yes_r, n),
        _figures(plain, 0, n),
        _figures(design, zero_r, n),
        contrast(design, yes_r, n, plain, yes_d, n),
    )


def _figures(design: Design, yes: int, n: int) -> ClassFigures:
    found = design.estimate(yes, n)
    return ClassFigures(float(found.estimate), float(found.ci_low), float(found.ci_high))


__all__ = ["ClassFigures", "SplitBallot", "split_ballot"]
