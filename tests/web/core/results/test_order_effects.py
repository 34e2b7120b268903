"""Order effects: a randomized page's yes/no items estimated by the position they were shown in,
from the published responses, withheld below the minimum n, on the researcher's dashboard."""

from __future__ import annotations

import csv
import io

from tests.web.core.surveys.flow.test_walk import STUDY
from web.core.results.order_effects import order_effects
from web.core.surveys.lookup import find_survey


def test_each_item_is_estimated_by_its_position(app, runner, import_survey, researcher):
    slug = import_survey(STUDY)
    result = runner.invoke(args=["simulate-responses", slug, "--n", "1200", "--seed", "8",
                                 "--true-proportion", "0.3"])  # fmt: skip
    assert result.exit_code == 0, result.output
    app.config["RESULTS_MIN_N"] = 10
    with app.app_context():
        survey = find_survey(slug)
        found = order_effects(survey, 10)
        shown_to = next(q for q in survey.questions if q.key == "s1").n
    assert [item.key for item in found] == ["s1", "s2", "s3"]
    s1 = found[0]
    assert [at.position for at in s1.positions] == [1, 2, 3]
    # Every respondent shown the page saw s1 at one position: the three groups add up to its n.
    assert sum(at.n for at in s1.positions) == shown_to
    for at in s1.positions:
        # The order is drawn evenly: a third each, within four binomial standard deviations.
        assert abs(at.n - shown_to / 3) <= 4 * (shown_to * (1 / 3) * (2 / 3)) ** 0.5
        # No order effect was simulated: each estimate within four standard errors of the truth.
        assert at.estimate is not None
        assert abs(at.estimate.estimate - 0.3) <= 4 * at.estimate.std_error
    gap = s1.first_minus_last
    assert gap is not None and abs(gap.estimate) <= 4 * (gap.ci_high - gap.ci_low) / (2 * 1.96)
    page = researcher.get(f"/surveys/{slug}").get_data(as_text=True)
    assert 'id="order-effects"' in page and "First minus last position" in page


def test_positions_below_the_minimum_n_show_nothing(app, runner, import_survey):
    slug = import_survey(STUDY)
    assert (
        runner.invoke(args=["simulate-responses", slug, "--n", "40", "--seed", "2"]).exit_code == 0
    )
    with app.app_context():
        survey = find_survey(slug)
        assert order_effects(survey, 100) == ()  # fewer published than the minimum n
        (s1, *_rest) = order_effects(survey, 30)
    assert all(at.estimate is None for at in s1.positions) and s1.first_minus_last is None


def test_the_position_groups_like_a_direct_question(app, runner, import_survey, researcher):
    slug = import_survey(STUDY)
    result = runner.invoke(args=["simulate-responses", slug, "--n", "600", "--seed", "4",
                                 "--true-proportion", "0.3"])  # fmt: skip
    assert result.exit_code == 0, result.output
    app.config["RESULTS_MIN_N"] = 10
    with app.app_context():
        (s1, *_rest) = order_effects(find_survey(slug), 10)
    page = researcher.get(f"/surveys/{slug}/groups?by=position:sensitive&item=s1&a=1&b=3").get_data(
        as_text=True
    )
    assert '<option value="position:sensitive" selected>' in page
    table = page.split('id="group-table"')[1].split("</table>")[0]
    assert table.count("Position ") == 3 and f">{s1.positions[0].n:,}<" in table
    # The difference between the first and the last position is the dashboard's first minus last.
    difference = page.split('id="difference"')[1].split("</section>")[0]
    gap = s1.first_minus_last
    assert f"{gap.estimate * 100:.1f} percentage points" in difference
    assert "Reference group of the regression" not in page
    # An item of another page cannot be grouped by this page's positions.
    other = researcher.get(f"/surveys/{slug}/groups?by=position:sensitive&item=drugs.alcohol")
    assert "not asked on that page" in other.get_data(as_text=True)
    # The estimates CSV (and the results API, through the same by_group) take the grouping.
    download = researcher.get(f"/surveys/{slug}/estimates.csv?by=position:sensitive")
    assert "estimates-by-position-sensitive.csv" in download.headers["Content-Disposition"]
    rows = [row for row in csv.DictReader(io.StringIO(download.get_data(as_text=True)))
            if row["question"] == "s1"]  # fmt: skip
    assert [row["group"] for row in rows] == ["1", "2", "3"]
    assert rows[0]["n"] == str(s1.positions[0].n)
    refused = researcher.get(f"/surveys/{slug}/estimates.csv?by=position:nowhere")
    assert refused.status_code == 400


SPLIT_PAGE = {
    "slug": "order-split",
    "title": "Order on a split page",
    "conditions": [{"id": "direct", "share": 1}, {"id": "spin", "share": 1}],
    "pages": [{"id": "habits", "title": "Habits", "questions": ["exam", "drugs", "s1"],
               "randomize": True}],
    "questions": [
        {"id": "exam", "type": "yesno", "text": "Cheated in an exam?",
         "asked": {"direct": {"procedure": "direct"},
                   "spin": {"procedure": "spinner_coin", "epsilon": 1}}},
        {"id": "drugs", "type": "multi", "text": "Drugs", "epsilon": 1, "procedure": "spinner",
         "options": [{"id": "alcohol", "text": "Alcohol"}, {"id": "tobacco", "text": "Tobacco"}]},
        {"id": "s1", "type": "yesno", "text": "S1", "epsilon": 1, "procedure": "spinner_coin"},
    ],
}  # fmt: skip


def test_a_split_ballots_item_and_each_option_are_estimated_by_position(
    app, runner, import_survey, researcher
):
    slug = import_survey(SPLIT_PAGE)
    result = runner.invoke(args=["simulate-responses", slug, "--n", "900", "--seed", "5",
                                 "--true-proportion", "0.3"])  # fmt: skip
    assert result.exit_code == 0, result.output
    app.config["RESULTS_MIN_N"] = 10
    with app.app_context():
        survey = find_survey(slug)
        found = {item.key: item for item in order_effects(survey, 10)}
        answered = {q.key: q.tallies[0].published_n for q in survey.questions}
    assert set(found) == {"exam@direct", "exam@spin", "drugs.alcohol", "drugs.tobacco", "s1"}
    for key in ("exam@direct", "exam@spin"):
        item = found[key]
        # Each condition's respondents saw the item at one of three places: their n adds up.
        assert item.condition == key.split("@")[1] and len(item.positions) == 3
        assert sum(at.n for at in item.positions) == answered[key]
        for at in item.positions:
            assert at.estimate is not None
            assert abs(at.estimate.estimate - 0.3) <= 4 * at.estimate.std_error
    alcohol = found["drugs.alcohol"]
    assert alcohol.option is not None and alcohol.option["en"] == "Alcohol"
    assert sum(at.n for at in alcohol.positions) == answered["drugs"]
    assert alcohol.first_minus_last is not None
    page = researcher.get(f"/surveys/{slug}").get_data(as_text=True)
    effects = page.split('id="order-effects"')[1].split("</article>")[0]
    assert 'data-item="exam@spin"' in effects and 'data-item="drugs.tobacco"' in effects
    assert "condition spin" in effects and "· <span>Tobacco</span>" in effects
    assert "page “Habits”" in effects and "page habits" not in effects
    # The analysis by position takes an option and a condition's row, as the dashboard's gap.
    for item in ("drugs.alcohol", "exam@spin"):
        groups = researcher.get(
            f"/surveys/{slug}/groups?by=position:habits&item={item}&a=1&b=3"
        ).get_data(as_text=True)
        difference = groups.split('id="difference"')[1].split("</section>")[0]
        gap = found[item].first_minus_last
        assert f"{gap.estimate * 100:.1f} percentage points" in difference
