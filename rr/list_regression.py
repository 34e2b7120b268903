"""The list experiment's regression: who holds the sensitive item, by the respondents' covariates.

Imai's (2011) maximum-likelihood model (R's ``list::ictreg(y ~ x, method = "ml")``, standard
design, constrained, binomial): respondent i holds the sensitive item with probability
δᵢ = logistic(xᵢ′β), and says yes to each of the J control items with ψᵢ = logistic(xᵢ′γ),
whichever list they were given. A short-list count is Binomial(J, ψᵢ); a long-list count y has
probability δᵢ·B(y − 1) + (1 − δᵢ)·B(y).

β and γ are fitted by EM: the E-step gives each long-list respondent's chance of holding the item
given their count, and the M-step is two logistic regressions (the holding of the item on x,
weighted; the control items' yes answers on x, J trials each), each by Newton's method. EM runs
until the log-likelihood gains less than 1e-10 a step (``ictreg`` stops at 1e-8). The standard
errors are the observed information's, by central differences of the log-likelihood.

A double list (:class:`rr.DoubleList`) is two list experiments on the same respondents: each
respondent's count of the list that held the sensitive item is that list's long-list count, their
count of the other list its short-list count. The fit maximizes the sum of the two lists'
log-likelihoods with β shared and each list's control items their own (γ_A, γ_B), which takes a
respondent's two counts as independent given their covariates, as the model takes the items of
one list. Its EM is the same: the E-step reads each respondent's long-list count, the M-step fits
β on everyone and each γ on its own list's counts.

References
----------
Imai, K. (2011). Multivariate regression analysis for the item count technique. JASA 106, 407-416.
Blair, G., & Imai, K. (2012). Statistical analysis of list experiments. Political Analysis 20,
47-77.
Glynn, A. N. (2013). What can we learn with statistical truth serum? Public Opinion Quarterly
77, 159-172.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ._validate import check_count
from .errors import ParameterError
from .list_experiment import _hessian

_GAIN = 1e-10  # of the log-likelihood per EM step, where the fit stops
_STEPS = 100_000
_NEWTON_STEPS = 50


class Coefficient(NamedTuple):
    """One coefficient on the logit scale, with its standard error."""

    name: str
    estimate: float
    std_error: float


class ListRegression(NamedTuple):
    """The sensitive item's coefficients (β), the control items' (γ; a double list's list A),
    the log-likelihood, the respondents, and a double list's list B's control items (γ_B)."""

    sensitive: tuple[Coefficient, ...]
    control: tuple[Coefficient, ...]
    log_likelihood: float
    n: int
    control_b: tuple[Coefficient, ...] = ()

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{c.name}={c.estimate:.4f} (SE {c.std_error:.4f})" for c in self.sensitive
        )
        return f"ListRegression(sensitive: {shown}; log-likelihood {self.log_likelihood:.3f}, n={self.n})"

    def share(self, covariates) -> float:
        """δ for one respondent's covariates (in the columns' order, the constant included)."""
        x = np.asarray(covariates, dtype=float)
        return float(_expit(x @ np.array([c.estimate for c in self.sensitive])))


def list_regression(controls, counts, treated, covariates, names=None) -> ListRegression:
    """Fit the model to each respondent's count (``counts``), list (``treated``: True for the
    long list) and covariates (``covariates``: one row each, the constant column included).

    Raises
    ------
    ValueError
        If the lengths differ, a count is outside 0…J (0…J + 1 in the long list), a list has fewer
        than two respondents, or the covariates are not a full-rank matrix of finite numbers.
    """
    controls = check_count(controls, "controls", minimum=1)
    y = np.array([check_count(value, "counts", minimum=0) for value in counts], dtype=float)
    t = np.asarray(treated, dtype=bool)
    if len(t) != len(y):
        raise ParameterError("treated", "need one list per respondent")
    x, names = checked_covariates(covariates, len(y), names)
    if np.any(y > controls + t):
        raise ParameterError(
            "counts", f"a count is above {controls} (or {controls + 1} in the long list)"
        )
    if t.sum() < 2 or (~t).sum() < 2:
        raise ParameterError("treated", "each list needs at least two respondents")
    return fit_lists([(controls, y, t)], x, names)


def checked_covariates(covariates, respondents: int, names) -> tuple[np.ndarray, list[str]]:
    """The covariates as a matrix with one row per respondent, and their names (``x0``, ``x1``,
    … where none are given).

    Raises
    ------
    ValueError
        If there is not one row per respondent, a value is not finite, the matrix is not of full
        rank, or the names are not one per column.
    """
    x = np.asarray(covariates, dtype=float)
    if x.ndim != 2 or len(x) != respondents:
        raise ParameterError(
            "covariates", "need one row of covariates, one count and one list per respondent"
        )
    if not np.all(np.isfinite(x)) or np.linalg.matrix_rank(x) < x.shape[1]:
        raise ParameterError("covariates", "the covariates must be finite and of full rank")
    names = list(names) if names is not None else [f"x{index}" for index in range(x.shape[1])]
    if len(names) != x.shape[1]:
        raise ParameterError("names", f"need {x.shape[1]} names, got {len(names)}")
    return x, names


def fit_lists(lists, x, names) -> ListRegression:
    """EM to convergence over one list or a double list's two, each (J, counts, long list) over
    the same respondents, then the observed information. Assumes checked input, each respondent
    in the long list of one list at most."""
    size, count = x.shape[1], len(lists)
    beta = np.zeros(size)
    gammas = [np.zeros(size) for _ in lists]
    for gamma, (controls, y, t) in zip(gammas, lists, strict=True):
        gamma[0] = _logit(min(max(y[~t].mean() / controls, 1e-3), 1 - 1e-3))  # the constant's start

    def log_likelihood(beta, gammas) -> float:
        return math.fsum(
            _log_likelihood(controls, y, t, x, beta, gamma)
            for (controls, y, t), gamma in zip(lists, gammas, strict=True)
        )

    last = log_likelihood(beta, gammas)
    for _ in range(_STEPS):
        holds = [
            _holds(controls, y, t, x, beta, gamma)
            for (controls, y, t), gamma in zip(lists, gammas, strict=True)
        ]
        beta = _newton(
            np.concatenate([x[t] for _, _, t in lists]),
            np.concatenate(holds),
            np.ones(sum(int(t.sum()) for _, _, t in lists)),
            beta,
        )
        for index, (controls, y, t) in enumerate(lists):
            successes = y.copy()
            # A holder's count has one item that is not a control item.
            successes[t] = y[t] - holds[index]
            gammas[index] = _newton(x, successes, np.full(len(y), float(controls)), gammas[index])
        now = log_likelihood(beta, gammas)
        if now - last < _GAIN:
            last = now
            break
        last = now
    every = np.concatenate([beta, *gammas])
    information = -_hessian(
        lambda at: log_likelihood(
            at[:size], [at[size * (k + 1) : size * (k + 2)] for k in range(count)]
        ),
        every,
    )
    try:
        errors = np.sqrt(np.clip(np.diag(np.linalg.inv(information)), 0, None))
    except np.linalg.LinAlgError:
        errors = np.full(len(every), math.nan)

    def coefficients(k: int) -> tuple[Coefficient, ...]:
        part = slice(size * k, size * (k + 1))
        return tuple(
            Coefficient(n, float(b), float(e))
            for n, b, e in zip(names, every[part], errors[part], strict=True)
        )

    return ListRegression(coefficients(0), coefficients(1), float(last), len(x),
                          coefficients(2) if count == 2 else ())  # fmt: skip


def _log_binomial(controls: int, k, share):
    """log P(k of J) under Binomial(J, share), elementwise; −inf where k is outside 0…J."""
    from scipy.special import gammaln

    inside = (k >= 0) & (k <= controls)
    kk = np.clip(k, 0, controls)
    value = (gammaln(controls + 1) - gammaln(kk + 1) - gammaln(controls - kk + 1)
             + kk * np.log(share) + (controls - kk) * np.log1p(-share))  # fmt: skip
    return np.where(inside, value, -np.inf)


def _log_likelihood(controls: int, y, t, x, beta, gamma) -> float:
    """The observed log-likelihood of every respondent's count. Assumes checked input."""
    psi = _expit(x @ gamma)
    delta = _expit(x[t] @ beta)
    short = _log_binomial(controls, y[~t], psi[~t]).sum()
    with_item = np.log(delta) + _log_binomial(controls, y[t] - 1, psi[t])
    without = np.log1p(-delta) + _log_binomial(controls, y[t], psi[t])
    return float(short + np.logaddexp(with_item, without).sum())


def _holds(controls: int, y, t, x, beta, gamma):
    """Each long-list respondent's chance of holding the item given their count (the E-step)."""
    psi = _expit(x[t] @ gamma)
    delta = _expit(x[t] @ beta)
    with_item = np.log(delta) + _log_binomial(controls, y[t] - 1, psi)
    without = np.log1p(-delta) + _log_binomial(controls, y[t], psi)
    return np.exp(with_item - np.logaddexp(with_item, without))


def _newton(x, successes, trials, start):
    """The logistic regression of ``successes`` of ``trials`` on x (fractional successes allowed),
    by Newton's method from ``start``. Assumes x of full rank."""
    coefficients = start.copy()
    for _ in range(_NEWTON_STEPS):
        mean = _expit(x @ coefficients)
        gradient = x.T @ (successes - trials * mean)
        weights = trials * mean * (1 - mean)
        step = np.linalg.solve(x.T @ (weights[:, None] * x), gradient)
        coefficients = coefficients + step
        if np.max(np.abs(step)) < 1e-12:
            break
    return coefficients


def _expit(value):
    return 1 / (1 + np.exp(-value))


def _logit(share: float) -> float:
    return math.log(share / (1 - share))


__all__ = ["Coefficient", "ListRegression", "list_regression"]
