"""Values asked directly: the mean's t interval covers as it says, and the quartiles are R's."""

from __future__ import annotations

import math

import numpy as np
import pytest

import rr


def test_the_summary_matches_the_textbook_and_r():
    summary = rr.describe_values([18, 19, 22, 35, 40])
    # R: t.test(x)$conf.int, quantile(x, c(.25, .5, .75))
    assert summary.mean == pytest.approx(26.8)
    assert summary.std_error == pytest.approx(math.sqrt(100.7 / 5))
    assert (summary.ci_low, summary.ci_high) == pytest.approx((14.339, 39.261), abs=1e-3)
    assert (summary.q1, summary.median, summary.q3) == (19, 22, 35)
    assert "quartiles=[19, 22, 35]" in repr(summary)


def test_one_value_has_no_interval():
    summary = rr.describe_values([7.5])
    assert summary.std_error is None and summary.ci_low is None and summary.median == 7.5


def test_the_interval_covers_as_often_as_it_says():
    rng = np.random.default_rng(2026)
    runs, n = 4000, 12
    covered = sum(
        (found := rr.describe_values(rng.normal(40, 9, n))).ci_low <= 40 <= found.ci_high
        for _ in range(runs)
    )
    # Binomial spread of the coverage count: 4 standard deviations either side of 95%.
    spread = 4 * math.sqrt(runs * 0.95 * 0.05)
    assert abs(covered - 0.95 * runs) <= spread


@pytest.mark.parametrize(
    ("values", "confidence", "message"),
    [
        ([], 0.95, "at least one value"),
        ([1, float("nan")], 0.95, "finite numbers"),
        (["a"], 0.95, "must be numbers"),
        ([1, 2], 1.0, r"confidence must lie in \(0, 1\), got 1.0"),
    ],
)
def test_bad_input_is_named(values, confidence, message):
    with pytest.raises(ValueError, match=message):
        rr.describe_values(values, confidence)
