"""Accounts: first-run setup, login and logout, CSRF, tokens in the browser, and who sees what."""

import pytest

from app import create_app
from tests.conftest import PASSWORD, TEST_PASSWORD_HASH, csrf_token, no_database
from tests.helpers import bearer
from web.core.infrastructure.extensions import db
from web.core.models import ApiToken, Survey, User
from web.core.surveys.demo import seed_demo_if_empty

RESEARCHER_PAGES = [
    "/surveys",
    "/surveys/new",
    "/surveys/import",
    "/account/tokens",
    "/surveys/{slug}",
    "/surveys/{slug}/panel",
    "/surveys/{slug}/edit",
    "/surveys/{slug}/questions/new",
    "/surveys/{slug}/questions/cheated",
    "/surveys/{slug}/responses.csv",
    "/surveys/{slug}/estimates.csv",
    "/surveys/{slug}/codebook.json",
    "/surveys/{slug}/survey.json",
]


@pytest.mark.parametrize("page", RESEARCHER_PAGES)
@no_database
def test_logged_out_visitor_is_sent_to_login(client, survey, page):
    response = client.get(page.format(slug=survey))
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/login?next=")


def test_setup_creates_the_first_account_then_disappears(app, client):
    assert client.get("/login").headers["Location"] == "/setup"
    token = csrf_token(client.get("/setup").get_data(as_text=True))
    response = client.post(
        "/setup",
        data={
            "csrf_token": token,
            "email": "First@Example.org",
            "password": "long enough",
            "confirm": "long enough",
        },
    )
    assert response.status_code == 302 and response.headers["Location"] == "/surveys"
    assert client.get("/surveys").status_code == 200
    with app.app_context():
        user = db.session.scalar(db.select(User))
        assert user.email == "first@example.org" and user.password_hash.startswith("scrypt:")
    assert app.test_client().get("/setup").status_code == 404


@no_database
def test_passwords_are_hashed_with_full_strength_scrypt_outside_the_suite(app, tmp_path):
    # The suite hashes with cheaper parameters (tests/conftest.py); the app itself never does.
    served = create_app(
        {"DEMO_SURVEY": False, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'own.sqlite3'}"}
    )
    with served.app_context():
        db.create_all()
        user = User(email="ada@example.org")
        user.set_password("long enough")
        assert user.password_hash.startswith("scrypt:32768:8:1$")
        assert user.check_password("long enough") and not user.check_password("long enougH")
        db.engine.dispose()
    with app.app_context():
        user = User(email="ada@example.org")
        user.set_password("long enough")
        assert user.password_hash.startswith(TEST_PASSWORD_HASH + "$")


def test_setup_checks_the_form(client):
    token = csrf_token(client.get("/setup").get_data(as_text=True))
    html = client.post(
        "/setup",
        data={"csrf_token": token, "email": "nope", "password": "short", "confirm": "other"},
    ).get_data(as_text=True)
    assert "Enter an email address." in html and "The passwords differ." in html
    assert "Use at least 8 characters." in html


def test_wrong_password_is_refused(client, runner):
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    token = csrf_token(client.get("/login").get_data(as_text=True))
    response = client.post(
        "/login", data={"csrf_token": token, "email": "rita@example.org", "password": "wrong"}
    )
    assert response.status_code == 200 and "Wrong email or password." in response.get_data(
        as_text=True
    )
    assert client.get("/surveys").status_code == 302


@pytest.mark.parametrize(
    ("target", "landing"),
    [
        ("/account/tokens", "/account/tokens"),
        ("//evil.example/x", "/surveys"),
        ("https://evil.example/", "/surveys"),
    ],
)
def test_login_returns_only_to_same_site_pages(client, runner, target, landing):
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    token = csrf_token(client.get("/login").get_data(as_text=True))
    response = client.post(
        "/login",
        query_string={"next": target},
        data={"csrf_token": token, "email": "rita@example.org", "password": PASSWORD},
    )
    assert response.headers["Location"] == landing


def test_logout_needs_a_post_with_its_token(researcher):
    assert researcher.client.get("/logout").status_code == 405
    assert researcher.client.post("/logout").status_code == 400
    assert researcher.get("/surveys").status_code == 200
    assert researcher.post("/logout").status_code == 302
    assert researcher.get("/surveys").status_code == 302


def test_form_posted_without_its_csrf_token_is_refused(app, researcher):
    response = researcher.client.post("/surveys/new", data={"title": "Sneaky", "description": ""})
    assert response.status_code == 400
    with app.app_context():
        assert db.session.scalar(db.select(Survey).filter_by(title="Sneaky")) is None


def test_tokens_are_created_shown_once_and_revoked(app, client, researcher, survey):
    html = researcher.post("/account/tokens", data={"label": "notebook"}).get_data(as_text=True)
    token = html.split('id="new-token">')[1].split("<")[0]
    headers = bearer(token)
    assert client.get(f"/api/surveys/{survey}/results", headers=headers).status_code == 200
    assert token not in researcher.get("/account/tokens").get_data(as_text=True)
    with app.app_context():
        record = db.session.scalar(db.select(ApiToken).filter_by(label="notebook"))
    assert researcher.post(f"/account/tokens/{record.id}/revoke").status_code == 302
    assert client.get(f"/api/surveys/{survey}/results", headers=headers).status_code == 401


def test_another_researcher_cannot_revoke_a_token(app, make_researcher):
    rita, omar = make_researcher("rita@example.org"), make_researcher("omar@example.org")
    rita.post("/account/tokens", data={"label": "mine"})
    with app.app_context():
        record = db.session.scalar(db.select(ApiToken))
    assert omar.post(f"/account/tokens/{record.id}/revoke").status_code == 404
    assert "mine" not in omar.get("/account/tokens").get_data(as_text=True)


def test_one_researcher_cannot_read_anothers_survey(app, make_researcher):
    rita, omar = make_researcher("rita@example.org"), make_researcher("omar@example.org")
    rita.post(
        "/surveys/new", data={"title": "Private one", "slug": "private-one", "description": ""}
    )
    for page in RESEARCHER_PAGES[4:]:
        assert (
            omar.get(page.format(slug="private-one").replace("cheated", "q1")).status_code == 404
        ), page
    assert omar.post("/surveys/private-one/status", data={"status": "open"}).status_code == 404
    assert (
        omar.post(
            "/surveys/private-one/questions/new",
            data={"text": "x", "kind": "yesno", "epsilon": "1", "procedure": "spinner"},
        ).status_code
        == 404
    )
    assert "private-one" not in omar.get("/surveys").get_data(as_text=True)
    assert "private-one" in rita.get("/surveys").get_data(as_text=True)


def test_unowned_surveys_are_shared_by_every_account(make_researcher, survey):
    for email in ("rita@example.org", "omar@example.org"):
        researcher = make_researcher(email)
        assert survey in researcher.get("/surveys").get_data(as_text=True)
        assert researcher.get(f"/surveys/{survey}").status_code == 200


def test_a_fresh_apps_home_page_points_to_setup_until_an_account_exists(app, client, runner):
    home = client.get("/").get_data(as_text=True)
    assert 'href="/setup"' in home and "Create the researcher account" in home
    runner.invoke(args=["create-user", "first@example.org", "--password", PASSWORD])
    assert 'href="/setup"' not in client.get("/").get_data(as_text=True)


def test_first_steps_show_until_the_researcher_has_a_survey_of_their_own(
    app, researcher, import_survey
):
    with app.app_context():
        seed_demo_if_empty()  # the unowned demo is listed, and is not the researcher's own
    page = researcher.get("/surveys").get_data(as_text=True)
    assert 'id="first-steps"' in page
    for link in ('href="/surveys/new"', 'href="/surveys/import"', 'href="/s/campus-life"',
                 'href="/lab"'):  # fmt: skip
        assert link in page.split('id="first-steps"', 1)[1].split("</section>", 1)[0], link
    researcher.post("/surveys/new", data={"title": "Mine", "description": "", "results_batch": 5})
    assert 'id="first-steps"' not in researcher.get("/surveys").get_data(as_text=True)
