"""The codebook's R for a split-ballot experiment runs on the responses CSV as downloaded and gives
the app's numbers: rr_contrast the contrasts to 1e-9, chisq.test the allocation check, and
RRreg's RRlog (direct condition as group 0, the randomized one a covariate) each condition's
estimate as the logistic of its coefficients."""

from __future__ import annotations

import copy
import json
import math

import pytest

from tests.helpers import api_get
from tests.r.test_r_code import requires_r, run_r
from tests.web.core.surveys.test_experiments import EXPERIMENT
from web.core.surveys.lookup import find_survey
from web.simulation import simulate_responses

pytestmark = requires_r

SHOW = r"""
show <- function(label, values) cat(label, sprintf("%.15g", values), "\n", sep = "\t")
"""


def printed(output: str) -> dict[str, list[float]]:
    found = {}
    for line in output.splitlines():
        parts = line.rstrip("\t").split("\t")
        if len(parts) >= 2 and ":" in parts[0]:
            found[parts[0]] = [float(value) for value in parts[1:]]
    return found


@pytest.mark.long
def test_the_experiments_r_gives_the_apps_contrasts(
    app, client, token, import_survey, make_researcher, tmp_path
):
    slug = import_survey(copy.deepcopy(EXPERIMENT))
    with app.app_context():
        simulate_responses(find_survey(slug), 3000, 0.3, seed=8)
    researcher = make_researcher("rita@example.org")
    csv_text = researcher.get(f"/surveys/{slug}/responses.csv").get_data(as_text=True)
    assert csv_text.splitlines()[0].startswith("condition,drugs@direct,drugs@spin,drugs@cross")
    (tmp_path / f"{slug}-responses.csv").write_text(csv_text, encoding="utf-8")
    book = json.loads(researcher.get(f"/surveys/{slug}/codebook.json").get_data(as_text=True))
    experiment = book["experiment"]
    lines = [book["R"]["read"], SHOW, experiment["R_functions"],
             f'show("allocation:x", unname({experiment["allocation_R"]}$statistic))',
             f'show("allocation:p", {experiment["allocation_R"]}$p.value)']  # fmt: skip
    for item in experiment["items"]:
        for contrast in item["contrasts"]:
            label = f"{item['id']}:{contrast['condition']}"
            lines.append(f'show("{label}", {contrast["contrast"]})')
            lines.append(f'show("{label}:RRlog", plogis(cumsum(coef({contrast["RRlog"]}))))')
    found = printed(run_r("\n".join(lines), tmp_path))
    document = api_get(client, token, f"surveys/{slug}/experiment").get_json()
    assert found["allocation:x"][0] == pytest.approx(document["allocation"]["chi_square"], abs=1e-9)
    assert found["allocation:p"][0] == pytest.approx(document["allocation"]["p_value"], abs=1e-9)
    checked = 0
    for item in document["items"]:
        estimates = {entry["condition"]: entry["estimate"] for entry in item["by_condition"]}
        for contrast in item["contrasts"]:
            label = f"{item['id']}:{contrast['condition']}"
            r_difference, r_low, r_high, r_p_more = found[label]
            assert r_difference == pytest.approx(contrast["difference"], abs=1e-9)
            assert (r_low, r_high) == pytest.approx(
                (contrast["ci_low"], contrast["ci_high"]), abs=1e-9
            )
            assert r_p_more == pytest.approx(contrast["p_more"], abs=1e-9)
            # RRlog's maximum-likelihood shares: the app's estimates where they lie inside 0–1
            # (the optimizer stops within about 1e-5).
            direct, randomized = found[f"{label}:RRlog"]
            assert direct == pytest.approx(estimates["direct"], abs=1e-4)
            if 0 < estimates[contrast["condition"]] < 1:
                assert randomized == pytest.approx(estimates[contrast["condition"]], abs=1e-4)
            checked += 1
    assert checked == 4 and not math.isnan(found["allocation:x"][0])
