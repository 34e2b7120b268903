"""rr's stochastic lie detector against RRreg 0.7.6's ``RRuni(model = "SLD")`` on RRreg's own
published data (Radukic & Musch 2014, the minaret ban: arms with p = 2/12 and 10/12): every
figure, π and t with their standard errors, to 1e-12."""

from __future__ import annotations

import pytest

from rr.lie_detector import lie_detector
from tests.r.test_r_code import requires_r, run_r

pytestmark = requires_r

CODE = r"""
suppressMessages(library(RRreg))
data(minarets)
m <- minarets[minarets$RRdesign == 1, ]
fit <- RRuni(response = m$rrt, model = "SLD", p = c(2/12, 10/12), group = m$condition)
yes <- tapply(m$rrt, m$condition, sum)
n <- tapply(m$rrt, m$condition, length)
cat(sprintf("%.17g", c(fit$pi, fit$piSE, fit$t, fit$tSE, yes, n)), sep = "\n")
"""


def test_the_lie_detector_gives_rrreg_s_figures_on_its_minaret_data(tmp_path):
    figures = [float(line) for line in run_r(CODE, tmp_path).split()]
    pi, pi_se, t, t_se, yes_1, yes_2, n_1, n_2 = figures
    found = lie_detector((2 / 12, 10 / 12)).estimate((int(yes_1), int(yes_2)), (int(n_1), int(n_2)))
    assert found.arm_n == (564, 692)  # the data as RRreg ships it
    assert found.carriers.estimate == pytest.approx(pi, abs=1e-12)
    assert found.carriers.std_error == pytest.approx(pi_se, abs=1e-12)
    assert found.honesty.estimate == pytest.approx(t, abs=1e-12)
    assert found.honesty.std_error == pytest.approx(t_se, abs=1e-12)
