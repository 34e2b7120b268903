"""Synthetic datasets from posterior tables, the combining rules for fully synthetic data, and the
interval-overlap utility measure."""

import math

import numpy as np
import pytest
from scipy import stats

from rr.synthetic import combine, expand, interval_overlap, synthesize


def test_synthesize_draws_n_per_dataset_repeatably():
    tables = np.array([[[0.5, 0.2], [0.2, 0.1]], [[0.4, 0.3], [0.2, 0.1]]])
    counts = synthesize(tables, 1000, seed=3)
    assert counts.shape == tables.shape and list(counts.sum(axis=(1, 2))) == [1000, 1000]
    assert np.array_equal(counts, synthesize(tables, 1000, seed=3))
    with pytest.raises(ValueError, match="probability table"):
        synthesize(tables * 2, 10)


def test_expand_gives_one_row_per_respondent_with_its_levels():
    counts = np.array([[2, 0], [1, 3]])
    rows = expand(counts, seed=1)
    assert rows.shape == (6, 2)
    assert sorted(map(tuple, rows.tolist())) == [(0, 0), (0, 0), (1, 0), (1, 1), (1, 1), (1, 1)]


def test_combining_rules_match_the_formulas():
    q = np.array([0.30, 0.34, 0.28, 0.33, 0.31])
    u = np.full(5, 0.0001)
    pooled = combine(q, u, 1000, 1000)
    b = q.var(ddof=1)
    total = (1 + 1 / 5) * b - 0.0001
    assert pooled.estimate == pytest.approx(q.mean())
    assert pooled.variance == pytest.approx(total)
    df = 4 * (1 - 5 * 0.0001 / (6 * b)) ** 2
    assert pooled.df == pytest.approx(df)
    half = stats.t.ppf(0.975, df) * math.sqrt(total)
    assert (pooled.ci_low, pooled.ci_high) == pytest.approx((q.mean() - half, q.mean() + half))


def test_a_negative_total_falls_back_to_the_within_variance():
    pooled = combine([0.3, 0.3001], [0.01, 0.01], 500, 1000)
    assert pooled.variance == pytest.approx(0.5 * 0.01) and pooled.df == math.inf


def test_synthetic_intervals_cover_when_the_model_is_right():
    """Datasets drawn from a correct posterior pool to intervals that cover the truth."""
    rng = np.random.default_rng(9)
    covered = 0
    for _ in range(400):
        observed = rng.binomial(1000, 0.3)
        draws = rng.beta(1 + observed, 1 + 1000 - observed, size=5)
        shares = rng.binomial(1000, draws) / 1000
        pooled = combine(shares, shares * (1 - shares) / 1000, 1000, 1000)
        covered += pooled.ci_low <= 0.3 <= pooled.ci_high
    assert covered / 400 >= 0.92


def test_interval_overlap_is_one_for_the_same_interval_and_falls_apart():
    assert interval_overlap((0.1, 0.3), (0.1, 0.3)) == pytest.approx(1.0)
    assert interval_overlap((0.1, 0.3), (0.3, 0.5)) == pytest.approx(0.0)
    assert interval_overlap((0.1, 0.3), (0.2, 0.4)) == pytest.approx(0.5)
    assert interval_overlap((0.1, 0.2), (0.3, 0.4)) < 0
    with pytest.raises(ValueError, match="high > low"):
        interval_overlap((0.3, 0.3), (0.1, 0.2))
