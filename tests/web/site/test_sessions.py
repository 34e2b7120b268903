"""Sessions: nothing opened or sent for visitors without one, and caches still told to vary."""

from tests.conftest import VALID_ANSWERS, no_database


def test_a_visitor_without_a_session_gets_no_session_cookie_and_a_single_vary(client, survey):
    # One Vary header: the session's Cookie, and where the reply may be compressed (a page, not a
    # submission's short reply), the compression's Accept-Encoding.
    for response, vary in (
        (client.get("/"), "Accept-Encoding, Cookie"),
        (client.post(f"/api/surveys/{survey}/responses", json=VALID_ANSWERS), "Cookie"),
    ):
        assert response.headers.getlist("Vary") == [vary]
        assert not any(
            cookie.startswith("session=") for cookie in response.headers.getlist("Set-Cookie")
        )


@no_database
def test_a_view_that_varies_on_more_keeps_its_own_vary(app_like):
    other = app_like()
    other.add_url_rule(
        "/by-language", "by_language", lambda: ("", 204, {"Vary": "Accept-Language"})
    )
    response = other.test_client().get("/by-language")
    assert response.headers["Vary"] == "Accept-Language, Cookie"


def test_a_logged_in_session_is_still_saved_and_logging_out_ends_it(researcher):
    before = researcher.client.get_cookie("session").value
    assert researcher.get("/surveys").status_code == 200
    assert researcher.post("/logout").status_code == 302
    assert researcher.client.get_cookie("session").value != before
    assert researcher.get("/surveys").status_code == 302
