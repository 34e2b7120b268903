"""The OpenAPI operations anyone may call: the planners, the lab and the document itself."""

from __future__ import annotations

from web.api.change_plan import MAX_WAVE_N, PLANS_PER_MINUTE
from web.api.openapi.parts import (
    OBJECT,
    design_shares,
    json_body,
    number,
    parameter,
    procedures,
    public_operation,
    ref,
    seed,
    whole,
)
from web.api.views import MAX_PLANNED_N
from web.classroom.experiment_lab import MAX_CONDITION_N
from web.classroom.lab import (
    DESIGNS_MAX_EPSILON,
    LAB_REQUESTS,
    MAX_BITS,
    MAX_CLASS,
    MAX_N,
    MAX_TRIALS,
)
from web.classroom.list_lab import MAX_CONTROLS, MAX_LIST_N, MIN_CONTROLS
from web.classroom.report_lab import MAX_REPORT_RUNS, MAX_REPORT_VALUES, REPORT_RUNS
from web.core.surveys.limits import MAX_EPSILON, MAX_OPTIONS, MIN_EPSILON


def computation_paths() -> dict:
    epsilon = parameter("epsilon", number(MIN_EPSILON, MAX_EPSILON), "ε per spin.", example=1)
    procedure = parameter("procedure", procedures(), "The design.")
    spinner = parameter("procedure", procedures(spinners_only=True), "The spinner.")
    rate = f"Rate limited ({PLANS_PER_MINUTE} per address)."
    lab = f"Rate limited ({LAB_REQUESTS} per address)."
    lab_epsilon = parameter("epsilon", number(1e-3, 10, 1), "ε.")
    return {
        "/api/plan": {
            "get": public_operation(
                "Plan a question",
                "The spinner's light share, the margin of error at n and sample sizes. With `k`, "
                "a single-choice question; with `min` and `max`, a number question; a design by "
                f"its shares in place of ε. {rate}",
                [
                    epsilon,
                    procedure,
                    parameter("n", whole(1, MAX_PLANNED_N, 100), "Planned respondents."),
                    parameter("k", whole(2, MAX_OPTIONS), "Options of a single-choice question."),
                    parameter("min", {"type": "number"}, "A number question's lowest value."),
                    parameter("max", {"type": "number"}, "A number question's highest value."),
                    *design_shares(),
                ],
                json_body(OBJECT, "The plan."),
                400,
                429,
            )
        },
        "/api/plan/experiment": {
            "get": public_operation(
                "Plan a split ballot",
                "Respondents per condition for the one-sided test that the design finds `lift` "
                "more than asking directly (which finds `baseline`), and with `n` the power at n "
                f"per condition. {rate}",
                [
                    epsilon,
                    procedure,
                    parameter(
                        "baseline",
                        number(0, 1),
                        "The share who say yes when asked directly.",
                        required=True,
                        example=0.2,
                    ),
                    parameter(
                        "lift",
                        number(0, 1),
                        "How much more the design should find.",
                        required=True,
                        example=0.1,
                    ),
                    parameter("power", number(0.01, 0.99, 0.8), "The power wanted."),
                    parameter("alpha", number(0.001, 0.5, 0.05), "The test's level."),
                    parameter("n", whole(1, MAX_WAVE_N), "Respondents per condition."),
                    *design_shares(),
                ],
                json_body(ref("ExperimentPlan"), "The plan."),
                400,
                429,
            )
        },
        "/api/plan/change": {
            "get": public_operation(
                "Power to see a change",
                "Power, n per wave and the detectable change between two waves (or two groups). "
                f"Runs in the compute pool. {rate}",
                [
                    epsilon,
                    procedure,
                    parameter(
                        "n",
                        whole(2, MAX_WAVE_N),
                        "Respondents per wave.",
                        required=True,
                        example=500,
                    ),
                    parameter("n_2", whole(2, MAX_WAVE_N), "The second group's size."),
                    parameter(
                        "baseline", number(0, 1), "The share now.", required=True, example=0.2
                    ),
                    parameter(
                        "change",
                        number(-1, 1),
                        "The change to detect.",
                        required=True,
                        example=-0.05,
                    ),
                    parameter("power", number(0.01, 0.99, 0.8), "The target power."),
                    parameter("alpha", number(0.001, 0.5, 0.05), "The test's level."),
                    *design_shares(),
                ],
                json_body(ref("ChangePlan"), "The plan."),
                400,
                429,
                503,
            )
        },
        "/api/lab/report": {
            "get": public_operation(
                "The reference report's experiment, repeated",
                "Sanitized synthetic data at ε = 0.1, 1 and 10, repeated `runs` times (runs × n "
                f"at most {MAX_REPORT_VALUES:,}). Runs in the compute pool. {lab}",
                [
                    parameter("n", whole(10, 10_000, 1476), "Values per run."),
                    parameter("low", number(-1e9, 1e9), "The values' lower bound."),
                    parameter("high", number(-1e9, 1e9), "The values' upper bound."),
                    parameter("mean", {"type": "number"}, "The values' mean (in [low, high])."),
                    parameter(
                        "variance",
                        {"type": "number", "exclusiveMinimum": 0},
                        "The values' variance.",
                    ),
                    parameter("runs", whole(2, MAX_REPORT_RUNS, REPORT_RUNS), "Repetitions."),
                    parameter(
                        "accounting",
                        {"type": "string", "enum": ["report", "total"]},
                        "How ε is spent.",
                    ),
                    parameter(
                        "posterior",
                        {"type": "string", "enum": ["naive", "noise_aware"]},
                        "The sampler.",
                    ),
                ],
                json_body(OBJECT, "Per ε the runs' figures."),
                400,
                429,
                503,
            )
        },
        "/api/lab/distribution": {
            "get": public_operation(
                "The estimate over many simulated classes",
                f"A histogram of the estimates, their spread and the interval's coverage. Runs in "
                f"the compute pool. {lab}",
                [
                    parameter("true_proportion", number(0, 1, 0.3), "The true share."),
                    parameter("n", whole(1, MAX_N, 30), "Class size."),
                    lab_epsilon,
                    parameter("trials", whole(1, MAX_TRIALS, 2000), "Simulated classes."),
                    spinner,
                    seed(),
                ],
                json_body(OBJECT, "The distribution."),
                400,
                429,
                503,
            )
        },
        "/api/lab/running": {
            "get": public_operation(
                "Running estimate",
                f"The estimate and its interval after each respondent of one class. {lab}",
                [
                    parameter(
                        "bits",
                        {"type": "string", "pattern": f"^[01]{{1,{MAX_BITS}}}$"},
                        "Reported bits in order.",
                        required=True,
                        example="0110",
                    ),
                    lab_epsilon,
                    spinner,
                ],
                json_body(OBJECT, "Estimate, ci_low and ci_high after each respondent."),
                400,
                429,
            )
        },
        "/api/lab/number": {
            "get": public_operation(
                "A number question, one spin each",
                f"One class's mean by one spin each, beside Laplace and Gaussian noise. {lab}",
                [
                    parameter("n", whole(1, MAX_CLASS, 200), "Class size."),
                    lab_epsilon,
                    spinner,
                    seed(),
                ],
                json_body(OBJECT, "The class and the three means."),
                400,
                429,
            )
        },
        "/api/lab/averaging": {
            "get": public_operation(
                "The averaging attack",
                f"How often the majority of one respondent's reports is the truth, wave after "
                f"wave, with fresh draws and with a permanent answer. {lab}",
                [
                    parameter("epsilon", number(0.05, DESIGNS_MAX_EPSILON, 1), "ε per wave."),
                    parameter("epsilon_permanent", number(0.1, 8, 2), "ε∞ over all waves."),
                    parameter("waves", whole(1, 200, 50), "Waves."),
                ],
                json_body(OBJECT, "The two curves."),
                400,
                429,
            )
        },
        "/api/lab/choice": {
            "get": public_operation(
                "Single-choice estimates",
                f"Each option's estimate from a class's single-choice reports. {lab}",
                [
                    parameter(
                        "counts",
                        {"type": "string"},
                        f"2 to {MAX_OPTIONS} counts, comma-separated, adding up to 1 to "
                        f"{MAX_CLASS}.",
                        required=True,
                        example="12,5,3",
                    ),
                    lab_epsilon,
                    spinner,
                ],
                json_body(OBJECT, "Estimates and intervals per option."),
                400,
                429,
            )
        },
        "/api/lab/noise": {
            "get": public_operation(
                "Laplace and Gaussian noise",
                f"Laplace scale and Gaussian σ for a sensitivity, ε and δ. {lab}",
                [
                    parameter("sensitivity", number(1e-6, 1e6, 1), "Δ."),
                    parameter("epsilon", number(1e-3, 50, 1), "ε."),
                    parameter("delta", number(1e-15, 0.5, 1e-5), "δ."),
                ],
                json_body(OBJECT, "The scales."),
                400,
                429,
            )
        },
        "/api/lab/experiment": {
            "get": public_operation(
                "A simulated split ballot",
                "A class asked directly and through the spinner with a coin, with respondents who "
                "deny it asked directly and respondents who say no whatever the spinner shows: "
                f"what each finds, on a zero-prevalence item too, and the power. {lab}",
                [
                    parameter("epsilon", number(0.05, 10, 1), "ε of the spinner."),
                    parameter("prevalence", number(0, 1, 0.3), "The true share of yes."),
                    parameter("denial", number(0, 1, 0.5), "True yes who deny it asked directly."),
                    parameter(
                        "noncompliance",
                        number(0, 1, 0.05),
                        "Who say no whatever the spinner shows.",
                    ),
                    parameter("n", whole(10, MAX_CONDITION_N, 1000), "Respondents per condition."),
                    seed(),
                ],
                json_body(OBJECT, "The figures."),
                400,
                429,
            )
        },
        "/api/lab/list": {
            "get": public_operation(
                "A simulated list experiment",
                "A class given the short list of control items or the long one with the "
                "sensitive item added, each saying only how many apply: the difference in means "
                "and the maximum-likelihood estimate, the long list's answers that gave the "
                "sensitive one away (ceiling: all J + 1, floor: none), and Blair & Imai's test "
                f"for a design effect. {lab}",
                [
                    parameter(
                        "controls",
                        whole(MIN_CONTROLS, MAX_CONTROLS, 4),
                        "Control items (J).",
                    ),
                    parameter("prevalence", number(0, 1, 0.2), "The true share holding it."),
                    parameter(
                        "control_share", number(0, 1, 0.5), "Each control item's share of yes."
                    ),
                    parameter(
                        "dropping",
                        number(0, 1, 0),
                        "Long-list respondents who leave out a control item (a design effect).",
                    ),
                    parameter("n", whole(10, MAX_LIST_N, 500), "Respondents per list."),
                    seed(),
                ],
                json_body(OBJECT, "The figures."),
                400,
                429,
            )
        },
        "/api/openapi.json": {
            "get": public_operation(
                "This document",
                "The API described in OpenAPI 3.1.",
                [],
                json_body(OBJECT, "The document."),
            )
        },
    }
