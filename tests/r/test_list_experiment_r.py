"""rr's list experiment against R's ``list`` 9.2.6 on its own published data (Kuklinski, Cobb &
Gilens 1997, ``race``: three control items): ``ictreg``'s difference in means with its HC3
standard error to 1e-12, and its maximum-likelihood fit (intercept only, constrained, binomial).
``ictreg`` stops its EM at a tolerance of its own where rr runs it to convergence: the fits agree
to 1e-4 on the logit scale, their standard errors (``optim``'s numerical Hessian against central
differences) to 1e-5, and rr's log-likelihood is never below R's."""

from __future__ import annotations

import pytest

from rr.list_experiment import list_experiment
from tests.r.test_r_code import requires_r, run_r

pytestmark = requires_r

CODE = r"""
suppressMessages(library(list))
data(race)
ml <- ictreg(y ~ 1, data = race, treat = "treat", J = 3, method = "ml")
lm <- ictreg(y ~ 1, data = race, treat = "treat", J = 3, method = "lm")
frequencies <- function(t, top) tabulate(race$y[race$treat == t] + 1, nbins = top + 1)
cat(sprintf("%.17g", c(lm$par.treat, lm$se.treat, ml$par.treat, ml$se.treat,
                       ml$par.control, ml$se.control, ml$llik)), "\n")
cat(frequencies(0, 3), "\n")
cat(frequencies(1, 4), "\n")
"""


def test_the_list_experiment_gives_list_s_figures_on_its_race_data(tmp_path):
    figures, control, treatment = run_r(CODE, tmp_path).strip().splitlines()
    difference, difference_se, logit, logit_se, control_logit, control_se, llik = map(
        float, figures.split()
    )
    found = list_experiment(3).estimate(
        [int(value) for value in control.split()], [int(value) for value in treatment.split()]
    )
    assert (found.by_arm[0].n, found.by_arm[1].n) == (589, 624)  # the data as list ships it
    assert found.estimate == pytest.approx(difference, abs=1e-12)
    assert found.std_error == pytest.approx(difference_se, abs=1e-12)
    assert found.ml.logit == pytest.approx(logit, abs=1e-4)
    assert found.ml.control_logit == pytest.approx(control_logit, abs=1e-4)
    assert found.ml.logit_std_error == pytest.approx(logit_se, abs=1e-5)
    assert found.ml.control_logit_std_error == pytest.approx(control_se, abs=1e-5)
    assert found.ml.log_likelihood >= llik - 1e-9
    assert found.ml.log_likelihood == pytest.approx(llik, abs=1e-6)


REGRESSION = r"""
suppressMessages(library(list))
data(race)
ml <- ictreg(y ~ south + age + male + college, data = race, treat = "treat", J = 3, method = "ml")
cat(sprintf("%.17g", c(ml$par.treat, ml$se.treat, ml$par.control, ml$se.control, ml$llik)), "\n")
write.csv(race[, c("y", "treat", "south", "age", "male", "college")], "race.csv",
          row.names = FALSE)
"""


def test_the_regression_gives_ictregs_ml_fit_with_covariates_on_race(tmp_path):
    """``ictreg(y ~ south + age + male + college, method = "ml")``: both sets of coefficients to
    1e-3 (``ictreg`` stops its EM at a gain of 1e-8, rr at 1e-10), their standard errors to 1e-4,
    and rr's log-likelihood never below R's."""
    import csv

    from rr.list_regression import list_regression

    figures = [float(value) for value in run_r(REGRESSION, tmp_path).split()]
    beta, beta_se, gamma, gamma_se = (figures[i : i + 5] for i in range(0, 20, 5))
    with (tmp_path / "race.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    names = ["south", "age", "male", "college"]
    found = list_regression(
        3,
        [int(row["y"]) for row in rows],
        [row["treat"] == "1" for row in rows],
        [[1.0, *(float(row[name]) for name in names)] for row in rows],
        ["(Intercept)", *names],
    )
    assert [c.estimate for c in found.sensitive] == pytest.approx(beta, abs=1e-3)
    assert [c.std_error for c in found.sensitive] == pytest.approx(beta_se, abs=1e-4)
    assert [c.estimate for c in found.control] == pytest.approx(gamma, abs=1e-3)
    assert [c.std_error for c in found.control] == pytest.approx(gamma_se, abs=1e-4)
    assert found.log_likelihood >= figures[20] - 1e-9
