"""The list experiment's regression: it finds the coefficients it was simulated with, within
their standard errors, and refuses what it cannot fit; a double list's fits both lists at once
(the single list's figures against R's list::ictreg are in tests/r/test_list_experiment_r.py)."""

from __future__ import annotations

import numpy as np
import pytest

from rr.double_list import double_list
from rr.errors import ParameterError
from rr.list_regression import list_regression


def simulated(rng, n=6000, controls=4, beta=(-1.0, 1.2), gamma=(0.2, -0.5)):
    x = np.column_stack([np.ones(n), rng.random(n) < 0.5])
    delta = 1 / (1 + np.exp(-(x @ np.array(beta))))
    psi = 1 / (1 + np.exp(-(x @ np.array(gamma))))
    treated = rng.random(n) < 0.5
    counts = rng.binomial(controls, psi) + treated * (rng.random(n) < delta)
    return controls, counts, treated, x


def test_the_fit_finds_the_simulated_coefficients():
    controls, counts, treated, x = simulated(np.random.default_rng(12))
    found = list_regression(controls, counts, treated, x, ["(Intercept)", "group"])
    # Four standard errors of each: a fixed seed, and tolerances the fit's own errors set.
    for coefficient, truth in zip(found.sensitive, (-1.0, 1.2), strict=True):
        assert abs(coefficient.estimate - truth) < 4 * coefficient.std_error, coefficient
    for coefficient, truth in zip(found.control, (0.2, -0.5), strict=True):
        assert abs(coefficient.estimate - truth) < 4 * coefficient.std_error, coefficient
    assert found.share([1, 1]) == pytest.approx(
        1 / (1 + np.exp(-sum(c.estimate for c in found.sensitive)))
    )


def test_an_intercept_alone_is_the_intercept_only_fit():
    from rr.list_experiment import list_experiment

    controls, counts, treated, x = simulated(np.random.default_rng(13), n=3000)
    found = list_regression(controls, counts, treated, x[:, :1])
    short = np.bincount(counts[~treated], minlength=controls + 1)
    long = np.bincount(counts[treated], minlength=controls + 2)
    ml = list_experiment(controls).estimate(short, long).ml
    assert found.sensitive[0].estimate == pytest.approx(ml.logit, abs=1e-4)
    assert found.sensitive[0].std_error == pytest.approx(ml.logit_std_error, abs=1e-4)
    assert found.log_likelihood == pytest.approx(ml.log_likelihood, abs=1e-6)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"counts": [5, 0, 1, 2]}, "above"),
        ({"treated": [True, True, True, False]}, "at least two"),
        ({"covariates": [[1, 0], [1, 0], [1, 0], [1, 0]]}, "full rank"),
        ({"covariates": [[1], [1], [1]]}, "one row"),
    ],
)
def test_what_cannot_be_fitted_is_refused(change, message):
    data = {
        "counts": [0, 1, 2, 3],
        "treated": [False, False, True, True],
        "covariates": [[1, 0], [1, 1], [1, 0], [1, 1]],
    } | change
    with pytest.raises(ParameterError, match=message):
        list_regression(3, **data)


def simulated_double(rng, n=3000, beta=(-1.0, 1.2), gamma_a=(0.2, -0.5), gamma_b=(-0.4, 0.5)):
    """A double list of 3 and 4 control items, each respondent's arm drawn half and half."""
    x = np.column_stack([np.ones(n), rng.random(n) < 0.5])

    def share(coefficients):
        return 1 / (1 + np.exp(-(x @ np.array(coefficients))))

    holds = rng.random(n) < share(beta)
    arms = np.where(rng.random(n) < 0.5, "a", "b")
    counts_a = rng.binomial(3, share(gamma_a)) + (holds & (arms == "a"))
    counts_b = rng.binomial(4, share(gamma_b)) + (holds & (arms == "b"))
    return list(arms), counts_a, counts_b, x


def test_a_double_list_finds_the_simulated_coefficients():
    arms, counts_a, counts_b, x = simulated_double(np.random.default_rng(21))
    found = double_list(3, 4).regression(arms, counts_a, counts_b, x, ["(Intercept)", "group"])
    assert found.n == 3000 and [c.name for c in found.control_b] == ["(Intercept)", "group"]
    # Four standard errors of each: a fixed seed, and tolerances the fit's own errors set.
    for coefficients, truths in (
        (found.sensitive, (-1.0, 1.2)),
        (found.control, (0.2, -0.5)),
        (found.control_b, (-0.4, 0.5)),
    ):
        for coefficient, truth in zip(coefficients, truths, strict=True):
            assert abs(coefficient.estimate - truth) < 4 * coefficient.std_error, coefficient


def test_a_double_list_is_its_two_lists_with_one_sensitive_model_and_sharper_than_either():
    """Each list alone is a list experiment (its long list the arm that holds the item there):
    the double list's likelihood is theirs summed with β shared, so its maximum is at most
    theirs, by a likelihood ratio a χ² on 2 degrees of freedom when β is shared, as simulated;
    and β is known better from both lists than from either."""
    arms, counts_a, counts_b, x = simulated_double(np.random.default_rng(22))
    both = double_list(3, 4).regression(arms, counts_a, counts_b, x)
    alone = [
        list_regression(3, counts_a, [arm == "a" for arm in arms], x),
        list_regression(4, counts_b, [arm == "b" for arm in arms], x),
    ]
    ratio = 2 * (sum(fit.log_likelihood for fit in alone) - both.log_likelihood)
    assert 0 <= ratio < 13.8  # χ²(2)'s 99.9th percentile
    for index, coefficient in enumerate(both.sensitive):
        assert coefficient.std_error < min(fit.sensitive[index].std_error for fit in alone)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"arms": ["a", "a", "b", "c"]}, "'a' or 'b'"),
        ({"arms": ["a", "b", "b", "b"]}, "at least two"),
        ({"counts_a": [0, 0, 4, 2]}, "above 3"),
        ({"covariates": [[1, 0], [1, 0], [1, 0], [1, 0]]}, "full rank"),
        ({"covariates": [[1], [1], [1]]}, "one row"),
    ],
)
def test_what_a_double_list_cannot_fit_is_refused(change, message):
    data = {
        "arms": ["a", "a", "b", "b"],
        "counts_a": [0, 1, 2, 3],
        "counts_b": [1, 2, 0, 1],
        "covariates": [[1, 0], [1, 1], [1, 0], [1, 1]],
    } | change
    with pytest.raises(ParameterError, match=message):
        double_list(3, 3).regression(**data)
