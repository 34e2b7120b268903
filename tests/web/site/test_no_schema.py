"""A database whose migrations were never applied: every page and route says what to run, not
"Something went wrong"."""

import pytest

from web.core.infrastructure.extensions import db


@pytest.mark.parametrize(
    "path", ["/", "/s/campus-life", "/login", "/setup", "/api/surveys/campus-life/quotas/full"]
)
def test_a_database_without_its_schema_says_how_to_make_it(app, client, path):
    app.config.update(TESTING=False, PROPAGATE_EXCEPTIONS=False)
    with app.app_context():
        db.drop_all()
    answered = client.get(path, headers={"Accept-Language": "en"})
    assert answered.status_code == 503
    said = answered.json["error"] if path.startswith("/api/") else answered.get_data(as_text=True)
    assert "flask --app app db upgrade" in said
    assert "Something went wrong" not in said


def test_other_database_errors_stay_a_500(app, client):
    app.config.update(TESTING=False, PROPAGATE_EXCEPTIONS=False)

    def broken():
        db.session.execute(db.text("SELECT no_such_column FROM survey"))

    app.add_url_rule("/broken", "broken", broken)
    answered = client.get("/broken", headers={"Accept-Language": "en"})
    assert answered.status_code == 500
    assert "db upgrade" not in answered.get_data(as_text=True)
