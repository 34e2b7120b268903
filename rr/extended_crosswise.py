"""The extended crosswise model: the crosswise question in two arms, and a test of the model.

In the crosswise model a respondent answers two questions at once, the sensitive one and an
innocuous one whose "yes" share q is known, and reports only whether the two answers are the same.
Heck, Hoffmann & Moshagen (2018) draw each respondent into one of two arms whose innocuous
questions differ (typically q and 1 − q), so that the share of "same" in arm i is

    λᵢ = π·qᵢ + (1 − π)(1 − qᵢ) = (1 − qᵢ) + π(2qᵢ − 1).

One π fits both arms only if respondents follow the instructions: with two arms and one
parameter, the model can be tested. π̂ maximizes the binomial likelihood of both arms on [0, 1]
(the score is decreasing in π, so its root is found by bisection); its standard error is the
Fisher information's, 1/√(Σᵢ nᵢaᵢ²/(λ̂ᵢ(1 − λ̂ᵢ))), aᵢ = 2qᵢ − 1. The model test is the
likelihood-ratio G² of the fitted model against the saturated one (each arm its own λ), 1 degree
of freedom. All three are R's ``glm(cbind(same, n - same) ~ 0 + a + offset(1 - q), family =
binomial(link = "identity"))``: its coefficient, standard error and residual deviance. ε is the
larger of the arms' crosswise ε, max |ln(qᵢ/(1 − qᵢ))|.

References
----------
Heck, D. W., Hoffmann, A., & Moshagen, M. (2018). Detecting nonadherence without loss in
efficiency: A simple extension of the crosswise model. Behavior Research Methods, 50, 1895-1905.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import NamedTuple

import numpy as np

from ._validate import check_count, check_probability
from .cheating import Share
from .design import Design, crosswise
from .difference import Difference, wald_difference
from .errors import NO_INFORMATION, ParameterError

METHOD = "maximum likelihood over both arms; Wald interval; G² test of the model (1 df)"
_BISECTIONS = 200  # far past double precision on [0, 1]


class ModelTest(NamedTuple):
    """The likelihood-ratio test of one π for both arms against a λ of each arm's own."""

    g2: float
    df: int
    p_value: float


class ExtendedCrosswiseEstimate(NamedTuple):
    """π̂ with its standard error and Wald interval (clipped to [0, 1]), the model test, and
    the arms' counts."""

    estimate: float
    std_error: float
    ci_low: float
    ci_high: float
    model_test: ModelTest
    arm_n: tuple[int, int]
    arm_same: tuple[int, int]
    confidence: float

    def __repr__(self) -> str:
        test = self.model_test
        return (
            f"ExtendedCrosswiseEstimate(pi={self.estimate:.4f} (SE {self.std_error:.4f}) "
            f"[{self.ci_low:.4f}, {self.ci_high:.4f}] at {self.confidence:.0%}, "
            f"G2={test.g2:.3f} on {test.df} df, p={test.p_value:.4f}, arms n={self.arm_n})"
        )

    @property
    def prevalence(self) -> Share:
        """π̂ with its standard error and interval, as the other designs of two arms give it."""
        return Share(self.estimate, self.std_error, self.ci_low, self.ci_high)


@dataclass(frozen=True)
class ExtendedCrosswise:
    """Two crosswise arms with innocuous "yes" shares ``prevalences``."""

    arms: tuple[Design, Design]
    prevalences: tuple[float, float]

    def __repr__(self) -> str:
        q1, q2 = self.prevalences
        return f"ExtendedCrosswise(prevalences=({q1:.4g}, {q2:.4g}), epsilon={self.epsilon:.4f})"

    @property
    def epsilon(self) -> float:
        """The larger of the arms' ε: what one report can reveal."""
        return max(arm.epsilon for arm in self.arms)

    def same_share(self, arm: int, prevalence: float) -> float:
        """λᵢ = π·qᵢ + (1 − π)(1 − qᵢ) at π = ``prevalence``."""
        q = self.prevalences[arm]
        return prevalence * q + (1 - prevalence) * (1 - q)

    def estimate(self, arm_same, arm_n, confidence: float = 0.95) -> ExtendedCrosswiseEstimate:
        """π̂ and the model test from each arm's reports of "the same" (``arm_same``) among its
        respondents (``arm_n``).

        Raises
        ------
        ValueError
            If an arm has no respondents, a count is outside [0, n], or the confidence is outside
            (0, 1).
        """
        confidence = check_probability(confidence, "confidence", closed=False)
        same = tuple(check_count(value, "arm_same", minimum=0) for value in arm_same)
        total = tuple(check_count(value, "arm_n", minimum=1) for value in arm_n)
        if (
            len(same) != 2
            or len(total) != 2
            or any(y > n for y, n in zip(same, total, strict=True))
        ):
            raise ValueError(
                f"need two arms with 0 <= same <= n, got same={arm_same!r}, n={arm_n!r}"
            )
        pi = self._fitted(same, total)
        information = sum(
            n * (2 * q - 1) ** 2 / (share * (1 - share))
            for q, _y, n, share in self._arms(pi, same, total)
        )
        std_error = 1 / math.sqrt(information) if information > 0 else math.inf
        z = -NormalDist().inv_cdf((1 - confidence) / 2)
        return ExtendedCrosswiseEstimate(
            pi, std_error, max(pi - z * std_error, 0.0), min(pi + z * std_error, 1.0),
            self._model_test(pi, same, total), (total[0], total[1]), (same[0], same[1]),
            confidence,
        )  # fmt: skip

    def perturb(self, true_bits, nonadherent, rng=None) -> tuple[np.ndarray, np.ndarray]:
        """Respondent by respondent: each put into arm 0 or 1 at random (half and half), their
        innocuous answer drawn with the arm's qᵢ; an adherent respondent reports whether the two
        answers are the same (1), a non-adherent one (``nonadherent``) reports "different" (0)
        whatever they are. Returns (reported, arm), each of the shape of ``true_bits``."""
        truth = np.asarray(true_bits).astype(bool)
        ignoring = np.broadcast_to(np.asarray(nonadherent).astype(bool), truth.shape)
        rng = np.random.default_rng(rng)
        arm = rng.integers(0, 2, size=truth.shape)
        innocuous = rng.random(truth.shape) < np.array(self.prevalences)[arm]
        reported = (truth == innocuous) & ~ignoring
        return reported.astype(np.uint8), arm.astype(np.uint8)

    def margin_of_error(self, n, confidence: float = 0.95, prevalence: float = 0.5) -> float:
        """The half-width of π̂'s Wald interval expected for ``n`` respondents split evenly
        between the arms, every one adherent: z/√(Σᵢ (n/2)aᵢ²/(λᵢ(1 − λᵢ))) (a planning figure).

        Raises
        ------
        ValueError
            If n < 2, the share is outside [0, 1], or the confidence is outside (0, 1).
        """
        n = check_count(n, "n", minimum=2)
        confidence = check_probability(confidence, "confidence", closed=False)
        pi = check_probability(prevalence, "prevalence", closed=True)
        information = sum(
            (n / 2) * (2 * q - 1) ** 2 / (share * (1 - share))
            for q, share in (
                (q, self.same_share(arm, pi)) for arm, q in enumerate(self.prevalences)
            )
        )
        return -NormalDist().inv_cdf((1 - confidence) / 2) / math.sqrt(information)

    def difference(self, first, second, confidence: float = 0.95) -> Difference:
        """π₁ − π₂ between two groups, each given as (arm_same, arm_n): the difference of their
        maximum-likelihood π̂ with a Wald interval and two-sided p-value.

        Raises
        ------
        ValueError
            As :meth:`estimate`, for either group.
        """
        one = self.estimate(first[0], first[1], confidence).prevalence
        two = self.estimate(second[0], second[1], confidence).prevalence
        return wald_difference(
            one[:2], two[:2], confidence,
            "Wald interval and two-sided test on the groups' maximum-likelihood estimates",
        )  # fmt: skip

    def _arms(self, pi, same, total):
        """(qᵢ, yᵢ, nᵢ, λᵢ at π) of each arm. Assumes checked input."""
        return [
            (q, y, n, self.same_share(arm, pi))
            for arm, (q, y, n) in enumerate(zip(self.prevalences, same, total, strict=True))
        ]

    def _score(self, pi, same, total) -> float:
        """d log L / dπ; decreasing in π. Assumes checked input and λᵢ in (0, 1)."""
        return sum(
            (2 * q - 1) * (y / share - (n - y) / (1 - share))
            for q, y, n, share in self._arms(pi, same, total)
        )

    def _fitted(self, same, total) -> float:
        """The π in [0, 1] that maximizes the likelihood. Assumes checked input."""
        # For π in [0, 1] each λᵢ lies between qᵢ and 1 − qᵢ, inside (0, 1): the score is finite.
        low, high = 0.0, 1.0
        if self._score(low, same, total) <= 0:
            return low
        if self._score(high, same, total) >= 0:
            return high
        for _ in range(_BISECTIONS):
            middle = (low + high) / 2
            if middle in (low, high):
                break
            if self._score(middle, same, total) > 0:
                low = middle
            else:
                high = middle
        return (low + high) / 2

    def _model_test(self, pi, same, total) -> ModelTest:
        """G² = 2 Σ observed·ln(observed/expected) over both arms' two answers, 1 df."""
        g2 = 0.0
        for _q, y, n, share in self._arms(pi, same, total):
            for observed, expected in ((y, n * share), (n - y, n * (1 - share))):
                if observed > 0:
                    g2 += 2 * observed * math.log(observed / expected)
        g2 = max(g2, 0.0)
        return ModelTest(g2, 1, math.erfc(math.sqrt(g2 / 2)))


def extended_crosswise(prevalences) -> ExtendedCrosswise:
    """The extended crosswise model with its two arms' innocuous "yes" shares.

    Raises
    ------
    ValueError
        If there are not two shares, one is outside (0, 1) or is ½ (a crosswise question with
        q = ½ tells nothing), or they are equal (the arms must differ for the model test).
    """
    if len(prevalences) != 2:
        raise ParameterError(
            "prevalences", f"the extended crosswise model needs two arms, got {len(prevalences)}"
        )
    arms = tuple(crosswise(q) for q in prevalences)
    first, second = (float(q) for q in prevalences)
    if math.isclose(first, second, abs_tol=1e-12):
        raise ParameterError(
            "prevalences",
            f"the two arms must differ: with the same innocuous share in both ({first!r}) the "
            "model cannot be tested",
            NO_INFORMATION,
        )
    return ExtendedCrosswise((arms[0], arms[1]), (first, second))


__all__ = ["ExtendedCrosswise", "ExtendedCrosswiseEstimate", "ModelTest", "extended_crosswise"]
