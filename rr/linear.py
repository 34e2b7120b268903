"""Linear regression of a one-bit quantity (:mod:`rr.mean`) on respondents' direct answers.

Each report r ∈ {0, 1} is rescaled by the line to an unbiased value of the respondent's quantity,

    v(r) = lo + w·(r − a)/b,   E[v | x] = E[value | x],

so ordinary least squares of v on the covariates estimates the regression of the value itself
(the errors-in-the-response argument: noise with mean 0 given x biases nothing). The noise is far
from constant across cells, so standard errors come from the sandwich (Huber–White, HC1)

    Cov(β̂) = N/(N − p) · (XᵀX)⁻¹ (Σᵢ xᵢxᵢᵀ eᵢ²) (XᵀX)⁻¹,

with Wald intervals. As everywhere in the app, the data enter through counts per cell: a cell of
n respondents with y reports of 1 holds y values v(1) and n − y values v(0), so a million
responses in five groups are five rows.
"""

from __future__ import annotations

from statistics import NormalDist
from typing import NamedTuple

import numpy as np

from .regression import Coefficient, Prediction, checked_cells


class LinearResult(NamedTuple):
    """Coefficients in the value's units, their sandwich covariance, and the fit's size."""

    coefficients: tuple[Coefficient, ...]
    covariance: np.ndarray
    n: int
    confidence: float

    def predict(self, x) -> Prediction:
        """The fitted mean xᵀβ for covariates ``x`` with its Wald interval."""
        x = np.asarray(x, dtype=float)
        beta = np.array([coefficient.estimate for coefficient in self.coefficients])
        estimate = float(x @ beta)
        z = -NormalDist().inv_cdf((1 - self.confidence) / 2)
        spread = z * float(np.sqrt(max(float(x @ self.covariance @ x), 0.0)))
        return Prediction(estimate, estimate - spread, estimate + spread)

    def __repr__(self) -> str:
        terms = ", ".join(f"{c.term}={c.estimate:.4g}±{c.std_error:.4g}" for c in self.coefficients)
        return f"LinearResult(n={self.n}, {terms})"


def linear_on_line(
    design, n, yes, offset: float, slope: float, low: float, width: float, terms=None,
    confidence: float = 0.95,
) -> LinearResult:  # fmt: skip
    """Least squares of the rescaled reports on the cells' covariates, with sandwich errors.

    Parameters
    ----------
    design : array_like, shape (cells, p)
        Covariates of each cell, an intercept column included.
    n, yes : array_like of int, shape (cells,)
        Respondents in each cell and their reports of 1.
    offset, slope, low, width : float
        The report line a + b·s and the value's range [lo, lo + w] (a :class:`rr.BoundedMean`'s).
    terms : sequence of str, optional
        Names of the covariates.

    Raises
    ------
    RegressionError
        An empty cell, too few responses (fewer than 10 per coefficient) or collinear covariates.
    ValueError
        On malformed shapes or counts, or a confidence outside (0, 1).
    """
    x, counts, reported, names, confidence = checked_cells(design, n, yes, terms, confidence)
    return _fit(x, counts, reported, offset, slope, low, width, names, confidence)


def _fit(x, n, yes, offset, slope, low, width, names, confidence) -> LinearResult:
    """OLS and HC1 sandwich on grouped reports; assumes validated input."""
    value_of_one = low + width * (1 - offset) / slope
    value_of_zero = low + width * (0 - offset) / slope
    bread = np.linalg.inv(x.T @ (n[:, None] * x))
    sums = yes * value_of_one + (n - yes) * value_of_zero
    beta = bread @ (x.T @ sums)
    fitted = x @ beta
    squared = yes * (value_of_one - fitted) ** 2 + (n - yes) * (value_of_zero - fitted) ** 2
    meat = x.T @ (squared[:, None] * x)
    total = n.sum()
    covariance = total / (total - x.shape[1]) * bread @ meat @ bread
    z = -NormalDist().inv_cdf((1 - confidence) / 2)
    errors = np.sqrt(np.diag(covariance))
    coefficients = tuple(
        Coefficient(name, float(b), float(se), float(b - z * se), float(b + z * se))
        for name, b, se in zip(names, beta, errors, strict=True)
    )
    return LinearResult(coefficients, covariance, int(total), confidence)


__all__ = ["LinearResult", "linear_on_line"]
