"""A split ballot of direct questioning, randomized response and a list experiment on one item,
end to end: 300 simulated respondents submitted through the API, and every condition's figure
and contrast in the experiment document checked against values computed here from what was
sent (the direct share with its exact interval, the spinner's closed form, the list's difference
in means with its HC3 standard error, and MOVER's limits)."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest
from scipy import stats

import rr
from tests.helpers import api_get, submit_answers
from web.core.surveys.lookup import find_survey

pytestmark = pytest.mark.imported(batch=2)

CONTROLS = [{"id": name, "text": name.title()} for name in ("cinema", "museum", "concert")]
SURVEY = {
    "slug": "three-ways",
    "title": "Three ways",
    "conditions": [
        {"id": "direct", "share": 1},
        {"id": "rr", "share": 1},
        {"id": "list", "share": 1},
    ],
    "questions": [
        {
            "id": "drove",
            "type": "yesno",
            "text": "Drove after drinking",
            "asked": {
                "direct": {"procedure": "direct"},
                "rr": {"procedure": "spinner_coin", "epsilon": 1},
                "list": {"procedure": "list", "controls": CONTROLS},
            },
        }
    ],
}
RESPONDENTS = 300
TRUE_SHARE = 0.3
Z = NormalDist().inv_cdf(0.975)


def respondents(seed: int = 2026):
    """Each respondent's condition and answer as their page would send it: the truth drawn with
    TRUE_SHARE; the spinner's report drawn through rr; a list, a count of three control items
    held with ½ each, plus the truth in the long list."""
    rng = np.random.default_rng(seed)
    for _ in range(RESPONDENTS):
        condition = ("direct", "rr", "list")[rng.integers(3)]
        truth = int(rng.random() < TRUE_SHARE)
        if condition == "direct":
            answer = truth
        elif condition == "rr":
            answer = int(rr.perturb(np.array([truth]), 1.0, "spinner_coin", rng=rng)[0])
        else:
            arm = int(rng.integers(2))
            count = int(rng.binomial(3, 0.5)) + arm * truth
            answer = {"arm": ("control", "treatment")[arm], "count": count}
        yield condition, answer


def mover(first, second):
    """(difference, lower, upper) of first − second from (estimate, low, high) of each."""
    (p1, l1, u1), (p2, l2, u2) = first, second
    d = p1 - p2
    return d, d - math.hypot(p1 - l1, u2 - p2), d + math.hypot(u1 - p1, p2 - l2)


def test_direct_rr_and_a_list_on_one_item_end_to_end(app, client, token, imported):
    slug = imported(SURVEY)
    sent = {"direct": [], "rr": [], "list": []}
    for condition, answer in respondents():
        body = {"condition": condition, "answers": {"drove": answer}}
        response = submit_answers(app.test_client(), slug, body)  # a browser each
        assert response.status_code == 201, response.get_json()
        sent[condition].append(answer)
    document = api_get(client, token, f"surveys/{slug}/experiment").get_json()
    assert [entry["n"] for entry in document["conditions"]] == [len(sent[c]) for c in sent]
    (item,) = document["items"]
    found = {entry["condition"]: entry for entry in item["by_condition"]}

    # Asked directly: the share of yes, its standard error and its exact interval.
    yes, n = sum(sent["direct"]), len(sent["direct"])
    share = yes / n
    direct = (
        share,
        stats.beta.ppf(0.025, yes, n - yes + 1),
        stats.beta.ppf(0.975, yes + 1, n - yes),
    )
    assert found["direct"]["estimate"] == pytest.approx(share, abs=1e-9)
    assert found["direct"]["std_error"] == pytest.approx(
        math.sqrt(share * (1 - share) / n), abs=1e-9
    )
    assert (found["direct"]["ci_low"], found["direct"]["ci_high"]) == pytest.approx(
        direct[1:], abs=1e-9
    )

    # Spinner and coin at ε = 1: (λ̂ − (1 − p)/2) / p with p = tanh(½).
    yes, n = sum(sent["rr"]), len(sent["rr"])
    p = math.tanh(0.5)
    reported = yes / n
    assert found["rr"]["estimate"] == pytest.approx((reported - (1 - p) / 2) / p, abs=1e-9)
    assert found["rr"]["std_error"] == pytest.approx(
        math.sqrt(reported * (1 - reported) / n) / p, abs=1e-9
    )

    # The list: the long list's mean count less the short list's, √(s₁²/(n₁−1) + s₀²/(n₀−1)).
    counts = {arm: np.array([a["count"] for a in sent["list"] if a["arm"] == arm], dtype=float)
              for arm in ("control", "treatment")}  # fmt: skip
    short, long = counts["control"], counts["treatment"]
    difference = long.mean() - short.mean()
    std_error = math.sqrt(long.var(ddof=1) / (len(long) - 1) + short.var(ddof=1) / (len(short) - 1))
    listed = found["list"]
    assert (listed["procedure"], listed["epsilon"], listed["randomized"]) == ("list", None, True)
    assert listed["n"] == len(sent["list"])
    assert listed["estimate"] == pytest.approx(difference, abs=1e-9)
    assert listed["std_error"] == pytest.approx(std_error, abs=1e-9)
    assert listed["ci_low"] == pytest.approx(difference - Z * std_error, abs=1e-9)
    assert listed["ci_high"] == pytest.approx(difference + Z * std_error, abs=1e-9)
    assert "noisy_yes" not in listed

    # Each contrast with the direct condition: the difference, MOVER's limits on the two
    # intervals and p_more on the two standard errors.
    contrasts = {contrast["condition"]: contrast for contrast in item["contrasts"]}
    assert set(contrasts) == {"rr", "list"}
    assert {contrast["versus"] for contrast in contrasts.values()} == {"direct"}
    list_figures = (difference, difference - Z * std_error, difference + Z * std_error)
    d, low, high = mover(list_figures, direct)
    contrast = contrasts["list"]
    assert (contrast["difference"], contrast["ci_low"], contrast["ci_high"]) == pytest.approx(
        (d, low, high), abs=1e-9
    )
    z = d / math.hypot(std_error, found["direct"]["std_error"])
    assert contrast["p_more"] == pytest.approx(1 - NormalDist().cdf(z), abs=1e-9)
    rr_contrast = contrasts["rr"]
    assert rr_contrast["difference"] == pytest.approx(
        found["rr"]["estimate"] - found["direct"]["estimate"], abs=1e-9
    )
    # Every way of asking finds the 30% the respondents hold, within four standard errors.
    for entry in found.values():
        assert abs(entry["estimate"] - TRUE_SHARE) < 4 * entry["std_error"], entry


def test_the_builder_turns_a_conditions_row_into_a_list(app, imported, make_researcher):
    """The split ballot's grid offers the ways of asking without parameters; a condition's row is
    then asked as a list in the question editor, with its items."""
    slug = imported(SURVEY)
    researcher = make_researcher("rita@example.org")
    form = {"text": "Drove after drinking", "key": "drove@rr", "kind": "yesno",
            "procedure": "list", "controls": "Cinema\nMuseum\nConcert"}  # fmt: skip
    response = researcher.post(f"/surveys/{slug}/questions/drove@rr", data=form)
    assert response.status_code == 302, response.get_data(as_text=True)[-500:]
    body = {"condition": "rr", "answers": {"drove": {"arm": "treatment", "count": 4}}}
    assert submit_answers(app.test_client(), slug, body).status_code == 201
    with app.app_context():
        row = next(q for q in find_survey(slug).questions if q.key == "drove@rr")
        assert (row.procedure, row.design.control_count, row.condition) == ("list", 3, "rr")
