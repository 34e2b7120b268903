"""The change plan from the command line and the API: the figures of rr.change_power and its
inverses, for a spinner and for a design stated by its shares."""

import pytest

import rr
from tests.conftest import no_database

# Nothing here reads or writes the database: it runs once, on SQLite.
pytestmark = no_database


BASE = "/api/plan/change?procedure=spinner_coin&epsilon=2&n=500&baseline=0.2&change=0.1"


def test_the_command_line_gives_the_planners_figures(runner):
    planned = runner.invoke(
        args=["plan-change", "--epsilon", "2", "--n", "500", "--baseline", "0.2", "--change", "0.1"]
    )
    assert planned.exit_code == 0, planned.output
    expected = rr.change_power(rr.spinner_coin(2.0), 500, 0.2, 0.1).power
    assert f"power at n = 500 per wave: {expected:.4f} (exact)" in planned.output
    assert f"n per wave for power 0.8: {rr.change_sample_size(rr.spinner_coin(2.0), 0.2, 0.1)}" in (
        planned.output
    )
    forced = runner.invoke(
        args=["plan-change", "--procedure", "forced_response", "--share", "p_truth=0.75",
              "--share", "p_forced_yes=0.15", "--share", "p_forced_no=0.1",
              "--n", "300", "--baseline", "0.3", "--change", "-0.1"]
    )  # fmt: skip
    assert forced.exit_code == 0, forced.output
    line = rr.forced_response(0.75, 0.15, 0.1)
    assert f"{rr.change_power(line, 300, 0.3, -0.1).power:.4f}" in forced.output
    assert runner.invoke(args=["plan-change", "--n", "5", "--baseline", "0.2",
                               "--change", "0.1"]).exit_code == 2  # fmt: skip
    refused = runner.invoke(
        args=["plan-change", "--procedure", "forced_response", "--share", "p_truth=2",
              "--n", "50", "--baseline", "0.2", "--change", "0.1"]
    )  # fmt: skip
    assert refused.exit_code == 1 and "p_truth" in refused.output


def test_the_api_answers_power_n_per_wave_and_detectable_change(client):
    plan = client.get(BASE).json
    line = rr.spinner_coin(2.0)
    assert plan["power"] == rr.change_power(line, 500, 0.2, 0.1).power
    assert plan["method"] == "exact"
    assert plan["n_per_wave"] == rr.change_sample_size(line, 0.2, 0.1)
    assert plan["detectable_change"] == {
        "up": rr.detectable_change(line, 500, 0.2),
        "down": rr.detectable_change(line, 500, 0.2, direction=-1),
    }
    curve = plan["curve"]
    assert (
        len(curve) == 41 and curve[0]["change"] == 0 and curve[-1]["change"] == pytest.approx(0.8)
    )
    assert curve[0]["power"] == pytest.approx(0.05, abs=0.01) and curve[-1]["power"] > 0.99
    forced = client.get(
        "/api/plan/change?procedure=forced_response&p_truth=0.75&p_forced_yes=0.15"
        "&p_forced_no=0.1&n=300&baseline=0.3&change=-0.1"
    ).json
    assert (
        forced["power"]
        == rr.change_power(rr.forced_response(0.75, 0.15, 0.1), 300, 0.3, -0.1).power
    )
    assert all(point["change"] <= 0 for point in forced["curve"])


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("procedure=spinner_coin&n=500&baseline=0.2&change=0.1", "epsilon"),
        ("procedure=spinner_coin&epsilon=1&n=1&baseline=0.2&change=0.1", "n"),
        ("procedure=spinner_coin&epsilon=1&n=100&baseline=0.9&change=0.2", "change"),
        ("procedure=spinner_coin&epsilon=1&n=100&baseline=0.2&change=0.1&power=0.01", "power"),
        ("procedure=dice&epsilon=1&n=100&baseline=0.2&change=0.1", "procedure"),
        ("procedure=forced_response&p_truth=0.9&n=100&baseline=0.2&change=0.1", "p_forced_yes"),
        ("procedure=cheating_detection&arms=0.7,0.2,0.1;0.7,0.1,0.2&n=100&baseline=0.2&change=0.1",
         "two arms"),
    ],
)  # fmt: skip
def test_the_api_refuses_a_plan_it_cannot_make_and_names_why(client, query, named):
    reply = client.get(f"/api/plan/change?{query}")
    assert reply.status_code == 400 and named in reply.json["error"]


def test_two_groups_of_one_wave_may_differ_in_size(client, runner):
    line = rr.spinner_coin(2.0)
    found = client.get(BASE + "&n_2=200").get_json()
    assert found["n_2"] == 200
    assert found["power"] == pytest.approx(rr.change_power(line, 500, 0.2, 0.1, n_2=200).power)
    assert found["detectable_change"]["up"] == pytest.approx(
        rr.detectable_change(line, 500, 0.2, n_2=200)
    )
    assert found["power"] < client.get(BASE).get_json()["power"]
    printed = runner.invoke(args=["plan-change", "--epsilon", "2", "--n", "500", "--n-2", "200",
                                  "--baseline", "0.2", "--change", "0.1"])  # fmt: skip
    assert printed.exit_code == 0, printed.output
    assert f"groups of 500 and 200: {found['power']:.4f}" in printed.output
