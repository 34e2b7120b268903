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

References
----------
Imai, K. (2011). Multivariate regression analysis for the item count technique. JASA 106, 407-416.
Blair, G., & Imai, K. (2012). Statistical analysis of list experiments. Political Analysis 20,
47-77.
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
    """The sensitive item's coefficients (β), the control items' (γ), the log-likelihood and the
    respondents."""

    sensitive: tuple[Coefficient, ...]
    control: tuple[Coefficient, ...]
    log_likelihood: float
    n: int

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
    x = np.asarray(covariates, dtype=float)
    if x.ndim != 2 or len(x) != len(y) or len(t) != len(y):
        raise ParameterError(
            "covariates", "need one row of covariates, one count and one list per respondent"
        )
    if np.any(y > controls + t):
        raise ParameterError(
            "counts", f"a count is above {controls} (or {controls + 1} in the long list)"
        )
    if t.sum() < 2 or (~t).sum() < 2:
        raise ParameterError("treated", "each list needs at least two respondents")
    if not np.all(np.isfinite(x)) or np.linalg.matrix_rank(x) < x.shape[1]:
        raise ParameterError("covariates", "the covariates must be finite and of full rank")
    names = list(names) if names is not None else [f"x{index}" for index in range(x.shape[1])]
    if len(names) != x.shape[1]:
        raise ParameterError("names", f"need {x.shape[1]} names, got {len(names)}")
    return _fit(controls, y, t, x, names)


def _fit(controls: int, y, t, x, names) -> ListRegression:
    """EM to convergence, then the observed information. Assumes checked input."""
    size = x.shape[1]
    beta, gamma = np.zeros(size), np.zeros(size)
    gamma[0] = _logit(min(max(y[~t].mean() / controls, 1e-3), 1 - 1e-3))  # the constant's start
    last = _log_likelihood(controls, y, t, x, beta, gamma)
    for _ in range(_STEPS):
        holds = _holds(controls, y, t, x, beta, gamma)
        beta = _newton(x[t], holds, np.ones(int(t.sum())), beta)
        successes = y.copy()
        successes[t] = y[t] - holds  # a holder's count has one item that is not a control item
        gamma = _newton(x, successes, np.full(len(y), float(controls)), gamma)
        now = _log_likelihood(controls, y, t, x, beta, gamma)
        if now - last < _GAIN:
            last = now
            break
        last = now
    both = np.concatenate([beta, gamma])
    information = -_hessian(
        lambda at: _log_likelihood(controls, y, t, x, at[:size], at[size:]), both
    )
    try:
        errors = np.sqrt(np.clip(np.diag(np.linalg.inv(information)), 0, None))
    except np.linalg.LinAlgError:
        errors = np.full(2 * size, math.nan)
    return ListRegression(
        tuple(Coefficient(n, float(b), float(e)) for n, b, e in zip(names, beta, errors[:size], strict=True)),
        tuple(Coefficient(n, float(g), float(e)) for n, g, e in zip(names, gamma, errors[size:], strict=True)),
        float(last),
        len(y),
    )  # fmt: skip


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
