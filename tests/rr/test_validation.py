"""Bad input raises a ValueError that names the bad value."""

import math
import subprocess
import sys

import numpy as np
import pytest

import rr

# 1e-7 and 1e-300 are positive but below rr.MIN_EPSILON, where no survey could estimate anything.
BAD_EPSILONS = [0, -1.0, 1e-7, 1e-300, math.nan, math.inf, -math.inf, "1.0", None, True]


@pytest.mark.parametrize("epsilon", BAD_EPSILONS)
@pytest.mark.parametrize(
    "call",
    [
        lambda e: rr.light_fraction(e),
        lambda e: rr.truth_probability(e),
        lambda e: rr.perturb([1, 0], e),
        lambda e: rr.estimate_proportion(3, 10, e),
        lambda e: rr.sample_size(0.05, e),
        lambda e: rr.simulate_estimates(0.3, 100, e),
        lambda e: rr.question_epsilon(e),
    ],
    ids=["light", "truth", "perturb", "estimate", "sample_size", "simulate", "question"],
)
def test_bad_epsilon_is_named(call, epsilon):
    with pytest.raises(ValueError, match=rf"epsilon.*{repr(epsilon)[:3]}"):
        call(epsilon)


@pytest.mark.parametrize(
    "call",
    [
        lambda p: rr.light_fraction(1.0, p),
        lambda p: rr.perturb([1], 1.0, p),
        lambda p: rr.estimate_proportion(3, 10, 1.0, p),
        lambda p: rr.sample_size(0.05, 1.0, p),
        lambda p: rr.simulate_estimates(0.3, 10, 1.0, p),
    ],
)
def test_unknown_procedure_is_named(call):
    with pytest.raises(ValueError, match="'coin_only'"):
        call("coin_only")


@pytest.mark.parametrize(
    ("noisy_yes", "n", "named"),
    [
        (3, 0, "n must be >= 1"),
        (3, -5, "n must be >= 1"),
        (-1, 10, "noisy_yes=-1"),
        (11, 10, "noisy_yes=11"),
        (2.5, 10, "noisy_yes must hold whole numbers"),
        (3, 10.5, "n must hold whole numbers"),
        ("3", 10, "noisy_yes must hold whole numbers"),
        (np.array([1, 12]), 10, "noisy_yes must lie in"),
    ],
)
def test_bad_counts_are_named(noisy_yes, n, named):
    with pytest.raises(ValueError, match=named):
        rr.estimate_proportion(noisy_yes, n, 1.0)


@pytest.mark.parametrize("confidence", [0, 1, 1.5, -0.1, math.nan, "0.95"])
def test_bad_confidence_is_named(confidence):
    with pytest.raises(ValueError, match="confidence"):
        rr.estimate_proportion(3, 10, 1.0, confidence=confidence)
    with pytest.raises(ValueError, match="confidence"):
        rr.sample_size(0.05, 1.0, confidence=confidence)


@pytest.mark.parametrize("margin", [0, -0.1, math.nan, math.inf, None])
def test_bad_margin_is_named(margin):
    with pytest.raises(ValueError, match="margin"):
        rr.sample_size(margin, 1.0)


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"true_proportion": 1.5}, "true_proportion"),
        ({"n": 0}, "n must be >= 1"),
        ({"n": 10.0}, "n must be a whole number"),
        ({"trials": 0}, "trials"),
    ],
)
def test_bad_simulation_arguments_are_named(kwargs, named):
    arguments = {"true_proportion": 0.3, "n": 100, "epsilon": 1.0} | kwargs
    with pytest.raises(ValueError, match=named):
        rr.simulate_estimates(**arguments)


def test_bad_true_bits_are_refused():
    with pytest.raises(ValueError, match="true_bits"):
        rr.perturb([0, 2], 1.0)


def test_import_loads_neither_scipy_nor_a_web_framework():
    # Every worker start and CLI call imports rr: SciPy (≈0.3-1 s) is loaded only where it is used.
    code = "import sys, rr; print(sorted(m for m in ('scipy', 'flask') if m in sys.modules))"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert result.stdout.strip() == "[]"
