"""The stochastic lie detector: how many carry the sensitive attribute, and how many of them say so.

Moshagen, Musch & Erdfelder (2012) put each respondent at random into one of two arms. A
non-carrier answers "yes" with probability 1 − pᵢ in arm i (the randomizer tells them to say "no"
with probability pᵢ); a carrier is told to answer truthfully, and does so with probability t (the
honest carriers' share), else says "no". So the share of "yes" in arm i is

    λᵢ = π·t + (1 − π)(1 − pᵢ),

and with p₁ ≠ p₂ the two arms give both unknowns in closed form (as RRreg's ``RRuni(model =
"SLD")`` computes them, Heck & Moshagen 2018):

    π̂ = 1 − (λ̂₁ − λ̂₂)/(p₂ − p₁),      t̂ = (λ̂₂(1 − p₁) − λ̂₁(1 − p₂)) / ((λ̂₂ − λ̂₁) + (p₂ − p₁)).

π̂ is linear in the arms' independent shares; its standard error is
√(Σᵢ λ̂ᵢ(1 − λ̂ᵢ)/((nᵢ − 1)(p₁ − p₂)²)), and t̂'s the delta method's, both with RRreg's nᵢ − 1.
Intervals are Wald intervals on them, clipped to [0, 1] (the estimates are left unclipped). A
carrier is never told to say "no": a "no" from them is their own choice, so a "no" is not
protected and the design has no ε bound.

References
----------
Moshagen, M., Musch, J., & Erdfelder, E. (2012). A stochastic lie detector. Behavior Research
Methods, 44, 222-231.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import NamedTuple

import numpy as np

from ._validate import check_count, check_probability
from .cheating import Share
from .design import Design
from .difference import Difference, wald_difference
from .errors import NO_INFORMATION, ParameterError

METHOD = "closed-form moment estimates of the two arms (RRreg's RRuni 'SLD'); Wald intervals"


class LieDetectorEstimate(NamedTuple):
    """π (carriers) and t (the carriers who answer honestly), with the arms' counts."""

    carriers: Share
    honesty: Share
    arm_n: tuple[int, int]
    arm_yes: tuple[int, int]
    confidence: float

    def __repr__(self) -> str:
        pi, t = self.carriers, self.honesty
        return (
            f"LieDetectorEstimate(pi={pi.estimate:.4f} (SE {pi.std_error:.4f}), "
            f"t={t.estimate:.4f} (SE {t.std_error:.4f}) at {self.confidence:.0%}, "
            f"arms n={self.arm_n}, yes={self.arm_yes})"
        )

    @property
    def prevalence(self) -> Share:
        """The share the question asks about: the carriers' π."""
        return self.carriers


@dataclass(frozen=True)
class LieDetector:
    """Two arms whose non-carriers are told to say "no" with probabilities ``p_no``."""

    p_no: tuple[float, float]

    def __repr__(self) -> str:
        return f"LieDetector(p_no=({self.p_no[0]:.4g}, {self.p_no[1]:.4g}))"

    @property
    def epsilon(self) -> float:
        """No bound: a carrier's "no" is their own (see the module docstring)."""
        return math.inf

    @property
    def arms(self) -> tuple[Design, Design]:
        """Each arm's line for an honest respondent: λ₁ = 1 (a carrier says "yes"), λ₀ = 1 − pᵢ;
        ε infinite, since a "no" comes from non-carriers only."""
        return tuple(  # type: ignore[return-value]
            Design("stochastic_lie_detector", 1 - p, p, math.inf, (("p_no", p),)) for p in self.p_no
        )

    def yes_share(self, arm: int, carriers: float, honesty: float) -> float:
        """λᵢ = π·t + (1 − π)(1 − pᵢ)."""
        return carriers * honesty + (1 - carriers) * (1 - self.p_no[arm])

    def estimate(self, arm_yes, arm_n, confidence: float = 0.95) -> LieDetectorEstimate:
        """π̂ and t̂ from each arm's "yes" answers (``arm_yes``) among its respondents
        (``arm_n``).

        Raises
        ------
        ValueError
            If an arm has fewer than two respondents, a count is outside [0, n], or the confidence
            is outside (0, 1).
        """
        confidence = check_probability(confidence, "confidence", closed=False)
        yes = tuple(check_count(value, "arm_yes", minimum=0) for value in arm_yes)
        total = tuple(check_count(value, "arm_n", minimum=2) for value in arm_n)
        if len(yes) != 2 or len(total) != 2 or any(y > n for y, n in zip(yes, total, strict=True)):
            raise ValueError(f"need two arms with 0 <= yes <= n, got yes={arm_yes!r}, n={arm_n!r}")
        z = -NormalDist().inv_cdf((1 - confidence) / 2)
        carriers, honesty = _estimates(self.p_no, yes, total)
        return LieDetectorEstimate(
            _wald(*carriers, z), _wald(*honesty, z), (total[0], total[1]), (yes[0], yes[1]),
            confidence,
        )  # fmt: skip

    def perturb(self, true_bits, liars, rng=None) -> tuple[np.ndarray, np.ndarray]:
        """Respondent by respondent: each put into arm 0 or 1 at random (half and half); a carrier
        says "yes" unless a liar (``liars``), who says "no"; a non-carrier says "no" with their
        arm's pᵢ. Returns (reported, arm), each of the shape of ``true_bits``."""
        truth = np.asarray(true_bits).astype(bool)
        lying = np.broadcast_to(np.asarray(liars).astype(bool), truth.shape)
        rng = np.random.default_rng(rng)
        arm = rng.integers(0, 2, size=truth.shape)
        told_no = rng.random(truth.shape) < np.array(self.p_no)[arm]
        reported = np.where(truth, ~lying, ~told_no)
        return reported.astype(np.uint8), arm.astype(np.uint8)

    def margin_of_error(self, n, confidence: float = 0.95, carriers: float = 0.5) -> float:
        """The half-width of π̂'s Wald interval expected for ``n`` respondents split evenly
        between the arms, every carrier honest (t = 1): z·√(Σᵢ λᵢ(1 − λᵢ)/(n/2))/|p₁ − p₂|
        (a planning figure).

        Raises
        ------
        ValueError
            If n < 4, the share is outside [0, 1], or the confidence is outside (0, 1).
        """
        n = check_count(n, "n", minimum=4)
        confidence = check_probability(confidence, "confidence", closed=False)
        pi = check_probability(carriers, "carriers", closed=True)
        shares = [self.yes_share(arm, pi, 1.0) for arm in (0, 1)]
        variance = sum(share * (1 - share) / (n / 2) for share in shares)
        spread = abs(self.p_no[0] - self.p_no[1])
        return -NormalDist().inv_cdf((1 - confidence) / 2) * math.sqrt(variance) / spread

    def difference(self, first, second, confidence: float = 0.95) -> Difference:
        """π₁ − π₂ between two groups, each given as (arm_yes, arm_n): the difference of their
        π̂ with a Wald interval and two-sided p-value (π̂ is linear in the arms' shares, so the
        groups' standard errors add in quadrature).

        Raises
        ------
        ValueError
            As :meth:`estimate`, for either group.
        """
        one = self.estimate(first[0], first[1], confidence).carriers
        two = self.estimate(second[0], second[1], confidence).carriers
        return wald_difference(
            one[:2], two[:2], confidence,
            "Wald interval and two-sided test on the groups' closed-form estimates",
        )  # fmt: skip


def lie_detector(p_no) -> LieDetector:
    """The stochastic lie detector with its two arms' probabilities of a told "no".

    Raises
    ------
    ValueError
        If there are not two probabilities, one is outside [0, 1], or they are equal (the arms
        must differ for π and t to be told apart).
    """
    if len(p_no) != 2:
        raise ParameterError("p_no", f"the lie detector needs two arms, got {len(p_no)}")
    first, second = (check_probability(value, "p_no", closed=True) for value in p_no)
    if math.isclose(first, second, abs_tol=1e-12):
        raise ParameterError(
            "p_no",
            f"the two arms must differ: with p_no equal in both ({first!r}) carriers and honest "
            "answers cannot be told apart",
            NO_INFORMATION,
        )
    return LieDetector((first, second))


def _estimates(p_no, yes, n) -> tuple[tuple[float, float], tuple[float, float]]:
    """(π̂, its SE) and (t̂, its SE), as RRreg computes them. Assumes checked input."""
    p1, p2 = p_no
    l1, l2 = yes[0] / n[0], yes[1] / n[1]
    v1, v2 = l1 * (1 - l1) / (n[0] - 1), l2 * (1 - l2) / (n[1] - 1)
    carriers = ((l2 - l1) + (p2 - p1)) / (p2 - p1)
    carriers_se = math.sqrt((v1 + v2) / (p1 - p2) ** 2)
    denominator = (l2 - l1) + (p2 - p1)
    if denominator == 0:
        return (carriers, carriers_se), (math.nan, math.nan)
    honesty = (l2 * (1 - p1) - l1 * (1 - p2)) / denominator
    # ∂t̂/∂λ̂₁ and ∂t̂/∂λ̂₂, from the quotient rule.
    squared = (p1 - p2 + l1 - l2) ** 2
    d1, d2 = (p1 - p2) * (p2 + l2 - 1) / squared, (p1 - p2) * (p1 + l1 - 1) / squared
    return (carriers, carriers_se), (honesty, math.sqrt(v1 * d1**2 + v2 * d2**2))


def _wald(estimate: float, std_error: float, z: float) -> Share:
    """The estimate as it is, its Wald interval clipped to [0, 1] (a share's)."""
    low, high = estimate - z * std_error, estimate + z * std_error
    return Share(estimate, std_error, min(max(low, 0.0), 1.0), min(max(high, 0.0), 1.0))


__all__ = ["LieDetector", "LieDetectorEstimate", "Share", "lie_detector"]
