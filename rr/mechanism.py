"""The respondent's side: the spinner, the coin, and what they cost in privacy.

Two procedures turn a true yes/no answer into a reported one.

``spinner_coin``
    The spinner lands on its light share with probability p: report the true answer. On the dark
    share a fair coin decides (heads = yes). With p = tanh(ε/2) = (e^ε − 1)/(e^ε + 1),

        P(report yes | yes) = p + (1 − p)/2 = e^ε/(1 + e^ε)
        P(report yes | no)  =     (1 − p)/2 = 1/(1 + e^ε)

``spinner``
    Light → the true answer; dark → the opposite answer. With p = e^ε/(1 + e^ε),

        P(report yes | yes) = p     = e^ε/(1 + e^ε)
        P(report yes | no)  = 1 − p = 1/(1 + e^ε)

Both procedures therefore report the truth with the same probability e^ε/(1 + e^ε), their
privacy-loss ratio P(yes | yes)/P(yes | no) is e^ε for both, and their reports have the same
distribution: they are the same mechanism drawn two ways (Warner 1965; Dwork & Roth 2014, §3.2).
"""

from __future__ import annotations

import math
import sys
from typing import NamedTuple

import numpy as np

from ._validate import DARK_REPORTS, PROCEDURES, check_epsilon, check_procedure
from .errors import ParameterError


def dark_report(procedure) -> str:
    """What the dark share of ``procedure``'s spinner reports.

    Parameters
    ----------
    procedure : {"spinner_coin", "spinner"}

    Returns
    -------
    str
        ``"coin"``: a fair coin decides (a die over the k options of a single-choice question);
        ``"opposite"``: the opposite of the true answer (another option, chosen evenly).

    Raises
    ------
    ValueError
        If the procedure is unknown.
    """
    return DARK_REPORTS[check_procedure(procedure)]


def _tosses_coin(procedure: str) -> bool:
    """Whether dark is a coin's (or die's) toss; assumes a validated procedure."""
    return DARK_REPORTS[procedure] == "coin"


class ReportProbabilities(NamedTuple):
    """P(report yes | true yes) and P(report yes | true no) of one spin."""

    yes_given_yes: float
    yes_given_no: float


def light_fraction(epsilon, procedure: str = "spinner_coin") -> float:
    """The spinner's light share p for a privacy loss ε.

    Parameters
    ----------
    epsilon : float
        Privacy loss of one spin, ε > 0.
    procedure : {"spinner_coin", "spinner"}
        ``spinner_coin``: p = (e^ε − 1)/(e^ε + 1) = tanh(ε/2).
        ``spinner``: p = e^ε/(1 + e^ε) = 1/(1 + e^−ε).

    Returns
    -------
    float
        p in (0, 1). Computed through tanh and e^−ε, so it is accurate to a few ulps from ε = 1e-6
        to ε = 50 and never overflows.

    Raises
    ------
    ValueError
        If ε is not a finite number > 0 or the procedure is unknown.
    """
    epsilon = check_epsilon(epsilon)
    if _tosses_coin(check_procedure(procedure)):
        return math.tanh(epsilon / 2)
    return 1.0 / (1.0 + math.exp(-epsilon))


def truth_probability(epsilon) -> float:
    """P(reported answer = true answer) = e^ε/(1 + e^ε), the same for both procedures.

    ``spinner``: the truth is told exactly on light, so the probability is p = e^ε/(1 + e^ε).
    ``spinner_coin``: on light (p = tanh(ε/2)) the truth, on dark a coin that is right half the
    time, so p + (1 − p)/2 = (1 + tanh(ε/2))/2 = e^ε/(1 + e^ε).

    Raises
    ------
    ValueError
        If ε is not a finite number > 0.
    """
    return 1.0 / (1.0 + math.exp(-check_epsilon(epsilon)))


def report_probabilities(epsilon, procedure: str = "spinner_coin") -> ReportProbabilities:
    """P(report yes | yes) and P(report yes | no), worked out from the procedure's own steps.

    ``spinner_coin``: (p + d/2, d/2) with the dark share d = 1 − p; ``spinner``: (p, d). The dark
    share is computed directly (d = 2e^−ε/(1 + e^−ε) and e^−ε/(1 + e^−ε)), not as 1 − p, so
    P(yes | no) keeps its relative precision at large ε (1.9e-22 at ε = 50, where 1 − p is 0).
    Both pairs equal (e^ε/(1 + e^ε), 1/(1 + e^ε)); their ratio is the privacy-loss ratio e^ε.

    Raises
    ------
    ValueError
        If ε is not a finite number ≥ ``MIN_EPSILON`` or the procedure is unknown.
    """
    p = light_fraction(epsilon, procedure)
    dark = _dark_fraction(epsilon, procedure)
    if _tosses_coin(procedure):
        return ReportProbabilities(p + dark / 2, dark / 2)
    return ReportProbabilities(p, dark)


def _dark_fraction(epsilon: float, procedure: str) -> float:
    """1 − p without cancellation; assumes a validated ε and procedure."""
    tail = math.exp(-epsilon)
    if _tosses_coin(procedure):
        # 1 − tanh(ε/2) = 2e^−ε/(1 + e^−ε): a sum of positive terms, with no cancellation.
        return 2 * tail / (1 + tail)
    return tail / (1 + tail)


def privacy_loss_ratio(epsilon, procedure: str = "spinner_coin") -> float:
    """P(report yes | yes) / P(report yes | no), which equals e^ε for both procedures.

    Returns ``math.inf`` once e^ε exceeds the largest double (ε > 709.78), where P(yes | no)
    underflows to 0.

    Raises
    ------
    ValueError
        If ε is not a finite number ≥ ``MIN_EPSILON`` or the procedure is unknown.
    """
    probabilities = report_probabilities(epsilon, procedure)
    if probabilities.yes_given_no == 0.0 or epsilon > _LOG_MAX_FLOAT:
        return math.inf
    return probabilities.yes_given_yes / probabilities.yes_given_no


_LOG_MAX_FLOAT = math.log(sys.float_info.max)


def perturb(true_bits, epsilon, procedure: str = "spinner_coin", rng=None) -> np.ndarray:
    """Run the respondent's procedure on every true answer: spin, and on dark flip a coin or the answer.

    This is the reference that the browser's spinner is tested against, and what simulations use.

    Parameters
    ----------
    true_bits : array_like of {0, 1} or bool
        True answers, any shape.
    epsilon : float
        Privacy loss of one spin, ε > 0.
    procedure : {"spinner_coin", "spinner"}
    rng : numpy.random.Generator, int or None
        Source of randomness; an int seeds a new generator.

    Returns
    -------
    numpy.ndarray of uint8
        The reported bits, with the shape of ``true_bits``.
    """
    p = light_fraction(epsilon, procedure)
    truth = np.asarray(true_bits)
    if truth.dtype != bool and not np.isin(truth, (0, 1)).all():
        raise ParameterError(
            "true_bits", f"true_bits must be 0 or 1, got values {np.unique(truth)[:5]!r}"
        )
    truth = truth.astype(np.uint8)
    generator = np.random.default_rng(rng)
    light = generator.random(truth.shape) < p
    coin = _tosses_coin(procedure)
    dark_answer = (generator.random(truth.shape) < 0.5).astype(np.uint8) if coin else 1 - truth
    return np.where(light, truth, dark_answer).astype(np.uint8)


def noise_line(epsilon, k: int = 2) -> tuple[float, float]:
    """Offset a and slope b of E[share reporting an answer] = a + b·π; the same for both procedures.

    With k possible answers (2 for yes/no; see :mod:`rr.choice`), a = 1/(e^ε + k − 1) and
    b = (e^ε − 1)/(e^ε + k − 1); for k = 2, a = 1/(1 + e^ε) and b = tanh(ε/2). Computed from e^−ε,
    so it never overflows. Assumes a validated ε and k ≥ 2.
    """
    tail = math.exp(-epsilon)
    if k == 2:
        return tail / (1.0 + tail), math.tanh(epsilon / 2)
    scale = 1.0 + (k - 1) * tail
    return tail / scale, -math.expm1(-epsilon) / scale


__all__ = [
    "PROCEDURES",
    "ReportProbabilities",
    "light_fraction",
    "noise_line",
    "perturb",
    "privacy_loss_ratio",
    "report_probabilities",
    "truth_probability",
]
