"""The cheating-detection model: how many respondents disobey the instructions.

Clark & Desharnais (1998) split respondents into honest ones whose true answer is yes (share π),
honest ones whose true answer is no (β), and cheaters (γ = 1 − π − β), who answer "no" whatever
they are told. Each respondent is put at random into one of two arms; an honest respondent in arm
i reports the truth with probability tᵢ, a forced "yes" with f₁ᵢ and a forced "no" with f₀ᵢ
(the forced-response design in each arm). So the share of reports of 1 in arm i is

    λᵢ = π·(tᵢ + f₁ᵢ) + β·f₁ᵢ = tᵢ·π + f₁ᵢ·(1 − γ),

two equations in (π, 1 − γ), solved exactly when t₁f₁₂ ≠ t₂f₁₁ (the arms must differ):

    π̂ = (f₁₂·λ̂₁ − f₁₁·λ̂₂)/D,   1 − γ̂ = (t₁·λ̂₂ − t₂·λ̂₁)/D,   D = t₁f₁₂ − t₂f₁₁.

Both are linear in the two arms' independent shares, unbiased, with variances
Σᵢ wᵢ²·λᵢ(1 − λᵢ)/nᵢ. Each interval is MOVER (Zou & Donner 2008) on the arms' exact
Clopper–Pearson limits, clipped to [0, 1]; its coverage, measured by simulation, is in
``docs/statistics.md`` and ``bench/designs_table.py``. The symmetric variant (Ostapczuk, Moshagen
et al. 2009) gives both arms forced answers of both kinds, so that every report has a finite ε
for an honest respondent: ε is the larger of the two arms' forced-response ε.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import NamedTuple

import numpy as np

from ._validate import check_count, check_probability
from .design import Design, forced_response
from .difference import Difference
from .errors import NO_INFORMATION, ParameterError
from .estimate import clopper_pearson

METHOD = "moment estimator of the two arms; MOVER on exact Clopper-Pearson limits"


class Share(NamedTuple):
    """One estimated share with its standard error and interval (clipped to [0, 1])."""

    estimate: float
    std_error: float
    ci_low: float
    ci_high: float


class CheatingEstimate(NamedTuple):
    """π (honest yes) and γ (cheaters), with the arms' counts they came from."""

    honest_yes: Share
    cheating: Share
    arm_n: tuple[int, int]
    arm_yes: tuple[int, int]
    confidence: float

    def __repr__(self) -> str:
        pi, gamma = self.honest_yes, self.cheating
        return (
            f"CheatingEstimate(pi={pi.estimate:.4f} [{pi.ci_low:.4f}, {pi.ci_high:.4f}], "
            f"gamma={gamma.estimate:.4f} [{gamma.ci_low:.4f}, {gamma.ci_high:.4f}] at "
            f"{self.confidence:.0%}, arms n={self.arm_n}, yes={self.arm_yes})"
        )

    @property
    def prevalence(self) -> Share:
        """The share the question asks about: the honest "yes" π."""
        return self.honest_yes


@dataclass(frozen=True)
class CheatingDetection:
    """Two forced-response arms; see the module docstring."""

    arms: tuple[Design, Design]

    def __repr__(self) -> str:
        return f"CheatingDetection(arms={self.arms!r}, epsilon={self.epsilon:.4f})"

    @property
    def epsilon(self) -> float:
        """The larger of the arms' ε: what one report can reveal of an honest respondent."""
        return max(arm.epsilon for arm in self.arms)

    def report_share(self, arm: int, honest_yes: float, cheating: float) -> float:
        """λᵢ = tᵢ·π + f₁ᵢ·(1 − γ)."""
        design = self.arms[arm]
        return design.slope * honest_yes + design.offset * (1 - cheating)

    def estimate(self, arm_yes, arm_n, confidence: float = 0.95) -> CheatingEstimate:
        """π̂ and γ̂ from each arm's reports of 1 (``arm_yes``) among its respondents (``arm_n``).

        Raises
        ------
        ValueError
            If an arm has no respondents, a count is outside [0, n], or the confidence is outside
            (0, 1).
        """
        confidence = check_probability(confidence, "confidence", closed=False)
        yes = tuple(check_count(value, "arm_yes", minimum=0) for value in arm_yes)
        total = tuple(check_count(value, "arm_n", minimum=1) for value in arm_n)
        if len(yes) != 2 or len(total) != 2 or any(y > n for y, n in zip(yes, total, strict=True)):
            raise ValueError(f"need two arms with 0 <= yes <= n, got yes={arm_yes!r}, n={arm_n!r}")
        shares = np.array(yes) / np.array(total)
        low, high = clopper_pearson(np.array(yes), np.array(total), confidence)
        honest_weights, kept_weights = self._weights()
        honest = _combined(honest_weights, shares, low, high, total)
        kept = _combined(kept_weights, shares, low, high, total)
        cheating = Share(1 - kept.estimate, kept.std_error, 1 - kept.ci_high, 1 - kept.ci_low)
        return CheatingEstimate(_clipped(honest), _clipped(cheating), total, yes, confidence)

    def simulate_counts(self, honest_yes, cheating, n, trials: int = 1000, seed=None):
        """Each arm's respondents and reports of 1 over ``trials`` surveys of ``n``: arms drawn
        half and half, then each arm's count Binomial(nᵢ, λᵢ). Returns (arm_yes, arm_n), each of
        shape (trials, 2)."""
        pi = check_probability(honest_yes, "honest_yes", closed=True)
        gamma = check_probability(cheating, "cheating", closed=True)
        if pi + gamma > 1:
            raise ValueError(f"honest_yes + cheating must be <= 1, got {pi} + {gamma}")
        n = check_count(n, "n", minimum=2)
        trials = check_count(trials, "trials", minimum=1)
        rng = np.random.default_rng(seed)
        first = rng.binomial(n, 0.5, size=trials)
        arm_n = np.stack([first, n - first], axis=1)
        rates = np.array([self.report_share(arm, pi, gamma) for arm in (0, 1)])
        return rng.binomial(arm_n, rates), arm_n

    def perturb(self, true_bits, cheaters, rng=None) -> tuple[np.ndarray, np.ndarray]:
        """Respondent by respondent: each put into arm 0 or 1 at random (half and half); an honest
        respondent reports through their arm's forced-response design, a cheater reports 0.
        Returns (reported, arm), each of the shape of ``true_bits``."""
        truth = np.asarray(true_bits).astype(bool)
        cheating = np.broadcast_to(np.asarray(cheaters).astype(bool), truth.shape)
        rng = np.random.default_rng(rng)
        arm = rng.integers(0, 2, size=truth.shape)
        yes_given_yes = np.array([design.yes_given_yes for design in self.arms])[arm]
        yes_given_no = np.array([design.yes_given_no for design in self.arms])[arm]
        chance = np.where(truth, yes_given_yes, yes_given_no)
        reported = (rng.random(truth.shape) < chance) & ~cheating
        return reported.astype(np.uint8), arm.astype(np.uint8)

    def margin_of_error(
        self, n, confidence: float = 0.95, honest_yes: float = 0.5, cheating: float = 0.0
    ) -> float:
        """The half-width of the normal interval of π̂ expected for ``n`` respondents split
        evenly between the arms: z·√(Σᵢ wᵢ²·λᵢ(1 − λᵢ)/(n/2)), with λᵢ at the given π and γ (a
        planning figure; the exact-limit MOVER interval is a little wider at small n).

        Raises
        ------
        ValueError
            If n < 2, a share is outside [0, 1], π + γ > 1, or the confidence is outside (0, 1).
        """
        n = check_count(n, "n", minimum=2)
        confidence = check_probability(confidence, "confidence", closed=False)
        pi = check_probability(honest_yes, "honest_yes", closed=True)
        gamma = check_probability(cheating, "cheating", closed=True)
        if pi + gamma > 1:
            raise ValueError(f"honest_yes + cheating must be <= 1, got {pi} + {gamma}")
        shares = np.array([self.report_share(arm, pi, gamma) for arm in (0, 1)])
        weights, _ = self._weights()
        variance = float(np.sum(weights**2 * shares * (1 - shares) / (n / 2)))
        return -NormalDist().inv_cdf((1 - confidence) / 2) * math.sqrt(variance)

    def difference(self, first, second, confidence: float = 0.95) -> Difference:
        """π₁ − π₂ between two groups, each given as (arm_yes, arm_n): the difference of their
        honest-yes shares with a MOVER interval (Newcombe 1998; Zou & Donner 2008) on each
        group's interval of π, and a two-sided Wald p-value.

        Raises
        ------
        ValueError
            As :meth:`estimate`, for either group.
        """
        one = self.estimate(first[0], first[1], confidence)
        two = self.estimate(second[0], second[1], confidence)
        (pi_1, se_1, low_1, high_1), (pi_2, se_2, low_2, high_2) = one.honest_yes, two.honest_yes
        difference = pi_1 - pi_2
        std_error = math.hypot(se_1, se_2)
        z = difference / std_error if std_error > 0 else 0.0
        return Difference(
            estimate=difference,
            ci_low=difference - math.hypot(pi_1 - low_1, high_2 - pi_2),
            ci_high=difference + math.hypot(high_1 - pi_1, pi_2 - low_2),
            p_value=math.erfc(abs(z) / math.sqrt(2)),
            confidence=confidence,
            method="MOVER on each group's interval of the honest-yes share; two-sided Wald test",
        )

    def _weights(self) -> tuple[np.ndarray, np.ndarray]:
        """w with π̂ = w·λ̂ and v with 1 − γ̂ = v·λ̂."""
        (t1, f1), (t2, f2) = ((arm.slope, arm.offset) for arm in self.arms)
        determinant = t1 * f2 - t2 * f1
        return np.array([f2, -f1]) / determinant, np.array([-t2, t1]) / determinant


def cheating_detection(arms) -> CheatingDetection:
    """Two arms, each ``(p_truth, p_forced_yes, p_forced_no)`` or a mapping of those names.

    Raises
    ------
    ValueError
        If there are not two arms, an arm is not a valid forced-response design, or the arms do not
        differ enough to tell honest "no" from cheating (t₁f₁₂ = t₂f₁₁).
    """
    if len(arms) != 2:
        raise ParameterError("arms", f"cheating detection needs two arms, got {len(arms)}")
    designs = tuple(
        forced_response(**arm) if isinstance(arm, dict) else forced_response(*arm) for arm in arms
    )
    (t1, f1), (t2, f2) = ((arm.slope, arm.offset) for arm in designs)
    if math.isclose(t1 * f2, t2 * f1, rel_tol=1e-9, abs_tol=1e-12):
        raise ParameterError(
            "arms",
            "the two arms must differ: with t1*f2 = t2*f1 honest 'no' and cheating cannot be told "
            "apart",
            NO_INFORMATION,
        )
    return CheatingDetection((designs[0], designs[1]))


def _combined(weights, shares, low, high, total) -> Share:
    """w·λ̂ with its standard error and MOVER interval on the arms' exact limits (unclipped)."""
    estimate = float(weights @ shares)
    variance = float(np.sum(weights**2 * shares * (1 - shares) / np.array(total)))
    ends = np.stack([weights * low, weights * high])
    below, above = ends.min(axis=0), ends.max(axis=0)
    point = weights * shares
    return Share(
        estimate,
        math.sqrt(variance),
        estimate - math.sqrt(float(np.sum((point - below) ** 2))),
        estimate + math.sqrt(float(np.sum((above - point) ** 2))),
    )


def _clipped(share: Share) -> Share:
    return share._replace(
        ci_low=min(max(share.ci_low, 0.0), 1.0), ci_high=min(max(share.ci_high, 0.0), 1.0)
    )


__all__ = ["CheatingDetection", "CheatingEstimate", "Share", "cheating_detection"]
