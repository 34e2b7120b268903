"""The lab's histogram of simulated estimates follows the estimator's lattice."""

import numpy as np
import pytest

import rr
from rr.mechanism import noise_line


@pytest.mark.parametrize(
    ("n", "epsilon", "share"), [(30, 1.0, 0.3), (7, 0.5, 0.0), (2000, 2.0, 0.9)]
)
def test_every_draw_is_counted_once_and_no_bar_has_an_empty_neighbour_inside_the_draws(
    n, epsilon, share
):
    draws = rr.simulate_estimates(share, n, epsilon, trials=2000, seed=5)
    histogram = rr.lattice_histogram(draws, n, epsilon)
    assert histogram.counts.sum() == 2000
    assert len(histogram.edges) == len(histogram.counts) + 1
    assert histogram.edges[0] <= min(draws.min(), 0) and histogram.edges[-1] >= max(draws.max(), 1)
    filled = np.flatnonzero(histogram.counts)
    # Achievable estimates are one count apart; bins of whole counts leave no gap between bars
    # unless no class landed there, which 2,000 classes near the centre make vanishingly rare.
    middle = histogram.counts[filled[0] : filled[-1] + 1]
    assert (middle > 0).mean() > 0.9


def test_small_classes_get_one_bin_per_achievable_estimate_centred_on_it():
    n, epsilon = 30, 1.0
    offset, slope = noise_line(epsilon)
    draws = rr.simulate_estimates(0.3, n, epsilon, trials=500, seed=1)
    histogram = rr.lattice_histogram(draws, n, epsilon)
    centres = (histogram.edges[:-1] + histogram.edges[1:]) / 2
    counts_at_centres = (centres * slope + offset) * n
    assert np.allclose(counts_at_centres, np.round(counts_at_centres))
    assert np.allclose(np.diff(counts_at_centres), 1)


def test_large_classes_are_grouped_into_at_most_max_bins():
    draws = rr.simulate_estimates(0.5, 100_000, 1.0, trials=300, seed=2)
    assert len(rr.lattice_histogram(draws, 100_000, 1.0, max_bins=40).counts) <= 40


def test_estimates_from_another_survey_size_are_refused():
    with pytest.raises(ValueError, match="n = 10"):
        rr.lattice_histogram([3.0], 10, 1.0)
    assert "bins=" in repr(rr.lattice_histogram([0.5], 10, 1.0))
