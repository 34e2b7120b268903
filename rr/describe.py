"""Values asked directly, described: their mean with Student's t interval, and their quartiles.

A number asked plainly (an age) is no randomized report: its values are the data. The mean's
interval is the usual one, x̄ ± t_{n−1, (1+c)/2} · s/√n (Student 1908), and the quartiles are
the sample quantiles of R's default definition (Hyndman & Fan 1996, type 7), so that
``quantile(x, c(0.25, 0.5, 0.75))`` in R gives the same numbers.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ._validate import check_probability
from .errors import NOT_A_NUMBER, OUT_OF_RANGE, ParameterError


class ValueSummary(NamedTuple):
    """The mean of values given as they are, its standard error and t interval (None for a
    single value, which has no spread), and the three quartiles."""

    n: int
    mean: float
    std_error: float | None
    ci_low: float | None
    ci_high: float | None
    q1: float
    median: float
    q3: float
    confidence: float

    def __repr__(self) -> str:
        interval = (
            "no interval" if self.ci_low is None
            else f"ci=[{self.ci_low:.4g}, {self.ci_high:.4g}] at {self.confidence:.0%}"
        )  # fmt: skip
        return (
            f"ValueSummary(n={self.n}, mean={self.mean:.4g}, {interval}, "
            f"quartiles=[{self.q1:.4g}, {self.median:.4g}, {self.q3:.4g}])"
        )


def describe_values(values, confidence: float = 0.95) -> ValueSummary:
    """Mean, t interval and quartiles of values given as they are.

    Parameters
    ----------
    values : array_like of float
        The values, at least one, each finite.
    confidence : float, default 0.95
        The interval's coverage, in (0, 1).

    Returns
    -------
    ValueSummary
        ``mean`` = x̄; ``std_error`` = s/√n with s the sample standard deviation (n − 1);
        ``ci_low``, ``ci_high`` = x̄ ∓ t_{n−1, (1+confidence)/2} · s/√n (None for n = 1);
        ``q1``, ``median``, ``q3`` the sample quantiles of type 7.

    Raises
    ------
    ParameterError
        ``values`` is empty or holds something that is not a finite number; ``confidence`` is
        not in (0, 1).

    References
    ----------
    Student (1908), "The probable error of a mean", Biometrika 6(1): 1–25.
    Hyndman, R. J. & Fan, Y. (1996), "Sample quantiles in statistical packages", The American
    Statistician 50(4): 361–365.
    """
    confidence = check_probability(confidence, "confidence", closed=False)
    array = _finite(values)
    n = array.size
    mean = float(array.mean())
    q1, median, q3 = (float(q) for q in np.quantile(array, [0.25, 0.5, 0.75]))
    if n == 1:
        return ValueSummary(1, mean, None, None, None, q1, median, q3, confidence)
    from scipy import stats  # here: scipy.stats alone takes ~1 s to import

    error = float(array.std(ddof=1)) / math.sqrt(n)
    half = float(stats.t.ppf((1 + confidence) / 2, n - 1)) * error
    return ValueSummary(n, mean, error, mean - half, mean + half, q1, median, q3, confidence)


def _finite(values) -> np.ndarray:
    try:
        array = np.asarray(values, dtype=float).ravel()
    except (TypeError, ValueError):
        raise ParameterError(
            "values", f"values must be numbers, got {values!r}", NOT_A_NUMBER, values
        ) from None
    if array.size == 0:
        raise ParameterError("values", "values must hold at least one value", OUT_OF_RANGE, values)
    if not np.all(np.isfinite(array)):
        raise ParameterError(
            "values", f"values must be finite numbers, got {values!r}", NOT_A_NUMBER, values
        )
    return array
