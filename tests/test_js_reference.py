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


DESIGNS = [
    ["forced_response", {"pTruth": 0.75, "pForcedYes": 0.15, "pForcedNo": 0.1}],
    ["forced_response", {"pTruth": 4 / 6, "pForcedYes": 1 / 6, "pForcedNo": 1 / 6}],
    ["unrelated_question", {"pTruth": 0.7, "prevalence": 0.25}],
    ["unrelated_question", {"pTruth": 0.2, "prevalence": 0.9}],
    ["crosswise", {"prevalence": 0.25}],
    ["crosswise", {"prevalence": 0.8}],
]


def python_design(procedure: str, parameters: dict) -> rr.Design:
    if procedure == "forced_response":
        return rr.forced_response(
            parameters["pTruth"], parameters["pForcedYes"], parameters["pForcedNo"]
        )
    if procedure == "unrelated_question":
        return rr.unrelated_question(parameters["pTruth"], parameters["prevalence"])
    return rr.crosswise(parameters["prevalence"])


@pytest.fixture(scope="module")
def design_rows():
    return node_rows("tests/js/design_dump.js", DESIGNS)


def test_each_designs_probabilities_and_epsilon_match(design_rows):
    for row in design_rows:
        design = python_design(row["procedure"], row["parameters"])
        assert row["yesGivenYes"] == pytest.approx(design.yes_given_yes, rel=1e-12)
        assert row["yesGivenNo"] == pytest.approx(design.yes_given_no, rel=1e-12)
        assert row["epsilon"] == pytest.approx(design.epsilon, rel=1e-12)


def test_each_designs_wheel_reports_with_its_probabilities(design_rows):
    # A forced-response wheel ignores the innocuous answer; the unrelated question's reports the
    # innocuous answer on dark: P(1 | truth t, innocuous i) = p·t + (1 − p)·i.
    for row in design_rows:
        if not row["sectors"]:
            continue
        parameters = row["parameters"]
        for key, yes in row["reports"].items():
            truth, innocuous = int(key[0]), int(key[1])
            if row["procedure"] == "forced_response":
                expected = parameters["pTruth"] * truth + parameters["pForcedYes"]
            else:
                expected = parameters["pTruth"] * truth + (1 - parameters["pTruth"]) * innocuous
            tolerance = 4.5 * math.sqrt(max(expected * (1 - expected), 1e-6) / DRAWS)
            assert abs(yes / DRAWS - expected) < tolerance, (row["procedure"], key)


NUMBERS = [[0.5, 0, 30, 0], [1.0, 0, 30, 12], [2.0, 0, 30, 30], [1.0, -5, 5, 1.5], [4.0, 1, 7, 6]]


def test_number_reports_follow_rr_bounded_mean():
    for row in node_rows("tests/js/number_dump.js", NUMBERS):
        mean = rr.bounded_mean(row["min"], row["max"], row["epsilon"], row["procedure"])
        assert row["share"] == pytest.approx(float(mean.share(row["value"])), rel=1e-15)
        theta = mean.report_share(row["value"])
        tolerance = 4 * math.sqrt(theta * (1 - theta) / DRAWS)
        assert abs(row["ones"] / DRAWS - theta) < tolerance, row
