"""The browser's procedure agrees with rr, the Python reference."""

import json
import math
import pathlib
import shutil
import subprocess

import pytest

import rr

ROOT = pathlib.Path(__file__).resolve().parent.parent
EPSILONS = [1e-6, 0.1, 0.5, 1.0, math.log(3), 2.0, 4.0, 10.0, 30.0]
DRAWS = 50_000


def node_rows(script: str, cases) -> list:
    """What a dump script prints for ``cases`` and DRAWS draws, parsed."""
    node = shutil.which("node")
    assert node, "node is needed to run the browser modules"
    output = subprocess.run(
        [node, script, json.dumps(cases), str(DRAWS)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    return json.loads(output)


@pytest.fixture(scope="module")
def browser_rows():
    return node_rows("tests/js/reference_dump.js", EPSILONS)


def test_light_fraction_matches(browser_rows):
    for row in browser_rows:
        expected = rr.light_fraction(row["epsilon"], row["procedure"])
        assert abs(row["p"] - expected) <= 1e-12 * expected


def test_report_probabilities_match(browser_rows):
    for row in browser_rows:
        expected = rr.report_probabilities(row["epsilon"], row["procedure"])
        for observed, probability in [
            (row["yesGivenYes"] / DRAWS, expected.yes_given_yes),
            (row["yesGivenNo"] / DRAWS, expected.yes_given_no),
        ]:
            tolerance = 4 * math.sqrt(max(probability * (1 - probability), 1e-6) / DRAWS) + 1e-9
            assert abs(observed - probability) < tolerance, row


CHOICES = [[0.5, 3], [1.0, 4], [2.0, 5], [4.0, 8], [1.0, 2]]


@pytest.fixture(scope="module")
def choice_rows():
    return node_rows("tests/js/choice_dump.js", CHOICES)


def test_single_choice_light_share_matches(choice_rows):
    for row in choice_rows:
        expected = rr.choice_light_fraction(row["epsilon"], row["k"], row["procedure"])
        assert abs(row["q"] - expected) <= 1e-12 * expected


def test_single_choice_spinner_and_die_report_with_rr_probabilities(choice_rows):
    # The true option is 0: it is reported with e^ε/(e^ε + k − 1), each other with 1/(e^ε + k − 1);
    # on dark the die's wheel stops inside the sector of the option it reports.
    for row in choice_rows:
        truth, other = rr.choice_probabilities(row["epsilon"], row["k"])
        for index, count in enumerate(row["reports"]):
            probability = truth if index == 0 else other
            tolerance = 4.5 * math.sqrt(probability * (1 - probability) / DRAWS)
            assert abs(count / DRAWS - probability) < tolerance, row
        assert row["dieOnDark"], row


# Designs the page draws a wheel for, with their parameters as a survey states them.
WHEELS = [
    ("forced_response", {"p_truth": 0.75, "p_forced_yes": 0.15, "p_forced_no": 0.1}),
    ("forced_response", {"p_truth": 4 / 6, "p_forced_yes": 1 / 6, "p_forced_no": 1 / 6}),
    ("unrelated_question", {"p_truth": 0.7, "prevalence": 0.25}),
    ("unrelated_question", {"p_truth": 0.2, "prevalence": 0.9}),
]


def wheel_cases():
    """Each design with its parameters, its wheel as the registry describes it to the page, and
    the rr.Design its reports must follow."""
    from web.core.surveys.designs import DesignParameters, design_named

    cases = []
    for name, shares in WHEELS:
        design = design_named(name)
        parameters = DesignParameters.of(**shares)
        cases.append((design.page.sectors(parameters), design.rr_design(0.0, parameters), shares))
    return cases


@pytest.fixture(scope="module")
def design_rows():
    cases = wheel_cases()
    return list(
        zip(cases, node_rows("tests/js/design_dump.js", [c[0] for c in cases]), strict=True)
    )


def test_each_designs_wheel_reports_with_its_probabilities(design_rows):
    # P(1 | truth t, innocuous i) is the wheel's share that reports 1 given t and i; averaged over
    # the innocuous answer (yes with its prevalence) it is the design's λ_t.
    for (sectors, design, shares), row in design_rows:
        prevalence = shares.get("prevalence", 0.5)
        for truth in (0, 1):
            by_innocuous = []
            for innocuous in (0, 1):
                outcome = {"truth": truth, "opposite": 1 - truth, "yes": 1, "no": 0}
                expected = sum(
                    sector["share"] * outcome.get(sector["reports"], innocuous)
                    for sector in sectors
                )
                by_innocuous.append(expected)
                yes = row["reports"][f"{truth}{innocuous}"]
                tolerance = 4.5 * math.sqrt(max(expected * (1 - expected), 1e-6) / DRAWS)
                assert abs(yes / DRAWS - expected) < tolerance, (shares, truth, innocuous)
            averaged = (1 - prevalence) * by_innocuous[0] + prevalence * by_innocuous[1]
            wanted = design.yes_given_yes if truth else design.yes_given_no
            assert averaged == pytest.approx(wanted, rel=1e-12), shares


NUMBERS = [[0.5, 0, 30, 0], [1.0, 0, 30, 12], [2.0, 0, 30, 30], [1.0, -5, 5, 1.5], [4.0, 1, 7, 6]]


def test_number_reports_follow_rr_bounded_mean():
    for row in node_rows("tests/js/number_dump.js", NUMBERS):
        mean = rr.bounded_mean(row["min"], row["max"], row["epsilon"], row["procedure"])
        assert row["share"] == pytest.approx(float(mean.share(row["value"])), rel=1e-15)
        theta = mean.report_share(row["value"])
        tolerance = 4 * math.sqrt(theta * (1 - theta) / DRAWS)
        assert abs(row["ones"] / DRAWS - theta) < tolerance, row
