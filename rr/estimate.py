"""From reported bits back to the true share: the unbiased estimator and its interval.

Reports satisfy E[π_noisy] = a + b·π with a = 1/(1 + e^ε) and b = tanh(ε/2) for both procedures
(see :mod:`rr.mechanism`), so

    π̂ = (π_noisy − a) / b

is unbiased, with Var(π̂) = π_noisy(1 − π_noisy) / (n·b²). For ``spinner_coin`` that is
(π_noisy − (1 − p)/2)/p, for ``spinner`` (π_noisy − (1 − p))/(2p − 1): the same numbers.

The interval is the Clopper–Pearson interval for the reported-yes share, carried through the same
line and clipped to [0, 1]. It covers the true share with at least the nominal probability for every
n and π (Clopper & Pearson 1934); the Wald interval π̂ ± z·SE falls far below it at small n, and
Wilson's and Jeffreys' intervals dip below it near the edges (Brown, Cai & DasGupta 2001). See
``docs/statistics.md`` for the coverage table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .mechanism import noise_line


@dataclass(frozen=True)
class Estimate:
    """An estimated true share with its standard error and confidence interval.

    Attributes
    ----------
    estimate : float or ndarray
        The raw unbiased estimate π̂; it can fall outside [0, 1] and is never clipped.
    std_error : float or ndarray
        Plug-in standard error sqrt(θ(1 − θ)/n) / slope, with θ the reported-yes share π_noisy
        held inside [a, 1 − a], the range the procedure can produce (a = 1/(1 + e^ε)). So it is
        the standard error at the nearest possible true share (π̂ clipped to [0, 1]), and never 0:
        30 reports of no at ε = 2 give π̂ = −0.16 with the standard error at π = 0, 0.078.
    ci_low, ci_high : float or ndarray
        The confidence interval, inside [0, 1]. When the reports are less likely than (1 − c)/2
        under every true share (0 yes out of 30 at ε = 2, say), the whole interval lies outside
        [0, 1] and collapses to the nearer end: [0, 0] or [1, 1]. That is a sign the reports do not
        fit the procedure (or a rare draw), not certainty.
    estimated_count : float or ndarray
        π̂·n, the unbiased estimate of how many respondents would truly answer yes.
    n : int or ndarray
        Number of respondents.
    noisy_yes : int or ndarray
        Number of reported yes answers.
    confidence : float
        Nominal coverage of the interval.
    """

    estimate: float | np.ndarray
    std_error: float | np.ndarray
    ci_low: float | np.ndarray
    ci_high: float | np.ndarray
    estimated_count: float | np.ndarray
    n: int | np.ndarray
    noisy_yes: int | np.ndarray
    confidence: float

    def __repr__(self) -> str:
        if np.ndim(self.estimate) == 0:
            return (
                f"Estimate(estimate={self.estimate:.4f}, std_error={self.std_error:.4f}, "
                f"ci=[{self.ci_low:.4f}, {self.ci_high:.4f}] at {self.confidence:.0%}, "
                f"n={self.n}, noisy_yes={self.noisy_yes})"
            )
        return f"Estimate(shape={np.shape(self.estimate)}, confidence={self.confidence:.0%})"


def _estimate(yes: np.ndarray, total: np.ndarray, epsilon: float, confidence: float, k: int = 2):
    """Estimate, standard error, interval (clipped to [0, 1]) and count of one answer among ``k``
    (yes among yes/no by default); assumes validated arrays."""
    estimate, std_error, low, high = _on_the_line(yes, total, epsilon, confidence, k)
    return estimate, std_error, np.clip(low, 0.0, 1.0), np.clip(high, 0.0, 1.0), estimate * total


def _on_the_line(yes: np.ndarray, total: np.ndarray, epsilon: float, confidence: float, k: int = 2):
    """Estimate, standard error and the exact interval carried through the noise line, unclipped;
    assumes validated arrays."""
    offset, slope = noise_line(epsilon, k)
    return line_estimate(yes, total, offset, slope, confidence)


def line_estimate(yes: np.ndarray, total: np.ndarray, offset: float, slope: float, confidence):
    """Estimate, standard error and the exact interval through the line a + b·π, unclipped; a
    negative slope swaps the interval's ends. Assumes validated arrays and b ≠ 0."""
    share = yes / total
    estimate = (share - offset) / slope
    # Every true share gives a reported share between a and a + b: one outside it (all no, say)
    # would otherwise claim a standard error of 0.
    lowest, highest = sorted((offset, offset + slope))
    possible = np.clip(share, lowest, highest)
    std_error = np.sqrt(possible * (1 - possible) / total) / abs(slope)
    low, high = clopper_pearson(yes, total, confidence)
    ends = ((low - offset) / slope, (high - offset) / slope)
    return estimate, std_error, np.minimum(*ends), np.maximum(*ends)


def clopper_pearson(yes: np.ndarray, total: np.ndarray, confidence: float):
    """Clopper–Pearson interval for a binomial share; assumes 0 ≤ yes ≤ total and total ≥ 1.

    low = B⁻¹(α/2; x, n − x + 1), high = B⁻¹(1 − α/2; x + 1, n − x), with low = 0 at x = 0 and
    high = 1 at x = n (Clopper & Pearson 1934).
    """
    from scipy import special  # here, not at the top: it would double the cost of `import rr`

    alpha = 1.0 - confidence
    yes = np.asarray(yes, dtype=float)
    total = np.asarray(total, dtype=float)
    low = np.zeros_like(yes)
    high = np.ones_like(yes)
    some = yes > 0
    low[some] = special.betaincinv(yes[some], total[some] - yes[some] + 1, alpha / 2)
    below_all = yes < total
    high[below_all] = special.betaincinv(
        yes[below_all] + 1, total[below_all] - yes[below_all], 1 - alpha / 2
    )
    return low, high


__all__ = ["Estimate", "clopper_pearson", "line_estimate"]
