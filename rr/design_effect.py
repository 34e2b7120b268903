"""Blair & Imai's (2012) test for design effects in a list experiment.

Adding the sensitive item must not change how respondents answer the control items. If it does
not, the joint shares π(y, z) of respondents with a control count y and a sensitive answer z are
all ≥ 0, and each is a difference of the two arms' cumulative count shares Fₜ (the long list's)
and F꜀ (the short list's):

    π(y, 1) = F꜀(y) − Fₜ(y),        y = 0 … J − 1,
    π(y, 0) = Fₜ(y) − F꜀(y − 1),    y = 1 … J.

Each family is tested for all its π ≥ 0 with the likelihood-ratio statistic of multivariate
one-sided inequalities, λ = min over b ≥ −π̂ of b′Σ̂⁻¹b (Σ̂ the family's covariance, a
pseudo-inverse where singular), whose null distribution is a mixture of χ² with weights w_k
(chi-bar-square). As R's ``list::ict.test`` (version 9.2.6) computes it:

- inequalities far from binding are left out first (generalized moment selection: π̂ = 0 or
  √n·π̂/sd(π̂) > √(log n), with sd(π̂) the spread of the family's own estimates, as ``list`` does);
- one inequality left: the p-value of Welch's one-sided t-test of the two arms' shares;
- two or three: the weights in closed form from the (partial) correlations;
- four: ``list``'s closed forms, with the orthant probability of N(π̂, Σ̂) for w₀;
- more: the weights by simulation, each draw projected onto the positive orthant (fixed seed).

The two families' p-values are combined by Bonferroni: p = min(1, 2·min(p₁, p₀)). A small p says
the sensitive item changed the answers to the control items, and the list experiment's estimate
cannot be trusted.

References
----------
Blair, G., & Imai, K. (2012). Statistical analysis of list experiments. Political Analysis 20,
47-77.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ._validate import check_count
from .errors import ParameterError

METHOD = "Blair & Imai (2012): two families of inequalities, Bonferroni-combined (list::ict.test)"
DRAWS = 20_000  # draws of the chi-bar-square weights for five inequalities or more
SEED = 20120101  # fixed, so that a published snapshot always gives the same p-value


class Family(NamedTuple):
    """One family of inequalities: the sensitive answer z, its π̂ (y ascending), their standard
    errors, how many were tested after the moment selection, λ and the family's p-value (None
    where none is left)."""

    sensitive: int
    estimates: tuple[float, ...]
    std_errors: tuple[float, ...]
    tested: int
    statistic: float
    p_value: float | None


class DesignEffectTest(NamedTuple):
    """The Bonferroni-combined p-value of both families, and each family."""

    p_value: float
    families: tuple[Family, Family]

    def __repr__(self) -> str:
        return (
            f"DesignEffectTest(p={self.p_value:.4f}; z=1: tested {self.families[0].tested}, "
            f"z=0: tested {self.families[1].tested})"
        )


def design_effect_test(control, treatment) -> DesignEffectTest:
    """Blair & Imai's test from the arms' count frequencies: ``control[k]`` respondents of the
    short list said k (k = 0…J), ``treatment[k]`` of the long list (k = 0…J + 1).

    Raises
    ------
    ValueError
        If the long list does not have one frequency more than the short one, J < 2, a frequency
        is not a whole number ≥ 0, or an arm has fewer than two respondents.
    """
    short = np.array([check_count(value, "control", minimum=0) for value in control], float)
    long = np.array([check_count(value, "treatment", minimum=0) for value in treatment], float)
    controls = len(short) - 1
    if len(long) != controls + 2 or controls < 2:
        raise ParameterError(
            "treatment",
            f"need J + 1 short-list and J + 2 long-list frequencies with J >= 2, got "
            f"{len(short)} and {len(long)}",
        )
    if short.sum() < 2 or long.sum() < 2:
        raise ParameterError("control", "each arm needs at least two respondents")
    return _test(controls, short, long)


def _test(controls: int, short: np.ndarray, long: np.ndarray) -> DesignEffectTest:
    """Both families and their combination. Assumes checked frequencies."""
    n_c, n_t = short.sum(), long.sum()
    cum_c, cum_t = np.cumsum(short) / n_c, np.cumsum(long) / n_t
    n = int(n_c + n_t)

    def cumulative_c(y: int) -> float:
        return float(cum_c[y]) if y >= 0 else 0.0

    # Each inequality as (π̂, its two cumulative shares: the long list's at a, the short's at b).
    yes = [(cumulative_c(y) - cum_t[y], y, y) for y in range(controls)]
    no = [(cum_t[y] - cumulative_c(y - 1), y, y - 1) for y in range(1, controls + 1)]
    families = tuple(
        _family(z, rows, cum_t, cumulative_c, n_t, n_c, n, short, long)
        for z, rows in ((1, yes), (0, no))
    )
    p_values = [family.p_value for family in families if family.p_value is not None]
    combined = 1.0 if not p_values else min(1.0, 2 * min(p_values))
    return DesignEffectTest(combined, (families[0], families[1]))


def _family(z, rows, cum_t, cumulative_c, n_t, n_c, n, short, long) -> Family:
    """One family's π̂, their covariance, the moment selection and the p-value. Assumes checked
    input."""
    estimates = np.array([float(row[0]) for row in rows])
    as_floats = tuple(float(value) for value in estimates)
    at_t = [row[1] for row in rows]
    at_c = [row[2] for row in rows]
    size = len(rows)
    covariance = np.empty((size, size))
    for i in range(size):
        for j in range(size):
            low, high = min(i, j), max(i, j)
            f_t_low, f_t_high = cum_t[at_t[low]], cum_t[at_t[high]]
            f_c_low, f_c_high = cumulative_c(at_c[low]), cumulative_c(at_c[high])
            covariance[i, j] = f_t_low * (1 - f_t_high) / n_t + f_c_low * (1 - f_c_high) / n_c
    errors = np.sqrt(np.diag(covariance))
    spread = float(np.std(estimates, ddof=1)) if size > 1 else math.nan
    kept = [not (value == 0 or _far(value, spread, n)) for value in estimates]
    chosen = np.flatnonzero(kept)
    pi, sigma = estimates[chosen], covariance[np.ix_(chosen, chosen)]
    if len(chosen) == 0:
        return Family(z, as_floats, tuple(float(e) for e in errors), 0, 0.0, None)
    if len(chosen) == 1:
        index = int(chosen[0])
        p = _welch_less(short, long, at_t[index], at_c[index], z)
        return Family(z, as_floats, tuple(float(e) for e in errors), 1, 0.0, p)
    precision = np.linalg.pinv(sigma)
    statistic = _projection(precision, -pi)[1] if np.any(pi < 0) else 0.0
    weights = _weights(pi, sigma, len(short) - 1)
    p = sum(weight * _chi2_above(statistic, df) for df, weight in enumerate(weights))
    return Family(z, as_floats, tuple(float(e) for e in errors), len(chosen), statistic, float(p))


def _far(value: float, spread: float, n: int) -> bool:
    """Whether an inequality is far from binding: √n·π̂/sd > √(log n), with R's arithmetic where
    the family's estimates are all equal (sd 0: a positive π̂ is infinitely far)."""
    if math.isnan(spread):
        return False
    if spread == 0:
        return value > 0
    return math.sqrt(n) * value / spread > math.sqrt(math.log(n))


def _projection(precision: np.ndarray, lower: np.ndarray) -> tuple[np.ndarray, float]:
    """b minimizing b′Pb subject to b ≥ ``lower``, and its value: non-negative least squares on
    c = b − lower with P = R′R (R from P's eigen-decomposition). Assumes P symmetric PSD."""
    from scipy.optimize import nnls

    values, vectors = np.linalg.eigh(precision)
    root = np.sqrt(np.clip(values, 0, None))[:, None] * vectors.T
    shift, _ = nnls(root, -root @ lower)
    b = shift + lower
    return b, float(b @ precision @ b)


def _weights(pi: np.ndarray, sigma: np.ndarray, controls: int) -> list[float]:
    """The chi-bar-square weights w₀ … w_m of m inequalities, as ``list::ict.test`` makes them.
    Assumes m ≥ 2."""
    size = len(pi)
    rho = sigma / np.sqrt(np.outer(np.diag(sigma), np.diag(sigma)))
    if size == 2:
        angle = math.acos(rho[0, 1]) / (2 * math.pi)
        return [0.5 - angle, 0.5, angle]
    if size == 3:
        partial = [_partial(rho, a, b, c) for a, b, c in ((0, 1, 2), (0, 2, 1), (1, 2, 0))]
        first = (2 * math.pi - math.acos(rho[0, 1]) - math.acos(rho[0, 2])
                 - math.acos(rho[1, 2])) / (4 * math.pi)  # fmt: skip
        second = (3 * math.pi - sum(math.acos(value) for value in partial)) / (4 * math.pi)
        return [first, second, 0.5 - first, 0.5 - second]
    if size == 4:
        return _four_weights(pi, sigma, rho)
    return _simulated_weights(sigma, controls)


def _partial(rho: np.ndarray, a: int, b: int, given: int) -> float:
    """The partial correlation of a and b given one other."""
    return (rho[a, b] - rho[a, given] * rho[b, given]) / math.sqrt(
        (1 - rho[a, given] ** 2) * (1 - rho[b, given] ** 2)
    )


def _four_weights(pi: np.ndarray, sigma: np.ndarray, rho: np.ndarray) -> list[float]:
    """Four inequalities: ``list``'s own closed forms as it writes them (its w₀ the orthant
    probability of N(π̂, Σ̂)), kept so that the figures are the package's."""
    from scipy.stats import multivariate_normal

    partial = -np.linalg.inv(rho)
    partial /= np.sqrt(np.outer(np.diag(partial), np.diag(partial)))
    acos = math.acos
    w3 = (-4 * math.pi + acos(rho[3, 2]) + acos(rho[2, 1]) + acos(rho[3, 1])) / (8 * math.pi)
    w2 = acos(rho[3, 2]) * (math.pi - acos(partial[1, 0])) / (4 * math.pi**2)
    w1 = (8 * math.pi - acos(rho[3, 2]) + acos(rho[2, 1]) + acos(rho[3, 1])) / (8 * math.pi)
    w0 = float(multivariate_normal(mean=-pi, cov=sigma, allow_singular=True).cdf(np.zeros(4)))
    return [w0, w1, w2, w3, 0.5 - w0 - w2]


def _simulated_weights(sigma: np.ndarray, controls: int) -> list[float]:
    """Five inequalities or more: draws of N(0, Σ̂) projected onto the positive orthant (in Σ̂⁻¹'s
    metric); w_k the share of projections with J − k positive components, as ``list`` counts
    them (with J, its number of control items)."""
    rng = np.random.default_rng(SEED)
    precision = np.linalg.pinv(sigma)
    draws = rng.multivariate_normal(np.zeros(len(sigma)), sigma, size=DRAWS, method="eigh")
    positive = np.empty(DRAWS, dtype=int)
    for index, draw in enumerate(draws):
        # As list does: a draw with one negative component is counted as it is, not projected.
        several = np.sum(draw < 0) > 1
        projected = _projection(precision, -draw)[0] + draw if several else draw
        positive[index] = int(np.sum(projected > 0))
    return [float(np.mean(positive == controls - k)) for k in range(len(sigma) + 1)]


def _welch_less(short, long, at_t: int, at_c: int, z: int) -> float | None:
    """The one-sided p-value of Welch's t-test that ``list`` reports for a single inequality:
    the short list's share at or below ``at_c`` less the long list's at or below ``at_t``
    (z = 1), or the long list's less the short list's (z = 0); None where both are constant."""
    from scipy.stats import t as student

    def share_and_variance(frequencies: np.ndarray, at: int) -> tuple[float, float, float]:
        n = float(frequencies.sum())
        share = float(frequencies[: at + 1].sum()) / n if at >= 0 else 0.0
        return share, n * share * (1 - share) / (n - 1), n

    first, second = ((short, at_c), (long, at_t)) if z == 1 else ((long, at_t), (short, at_c))
    (m1, v1, n1), (m2, v2, n2) = share_and_variance(*first), share_and_variance(*second)
    error = math.sqrt(v1 / n1 + v2 / n2)
    if error == 0:
        return None
    df = (v1 / n1 + v2 / n2) ** 2 / ((v1 / n1) ** 2 / (n1 - 1) + (v2 / n2) ** 2 / (n2 - 1))
    return float(student.cdf((m1 - m2) / error, df))


def _chi2_above(statistic: float, df: int) -> float:
    """P(χ²_df > statistic), with χ²₀ the point mass at 0."""
    from scipy.stats import chi2

    if df == 0:
        return 0.0
    return float(chi2.sf(statistic, df))


__all__ = ["DesignEffectTest", "Family", "design_effect_test"]
