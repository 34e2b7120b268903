"""The test for design effects: its size under no design effect, its power against one, and its
refusals (its figures against R's list::ict.test are in tests/r/test_design_effect_r.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rr.design_effect import design_effect_test
from rr.errors import ParameterError


def frequencies(rng, controls, n, psi, delta, drop=0.0):
    """One experiment's frequencies: control counts Binomial(J, ψ), the sensitive item with δ,
    and in the long list a share ``drop`` of respondents leaving out one control item."""
    short = rng.binomial(controls, psi, size=n)
    long = rng.binomial(controls, psi, size=n) + (rng.random(n) < delta)
    long = np.maximum(long - (rng.random(n) < drop), 0)
    return np.bincount(short, minlength=controls + 1), np.bincount(long, minlength=controls + 2)


def test_with_no_design_effect_it_rejects_no_more_than_its_level():
    rng = np.random.default_rng(8)
    trials = 400
    rejected = sum(
        design_effect_test(*frequencies(rng, 3, 500, 0.5, 0.2)).p_value < 0.05
        for _ in range(trials)
    )
    # Bonferroni makes it conservative: at most 5%, plus three binomial standard errors.
    assert rejected / trials < 0.05 + 3 * math.sqrt(0.05 * 0.95 / trials)


def test_a_strong_design_effect_is_found():
    rng = np.random.default_rng(9)
    found = design_effect_test(*frequencies(rng, 3, 2000, 0.3, 0.1, drop=0.6))
    assert found.p_value < 0.001
    assert min(found.families[0].estimates) < 0 or min(found.families[1].estimates) < 0


@pytest.mark.parametrize(
    ("control", "treatment", "message"),
    [
        ([10, 20], [5, 10, 15], "J >= 2"),
        ([10, 20, 30], [5, 10, 15], "J \\+ 1 short-list and J \\+ 2"),
        ([1, 0, 0], [5, 10, 15, 2], "at least two"),
        ([10, -1, 30], [5, 10, 15, 2], "control"),
    ],
)
def test_tables_that_make_no_test_are_refused(control, treatment, message):
    with pytest.raises(ParameterError, match=message):
        design_effect_test(control, treatment)
