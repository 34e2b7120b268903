"""The reference report's Bayesian DP synthetic data for one normal variable."""

import numpy as np
import pytest

from rr.sanitized import BURN_IN, SWEEPS, sanitized_synthesis


@pytest.fixture(scope="module")
def values():
    return np.clip(np.random.default_rng(1).normal(50, 15, 2000), 0, 100)


def test_a_larger_epsilon_brings_the_estimates_and_the_data_closer(values):
    runs = [sanitized_synthesis(values, 0, 100, epsilon, m=5, seed=3) for epsilon in (0.1, 1, 10)]
    truth_mean, truth_variance = values.mean(), values.var()
    errors = [abs(run.posterior_mu - truth_mean) for run in runs]
    assert errors[2] < 0.5 and errors[2] <= errors[0]
    assert runs[2].posterior_variance == pytest.approx(truth_variance, rel=0.1)
    assert runs[2].synthetic.mean == pytest.approx(truth_mean, abs=2.0)


def test_the_interval_overlap_grows_with_epsilon_on_average(values):
    """One synthetic set's interval moves with its posterior draw and its own sampling, so the
    overlap is compared over 20 runs: near 1 needs a large ε, and a small one falls far short."""
    overlaps = {
        epsilon: np.mean(
            [sanitized_synthesis(values, 0, 100, epsilon, m=5, seed=s).overlap for s in range(20)]
        )
        for epsilon in (0.1, 10)
    }
    assert overlaps[10] > 0.5 and overlaps[10] > overlaps[0.1] + 0.5


def test_the_gibbs_chains_have_the_reports_length_and_the_sets_their_size(values):
    run = sanitized_synthesis(values, 0, 100, 1.0, m=4, seed=1)
    assert run.mu_chain.shape == (SWEEPS,) and run.lambda_chain.shape == (SWEEPS,)
    assert run.datasets.shape == (4, len(values))
    # After burn-in the chain settles: its two halves agree within a few of its own spreads.
    kept = run.mu_chain[BURN_IN:]
    assert abs(kept[:500].mean() - kept[500:].mean()) < 4 * kept.std() / np.sqrt(100)
    assert run.original.minimum == values.min() and run.original.maximum == values.max()
    again = sanitized_synthesis(values, 0, 100, 1.0, m=4, seed=1)
    assert np.array_equal(again.datasets, run.datasets)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (([1.0], 0, 1, 1.0), "two or more"),
        (([1.0, 2.0], 0, 1, 1.0), r"lie in \[0, 1\]"),
        (([0.5, 0.6], 1, 0, 1.0), "low < high"),
        (([0.5, 0.6], 0, 1, 0.0), "epsilon"),
    ],
)
def test_bad_arguments_are_refused(arguments, message):
    with pytest.raises(ValueError, match=message):
        sanitized_synthesis(*arguments)
