"""The list experiment (item count technique): how many hold the sensitive item, from counts alone.

Each respondent is drawn into the short list (J control items: arm ``"control"``) or the long list
(the J items and the sensitive one: ``"treatment"``) and says only how many items apply to them.
Counts are given here as each arm's frequencies: ``control[k]`` respondents of the short list said
k (k = 0…J), ``treatment[k]`` of the long list (k = 0…J + 1).

- **Difference in means** (``ictreg(method = "lm")`` of R's ``list``, Imai 2011): the long list's
  mean count minus the short list's, with the regression's HC3 standard error, which for two
  groups is √(s₁²/(n₁ − 1) + s₀²/(n₀ − 1)) (s² each arm's variance with n − 1).
- **Maximum likelihood** (``ictreg(method = "ml")``, Imai 2011; Blair & Imai 2012; intercept only,
  constrained, binomial): a respondent's control count is Binomial(J, ψ) whether or not they hold
  the sensitive item, which they do with probability δ. The short list's counts are Binomial(J,
  ψ); a long list's count y has probability δ·B(y − 1) + (1 − δ)·B(y). δ and ψ are fitted by EM
  (closed-form steps) run to convergence; the standard errors of logit δ and logit ψ are the
  observed information's, and δ's own the delta method's, δ(1 − δ)·SE(logit δ).

A count of J + 1 in the long list says "yes" outright and 0 says "no": a list experiment has no ε
bound. :attr:`ListEstimate.ceiling` and :attr:`ListEstimate.floor` count those answers.

References
----------
Imai, K. (2011). Multivariate regression analysis for the item count technique. JASA 106, 407-416.
Blair, G., & Imai, K. (2012). Statistical analysis of list experiments. Political Analysis 20,
47-77.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist
from typing import NamedTuple

import numpy as np

from ._validate import check_count, check_probability
from .errors import ParameterError

METHOD = "difference in means with the HC3 standard error; maximum likelihood by EM"
_EM_TOLERANCE = 1e-10  # on δ and ψ per step: far below any figure shown
_EM_STEPS = 1_000_000
_HESSIAN_STEP = 1e-4  # on the logit scale, for the observed information


class ArmMean(NamedTuple):
    """One arm's respondents and mean count."""

    arm: str
    n: int
    mean: float


class MaximumLikelihood(NamedTuple):
    """The ML fit: δ with its standard error, logit δ and logit ψ with theirs, the
    log-likelihood."""

    estimate: float
    std_error: float
    logit: float
    logit_std_error: float
    control_logit: float
    control_logit_std_error: float
    log_likelihood: float


class MeanDifference(NamedTuple):
    """The difference in means with its standard error and Wald interval, and each arm's mean."""

    estimate: float
    std_error: float
    ci_low: float
    ci_high: float
    by_arm: tuple[ArmMean, ArmMean]
    confidence: float


class ListEstimate(NamedTuple):
    """The difference in means with its standard error and Wald interval, each arm's mean, the
    ML fit, and the long list's answers that gave the sensitive item away (``ceiling``: J + 1,
    ``floor``: 0)."""

    estimate: float
    std_error: float
    ci_low: float
    ci_high: float
    by_arm: tuple[ArmMean, ArmMean]
    ml: MaximumLikelihood
    ceiling: int
    floor: int
    confidence: float

    def __repr__(self) -> str:
        return (
            f"ListEstimate(estimate={self.estimate:.4f} (SE {self.std_error:.4f}) "
            f"[{self.ci_low:.4f}, {self.ci_high:.4f}] at {self.confidence:.0%}, "
            f"ml={self.ml.estimate:.4f} (SE {self.ml.std_error:.4f}), "
            f"n={self.by_arm[0].n}+{self.by_arm[1].n}, ceiling={self.ceiling}, floor={self.floor})"
        )


@dataclass(frozen=True)
class ListExperiment:
    """A list of ``controls`` control items, with the sensitive item added in the long list."""

    controls: int

    def __repr__(self) -> str:
        return f"ListExperiment(controls={self.controls})"

    @property
    def epsilon(self) -> float:
        """No bound: a long list's count of J + 1 or 0 reveals the answer."""
        return math.inf

    def estimate(self, control, treatment, confidence: float = 0.95) -> ListEstimate:
        """The share holding the sensitive item from each arm's count frequencies, both ways:
        the difference in means and the maximum-likelihood fit.

        Raises
        ------
        ValueError
            If ``control`` does not have J + 1 frequencies or ``treatment`` J + 2, a frequency is
            not a whole number ≥ 0, an arm has fewer than two respondents, or the confidence is
            outside (0, 1).
        """
        confidence = check_probability(confidence, "confidence", closed=False)
        short, long = self._checked(control, treatment)
        moments = _difference(short, long, confidence)
        return ListEstimate(
            moments.estimate, moments.std_error, moments.ci_low, moments.ci_high, moments.by_arm,
            _maximum_likelihood(self.controls, short, long), int(long[-1]), int(long[0]),
            moments.confidence,
        )  # fmt: skip

    def simulate(
        self, n, prevalence, control_share, dropping: float = 0.0, seed=None
    ) -> tuple[np.ndarray, np.ndarray]:
        """One class's frequencies, ``n`` respondents in each list: each holds the sensitive item
        with ``prevalence`` and says yes to each control item with ``control_share``; in the long
        list a share ``dropping`` of respondents leaves out one control item they hold (a design
        effect). Returns (control, treatment) frequencies, J + 1 and J + 2 of them.

        Raises
        ------
        ValueError
            If n < 2 or a share is outside [0, 1].
        """
        n = check_count(n, "n", minimum=2)
        shares = [check_probability(value, name, closed=True) for value, name in (
            (prevalence, "prevalence"), (control_share, "control_share"), (dropping, "dropping"))]  # fmt: skip
        delta, psi, drop = shares
        rng = np.random.default_rng(seed)
        short = rng.binomial(self.controls, psi, size=n)
        controls = rng.binomial(self.controls, psi, size=n)
        dropped = (rng.random(n) < drop) & (controls > 0)
        long = controls - dropped + (rng.random(n) < delta)
        return (
            np.bincount(short, minlength=self.controls + 1),
            np.bincount(long, minlength=self.controls + 2),
        )

    def margin_of_error(
        self, n, prevalence: float = 0.5, control_share: float = 0.5, confidence: float = 0.95
    ) -> float:
        """The half-width of the difference in means' interval with ``n`` respondents drawn half
        and half into the two lists, each control item held with ``control_share``: z·√(2(v₀ +
        v₁)/n), with v₀ = Jψ(1 − ψ) the short list's count variance and v₁ = v₀ + π(1 − π) the
        long list's (the control count and the sensitive item independent). A planning figure:
        the worst case at π = ψ = ½.

        Raises
        ------
        ValueError
            If n < 4 or a share or the confidence is outside its range.
        """
        n = check_count(n, "n", minimum=4)
        pi = check_probability(prevalence, "prevalence", closed=True)
        psi = check_probability(control_share, "control_share", closed=True)
        confidence = check_probability(confidence, "confidence", closed=False)
        short = self.controls * psi * (1 - psi)
        z = -NormalDist().inv_cdf((1 - confidence) / 2)
        return z * math.sqrt(2 * (2 * short + pi * (1 - pi)) / n)

    def design_effect(self, control, treatment):
        """Blair & Imai's (2012) test that adding the sensitive item left the control items'
        answers unchanged (:func:`rr.design_effect.design_effect_test`); refuses what
        :meth:`estimate` refuses, and J < 2."""
        from .design_effect import design_effect_test

        short, long = self._checked(control, treatment)
        return design_effect_test(short.astype(int), long.astype(int))

    def difference(self, control, treatment, confidence: float = 0.95) -> MeanDifference:
        """The difference in means alone (no fit), with its HC3 standard error and Wald
        interval; refuses what :meth:`estimate` refuses."""
        confidence = check_probability(confidence, "confidence", closed=False)
        return _difference(*self._checked(control, treatment), confidence)

    def _checked(self, control, treatment) -> tuple[np.ndarray, np.ndarray]:
        """Both arms' frequencies, checked: J + 1 for the short list, J + 2 for the long one."""
        return (
            self._frequencies(control, "control", self.controls + 1),
            self._frequencies(treatment, "treatment", self.controls + 2),
        )

    @staticmethod
    def _frequencies(values, name: str, length: int) -> np.ndarray:
        if len(values) != length:
            raise ParameterError(
                name,
                f"{name} needs {length} frequencies (counts 0 to {length - 1}), got {len(values)}",
            )
        counts = np.array([check_count(value, name, minimum=0) for value in values], dtype=float)
        if counts.sum() < 2:
            raise ParameterError(
                name, f"{name} needs at least two respondents, got {counts.sum():g}"
            )
        return counts


def list_experiment(controls) -> ListExperiment:
    """A list experiment with ``controls`` control items.

    Raises
    ------
    ValueError
        If ``controls`` is not a whole number from 1 to 20.
    """
    controls = check_count(controls, "controls", minimum=1)
    if controls > 20:
        raise ParameterError("controls", f"controls must be at most 20, got {controls}")
    return ListExperiment(controls)


def _difference(short: np.ndarray, long: np.ndarray, confidence: float) -> MeanDifference:
    """The difference in means with its HC3 standard error and Wald interval. Assumes checked
    frequencies and confidence."""
    (mean_0, variance_0, n_0), (mean_1, variance_1, n_1) = (
        _mean_and_variance(counts) for counts in (short, long)
    )
    difference = mean_1 - mean_0
    std_error = math.sqrt(variance_1 / (n_1 - 1) + variance_0 / (n_0 - 1))
    z = -NormalDist().inv_cdf((1 - confidence) / 2)
    return MeanDifference(
        difference, std_error, difference - z * std_error, difference + z * std_error,
        (ArmMean("control", n_0, mean_0), ArmMean("treatment", n_1, mean_1)), confidence,
    )  # fmt: skip


def _mean_and_variance(frequencies: np.ndarray) -> tuple[float, float, int]:
    """The mean count, its variance with n − 1, and n. Assumes at least two respondents."""
    values = np.arange(len(frequencies))
    n = frequencies.sum()
    mean = float(values @ frequencies / n)
    variance = float(((values - mean) ** 2) @ frequencies / (n - 1))
    return mean, variance, int(n)


def _log_binomial(controls: int, share: float) -> np.ndarray:
    """log P(k of ``controls`` items) for k = 0…J under Binomial(J, share); share in (0, 1)."""
    k = np.arange(controls + 1)
    return _log_choose(controls) + k * math.log(share) + (controls - k) * math.log1p(-share)


@lru_cache(maxsize=32)
def _log_choose(controls: int) -> np.ndarray:
    """log C(J, k) for k = 0…J (read by every step of the EM)."""
    return np.array([math.log(math.comb(controls, k)) for k in range(controls + 1)])


def _log_likelihood(controls: int, short, long, delta: float, psi: float) -> float:
    """The observed log-likelihood of both arms' frequencies. Assumes δ and ψ in (0, 1)."""
    binomial = np.exp(_log_binomial(controls, psi))
    with_item = np.concatenate([[0.0], binomial])  # P(count y | holds it) = B(y − 1)
    without = np.concatenate([binomial, [0.0]])
    long_chances = delta * with_item + (1 - delta) * without
    seen = long > 0
    return float(short @ np.log(binomial) + long[seen] @ np.log(long_chances[seen]))


def _maximum_likelihood(controls: int, short, long) -> MaximumLikelihood:
    """δ and ψ by EM, with the observed information's standard errors on the logit scale.
    Assumes checked frequencies."""
    counts_short, counts_long = np.arange(controls + 1), np.arange(controls + 2)
    n_short, n_long = short.sum(), long.sum()
    total_control = short @ counts_short
    delta, psi = 0.5, 0.5
    for _ in range(_EM_STEPS):
        binomial = np.exp(_log_binomial(controls, psi))
        with_item = delta * np.concatenate([[0.0], binomial])
        without = (1 - delta) * np.concatenate([binomial, [0.0]])
        holds = np.divide(with_item, with_item + without, out=np.zeros_like(with_item),
                          where=(with_item + without) > 0)  # fmt: skip
        expected_holders = float(long @ holds)
        new_delta = expected_holders / float(n_long)
        new_psi = float(total_control + long @ counts_long - expected_holders) / float(
            controls * (n_short + n_long)
        )
        new_delta = min(max(new_delta, 1e-12), 1 - 1e-12)
        new_psi = min(max(new_psi, 1e-12), 1 - 1e-12)
        done = abs(new_delta - delta) < _EM_TOLERANCE and abs(new_psi - psi) < _EM_TOLERANCE
        delta, psi = new_delta, new_psi
        if done:
            break
    logits = np.array([_logit(delta), _logit(psi)])
    information = -_hessian(lambda at: _log_likelihood(
        controls, short, long, _expit(at[0]), _expit(at[1])), logits)  # fmt: skip
    try:
        variances = np.diag(np.linalg.inv(information))
    except np.linalg.LinAlgError:
        # A fit on the boundary (no holder, say) is flat on the logit scale: no standard error.
        variances = np.full(2, math.nan)
    logit_se, control_se = (math.sqrt(v) if v > 0 else math.nan for v in variances)
    return MaximumLikelihood(
        delta, delta * (1 - delta) * logit_se, float(logits[0]), logit_se,
        float(logits[1]), control_se, _log_likelihood(controls, short, long, delta, psi),
    )  # fmt: skip


def _hessian(function, at: np.ndarray) -> np.ndarray:
    """Central differences of ``function`` at ``at``, step :data:`_HESSIAN_STEP`."""
    size, step = len(at), _HESSIAN_STEP
    hessian = np.empty((size, size))
    for i in range(size):
        for j in range(size):
            shifts = []
            for di, dj in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                point = at.copy()
                point[i] += di * step
                point[j] += dj * step
                shifts.append(function(point))
            hessian[i, j] = (shifts[0] - shifts[1] - shifts[2] + shifts[3]) / (4 * step * step)
    return hessian


def _logit(share: float) -> float:
    return math.log(share / (1 - share))


def _expit(value: float) -> float:
    return 1 / (1 + math.exp(-value))


__all__ = [
    "ArmMean",
    "ListEstimate",
    "ListExperiment",
    "MaximumLikelihood",
    "MeanDifference",
    "list_experiment",
]
