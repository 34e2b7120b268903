"""Logistic regression of a randomized answer on respondents' direct answers.

A respondent with covariates x (dummy-coded direct answers) has a true answer that is yes with
probability π(x) = logistic(xᵀβ). What is observed is the reported bit, so

    P(report yes | x) = a + b·logistic(xᵀβ),

with a and b the item's noise line (:func:`rr.mechanism.noise_line`): a = 1/(1 + e^ε),
b = tanh(ε/2) for a yes/no answer or a multi-select option, and a = 1/(e^ε + k − 1),
b = (e^ε − 1)/(e^ε + k − 1) for one option of a single-choice question. In the vocabulary of
the randomized-response literature, ``spinner_coin`` is the forced-response design and ``spinner``
Warner's mirrored design; both give this same likelihood at equal ε (Blair, Imai & Zhou 2015 fit it
for forced response as ``rr::rrreg``; van den Hout & van der Heijden 2007; Heck & Moshagen's
``RRreg::RRlog``).

The data enter only through counts: for each cell c (one combination of covariates), n_c
respondents and y_c reported yes. The log-likelihood is

    ℓ(β) = Σ_c y_c·log μ_c + (n_c − y_c)·log(1 − μ_c),   μ_c = a + b·logistic(x_cᵀβ),

maximised by Fisher scoring with step halving; standard errors come from the observed information
(the negative Hessian at the maximum), intervals are Wald intervals on the log-odds scale, and
predicted prevalences carry those intervals through the logistic function. A million responses in
five groups are five cells: the fit costs nothing in n.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import NamedTuple

import numpy as np

from ._validate import as_int_array, check_epsilon, check_probability, check_procedure
from .errors import ParameterError
from .mechanism import noise_line

MAX_ITERATIONS = 100
# Beyond this |log-odds| a coefficient is drifting to infinity: the data separate the groups
# (a group whose reports fit a prevalence of 0 or 1), and no finite estimate exists.
SEPARATION_LOGIT = 15.0


class RegressionError(ValueError):
    """A model that cannot be estimated from these counts; the message says why."""


class Coefficient(NamedTuple):
    term: str
    estimate: float
    std_error: float
    ci_low: float
    ci_high: float

    @property
    def odds_ratio(self) -> float:
        return math.exp(self.estimate)


class Prediction(NamedTuple):
    """The fitted prevalence of one covariate pattern, with its interval."""

    estimate: float
    ci_low: float
    ci_high: float


class RegressionResult(NamedTuple):
    coefficients: tuple[Coefficient, ...]
    covariance: np.ndarray
    n: int
    converged: bool
    iterations: int
    log_likelihood: float
    confidence: float

    def predict(self, x) -> Prediction:
        """The prevalence logistic(xᵀβ) for covariates ``x`` and its Wald interval (log-odds scale)."""
        x = np.asarray(x, dtype=float)
        beta = np.array([coefficient.estimate for coefficient in self.coefficients])
        eta = float(x @ beta)
        spread = _z(self.confidence) * math.sqrt(max(float(x @ self.covariance @ x), 0.0))
        return Prediction(_logistic(eta), _logistic(eta - spread), _logistic(eta + spread))

    def __repr__(self) -> str:
        terms = ", ".join(f"{c.term}={c.estimate:.4f}±{c.std_error:.4f}" for c in self.coefficients)
        return f"RegressionResult(n={self.n}, converged={self.converged}, {terms})"


def rr_logistic_regression(
    design,
    n,
    yes,
    epsilon,
    procedure: str = "spinner_coin",
    k: int = 2,
    terms=None,
    confidence: float = 0.95,
) -> RegressionResult:
    """Fit P(report yes | x) = a + b·logistic(xᵀβ) by maximum likelihood on grouped counts.

    A convenience for the two spinners (``k = 2``: the same as
    ``spinner_coin(epsilon).regression(design, n, yes, terms)``, :meth:`rr.Design.regression`) and
    for one option of a single-choice question (``k`` options).

    Parameters
    ----------
    design : array_like, shape (cells, p)
        Covariates of each cell, an intercept column included (dummy-coded direct answers).
    n, yes : array_like of int, shape (cells,)
        Respondents in each cell, and how many of them reported yes (0 ≤ yes ≤ n).
    epsilon : float
        Privacy loss of the item's spin.
    procedure : {"spinner_coin", "spinner"}
        The same likelihood for both at equal ε.
    k : int
        Options of a single-choice question the item is one option of; 2 for a yes/no answer or a
        multi-select option.
    terms : sequence of str, optional
        Names of the design's columns.
    confidence : float
        Coverage of the intervals, in (0, 1).

    Returns
    -------
    RegressionResult

    Raises
    ------
    RegressionError
        When the model cannot be estimated: too few respondents, an empty cell, collinear
        covariates, or separation (a coefficient running off to infinity).
    ValueError
        On malformed input (shapes, counts, ε, procedure, confidence).
    """
    epsilon = check_epsilon(epsilon)
    check_procedure(procedure)
    offset, slope = noise_line(epsilon, k)
    return fit_on_line(design, n, yes, offset, slope, terms, confidence)


def fit_on_line(
    design, n, yes, offset: float, slope: float, terms=None, confidence: float = 0.95
) -> RegressionResult:
    """:func:`rr_logistic_regression` for any line P(report yes | π) = a + b·π (a binary design's,
    :meth:`rr.Design.regression`), after the same checks of the cells; assumes a valid line."""
    x, counts, reported, names, confidence = checked_cells(design, n, yes, terms, confidence)
    return _fit(x, counts, reported, offset, slope, names, confidence)


def checked_cells(design, n, yes, terms, confidence):
    """The cells of a regression on grouped counts, checked: the covariates as a float matrix,
    n and yes as float vectors, the terms' names and the confidence.

    Raises
    ------
    ValueError
        On malformed shapes, counts or confidence.
    RegressionError
        On an empty cell, fewer than 10 responses per coefficient, or collinear covariates.
    """
    x = np.asarray(design, dtype=float)
    if x.ndim != 2 or x.shape[0] < 1 or x.shape[1] < 1 or not np.all(np.isfinite(x)):
        raise ValueError(
            f"design must be a finite 2-d array with a row per cell, got shape {np.shape(design)}"
        )
    counts = as_int_array(n, "n")
    reported = as_int_array(yes, "yes")
    if counts.shape != (x.shape[0],) or reported.shape != counts.shape:
        raise ValueError(
            f"n and yes must have one entry per design row ({x.shape[0]}), got {counts.shape} and {reported.shape}"
        )
    if np.any(reported < 0) or np.any(reported > counts):
        raise ValueError("yes must lie in [0, n] in every cell")
    confidence = check_probability(confidence, "confidence", closed=False)
    names = list(terms) if terms is not None else [f"x{index}" for index in range(x.shape[1])]
    if len(names) != x.shape[1]:
        raise ParameterError(
            "terms", f"terms must name the {x.shape[1]} design columns, got {len(names)}"
        )
    if np.any(counts < 1):
        raise RegressionError("a group has no respondents: drop it or merge it with another")
    if counts.sum() < 10 * x.shape[1]:
        raise RegressionError(
            f"too few responses: {int(counts.sum())} for {x.shape[1]} coefficients (at least 10 per coefficient)"
        )
    if np.linalg.matrix_rank(x) < x.shape[1]:
        raise RegressionError("the covariates are collinear: some group is defined by the others")
    return x, counts.astype(float), reported.astype(float), names, confidence


def log_likelihood(beta, design, n, yes, offset: float, slope: float) -> float:
    """ℓ(β) of grouped counts; assumes valid input."""
    mu = offset + slope * _logistic_array(np.asarray(design) @ np.asarray(beta))
    return float(np.sum(yes * np.log(mu) + (n - yes) * np.log1p(-mu)))


def _fit(x, n, yes, offset, slope, names, confidence) -> RegressionResult:
    """Fisher scoring from the intercept-only start; assumes validated input."""
    beta = np.zeros(x.shape[1])
    share = np.clip((yes.sum() / n.sum() - offset) / slope, 0.02, 0.98)
    if np.allclose(x[:, 0], 1):
        beta[0] = math.log(share / (1 - share))
    current = log_likelihood(beta, x, n, yes, offset, slope)
    converged = False
    iterations = 0
    while iterations < MAX_ITERATIONS:
        iterations += 1
        score, information = _score_and_information(beta, x, n, yes, offset, slope)
        try:
            step = np.linalg.solve(information, score)
        except np.linalg.LinAlgError:
            break
        scale = 1.0
        while scale > 1e-6:
            candidate = beta + scale * step
            value = log_likelihood(candidate, x, n, yes, offset, slope)
            if value >= current - 1e-12:
                break
            scale /= 2
        beta, previous, current = candidate, current, value
        if np.max(np.abs(scale * step)) < 1e-10 or abs(current - previous) < 1e-13 * max(
            1.0, abs(current)
        ):
            converged = True
            break
    if np.any(np.abs(x @ beta) > SEPARATION_LOGIT) or not np.all(np.isfinite(beta)):
        raise RegressionError(
            "the model cannot be estimated: a group's reports fit a prevalence of 0% or 100% "
            "(separation); merge groups or collect more responses"
        )
    observed = -_hessian(beta, x, n, yes, offset, slope)
    try:
        covariance = np.linalg.inv(observed)
    except np.linalg.LinAlgError:
        raise RegressionError(
            "the model cannot be estimated: its information matrix is singular"
        ) from None
    if np.any(np.diag(covariance) <= 0):
        raise RegressionError(
            "the model cannot be estimated: the likelihood is flat in some direction"
        )
    z = _z(confidence)
    errors = np.sqrt(np.diag(covariance))
    coefficients = tuple(
        Coefficient(name, float(b), float(se), float(b - z * se), float(b + z * se))
        for name, b, se in zip(names, beta, errors, strict=True)
    )
    return RegressionResult(
        coefficients, covariance, int(n.sum()), converged, iterations, current, confidence
    )


def _score_and_information(beta, x, n, yes, offset, slope):
    """Score vector and expected (Fisher) information; assumes valid input."""
    s = _logistic_array(x @ beta)
    mu = offset + slope * s
    d_mu = slope * s * (1 - s)
    weight = d_mu / (mu * (1 - mu))
    score = x.T @ ((yes - n * mu) * weight)
    information = (x * (n * d_mu * weight)[:, None]).T @ x
    return score, information


def _hessian(beta, x, n, yes, offset, slope):
    """The log-likelihood's Hessian (for the observed information); assumes valid input."""
    s = _logistic_array(x @ beta)
    mu = offset + slope * s
    d_mu = slope * s * (1 - s)
    dd_mu = d_mu * (1 - 2 * s)
    first = yes / mu - (n - yes) / (1 - mu)
    second = -yes / mu**2 - (n - yes) / (1 - mu) ** 2
    curvature = second * d_mu**2 + first * dd_mu
    return (x * curvature[:, None]).T @ x


def _logistic(value: float) -> float:
    return (
        1.0 / (1.0 + math.exp(-value)) if value >= 0 else math.exp(value) / (1.0 + math.exp(value))
    )


def _logistic_array(values: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(values / 2))


def _z(confidence: float) -> float:
    return -NormalDist().inv_cdf((1 - confidence) / 2)


__all__ = [
    "Coefficient",
    "Prediction",
    "RegressionError",
    "RegressionResult",
    "log_likelihood",
    "rr_logistic_regression",
]
