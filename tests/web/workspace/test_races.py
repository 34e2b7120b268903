"""Two requests racing for the same unique value: the database decides, one wins, the others get
the friendly refusal (not a 500), and nothing is stored twice."""

import threading

from web.core.extensions import db
from web.core.models import Survey

RACERS = 6


def test_researchers_racing_for_one_address_get_one_survey_and_clear_refusals(app, make_researcher):
    researchers = [make_researcher(f"r{index}@example.org") for index in range(RACERS)]
    start = threading.Barrier(RACERS)
    replies = [None] * RACERS

    def create(index):
        start.wait(timeout=60)
        replies[index] = researchers[index].post(
            "/surveys/new", data={"title": "Same", "slug": "same"}
        )

    threads = [threading.Thread(target=create, args=(index,)) for index in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    codes = sorted(reply.status_code for reply in replies)
    assert codes == [200] * (RACERS - 1) + [302]
    refusals = [reply.get_data(as_text=True) for reply in replies if reply.status_code == 200]
    assert all("This address is taken; choose another." in page for page in refusals)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Survey)) == 1
