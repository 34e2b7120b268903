"""The list experiment's regression: it finds the coefficients it was simulated with, within
their standard errors, and refuses what it cannot fit (its figures against R's list::ictreg are in
tests/r/test_list_experiment_r.py)."""

from __future__ import annotations

import numpy as np
import pytest

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
