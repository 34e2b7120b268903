"""The OpenAPI operations of published results, analyses and trends (all with a token)."""

from __future__ import annotations

from web.api.openapi.parts import (
    OBJECT,
    json_body,
    parameter,
    read_operation,
    ref,
    seed,
    slug_parameter,
    whole,
)
from web.core.results.synthetic import MAX_M


def results_paths() -> dict:
    slug = slug_parameter()
    text = {"type": "string"}
    return {
        "/api/surveys/{slug}/results": {
            "get": read_operation(
                "Published results",
                "Every question's estimate with its 95% interval from the published snapshot "
                "(withheld below the minimum n); per group of a direct question with `by`; "
                "posteriors beside with `method=bayes`.",
                [
                    slug,
                    parameter(
                        "by",
                        text,
                        "A direct question (or a randomized page's positions, "
                        "position:<page>): estimates per group.",
                    ),
                    parameter(
                        "method",
                        {"type": "string", "enum": ["frequentist", "bayes"]},
                        "Add each item's posterior with bayes.",
                    ),
                    parameter("prior", text, "Beta prior a,b (with bayes).", example="1,1"),
                    parameter("threshold", text, "Also P(true share > t) (with bayes)."),
                ],
                json_body(ref("Results"), "The results document."),
                400,
                404,
            )
        },
        "/api/surveys/{slug}/regression": {
            "get": read_operation(
                "Regression on direct questions and numbers",
                "A randomized item regressed on direct questions (dummy-coded) and numbers asked "
                "directly (a slope per unit), from the published responses; each group predicted "
                "at the numbers' means (``at``). A list experiment's item is fitted by Imai's ML "
                "model (``model``: list; a double list's two lists at once, list B's control "
                "items under ``control_coefficients_b``).",
                [
                    slug,
                    parameter(
                        "item",
                        text,
                        "The item: a question, or question.option.",
                        required=True,
                        example="cheated",
                    ),
                    parameter(
                        "on",
                        text,
                        "Direct questions and numbers asked directly, comma-separated.",
                        required=True,
                        example="year",
                    ),
                    parameter("reference", text, "Reference levels: question:option,…"),
                ],
                json_body(OBJECT, "Coefficients, n and predictions per group."),
                400,
                404,
            )
        },
        "/api/surveys/{slug}/difference": {
            "get": read_operation(
                "Difference between two groups",
                "An item's prevalence in two groups of a direct question, and their difference.",
                [
                    slug,
                    parameter("item", text, "The item.", required=True, example="cheated"),
                    parameter(
                        "by",
                        text,
                        "The direct question, or position:<page>.",
                        required=True,
                        example="year",
                    ),
                    parameter(
                        "groups", text, "Two of its options.", required=True, example="first,fourth"
                    ),
                ],
                json_body(OBJECT, "The difference with its interval and p-value."),
                400,
                404,
            )
        },
        "/api/surveys/{slug}/methods": {
            "get": read_operation(
                "Methods paragraph",
                "A paragraph to paste into a paper's methods section, in Markdown and LaTeX: each "
                "randomized question's design in the literature's words with its probabilities "
                "and ε, the survey's total ε, the estimator, the interval's method, what was "
                "published, a split ballot's conditions; with the references.",
                [
                    slug,
                    parameter(
                        "lang",
                        {"type": "string", "enum": ["en", "ko"]},
                        "The paragraph's language.",
                    ),
                ],
                json_body(
                    {
                        "type": "object",
                        "required": ["markdown", "latex"],
                        "properties": {"markdown": text, "latex": text},
                    },
                    "The paragraph and its references, twice.",
                ),
                404,
            )
        },
        "/api/surveys/{slug}/joint": {
            "get": read_operation(
                "Joint distribution of true answers",
                "Every combination's probability with its interval, for up to 16 items.",
                [
                    slug,
                    parameter(
                        "items",
                        text,
                        "Items, comma-separated.",
                        required=True,
                        example="cheated,skipped",
                    ),
                ],
                json_body(OBJECT, "The cells, and for two yes/no items more."),
                400,
                404,
            )
        },
        "/api/surveys/{slug}/experiment": {
            "get": read_operation(
                "A split-ballot experiment",
                "Respondents per condition with the allocation check (Pearson's chi-square against "
                "the declared shares), each item's estimate in every condition through the design "
                "it was asked with there, and each condition's contrast with the one asked "
                "directly (MOVER interval, one-sided p that it finds more). Published snapshot "
                "only; a condition below the minimum n is withheld.",
                [slug],
                json_body(ref("Experiment"), "The experiment's figures."),
                404,
                409,
            )
        },
        "/api/surveys/{slug}/synthetic.csv": {
            "get": read_operation(
                "Synthetic microdata",
                "m synthetic datasets of the published snapshot in one CSV (`.imp` 1…m).",
                [slug, parameter("m", whole(2, MAX_M, 5), "How many datasets."), seed()],
                {
                    "description": "The CSV.",
                    "content": {"text/csv": {"schema": {"type": "string"}}},
                },
                400,
                404,
                409,
            )
        },
        "/api/surveys/{slug}/synthetic": {
            "get": read_operation(
                "Utility of the synthetic data",
                "How close the synthetic data come to the estimates, item by item and pair by "
                "pair.",
                [slug, parameter("m", whole(2, MAX_M, 5), "How many datasets."), seed()],
                json_body(OBJECT, "The utility table."),
                400,
                404,
                409,
            )
        },
        "/api/series/{series}/trend": {
            "get": read_operation(
                "A series' trend",
                "Every randomized item wave by wave, and the change between consecutive waves.",
                [
                    parameter(
                        "series",
                        ref("Slug"),
                        "The series' name.",
                        where="path",
                        example="campus-climate",
                    ),
                    parameter("by", text, "A direct question: the trend per group."),
                ],
                json_body(ref("Trend"), "The trend."),
                400,
                404,
            )
        },
    }
