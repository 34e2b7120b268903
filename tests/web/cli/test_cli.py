"""The command line: import, export, accounts, tokens, results and simulated responses."""

import json

import pytest

import rr
from tests.conftest import SAMPLE_SURVEY, no_database, stored_bits, stored_count
from tests.helpers import bearer
from web.core.infrastructure.extensions import db
from web.core.models import Survey


def test_import_prints_the_slug_last(runner, survey_file):
    result = runner.invoke(args=["import-survey", str(survey_file)])
    assert result.exit_code == 0
    assert result.output.strip().splitlines()[-1] == "campus-life-test"
    assert "total epsilon 4" in result.output


def test_bad_file_names_every_problem_and_imports_nothing(app, runner, tmp_path):
    data = dict(SAMPLE_SURVEY, slug="Bad Slug")
    data["questions"] = [
        dict(SAMPLE_SURVEY["questions"][0], epsilon=11),
        SAMPLE_SURVEY["questions"][1],
    ]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    result = runner.invoke(args=["import-survey", str(path)])
    # A heading, then one line per mistake.
    lines = result.output.strip().splitlines()
    assert result.exit_code == 1 and len(lines) == 3 and "was not imported" in lines[0]
    assert "slug: 'Bad Slug' is not a valid slug" in lines[1]
    assert "questions[0].epsilon" in lines[2]
    with app.app_context():
        assert db.session.scalar(db.select(Survey)) is None


@no_database
def test_missing_file_is_one_line(runner, tmp_path):
    result = runner.invoke(args=["import-survey", str(tmp_path / "absent.json")])
    assert result.exit_code == 1
    assert result.output.strip() == f"Error: {tmp_path / 'absent.json'}: No such file or directory"


def test_duplicate_slug_is_refused(runner, survey, survey_file):
    result = runner.invoke(args=["import-survey", str(survey_file)])
    assert result.exit_code == 1 and "already taken" in result.output


def test_export_writes_the_format_back(runner, survey, tmp_path):
    result = runner.invoke(args=["export-survey", survey])
    assert result.exit_code == 0 and json.loads(result.output) == {
        **SAMPLE_SURVEY,
        "languages": ["en"],
        "results_batch": 5,
    }
    target = tmp_path / "out.json"
    assert runner.invoke(args=["export-survey", survey, "-o", str(target)]).exit_code == 0
    assert json.loads(target.read_text(encoding="utf-8")) == {
        **SAMPLE_SURVEY,
        "languages": ["en"],
        "results_batch": 5,
    }


def test_export_of_unknown_survey_fails(runner):
    result = runner.invoke(args=["export-survey", "nope"])
    assert result.exit_code == 1 and "no survey with slug 'nope'" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["create-user", "not-an-email", "--password", "long enough"], "is not an email address"),
        (["create-user", "a@example.org", "--password", "short"], "at least 8 characters"),
        (["create-token", "ghost@example.org"], "no user with email"),
    ],
)
def test_account_mistakes_are_refused(runner, args, message):
    result = runner.invoke(args=args)
    assert result.exit_code == 1 and message in result.output


def test_duplicate_user_is_refused(runner, token):
    result = runner.invoke(args=["create-user", "ADA@example.org", "--password", "whatever long"])
    assert result.exit_code == 1 and "already exists" in result.output


def test_token_from_the_cli_reads_results(client, survey, token):
    assert token.startswith("rr_")
    response = client.get(f"/api/surveys/{survey}/results", headers=bearer(token))
    assert response.status_code == 200


def test_results_table_shows_estimates(runner, survey):
    runner.invoke(
        args=[
            "simulate-responses",
            survey,
            "--n",
            "2000",
            "--true-proportion",
            "0.4",
            "--seed",
            "3",
        ]
    )
    result = runner.invoke(args=["results", survey])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].startswith("Campus life (campus-life-test, open)")
    assert lines[1] == (
        "2000 of 2000 responses published (results move in batches of 5), "
        "total privacy cost epsilon = 4"
    )
    assert any(line.startswith("cheated") and "2000" in line for line in lines)
    assert any(line.strip().startswith("tobacco") for line in lines)


def test_results_table_before_any_response(runner, survey):
    output = runner.invoke(args=["results", survey]).output
    assert "0 of 0 responses published" in output
    assert "withheld until at least 10 responses are published" in output
    assert "cheated" not in output


def test_simulated_responses_estimate_the_true_share(app, runner, survey):
    n, share = 20_000, 0.3
    result = runner.invoke(
        args=[
            "simulate-responses",
            survey,
            "--n",
            str(n),
            "--true-proportion",
            str(share),
            "--seed",
            "9",
        ]
    )
    assert result.exit_code == 0, result.output
    with app.app_context():
        found = db.session.scalar(db.select(Survey))
        assert found.response_count == n
        assert stored_count() == n
        first = stored_bits()[0]
        assert set(first) == {"cheated", "substances"} and set(first["substances"]) == {
            "alcohol",
            "tobacco",
        }
        stored_yes = sum(bits["cheated"] for bits in stored_bits())
        cheated = found.questions[0]
        assert (cheated.n, cheated.noisy_yes) == (n, stored_yes)
        for question, tally in [
            (cheated, cheated),
            *[(found.questions[1], o) for o in found.questions[1].options],
        ]:
            estimate = rr.estimate_proportion(
                tally.noisy_yes, tally.n, question.epsilon, question.procedure
            )
            offset = 1 / (1 + 2.718281828459045**question.epsilon)
            slope = rr.light_fraction(question.epsilon, "spinner_coin")
            theta = offset + slope * share
            sd = (theta * (1 - theta) / n) ** 0.5 / slope
            assert abs(estimate.estimate - share) < 4 * sd


@pytest.mark.parametrize("args", [["--n", "0"], ["--n", "5", "--true-proportion", "1.5"]])
@no_database
def test_simulate_refuses_bad_arguments(runner, survey, args):
    assert runner.invoke(args=["simulate-responses", survey, *args]).exit_code == 2


def test_the_batch_size_travels_with_the_survey_file(app, runner, import_survey):
    import_survey({**SAMPLE_SURVEY, "slug": "batched", "results_batch": 7})
    exported = json.loads(runner.invoke(args=["export-survey", "batched"]).output)
    assert exported["results_batch"] == 7
