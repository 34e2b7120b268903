"""Importing a survey file (JSON or XLSForm) as a new survey: the one path the command line, the
builder and the API take, so all three refuse the same files with the same reasons."""

from __future__ import annotations

from web.core.infrastructure.database import add_unique
from web.core.infrastructure.extensions import db
from web.core.models import Survey, User
from web.core.surveys.joincode import ensure_join_code
from web.core.surveys.problems import SurveyFileError
from web.core.surveys.series import wave_problems
from web.core.surveys.team import record
from web.core.surveys.xlsform.read import load_any_survey

IMPORT_STATUSES = ("draft", "open", "closed")


class ImportRefused(Exception):
    """The file was not imported: every reason, one line each; ``taken`` is the address when
    that alone stood in the way (another survey has it)."""

    def __init__(self, problems: list[str], taken: str | None = None):
        super().__init__("\n".join(problems))
        self.problems = problems
        self.taken = taken


def import_survey_file(filename: str, raw: bytes, owner: User | None, status: str) -> Survey:
    """Parse ``raw`` (told apart by its first bytes and ``filename``), check it against the
    owner's series, and store it with ``status`` (one of :data:`IMPORT_STATUSES`); committed.
    Raises :class:`ImportRefused` with every mistake, storing nothing."""
    try:
        spec = load_any_survey(filename, raw)
    except SurveyFileError as error:
        raise ImportRefused(list(error.problems)) from None
    clashes = wave_problems(spec, owner.id if owner else None)
    if clashes:
        raise ImportRefused([str(problem) for problem in clashes])
    survey = Survey.from_spec(spec, owner=owner)
    survey.status = status
    if status == "open":
        ensure_join_code(survey)
    if not add_unique(survey):
        raise ImportRefused([f"slug {spec.slug!r} is already taken"], taken=spec.slug)
    record(survey, owner.id if owner else None, "imported", filename)
    db.session.commit()
    return survey
