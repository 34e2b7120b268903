"""rr's refusals are typed: a ParameterError (a ValueError) naming the argument and the reason,
so that an application maps them to its own fields and words instead of repeating the checks."""

from __future__ import annotations

import importlib
import inspect
import math
import pickle
import pkgutil

import pytest

import rr
from rr.errors import REASONS


@pytest.mark.parametrize(
    ("call", "parameter", "reason", "value"),
    [
        (lambda: rr.spinner(0), "epsilon", "out_of_range", 0),
        (lambda: rr.spinner_coin("1"), "epsilon", "not_a_number", "1"),
        (lambda: rr.spinner_coin(math.nan), "epsilon", "out_of_range", None),
        (lambda: rr.forced_response(0.7, 0.2, 0.2), "p_forced_no", "not_one", None),
        (lambda: rr.forced_response(0.8, 0.2, 0), "p_forced_no", "infinite_epsilon", 0.0),
        (lambda: rr.forced_response(0, 0.5, 0.5), "p_truth", "no_information", 0.0),
        (lambda: rr.forced_response(1.2, 0, 0), "p_truth", "out_of_range", 1.2),
        (lambda: rr.unrelated_question(1, 0.3), "p_truth", "infinite_epsilon", 1.0),
        (lambda: rr.unrelated_question(0.7, 0), "prevalence", "out_of_range", 0),
        (lambda: rr.crosswise(0.5), "prevalence", "no_information", 0.5),
        (lambda: rr.kuk(0.6, 1.0), "theta_no", "out_of_range", 1.0),
        (lambda: rr.kuk(0.4, 0.4), "theta_no", "no_information", 0.4),
        (lambda: rr.cheating_detection([(0.6, 0.3, 0.1), (0.6, 0.3, 0.1)]), "arms", None, None),
        (lambda: rr.spinner(1).estimate(3, 0), "n", None, None),
        (lambda: rr.estimate_choice([1, 2], 1.0, "dice"), "procedure", "not_allowed", "dice"),
        (lambda: rr.gaussian_sigma(1.0, 1.0, 1e-5, "exact"), "method", "not_allowed", "exact"),
    ],
)
def test_a_refusal_names_the_argument_and_why(call, parameter, reason, value):
    with pytest.raises(rr.ParameterError) as refused:
        call()
    error = refused.value
    assert isinstance(error, ValueError) and error.parameter == parameter
    assert error.reason in REASONS and (reason is None or error.reason == reason)
    if value is not None:
        assert error.value == value
    assert parameter in str(error) or parameter in repr(error)


def test_a_reason_outside_the_list_is_itself_refused():
    with pytest.raises(ValueError, match="reason must be one of"):
        rr.ParameterError("epsilon", "bad", reason="because")


def test_the_repr_says_what_and_why():
    error = rr.ParameterError("epsilon", "epsilon must be > 0, got -1", "out_of_range", -1)
    assert repr(error) == (
        "ParameterError(parameter='epsilon', reason='out_of_range', 'epsilon must be > 0, got -1')"
    )


# One raised instance of every exception class rr defines: a class added without an example here
# fails the census below.
RAISED = {
    "ParameterError": lambda: rr.kuk(0.6, 1.0),
    "RegressionError": lambda: rr.rr_logistic_regression([[1.0], [1.0]], [0, 5], [0, 2], 1.0),
}


def _exception_classes() -> set[type]:
    """Every exception class a module of rr defines (not one it imports)."""
    found = set()
    for info in pkgutil.iter_modules(rr.__path__):
        module = importlib.import_module(f"rr.{info.name}")
        for _name, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__ == module.__name__:
                found.add(value)
    return found


def test_every_exception_rr_defines_has_an_example():
    assert {cls.__name__ for cls in _exception_classes()} == set(RAISED)


@pytest.mark.parametrize("name", sorted(RAISED))
def test_an_exception_comes_back_whole_from_another_process(name):
    # The app runs rr's costly work in worker processes: what a worker raises is pickled back.
    with pytest.raises(ValueError) as raised:
        RAISED[name]()
    error = raised.value
    assert type(error).__name__ == name
    returned = pickle.loads(pickle.dumps(error))
    assert type(returned) is type(error) and str(returned) == str(error)
    assert vars(returned) == vars(error)
