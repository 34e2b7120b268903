"""Posteriors of the designs of two arms, each from its two arms' counts and a uniform prior,
evaluated on a grid: cheating detection's honest yes π and cheaters γ (on their simplex), the
stochastic lie detector's carriers π and honest carriers t (on their square), and the extended
crosswise model's π (one parameter, both arms). Each parameter's marginal is summed from the grid:
quantiles to a small fraction of a posterior SD."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ._validate import check_count


class Marginal(NamedTuple):
    """One parameter's posterior summaries."""

    mean: float
    sd: float
    cri_low: float
    cri_high: float
    hdi_low: float
    hdi_high: float


class CheatingPosterior(NamedTuple):
    """The posterior of cheating detection's honest-yes share π and share of cheaters γ."""

    honest_yes: Marginal
    cheating: Marginal


def cheating_posterior(model, arm_yes, arm_n, cells: int = 301) -> CheatingPosterior:
    """The joint posterior of (π, γ) from the two arms' counts, with a uniform prior on the
    simplex π, γ ≥ 0, π + γ ≤ 1 (Dirichlet(1, 1, 1) over honest yes, honest no and cheaters).

    Arm k reports 1 with probability b_k·π + a_k·(1 − γ) (:class:`rr.CheatingDetection`). The
    density is evaluated in log space on a grid of ``cells`` × ``cells`` midpoints over the
    moment estimates ± 12 standard errors (the whole simplex when those are wide), and each
    parameter's marginal is summed from it: quantiles to a small fraction of a posterior SD.

    Raises
    ------
    ValueError
        On counts that are not whole, out of order, or an arm without respondents.
    """
    yes = [check_count(value, "arm_yes", minimum=0) for value in arm_yes]
    n = [check_count(value, "arm_n", minimum=1) for value in arm_n]
    if len(yes) != 2 or len(n) != 2 or any(y > total for y, total in zip(yes, n, strict=True)):
        raise ValueError(f"need two arms with 0 <= yes <= n, got yes={arm_yes!r}, n={arm_n!r}")
    found = model.estimate(yes, n)
    axes = [
        _window(share.estimate, share.std_error, cells)
        for share in (found.honest_yes, found.cheating)
    ]
    pi, gamma = np.meshgrid(axes[0], axes[1], indexing="ij")
    inside = pi + gamma <= 1
    log_f = np.zeros_like(pi)
    for arm, (arm_yes_k, arm_n_k) in enumerate(zip(yes, n, strict=True)):
        design = model.arms[arm]
        theta = np.clip(design.slope * pi + design.offset * (1 - gamma), 1e-300, 1 - 1e-16)
        log_f += arm_yes_k * np.log(theta) + (arm_n_k - arm_yes_k) * np.log1p(-theta)
    log_f = np.where(inside, log_f, -np.inf)
    weight = np.exp(log_f - log_f.max())
    weight /= weight.sum()
    return CheatingPosterior(
        _marginal(axes[0], weight.sum(axis=1)), _marginal(axes[1], weight.sum(axis=0))
    )


class LieDetectorPosterior(NamedTuple):
    """The posterior of the lie detector's carriers π and honest carriers' share t."""

    carriers: Marginal
    honesty: Marginal


def lie_detector_posterior(model, arm_yes, arm_n, cells: int = 301) -> LieDetectorPosterior:
    """The joint posterior of (π, t) from the two arms' counts, with a uniform prior on the unit
    square: arm i says yes with λᵢ = π·t + (1 − π)(1 − pᵢ) (:class:`rr.LieDetector`). Evaluated
    as :func:`cheating_posterior` is, on a grid over the closed-form estimates ± 12 standard
    errors (the whole square where those are wide or undefined).

    Raises
    ------
    ValueError
        On counts that are not whole, out of order, or an arm of fewer than two respondents.
    """
    yes, n = _two_arms(arm_yes, arm_n, minimum=2)
    found = model.estimate(yes, n)
    axes = [
        _window(share.estimate, share.std_error, cells) if math.isfinite(share.estimate)
        and math.isfinite(share.std_error) else _window(0.5, 1.0, cells)
        for share in (found.carriers, found.honesty)
    ]  # fmt: skip
    pi, t = np.meshgrid(axes[0], axes[1], indexing="ij")
    log_f = np.zeros_like(pi)
    for arm, (arm_yes_k, arm_n_k) in enumerate(zip(yes, n, strict=True)):
        theta = np.clip(model.yes_share(arm, pi, t), 1e-300, 1 - 1e-16)
        log_f += arm_yes_k * np.log(theta) + (arm_n_k - arm_yes_k) * np.log1p(-theta)
    weight = np.exp(log_f - log_f.max())
    weight /= weight.sum()
    return LieDetectorPosterior(
        _marginal(axes[0], weight.sum(axis=1)), _marginal(axes[1], weight.sum(axis=0))
    )


def extended_crosswise_posterior(model, arm_same, arm_n, cells: int = 2001) -> Marginal:
    """The posterior of π from both arms of the extended crosswise model, with a uniform prior:
    arm i reports "the same" with λᵢ = (1 − qᵢ) + π(2qᵢ − 1) (:class:`rr.ExtendedCrosswise`),
    on a grid of ``cells`` midpoints over [0, 1].

    Raises
    ------
    ValueError
        On counts that are not whole, out of order, or an arm without respondents.
    """
    same, n = _two_arms(arm_same, arm_n, minimum=1)
    points = _window(0.5, 1.0, cells)
    log_f = np.zeros_like(points)
    for arm, (same_k, n_k) in enumerate(zip(same, n, strict=True)):
        theta = np.clip(model.same_share(arm, points), 1e-300, 1 - 1e-16)
        log_f += same_k * np.log(theta) + (n_k - same_k) * np.log1p(-theta)
    weight = np.exp(log_f - log_f.max())
    return _marginal(points, weight / weight.sum())


def _two_arms(arm_yes, arm_n, minimum: int) -> tuple[list[int], list[int]]:
    """Two arms' counts, checked: 0 ≤ yes ≤ n and n ≥ ``minimum`` in each."""
    yes = [check_count(value, "arm_yes", minimum=0) for value in arm_yes]
    n = [check_count(value, "arm_n", minimum=minimum) for value in arm_n]
    if len(yes) != 2 or len(n) != 2 or any(y > total for y, total in zip(yes, n, strict=True)):
        raise ValueError(f"need two arms with 0 <= yes <= n, got yes={arm_yes!r}, n={arm_n!r}")
    return yes, n


def _window(centre: float, spread: float, cells: int) -> np.ndarray:
    """Midpoints of ``cells`` equal cells over centre ± 12 spreads, inside [0, 1]."""
    low, high = max(0.0, centre - 12 * spread), min(1.0, centre + 12 * spread)
    if high - low < 1e-9:
        low, high = 0.0, 1.0
    edges = np.linspace(low, high, cells + 1)
    return (edges[:-1] + edges[1:]) / 2


def _marginal(points: np.ndarray, weights: np.ndarray) -> Marginal:
    """Summaries of a gridded marginal (cell masses at midpoints); quantiles interpolate the CDF
    linearly inside a cell."""
    mean = float(weights @ points)
    sd = math.sqrt(max(float(weights @ (points - mean) ** 2), 0.0))
    step = points[1] - points[0] if len(points) > 1 else 1.0
    edges = np.concatenate([[points[0] - step / 2], points + step / 2])
    cdf = np.concatenate([[0.0], np.cumsum(weights)])

    def quantile(q: float) -> float:
        return float(np.interp(q, cdf, edges))

    order = np.argsort(weights)[::-1]
    kept = order[: int(np.searchsorted(np.cumsum(weights[order]), 0.95)) + 1]
    return Marginal(
        mean, sd, quantile(0.025), quantile(0.975),
        float(edges[kept.min()]), float(edges[kept.max() + 1]),
    )  # fmt: skip


__all__ = [
    "CheatingPosterior",
    "LieDetectorPosterior",
    "Marginal",
    "cheating_posterior",
    "extended_crosswise_posterior",
    "lie_detector_posterior",
]
