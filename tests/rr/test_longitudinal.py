"""The permanent randomized response: one wave is the spinner at ε₁ exactly, the permanent bits
say nothing of the truth by themselves, and the averaging attack stops at f."""

import math

import numpy as np
import pytest

import rr


def test_one_wave_is_the_spinner_at_epsilon_one_to_1e_12():
    layers = rr.permanent_response(2.0, 1.0)
    composite = (
        layers.keep * layers.yes_given(1) + (1 - layers.keep) * layers.yes_given(0),
        (1 - layers.keep) * layers.yes_given(1) + layers.keep * layers.yes_given(0),
    )
    spinner = rr.spinner_coin(1.0)
    assert composite[0] == pytest.approx(spinner.yes_given_yes, abs=1e-12)
    assert composite[1] == pytest.approx(spinner.yes_given_no, abs=1e-12)
    design = layers.design
    assert design.epsilon == pytest.approx(1.0, abs=1e-12)
    assert rr.design_epsilon(*composite) == pytest.approx(1.0, abs=1e-12)
    for noisy, n in ((130, 300), (0, 10), (57, 57)):
        ours, closed = design.estimate(noisy, n), spinner.estimate(noisy, n)
        for name in ("estimate", "std_error", "ci_low", "ci_high"):
            assert getattr(ours, name) == pytest.approx(getattr(closed, name), abs=1e-12)


def test_the_layers_have_the_stated_probabilities():
    layers = rr.permanent_response(3.0, 0.5)
    assert layers.keep == pytest.approx(math.exp(3) / (1 + math.exp(3)))
    assert layers.light == pytest.approx(math.tanh(0.25) / math.tanh(1.5))


def test_simulated_reports_follow_the_composite_and_the_stored_bits_hide_the_truth():
    layers = rr.permanent_response(2.0, 1.0)
    rng = np.random.default_rng(11)
    trials = 40_000
    permanents = [layers.draw_permanent(rng) for _ in range(trials)]
    # Each stored bit is 1 with f (for a "yes") or 1 - f (for a "no"), whatever the truth is:
    # both are drawn, so what storage holds does not depend on the answer.
    share_yes_bit = np.mean([pair[1] for pair in permanents])
    tolerance = 4 * math.sqrt(layers.keep * (1 - layers.keep) / trials)
    assert share_yes_bit == pytest.approx(layers.keep, abs=tolerance)
    reports = [layers.report(pair, 1, rng) for pair in permanents]
    expected = rr.spinner_coin(1.0).yes_given_yes
    assert np.mean(reports) == pytest.approx(expected, abs=4 * math.sqrt(expected / trials))


def test_the_majority_of_fresh_reports_finds_the_truth_and_the_permanent_layer_stops_it():
    attack = rr.averaging_attack(1.0, 2.0, waves=50)
    c = math.exp(1) / (1 + math.exp(1))
    assert attack.fresh[0] == pytest.approx(c)
    assert attack.permanent[0] == pytest.approx(c)  # one wave is the same report either way
    assert attack.fresh[-1] > 0.99
    assert (
        attack.permanent[-1] <= attack.limit + 1e-9 and attack.permanent[-1] > attack.limit - 0.02
    )
    assert attack.limit == pytest.approx(math.exp(2) / (1 + math.exp(2)))


def test_a_simulated_attack_agrees_with_the_exact_figures():
    layers = rr.permanent_response(2.0, 1.0)
    rng = np.random.default_rng(5)
    trials, waves = 6_000, 15
    right = 0.0
    for _ in range(trials):
        pair = layers.draw_permanent(rng)
        ones = sum(layers.report(pair, 1, rng) for _ in range(waves))
        right += 1.0 if ones > waves / 2 else 0.0
    exact = rr.averaging_attack(1.0, 2.0, waves).permanent[-1]
    assert right / trials == pytest.approx(exact, abs=4 * math.sqrt(exact * (1 - exact) / trials))


@pytest.mark.parametrize(
    ("call", "parameter"),
    [
        (lambda: rr.permanent_response(1.0, 1.0), "epsilon"),
        (lambda: rr.permanent_response(0.0, 0.5), "epsilon_permanent"),
        (lambda: rr.permanent_response(2.0, -1), "epsilon"),
        (lambda: rr.averaging_attack(1.0, 2.0, waves=0), "waves"),
        (lambda: rr.permanent_response(2.0, 1.0).report((0, 1), 2), "truth"),
    ],
)
def test_bad_arguments_are_refused_by_name(call, parameter):
    with pytest.raises(rr.ParameterError) as refused:
        call()
    assert refused.value.parameter == parameter


@pytest.mark.parametrize("k", [2, 3, 5])
@pytest.mark.parametrize("dark", ["coin", "opposite"])
def test_the_composite_of_k_values_is_generalized_randomized_response_at_one_waves_epsilon(k, dark):
    layers = rr.permanent_response(2.5, 0.8, k=k)
    light = layers.wave_light(dark)
    # One wave given the permanent report B: B on light; dark: a die over all k (coin) or over
    # the k − 1 others (opposite).
    keep_b = light + (1 - light) / k if dark == "coin" else light
    other_b = (1 - keep_b) / (k - 1)
    truth_reported = layers.keep * keep_b + (1 - layers.keep) * other_b
    assert truth_reported == pytest.approx(math.exp(0.8) / (math.exp(0.8) + k - 1), abs=1e-12)
    assert layers.keep == pytest.approx(math.exp(2.5) / (math.exp(2.5) + k - 1), abs=1e-12)


def test_permanent_reports_of_k_values_keep_each_value_with_f_and_spread_the_rest():
    layers = rr.permanent_response(1.5, 0.5, k=4)
    rng = np.random.default_rng(7)
    drawn = np.array([layers.draw_permanent(rng) for _ in range(20_000)])
    for value in range(4):
        kept = np.mean(drawn[:, value] == value)
        spread = math.sqrt(layers.keep * (1 - layers.keep) / len(drawn))
        assert abs(kept - layers.keep) < 4 * spread
        others = [np.mean(drawn[:, value] == other) for other in range(4) if other != value]
        assert max(others) - min(others) < 8 * math.sqrt(0.1 / len(drawn))


def test_k_below_two_is_refused_by_name():
    with pytest.raises(ValueError, match="k must be a whole number >= 2, got 1"):
        rr.permanent_response(2.0, 1.0, k=1)
