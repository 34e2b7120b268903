"""The methods paragraph: each design in the literature's words with its report probabilities
and ε, the total ε, the estimator and interval by name, what was published, a split ballot's
conditions, the references; in Markdown and LaTeX, in English and Korean, on the dashboard, in
the API and on the command line."""

from __future__ import annotations

import math
import re

from tests.helpers import bearer
from web.core.results.methods import survey_methods
from web.core.surveys.lookup import find_survey

STUDY = {
    "slug": "methods",
    "title": "Exams",
    "description": "",
    "results_batch": 5,
    "questions": [
        {"id": "cheated", "type": "yesno", "text": "Cheated?", "epsilon": 1,
         "procedure": "spinner_coin"},
        {"id": "drugs", "type": "multi", "text": "Which have you used?", "epsilon": 0.5,
         "procedure": "spinner", "options": [{"id": "a", "text": "A"}, {"id": "b", "text": "B"},
                                             {"id": "c", "text": "C"}]},
        {"id": "copied", "type": "yesno", "text": "Copied 100% of it?", "procedure":
         "forced_response", "p_truth": 0.75, "p_forced_yes": 0.125, "p_forced_no": 0.125},
        {"id": "year", "type": "direct", "text": "Year?",
         "options": [{"id": "first", "text": "First"}, {"id": "later", "text": "Later"}]},
    ],
}  # fmt: skip


def test_the_paragraph_names_each_design_its_probabilities_and_the_references(
    app, runner, import_survey
):
    slug = import_survey(STUDY)
    assert (
        runner.invoke(args=["simulate-responses", slug, "--n", "40", "--seed", "1"]).exit_code == 0
    )
    with app.test_request_context():
        survey = find_survey(slug)
        written = survey_methods(survey, 10)
        total = survey.epsilon_total
    text = written.markdown
    light = math.tanh(0.5)  # spinner + coin at ε = 1: λ₁ = p + (1 − p)/2
    assert (
        "“Cheated?” was asked with the forced-response design with a fair coin on dark (Boruch "
        f"1971): a yes report with probability λ₁ = {light + (1 - light) / 2:.3f} for a true yes "
        f"and λ₀ = {(1 - light) / 2:.3f} for a true no; ε = 1."
    ) in text
    assert "ε = 0.5 per option × 3 options = 1.5" in text
    assert (
        "the forced-response design (Boruch 1971): a yes report with probability λ₁ = 0.875" in text
    )
    assert f"total privacy cost is ε = {total:.4g}" in text
    assert "exact Clopper–Pearson interval" in text and "95% interval" in text
    assert "Asked directly, with no randomizing (and no ε): “Year?”." in text
    assert "40 responses were published" in text and "batches of 5" in text
    assert "fewer than 10 respondents" in text
    references = text.split("**References**")[1]
    assert references.count("\n- ") == 3  # Boruch (once for both designs), Clopper–Pearson, Warner
    assert "Warner, S. L. (1965)" in references and "Newcombe" not in references
    latex = written.latex
    # A formula is one math span, its = inside: $\varepsilon = 1$, never $\varepsilon$ = 1.
    assert r"$\varepsilon = 1$" in latex and r"100\%" in latex and "ε" not in latex
    assert not re.search(r"\$ ?= ?[0-9]", latex) and latex.count("$") % 2 == 0
    assert not re.search("[λεπχ×−]", latex)
    assert r"\begin{itemize}" in latex and r"\item Warner" in latex


def test_a_split_ballot_names_its_conditions_and_the_contrasts_method(app, import_survey):
    data = {
        "slug": "ballot-methods", "title": "Ballot", "description": "",
        "conditions": [{"id": "direct", "share": 1}, {"id": "spin", "share": 2}],
        "questions": [{"id": "cheated", "type": "yesno", "text": "Cheated?",
                       "asked": {"direct": {"procedure": "direct"},
                                 "spin": {"procedure": "spinner", "epsilon": 1}}}],
    }  # fmt: skip
    slug = import_survey(data)
    with app.test_request_context():
        text = survey_methods(find_survey(slug), 10).markdown
    assert "conditions direct (33% of respondents), spin (67% of respondents)" in text
    assert "“Cheated?” (in condition direct)" in text.split("Asked directly")[1]
    assert "Pearson's χ² test" in text and "Newcombe's MOVER interval" in text
    assert "“Cheated?” (in condition spin) was asked with Warner's mirrored design" in text
    assert "Newcombe, R. G. (1998)" in text


def test_the_dashboard_api_and_command_line_give_it(
    app, client, runner, import_survey, token, researcher
):
    slug = import_survey(STUDY)
    page = researcher.get(f"/surveys/{slug}").get_data(as_text=True)
    assert (
        'id="methods"' in page
        and "Copy as LaTeX" in page
        and page.count('class="secondary copy-link"') >= 2
    )
    document = client.get(f"/api/surveys/{slug}/methods", headers=bearer(token)).json
    assert set(document) == {"markdown", "latex"} and "Warner 1965" in document["markdown"]
    korean = client.get(f"/api/surveys/{slug}/methods?lang=ko", headers=bearer(token)).json
    assert "참고문헌" in korean["markdown"] and "Warner 1965" in korean["markdown"]
    printed = runner.invoke(args=["methods", slug, "--latex"])
    assert printed.exit_code == 0 and r"$\varepsilon$" in printed.output
    assert "참고문헌" in runner.invoke(args=["methods", slug, "--lang", "ko"]).output


def test_the_paragraph_says_how_the_questionnaire_was_fielded(app, import_survey):
    import copy

    from tests.web.core.surveys.flow.test_walk import STUDY as FLOW

    data = copy.deepcopy(FLOW)
    data["pages"][0]["screen_out_if"] = {"question": "student", "in": ["no"]}
    data["quotas"] = [{"id": "students", "question": "student", "in": ["yes"], "limit": 300}]
    data["panel"] = {"parameters": ["PROLIFIC_PID"],
                     "complete_url": "https://app.prolific.com/submissions/complete?cc=C1"}  # fmt: skip
    slug = import_survey(data)
    with app.test_request_context():
        text = survey_methods(find_survey(slug), 10).markdown
    assert "“Year” only of respondents with" in text  # a display rule, and who was asked
    assert "page(s) sensitive was drawn at random" in text  # a drawn order of questions
    assert "The order of the options of “Year” was drawn at random" in text
    assert "Every question could be skipped except “Student?”" in text
    assert "Respondents were screened out after page about" in text
    assert "students (" in text and ": 300" in text  # the quota and its limit
    assert "recruited through an online panel" in text
