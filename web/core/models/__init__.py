"""Database models, one module per concern. A response stores only reported bits; tallies keep
results O(1).

- :mod:`.accounts`: users and API tokens;
- :mod:`.sessions`: researchers' sessions, kept on the server;
- :mod:`.surveys`: a survey's row;
- :mod:`.questions`: questions and options;
- :mod:`.tallies`: the counts behind every estimate;
- :mod:`.responses`: stored and pending responses;
- :mod:`.fielding`: submission keys, field devices, and quotas' and screen-outs' counts;
- :mod:`.team`: who a survey is shared with, their roles, and the audit log;
- :mod:`.invitations`: colleagues invited to a survey's team before they have an account.
"""

from web.core.models.accounts import READ, READ_WRITE, ApiToken, TokenHolder, User
from web.core.models.fielding import FieldDevice, FieldworkCount, SubmissionKey
from web.core.models.invitations import Invitation
from web.core.models.questions import ArmTally, Option, Question
from web.core.models.responses import PendingResponse, Response
from web.core.models.sessions import ResearcherSession
from web.core.models.surveys import (
    SURVEY_TEXTS,
    Survey,
    UTCSeconds,
    owns_a_survey,
    readable_by,
    surveys_readable_by,
    unbounded_questions,
)
from web.core.models.tallies import GroupTally, Tally
from web.core.models.team import AuditEvent, SurveyMember

__all__ = [
    "READ",
    "READ_WRITE",
    "SURVEY_TEXTS",
    "ApiToken",
    "ArmTally",
    "AuditEvent",
    "FieldDevice",
    "FieldworkCount",
    "GroupTally",
    "Invitation",
    "Option",
    "PendingResponse",
    "Question",
    "ResearcherSession",
    "Response",
    "SubmissionKey",
    "Survey",
    "SurveyMember",
    "Tally",
    "TokenHolder",
    "User",
    "UTCSeconds",
    "readable_by",
    "owns_a_survey",
    "surveys_readable_by",
    "unbounded_questions",
]
