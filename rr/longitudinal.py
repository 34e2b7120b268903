"""Repeated waves: a permanent randomized response, so that answering the same question again and
again does not add up to the truth.

Asked afresh in every wave at ε₁, a respondent whose answer stays the same spends k·ε₁ over k
waves, and the majority of their reports converges on the truth: the *averaging attack*. The
permanent randomized response of RAPPOR (Erlingsson, Pihur & Korolova 2014) stops it with two
layers, both drawn in the respondent's browser:

1. **Permanent**, once per series and item: for *each* possible true value v ∈ {0, 1} a permanent
   bit B_v, equal to v with probability f = e^ε∞/(1 + e^ε∞) and to 1 − v otherwise (the
   symmetric channel at ε∞). Both are kept, so storage alone says nothing about the truth:
   B₁ = 1 and B₀ = 1 are as likely, f against 1 − f, whatever the answer is.
2. **Instantaneous**, every wave: the report is B_truth with probability q (the spinner's light
   share), else a fair coin, with

       q = tanh(ε₁/2) / tanh(ε∞/2),   0 < q < 1 for 0 < ε₁ < ε∞.

The composite report is the symmetric channel at ε₁ exactly:

    P(report 1 | yes) = f(1 + q)/2 + (1 − f)(1 − q)/2 = ½ + q·tanh(ε∞/2)/2
                      = ½ + tanh(ε₁/2)/2 = e^ε₁/(1 + e^ε₁),

so one wave is estimated as the spinner at ε₁ (:func:`rr.spinner_coin`): nothing else changes in
the estimates, intervals, groups or regression. Over any number of waves, every report of a
respondent whose answer is v is a randomized function of B_v alone, so all of them together
reveal at most what B_v does: ε∞ (post-processing). A respondent whose answer changes between
waves exposes B₀ and B₁, independent draws: at most 2·ε∞ for a yes/no item. A new device or
cleared storage draws new permanent bits, and waves then add up again.

A single-choice question with k options works the same way by generalized randomized response:
a permanent report per possible value, the value itself with f = e^ε∞/(e^ε∞ + k − 1), and each
wave keeps it with light share q = λ(ε₁)/λ(ε∞), λ(ε) = (e^ε − 1)/(e^ε + k − 1), else a die over
all k values. Both layers are "λ of the identity plus the rest spread evenly", and such channels
compose by multiplying their λ, so the composite is generalized randomized response at ε₁ and
the bound is ε∞ per distinct answer.

:func:`averaging_attack` gives, wave by wave, how often an observer who takes the majority of a
respondent's reports gets the true answer: with fresh draws it tends to 1; with the permanent
layer to f, the share of respondents whose permanent bit is their truth.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ._validate import check_count, check_epsilon
from .design import Design
from .errors import ParameterError


@dataclass(frozen=True)
class PermanentResponse:
    """The two layers for a single wave's ε₁ under a bound ε∞ over all waves, for an answer with
    ``k`` possible values (2 for yes/no and for each option of a multi-select question; a
    single-choice question's option count, by generalized randomized response).

    Attributes
    ----------
    epsilon_permanent : float
        ε∞, the bound over any number of waves while the answer stays the same.
    epsilon : float
        ε₁, one wave's report.
    keep : float
        f = e^ε∞/(e^ε∞ + k − 1), the chance that a permanent report is the value it stands for
        (else one of the k − 1 others, each as likely).
    light : float
        q = λ(ε₁)/λ(ε∞) with λ(ε) = (e^ε − 1)/(e^ε + k − 1): each wave's light share when dark
        lets a fair coin (or a die over all k values) decide; tanh(ε₁/2)/tanh(ε∞/2) for k = 2.
    k : int
        How many values the answer can take.
    """

    epsilon_permanent: float
    epsilon: float
    keep: float
    light: float
    k: int = 2

    def __repr__(self) -> str:
        values = "" if self.k == 2 else f", k={self.k}"
        return (
            f"PermanentResponse(epsilon_permanent={self.epsilon_permanent:g}, "
            f"epsilon={self.epsilon:g}{values}; keep={self.keep:.4f}, light={self.light:.4f})"
        )

    @property
    def design(self) -> Design:
        """One wave's report as a binary design (k = 2): the symmetric line at ε₁."""
        if self.k != 2:
            raise ParameterError("k", f"a binary design needs k = 2, got k={self.k}", value=self.k)
        yes_given_no = (1 - math.tanh(self.epsilon / 2)) / 2
        return Design(
            "permanent_response",
            yes_given_no,
            math.tanh(self.epsilon / 2),
            self.epsilon,
            (("epsilon_permanent", self.epsilon_permanent), ("epsilon", self.epsilon)),
        )

    def wave_light(self, dark: str = "coin") -> float:
        """Each wave's light share when dark does ``dark``: ``"coin"`` (a coin, or a die over all
        k values) gives q; ``"opposite"`` (the other answer, or a die over the k − 1 others) gives
        (q(k − 1) + 1)/k, the same channel. Either way the composite is generalized randomized
        response at ε₁."""
        if dark == "coin":
            return self.light
        if dark == "opposite":
            return (self.light * (self.k - 1) + 1) / self.k
        raise ParameterError("dark", f"dark must be 'coin' or 'opposite', got {dark!r}", value=dark)

    def draw_permanent(self, rng=None) -> tuple[int, ...]:
        """(B₀, …, B_{k−1}): the permanent report for each possible true value, drawn once."""
        rng = np.random.default_rng(rng)
        kept = rng.random(self.k) < self.keep
        if self.k == 2:
            return (0 if kept[0] else 1), (1 if kept[1] else 0)
        others = rng.integers(self.k - 1, size=self.k)
        return tuple(
            value if kept[value] else int(others[value] + (others[value] >= value))
            for value in range(self.k)
        )

    def report(self, permanent: tuple[int, ...], truth: int, rng=None) -> int:
        """One wave's report from the permanent reports and this wave's true answer."""
        if isinstance(truth, bool) or truth not in range(self.k):
            raise ParameterError(
                "truth", f"truth must be a value in 0..{self.k - 1}, got {truth!r}", value=truth
            )
        rng = np.random.default_rng(rng)
        light, coin = rng.random(2)
        if light < self.light:
            return permanent[truth]
        return int(coin < 0.5) if self.k == 2 else int(coin * self.k)

    def yes_given(self, permanent_bit: int) -> float:
        """P(report 1 | B = ``permanent_bit``) in one wave (k = 2): (1 ± q)/2."""
        return (1 + self.light) / 2 if permanent_bit else (1 - self.light) / 2


def permanent_response(epsilon_permanent, epsilon, k: int = 2) -> PermanentResponse:
    """The permanent randomized response with bound ``epsilon_permanent`` over all waves and
    ``epsilon`` per wave, for an answer with ``k`` values (see the module's docstring).

    Raises
    ------
    ValueError
        If either ε is not finite and > 0, ε₁ ≥ ε∞ (a wave cannot reveal more than all waves),
        or k is not a whole number ≥ 2.

    Examples
    --------
    >>> permanent_response(2.0, 1.0)
    PermanentResponse(epsilon_permanent=2, epsilon=1; keep=0.8808, light=0.6068)
    """
    bound = check_epsilon(epsilon_permanent, "epsilon_permanent")
    wave = check_epsilon(epsilon)
    if isinstance(k, bool) or not isinstance(k, int) or k < 2:
        raise ParameterError("k", f"k must be a whole number >= 2, got {k!r}", value=k)
    if wave >= bound:
        raise ParameterError(
            "epsilon",
            f"epsilon (one wave) must be below epsilon_permanent (all waves), got {wave:g} "
            f">= {bound:g}",
            value=wave,
        )
    keep = 1 / (1 + (k - 1) * math.exp(-bound))
    return PermanentResponse(bound, wave, keep, _spread(wave, k) / _spread(bound, k), k)


def _spread(epsilon: float, k: int) -> float:
    """λ(ε) = (e^ε − 1)/(e^ε + k − 1), the part of generalized randomized response at ε that
    follows the truth; assumes valid input."""
    return -math.expm1(-epsilon) / (1 + (k - 1) * math.exp(-epsilon))


class AveragingAttack(NamedTuple):
    """Wave by wave (1…``waves``), the chance that the majority of one respondent's reports is
    their true answer (a tie counted as half): with fresh draws at ε₁, and with the permanent
    layer under ε∞; the permanent layer's limit f, and each wave's light share q."""

    waves: int
    fresh: np.ndarray
    permanent: np.ndarray
    limit: float
    light: float

    def __repr__(self) -> str:
        return (
            f"AveragingAttack(waves={self.waves}, fresh at last={self.fresh[-1]:.4f}, "
            f"permanent at last={self.permanent[-1]:.4f}, limit={self.limit:.4f})"
        )


def averaging_attack(epsilon, epsilon_permanent, waves: int = 50) -> AveragingAttack:
    """The majority vote's accuracy over ``waves`` reports of an unchanged answer, exactly.

    With fresh draws each report is the truth with c = e^ε₁/(1 + e^ε₁), independently:

        accuracy(k) = P(Bin(k, c) > k/2) + ½·P(Bin(k, c) = k/2).

    With the permanent layer the reports are independent given B, the truth with
    (1 + q)/2 when B is the truth (probability f) and with (1 − q)/2 when it is not:

        accuracy(k) = f·A_k((1 + q)/2) + (1 − f)·A_k((1 − q)/2),   → f as k → ∞.
    """
    layers = permanent_response(epsilon_permanent, epsilon)
    waves = check_count(waves, "waves", minimum=1)
    if waves > 10_000:
        raise ParameterError("waves", f"waves must be at most 10000, got {waves}", value=waves)
    truth_share = math.exp(epsilon) / (1 + math.exp(epsilon))
    counts = np.arange(1, waves + 1)
    fresh = _majority(counts, truth_share)
    kept, flipped = _majority(counts, layers.yes_given(1)), _majority(counts, layers.yes_given(0))
    permanent = layers.keep * kept + (1 - layers.keep) * flipped
    return AveragingAttack(waves, fresh, permanent, layers.keep, layers.light)


def _majority(counts: np.ndarray, share: float) -> np.ndarray:
    """P(Bin(k, share) > k/2) + ½ P(= k/2) for each k in ``counts``; assumes valid input."""
    from scipy import stats  # here, not at the top: it would double the cost of `import rr`

    above = stats.binom.sf(np.floor(counts / 2), counts, share)
    tie = np.where(counts % 2 == 0, stats.binom.pmf(counts // 2, counts, share), 0.0)
    return above + tie / 2


__all__ = ["AveragingAttack", "PermanentResponse", "averaging_attack", "permanent_response"]
