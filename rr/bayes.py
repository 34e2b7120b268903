"""The posterior of one item's true share, under any binary design of the app.

With a Beta(α, β) prior on π and y reports of 1 among n through a design whose reports are 1 with
probability θ(π) = a + b·π (:mod:`rr.design`), the posterior density is

    p(π | y) ∝ π^(α−1) (1 − π)^(β−1) · θ(π)^y (1 − θ(π))^(n−y),   0 ≤ π ≤ 1.

It is log-concave when α, β ≥ 1 (θ is linear in π), so it has one mode, and it lives on [0, 1]
whatever the reports: a class of 25 whose raw estimate is −4% gets a posterior piled near 0, never
a negative share. There is no closed form that stays stable for large n (expanding θ^y gives a
mixture of O(n²) Beta densities), so it is integrated numerically, in log space: Gauss–Legendre
panels of 20 nodes, dense over the bulk (the mode ± 15 posterior standard deviations), uniform
over [0, 1] and geometric towards both ends, where a prior with α or β below 1 is unbounded. The
mean and standard deviation are sums over the nodes; quantiles solve CDF(x) = q inside their
panel with the panel's own rule, so they are as accurate as the integral (about 1e-10), for n
from 1 to 10⁷. The highest-density interval is the shortest interval with the given mass (for a
unimodal posterior, the one whose ends have equal density).

References: Gelman et al. (2013), *Bayesian Data Analysis*, 3rd ed., §2.3 (intervals); for the
randomized-response likelihood, Winkler & Franklin (1979), Warner's randomized response model: a
Bayesian approach, *JASA* 74, 207–214; O'Hagan (1987), Bayes linear estimators for randomized
response models, *JASA* 82, 580–585.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ._validate import check_count, check_positive, check_probability
from .errors import ParameterError

NODES = 20
BULK_PANELS = 120  # over the mode ± BULK_WIDTH standard deviations
BULK_WIDTH = 15.0
UNIFORM_PANELS = 64
END_DECADES = 15  # panels from 1e-15 to 1e-1 at each end


@dataclass(frozen=True)
class Posterior:
    """The posterior of π from one item's reports: summaries and the numerical measure behind them.

    Build it with :func:`posterior`. ``nodes`` and ``weights`` are the quadrature's: the posterior
    expectation of g(π) is Σ weights·g(nodes).
    """

    n: int
    noisy_yes: int
    prior: tuple[float, float]
    offset: float
    slope: float
    nodes: np.ndarray
    weights: np.ndarray
    edges: np.ndarray  # the panels' ends, in order
    panel_mass: np.ndarray  # the posterior mass of each panel
    log_scale: float  # the log-density subtracted before exponentiating
    normaliser: float  # the integral of the density so scaled

    def __repr__(self) -> str:
        low, high = self.interval()
        return (
            f"Posterior(n={self.n}, noisy_yes={self.noisy_yes}, prior=Beta{self.prior}, "
            f"mean={self.mean:.4f}, sd={self.sd:.4f}, 95% CrI=[{low:.4f}, {high:.4f}])"
        )

    @property
    def mean(self) -> float:
        return float(self.weights @ self.nodes)

    @property
    def sd(self) -> float:
        return math.sqrt(max(float(self.weights @ (self.nodes - self.mean) ** 2), 0.0))

    @property
    def median(self) -> float:
        return self.quantile(0.5)

    def cdf(self, x: float) -> float:
        """P(π ≤ x)."""
        if x <= 0:
            return 0.0
        if x >= 1:
            return 1.0
        panel = int(np.searchsorted(self.edges, x, side="right")) - 1
        before = float(self.panel_mass[:panel].sum())
        return before + self._part(panel, x)

    def prob_above(self, threshold: float) -> float:
        """P(π > t), e.g. the probability that more than 10% truly answer yes."""
        threshold = check_probability(threshold, "threshold", closed=True)
        return 1.0 - self.cdf(threshold)

    def quantile(self, q: float) -> float:
        """The x with P(π ≤ x) = q: inside its panel, Newton steps on the panel's own rule (the
        density is the CDF's derivative), safeguarded by bisection, to 1e-13."""
        q = check_probability(q, "q", closed=True)
        if q <= 0:
            return float(self.edges[0])
        if q >= 1:
            return float(self.edges[-1])
        cumulative = np.cumsum(self.panel_mass)
        panel = min(int(np.searchsorted(cumulative, q)), len(self.panel_mass) - 1)
        target = q - (float(cumulative[panel - 1]) if panel else 0.0)
        left, right = float(self.edges[panel]), float(self.edges[panel + 1])
        mass = float(self.panel_mass[panel])
        x = left + (right - left) * min(max(target / mass, 0.0), 1.0) if mass > 0 else left
        for _ in range(60):
            gap = self._part(panel, x) - target
            if gap > 0:
                right = x
            else:
                left = x
            slope = float(np.exp(self._log_density(np.array([x]))[0] - self.log_scale))
            step = gap / (slope / self.normaliser) if slope > 0 else math.inf
            following = x - step
            if not left < following < right:
                following = (left + right) / 2
            if abs(following - x) <= 1e-13 * max(1.0, abs(x)) or right - left <= 1e-15:
                return following
            x = following
        return x

    def interval(self, level: float = 0.95) -> tuple[float, float]:
        """The equal-tailed credible interval: the (1 − level)/2 and (1 + level)/2 quantiles."""
        level = check_probability(level, "level", closed=False)
        return self.quantile((1 - level) / 2), self.quantile((1 + level) / 2)

    def hdi(self, level: float = 0.95) -> tuple[float, float]:
        """The highest-density interval: the shortest interval holding ``level`` of the mass. For
        one mode (α, β ≥ 1 guarantee it) its ends have equal density, so the lower tail t solves
        log p(Q(t)) = log p(Q(t + level)); where no t does, the mode is at an end and so is the
        interval."""
        from scipy import optimize

        level = check_probability(level, "level", closed=False)

        def gap(tail: float) -> float:
            ends = np.array([self.quantile(tail), self.quantile(tail + level)])
            # The density at 0 or 1 is its limit there (a prior's log term is 0 · −∞ at the end).
            low, high = self._log_density(np.clip(ends, 1e-300, 1 - 1e-16))
            return float(low - high)

        first, last = 0.0, 1.0 - level
        at_first, at_last = gap(first), gap(last)
        if at_first >= 0:  # the density falls from the left end on: the mode is at 0
            tail = first
        elif at_last <= 0:
            tail = last
        else:
            tail = optimize.brentq(gap, first, last, xtol=1e-13)
        return self.quantile(tail), self.quantile(tail + level)

    def _part(self, panel: int, x: float) -> float:
        """The posterior mass from the panel's left end to x (inside the panel)."""
        left = float(self.edges[panel])
        if x <= left:
            return 0.0
        points, weights = _rule(left, x)
        return float(weights @ np.exp(self._log_density(points) - self.log_scale)) / self.normaliser

    def _log_density(self, points: np.ndarray) -> np.ndarray:
        return _log_density(points, self.noisy_yes, self.n, self.prior, self.offset, self.slope)


def posterior(noisy_yes, n, offset, slope, prior=(1.0, 1.0)) -> Posterior:
    """The posterior of π from ``noisy_yes`` reports of 1 among ``n`` through the line
    θ = offset + slope·π, with a Beta(α, β) prior.

    Parameters
    ----------
    noisy_yes, n : int
        The item's counts (0 ≤ noisy_yes ≤ n; n ≥ 0: with n = 0 the posterior is the prior).
    offset, slope : float
        A design's line (:class:`rr.Design`'s ``offset`` and ``slope``); slope may be negative
        (crosswise with a prevalence below ½) but not 0.
    prior : (float, float)
        α and β of the Beta prior, each > 0 (default: uniform).

    Raises
    ------
    ValueError
        On counts that are not whole or out of order, a line that is not a design's (θ outside
        [0, 1] somewhere on [0, 1], or slope 0), or a prior parameter that is not > 0.

    Examples
    --------
    >>> import rr
    >>> line = rr.spinner_coin(1.0)
    >>> posterior(9, 25, line.offset, line.slope)
    Posterior(n=25, noisy_yes=9, prior=Beta(1.0, 1.0), mean=0.2668, sd=0.1663, 95% CrI=[0.0172, 0.6352])
    """
    n = check_count(n, "n", minimum=0)
    noisy_yes = check_count(noisy_yes, "noisy_yes", minimum=0)
    if noisy_yes > n:
        raise ParameterError(
            "noisy_yes", f"noisy_yes must lie in [0, n], got noisy_yes={noisy_yes}, n={n}"
        )
    offset, slope = float(offset), float(slope)
    ends = (offset, offset + slope)
    if slope == 0 or not all(0 <= end <= 1 for end in ends) or not all(map(math.isfinite, ends)):
        raise ValueError(f"offset and slope must make a design's line, got {offset!r}, {slope!r}")
    if not (isinstance(prior, (tuple, list)) and len(prior) == 2):
        raise ParameterError("prior", f"prior must be (alpha, beta), got {prior!r}")
    alpha = check_positive(prior[0], "alpha")
    beta = check_positive(prior[1], "beta")
    return _posterior(noisy_yes, n, (alpha, beta), offset, slope)


def _posterior(yes: int, n: int, prior: tuple[float, float], offset: float, slope: float):
    """The quadrature over panels; assumes checked arguments."""
    centre, spread = _bulk(yes, n, prior, offset, slope)
    edges = _edges(centre, spread)
    points, weights = _rule(edges[:-1], edges[1:])
    log_f = _log_density(points.ravel(), yes, n, prior, offset, slope).reshape(points.shape)
    scale = float(np.max(log_f))
    mass = weights * np.exp(log_f - scale)
    total = float(mass.sum())
    return Posterior(
        n, yes, prior, offset, slope, points.ravel(), (mass / total).ravel(), edges,
        mass.sum(axis=1) / total, scale, total,
    )  # fmt: skip


def _bulk(yes: int, n: int, prior, offset: float, slope: float) -> tuple[float, float]:
    """Where the posterior's mass is: its mode (searched on [0, 1]) and a width of about one
    posterior standard deviation there (from the curvature, at least the prior's scale / n)."""
    from scipy import optimize

    found = optimize.minimize_scalar(
        lambda p: -_log_density(np.array([p]), yes, n, prior, offset, slope)[0],
        bounds=(0.0, 1.0),
        method="bounded",
        options={"xatol": 1e-12},
    )
    centre = float(found.x)
    theta = min(max(offset + slope * centre, 1e-12), 1 - 1e-12)
    information = (n + sum(prior)) / (theta * (1 - theta)) * slope**2
    spread = 1 / math.sqrt(information) if information > 0 else 1.0
    return centre, min(spread, 1.0)


def _edges(centre: float, spread: float) -> np.ndarray:
    """The panels' ends: uniform on [0, 1], geometric towards 0 and 1, dense over the bulk."""
    tiny = 10.0 ** -np.arange(END_DECADES, 0, -1)
    bulk = centre + spread * np.linspace(-BULK_WIDTH, BULK_WIDTH, BULK_PANELS + 1)
    edges = np.concatenate(
        [[0.0, 1.0], tiny, 1 - tiny, np.linspace(0, 1, UNIFORM_PANELS + 1), bulk]
    )
    edges = np.unique(np.clip(edges, 0.0, 1.0))
    return edges[np.concatenate([[True], np.diff(edges) > 1e-15])]


def _rule(left, right):
    """Gauss–Legendre nodes and weights of NODES points on each [left, right] (arrays or floats)."""
    x, w = _gauss_legendre(NODES)
    left, right = np.atleast_1d(left)[:, None], np.atleast_1d(right)[:, None]
    half = (right - left) / 2
    points = left + half * (x + 1)
    weights = half * w
    if points.shape[0] == 1:
        return points[0], weights[0]
    return points, weights


@lru_cache(maxsize=4)
def _gauss_legendre(nodes: int) -> tuple[np.ndarray, np.ndarray]:
    return np.polynomial.legendre.leggauss(nodes)


def _log_density(points: np.ndarray, yes: int, n: int, prior, offset: float, slope: float):
    """log of the unnormalised posterior at ``points`` in (0, 1); assumes checked arguments."""
    alpha, beta = prior
    theta = offset + slope * points
    with np.errstate(divide="ignore", invalid="ignore"):
        value = (alpha - 1) * np.log(points) + (beta - 1) * np.log1p(-points)
        if yes:
            value = value + yes * np.log(theta)
        if n - yes:
            value = value + (n - yes) * np.log1p(-theta)
    return np.where(np.isnan(value), -np.inf, value)


@dataclass(frozen=True)
class ChoicePosterior:
    """The posterior of a single-choice question's k true shares, from Gibbs draws.

    ``draws`` has one row per kept draw and one column per option; every row sums to 1.
    """

    draws: np.ndarray
    prior: float

    def __repr__(self) -> str:
        shares = ", ".join(f"{value:.3f}" for value in self.mean)
        return f"ChoicePosterior(k={self.draws.shape[1]}, draws={len(self.draws)}, mean=[{shares}])"

    @property
    def mean(self) -> np.ndarray:
        return self.draws.mean(axis=0)

    @property
    def sd(self) -> np.ndarray:
        return self.draws.std(axis=0, ddof=1)

    def interval(self, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        """Equal-tailed credible intervals of each share."""
        level = check_probability(level, "level", closed=False)
        low, high = np.quantile(self.draws, [(1 - level) / 2, (1 + level) / 2], axis=0)
        return low, high

    def hdi(self, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        """Each share's shortest interval holding ``level`` of its draws."""
        level = check_probability(level, "level", closed=False)
        ordered = np.sort(self.draws, axis=0)
        count = len(ordered)
        inside = max(1, min(count - 1, int(math.ceil(level * count))))
        widths = ordered[inside:] - ordered[: count - inside]
        start = widths.argmin(axis=0)
        columns = np.arange(ordered.shape[1])
        return ordered[start, columns], ordered[start + inside, columns]


def choice_posterior(
    counts, epsilon, prior: float = 1.0, draws: int = 4000, burn_in: int = 500, seed=None
) -> ChoicePosterior:
    """The Dirichlet posterior of k true shares from a single-choice question's reports, by Gibbs
    sampling with data augmentation (Tanner & Wong 1987).

    Each report of option r came from a true option j with probability ∝ π_j·P(r | j), where
    P(r | j) = e^ε/(e^ε + k − 1) if r = j and 1/(e^ε + k − 1) otherwise (:mod:`rr.choice`). One
    sweep allocates every option's reports to true options (a multinomial draw per reported
    option: the counts are sufficient) and draws π ~ Dirichlet(prior + allocated counts).

    Raises
    ------
    ValueError
        On fewer than 2 counts, a count that is not whole and ≥ 0, ε not finite and > 0, a prior
        not > 0, or draws and burn-in that are not whole numbers (draws ≥ 10).
    """
    from ._validate import as_int_array, check_epsilon

    reported = as_int_array(counts, "counts")
    if reported.ndim != 1 or len(reported) < 2 or np.any(reported < 0):
        raise ParameterError(
            "counts", f"counts must be 2 or more whole numbers >= 0, got {counts!r}"
        )
    epsilon = check_epsilon(epsilon)
    prior = check_positive(prior, "prior")
    draws = check_count(draws, "draws", minimum=10)
    burn_in = check_count(burn_in, "burn_in", minimum=0)
    k = len(reported)
    truth = math.exp(epsilon) / (math.exp(epsilon) + k - 1)
    other = 1 / (math.exp(epsilon) + k - 1)
    given = np.full((k, k), other)  # given[r, j] = P(report r | true j)
    np.fill_diagonal(given, truth)
    rng = np.random.default_rng(seed)
    shares = np.full(k, 1 / k)
    kept = np.empty((draws, k))
    for sweep in range(burn_in + draws):
        chances = given * shares
        chances /= chances.sum(axis=1, keepdims=True)
        allocated = rng.multinomial(reported, chances).sum(axis=0)
        shares = rng.dirichlet(prior + allocated)
        if sweep >= burn_in:
            kept[sweep - burn_in] = shares
    return ChoicePosterior(kept, prior)


__all__ = [
    "ChoicePosterior",
    "Posterior",
    "choice_posterior",
    "posterior",
]
