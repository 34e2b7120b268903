"""Every planning and power function of rr, driven with extreme floats: it answers with a finite
number (or None where it says so) or refuses with a ParameterError naming the argument, and
never raises anything else (a ZeroDivisionError from an underflowed square was a 500)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rr

EXTREMES = [0.0, 5e-324, 2.2e-308, 1e-300, 1e-200, 3.8e-275, 1e-16, 1e-8, 1 - 1e-16, 1.0, 0.5]
# Shares and effects: the extremes above, and any float in [0, 1].
shares = st.one_of(st.sampled_from(EXTREMES), st.floats(min_value=0, max_value=1))
sizes = st.one_of(st.sampled_from([1, 2, 10**6, 10**12, 10**15]), st.integers(1, 10**4))
epsilons = st.one_of(st.sampled_from([1e-300, 1e-16, 0.1, 1.0, 700.0, 1e300]), st.floats(0.01, 10))
designs = st.sampled_from(
    [rr.spinner_coin(1.0), rr.spinner(0.2), rr.forced_response(0.5, 0.3, 0.2)]
)
ranges = st.sampled_from([(0, 20), (0, 1e-300), (-1e300, 1e300)])


def finite_or_refused(call):
    """The call's answer, which must be finite (or None); None as well where it was refused."""
    try:
        answer = call()
    except rr.ParameterError as error:
        assert error.parameter and str(error)
        return None
    if answer is None:
        return None
    values = answer if isinstance(answer, tuple) else (answer,)
    for value in values:
        if isinstance(value, (int, float)):
            assert math.isfinite(value), answer
    return answer


DERANDOMIZED = settings(derandomize=True, max_examples=150)


@DERANDOMIZED
@given(margin=shares, epsilon=epsilons, share=shares, confidence=shares)
def test_sample_size_and_margin(margin, epsilon, share, confidence):
    n = finite_or_refused(
        lambda: rr.sample_size(margin, epsilon, "spinner_coin", confidence, share)
    )
    assert n is None or n >= 1
    finite_or_refused(lambda: rr.margin_of_error(10**6, epsilon, "spinner", confidence, share))
    finite_or_refused(lambda: rr.choice_margin_of_error(500, epsilon, 3, confidence, share))


@DERANDOMIZED
@given(design=designs, margin=shares, share=shares, confidence=shares, n=sizes)
def test_a_designs_sample_size_and_margin(design, margin, share, confidence, n):
    size = finite_or_refused(lambda: design.sample_size(margin, confidence, share))
    assert size is None or size >= 1
    finite_or_refused(lambda: design.margin_of_error(n, confidence, share))


@DERANDOMIZED
@given(bounds=ranges, margin=shares, n=sizes)
def test_a_bounded_means_sample_size_and_margin(bounds, margin, n):
    mean = finite_or_refused(lambda: rr.bounded_mean(*bounds, 1.0))
    if mean is not None:
        finite_or_refused(lambda: mean.sample_size(margin * (bounds[1] - bounds[0])))
        finite_or_refused(lambda: mean.margin_of_error(n))


@DERANDOMIZED
@given(design=designs, baseline=shares, lift=shares, power=shares, alpha=shares, n=sizes)
def test_plan_experiment(design, baseline, lift, power, alpha, n):
    plan = finite_or_refused(lambda: rr.plan_experiment(design, baseline, lift, power, alpha=alpha))
    if plan is not None:
        assert plan.n_per_condition >= 1 and 0 <= plan.power <= 1
    finite_or_refused(lambda: rr.plan_experiment(design, baseline, lift, n=n, alpha=alpha))


@DERANDOMIZED
@given(design=designs, baseline=shares, change=shares, power=shares, alpha=shares, n=sizes,
       down=st.booleans())  # fmt: skip
def test_the_change_planners(design, baseline, change, power, alpha, n, down):
    change = -change if down else change
    finite_or_refused(lambda: rr.change_power(design, n, baseline, change, alpha))
    finite_or_refused(lambda: rr.change_sample_size(design, baseline, change, power, alpha))
    finite_or_refused(lambda: rr.detectable_change(design, n, baseline, power, alpha))


def test_the_underflowing_lift_of_the_schemathesis_case_is_refused_naming_it():
    with pytest.raises(rr.ParameterError) as refused:
        rr.plan_experiment(rr.spinner_coin(1.0), 0.68, 3.8e-275)
    assert refused.value.parameter == "lift"
    with pytest.raises(rr.ParameterError) as refused:
        rr.sample_size(1e-300, 1.0)
    assert refused.value.parameter == "margin"
