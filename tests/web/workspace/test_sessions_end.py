"""Sessions that can be ended: logout, a password change and an administrator's reset end every
session of the account, copied cookies included; login takes the same time for unknown emails."""

from __future__ import annotations

import logging
import re

import pytest
import werkzeug.security

from tests.conftest import PASSWORD, Researcher, csrf_token
from web.core.infrastructure.extensions import db
from web.core.models import ResearcherSession, User


def copy_of(app, researcher) -> object:
    """Another browser holding a copy of the researcher's session cookie (a stolen cookie)."""
    thief = app.test_client()
    thief.set_cookie("session", researcher.client.get_cookie("session").value)
    return thief


def can_read_surveys(client) -> bool:
    return client.get("/surveys").status_code == 200


def test_logout_ends_a_copied_session_too(app, researcher):
    thief = copy_of(app, researcher)
    assert can_read_surveys(thief)
    researcher.post("/logout")
    assert not can_read_surveys(thief)
    assert not can_read_surveys(researcher.client)


def test_a_password_change_needs_the_current_one_and_ends_other_sessions(app, researcher):
    thief = copy_of(app, researcher)
    wrong = researcher.post(
        "/account/password",
        data={"current": "not it", "password": "new password 1", "confirm": "new password 1"},
    )
    assert "This is not your current password." in wrong.get_data(as_text=True)
    assert can_read_surveys(thief)
    changed = researcher.post(
        "/account/password",
        data={"current": PASSWORD, "password": "new password 1", "confirm": "new password 1"},
    )
    assert changed.status_code == 302
    assert can_read_surveys(researcher.client)  # this session goes on
    assert not can_read_surveys(thief)
    with app.app_context():
        user = db.session.scalar(db.select(User).filter_by(email=researcher.email))
        assert user.check_password("new password 1") and not user.check_password(PASSWORD)


def test_an_administrator_resets_a_password_from_the_command_line(app, researcher, runner):
    thief = copy_of(app, researcher)
    result = runner.invoke(
        args=["reset-password", researcher.email.upper(), "--password", "fresh password"]
    )
    assert result.exit_code == 0, result.output
    assert not can_read_surveys(thief) and not can_read_surveys(researcher.client)
    refused = runner.invoke(args=["reset-password", "nobody@example.org", "--password", "x" * 9])
    assert refused.exit_code == 1 and "no user with email" in refused.output


@pytest.mark.parametrize("email", ["rita@example.org", "nobody@example.org"])
def test_unknown_emails_cost_the_same_scrypt_check(app, researcher, monkeypatch, email):
    # The time a login takes is the time of one scrypt check with the account's parameters,
    # whether or not the account exists (bench/login_timing.py measures the medians).
    checked = []
    original = werkzeug.security.check_password_hash

    def counting(stored, password):
        checked.append(stored.split("$")[0])
        return original(stored, password)

    monkeypatch.setattr("web.core.models.accounts.check_password_hash", counting)
    client = app.test_client()
    token = csrf_token(client.get("/login").get_data(as_text=True))
    response = client.post(
        "/login", data={"csrf_token": token, "email": email, "password": "wrong password"}
    )
    assert response.status_code == 200
    with app.app_context():
        real = db.session.scalar(db.select(User.password_hash).filter_by(email=researcher.email))
    assert checked == [real.split("$")[0]]


def test_a_session_of_an_old_generation_is_refused(app, researcher):
    with app.app_context():
        user = db.session.scalar(db.select(User).filter_by(email=researcher.email))
        assert User.from_session(user.get_id()) is user
        assert User.from_session(f"{user.id}:{user.session_generation - 1}") is None
        assert User.from_session(str(user.id)) is None  # a session from before generations
        assert User.from_session("x:y") is None


def test_logging_in_again_after_logout_works(app, researcher):
    researcher.post("/logout")
    again = Researcher(app.test_client(), researcher.email)
    assert can_read_surveys(again.client)


@pytest.mark.parametrize(
    ("password", "refused"),
    [
        ("password123", True),  # on the list of common passwords
        ("baseball1", True),
        ("Survey2026!", True),  # this app's own words
        ("rita-2026", True),  # the email's local part
        ("violet kestrel 43", False),
        ("ÄÖÜ 비밀 12345", False),  # any composition is allowed
        ("x" * 64, False),  # 64 characters and more are allowed
    ],
)
def test_guessable_passwords_are_refused_everywhere(app, researcher, runner, password, refused):
    changed = researcher.post(
        "/account/password",
        data={"current": PASSWORD, "password": password, "confirm": password},
    )
    assert (changed.status_code == 200) is refused
    if refused:
        assert "too common or too easy to guess" in changed.get_data(as_text=True)
        result = runner.invoke(args=["create-user", "rita@example.net", "--password", password])
        assert result.exit_code == 1 and "the password is not allowed" in result.output


class Clock:
    """Stands in for the time module in web/workspace/auth.py."""

    def __init__(self, now: float):
        self.now = now

    def time(self) -> float:
        return self.now


@pytest.mark.parametrize(
    ("steps", "still_in"),
    [
        ([3600, 3600], True),  # a request every hour: never idle for 2 hours
        ([2 * 3600 + 1], False),  # idle for more than 2 hours
        ([3000] * 14, True),  # 11 h 40 min of steady use
        ([3000] * 15, False),  # past 12 hours since the login, however active
    ],
)
def test_sessions_end_when_idle_or_too_old(app, make_researcher, monkeypatch, steps, still_in):
    clock = Clock(1_800_000_000)
    monkeypatch.setattr("web.workspace.auth.time", clock)
    researcher = make_researcher("tim@example.org")
    for step in steps:
        clock.now += step
        alive = can_read_surveys(researcher.client)
    assert alive is still_in


def test_an_administrator_ends_sessions_from_the_command_line(app, make_researcher, runner):
    first, second = make_researcher("a@example.org"), make_researcher("b@example.org")
    assert runner.invoke(args=["end-sessions", "a@example.org"]).exit_code == 0
    assert not can_read_surveys(first.client) and can_read_surveys(second.client)
    result = runner.invoke(args=["end-sessions"])
    assert result.exit_code == 0 and "of 2 account(s)" in result.output
    assert not can_read_surveys(second.client)


def test_security_events_are_logged_without_personal_data(app, client, runner, caplog, survey):
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    with caplog.at_level(logging.INFO, logger="rr.security"):
        token = csrf_token(client.get("/login").get_data(as_text=True))
        for password in ("wrong password", PASSWORD):
            client.post(
                "/login",
                data={"csrf_token": token, "email": "rita@example.org", "password": password},
            )
        client.get(f"/api/surveys/{survey}/results", headers={"Authorization": "Bearer nope"})
    lines = [record.getMessage() for record in caplog.records if record.name == "rr.security"]
    assert [line.split()[0] for line in lines] == [
        "login.failed",
        "login.succeeded",
        "token.refused",
    ]
    assert all(
        "rita" not in line and PASSWORD not in line and "127.0.0.1" not in line for line in lines
    )


def test_researcher_pages_are_not_cached_and_logout_clears_the_cache(researcher, survey):
    assert researcher.get("/surveys").headers["Cache-Control"] == "no-store"
    assert researcher.get(f"/surveys/{survey}").headers["Cache-Control"] == "no-store"
    logout = researcher.post("/logout")
    assert logout.headers["Clear-Site-Data"] == '"cache"'


def test_log_out_ends_this_devices_session_on_the_server_only(app, researcher):
    """Beside "Log out everywhere", "Log out" ends the session here, on the server: a copy of its
    cookie made before stops working (ASVS 3.3.1); the account's other devices stay logged in."""
    page = researcher.get("/surveys").get_data(as_text=True)
    assert 'action="/logout/here"' in page and ">Log out</button>" in page
    assert ">Log out everywhere</button>" in page
    copied = copy_of(app, researcher)
    other_device = Researcher(app.test_client(), researcher.email)
    assert can_read_surveys(copied)
    response = researcher.post("/logout/here")
    assert response.status_code == 302 and response.headers["Clear-Site-Data"] == '"cache"'
    assert not can_read_surveys(researcher.client)
    assert not can_read_surveys(copied)
    assert can_read_surveys(other_device.client)
    assert researcher.client.get("/logout/here").status_code == 405


def test_the_account_page_lists_its_sessions_and_ends_one(app, researcher):
    """Each login is a row on the server with its device and times; ending one there logs that
    browser out, copies of its cookie included, and leaves this one logged in."""
    phone = Researcher(app.test_client(), researcher.email)
    stolen = copy_of(app, phone)
    page = researcher.get("/account/sessions").get_data(as_text=True)
    rows = re.findall(r'<tr data-session="(\d+)">(.*?)</tr>', page, re.DOTALL)
    assert len(rows) == 2
    here = [number for number, row in rows if "(this browser)" in row]
    (other,) = [number for number, row in rows if "(this browser)" not in row]
    assert len(here) == 1 and "End this session" in dict(rows)[other]
    ended = researcher.post(f"/account/sessions/{other}/end")
    assert ended.status_code == 302
    assert not can_read_surveys(phone.client) and not can_read_surveys(stolen)
    assert can_read_surveys(researcher.client)
    assert (
        len(
            re.findall(
                "<tr data-session=", researcher.get("/account/sessions").get_data(as_text=True)
            )
        )
        == 1
    )
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(ResearcherSession)) == 1
    assert researcher.post("/account/sessions/999/end").status_code == 404  # no such session


def test_ending_this_browsers_session_on_the_account_page_logs_out_here(researcher):
    page = researcher.get("/account/sessions").get_data(as_text=True)
    (number,) = re.findall(r'<tr data-session="(\d+)">', page)
    assert "Log out here" in page
    assert researcher.post(f"/account/sessions/{number}/end").status_code == 302
    assert not can_read_surveys(researcher.client)


def test_a_sessions_row_keeps_a_device_name_and_the_minute_never_the_header(app, make_researcher):
    agent = (
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
        "Chrome/126.0 Mobile Safari/537.36"
    )
    client = app.test_client()
    client.environ_base["HTTP_USER_AGENT"] = agent
    make_researcher("ann@example.org")
    Researcher(client, "ann@example.org")
    with app.app_context():
        rows = db.session.scalars(db.select(ResearcherSession)).all()
        assert "Chrome · Android" in [row.device for row in rows]
        assert all(row.signed_in_at.second == 0 and row.seen_at.microsecond == 0 for row in rows)
        assert all(len(row.key_hash) == 64 for row in rows)
