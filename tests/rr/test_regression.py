"""Logistic regression of a randomized answer, verified three ways: against the same likelihood
written out here and maximised by a general optimizer, by simulation (bias and coverage), and
against the survey-wide estimate with only an intercept."""

import math

import numpy as np
import pytest
from scipy import optimize, special

import rr
from rr.mechanism import noise_line

# Three groups of a direct question (reference "first"), prevalences about 18%, 38% and 57%.
DESIGN = np.array([[1, 0, 0], [1, 1, 0], [1, 0, 1]], dtype=float)
TERMS = ["(intercept)", "year=second", "year=fourth"]
BETA = np.array([-1.5, 1.0, 1.8])


def line(epsilon, k=2):
    """a and b written from their definitions, not through rr."""
    e = math.exp(epsilon)
    return 1 / (e + k - 1), (e - 1) / (e + k - 1)


def simulate(n_per_group, epsilon, seed, k=2):
    a, b = line(epsilon, k)
    truth = special.expit(DESIGN @ BETA)
    n = np.full(3, n_per_group)
    return n, np.random.default_rng(seed).binomial(n, a + b * truth)


def central_hessian(f, x, h):
    """Second derivatives by central differences."""
    size = len(x)
    hessian = np.empty((size, size))
    steps = np.eye(size) * h
    for i in range(size):
        for j in range(size):
            hessian[i, j] = (
                f(x + steps[i] + steps[j])
                - f(x + steps[i] - steps[j])
                - f(x - steps[i] + steps[j])
                + f(x - steps[i] - steps[j])
            ) / (4 * h * h)
    return hessian


@pytest.mark.parametrize(
    ("epsilon", "k", "seed"), [(1.0, 2, 1), (2.0, 2, 2), (0.5, 2, 3), (1.5, 4, 4)]
)
def test_agrees_with_a_general_optimizer_on_the_likelihood_written_separately(epsilon, k, seed):
    n, yes = simulate(3000, epsilon, seed, k)
    a, b = line(epsilon, k)

    def negative_log_likelihood(beta):
        mu = a + b * special.expit(DESIGN @ beta)
        return -np.sum(yes * np.log(mu) + (n - yes) * np.log(1 - mu))

    reference = optimize.minimize(
        negative_log_likelihood, np.zeros(3), method="BFGS", options={"gtol": 1e-11}
    )
    result = rr.rr_logistic_regression(DESIGN, n, yes, epsilon, k=k, terms=TERMS)
    assert result.converged
    assert np.allclose([c.estimate for c in result.coefficients], reference.x, atol=1e-6)
    # Standard errors from the observed information: the optimizer's numerical Hessian agrees.
    hessian = central_hessian(negative_log_likelihood, reference.x, 1e-4)
    numeric = np.sqrt(np.diag(np.linalg.inv(hessian)))
    assert np.allclose([c.std_error for c in result.coefficients], numeric, rtol=1e-4)


@pytest.mark.parametrize("procedure", rr.PROCEDURES)
def test_recovers_known_coefficients_without_bias_at_n_5000(procedure):
    fits = [
        rr.rr_logistic_regression(
            DESIGN, *simulate(5000 // 3 + 1, 1.0, seed), 1.0, procedure, terms=TERMS
        )
        for seed in range(2000)
    ]
    estimates = np.array([[c.estimate for c in fit.coefficients] for fit in fits])
    errors = np.array([[c.std_error for c in fit.coefficients] for fit in fits]).mean(axis=0)
    assert np.all(np.abs(estimates.mean(axis=0) - BETA) < 0.1 * errors)


def test_intervals_cover_at_least_93_percent_at_n_2000():
    covered = np.zeros(3)
    trials = 1500
    for seed in range(trials):
        fit = rr.rr_logistic_regression(
            DESIGN, *simulate(667, 1.0, 10_000 + seed), 1.0, terms=TERMS
        )
        covered += [
            c.ci_low <= beta <= c.ci_high for c, beta in zip(fit.coefficients, BETA, strict=True)
        ]
    assert np.all(covered / trials >= 0.93), covered / trials


@pytest.mark.parametrize(
    ("yes", "n", "epsilon", "k"), [(412, 1000, 1.0, 2), (75, 300, 2.0, 2), (100, 400, 1.0, 5)]
)
def test_with_only_an_intercept_it_gives_the_survey_wide_estimate(yes, n, epsilon, k):
    fit = rr.rr_logistic_regression([[1.0]], [n], [yes], epsilon, k=k, terms=["(intercept)"])
    a, b = line(epsilon, k)
    assert fit.predict([1.0]).estimate == pytest.approx((yes / n - a) / b, abs=1e-9)
    if k == 2:
        assert fit.predict([1.0]).estimate == pytest.approx(
            rr.estimate_proportion(yes, n, epsilon).estimate, abs=1e-9
        )


@pytest.mark.parametrize(
    ("design", "n", "yes", "message"),
    [
        (DESIGN, [300, 0, 300], [100, 0, 150], "no respondents"),
        (DESIGN, [5, 5, 5], [2, 2, 2], "too few responses"),
        ([[1, 1], [1, 1]], [300, 300], [100, 120], "collinear"),
        ([[1, 0], [1, 1]], [2000, 2000], [1000, 0], "separation"),
    ],
)
def test_a_model_that_cannot_be_estimated_says_why(design, n, yes, message):
    with pytest.raises(rr.RegressionError, match=message):
        rr.rr_logistic_regression(design, n, yes, 1.0)


def test_bad_input_is_a_value_error_naming_it():
    with pytest.raises(ValueError, match="one entry per design row"):
        rr.rr_logistic_regression(DESIGN, [1, 2], [0, 1], 1.0)
    with pytest.raises(ValueError, match=r"yes must lie in \[0, n\]"):
        rr.rr_logistic_regression(DESIGN, [10, 10, 10], [11, 0, 0], 1.0)
    assert "converged=True" in repr(rr.rr_logistic_regression(DESIGN, *simulate(400, 1.0, 1), 1.0))
    assert noise_line(1.0) == pytest.approx(line(1.0))
