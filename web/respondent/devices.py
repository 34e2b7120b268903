"""Submissions from a shared field device (an interviewer's tablet), opened through its link.

Such a device answers for one respondent after another, so the answered cookie, which stops one
browser from answering twice, neither stops nor marks it; the link's secret comes with every
submission instead (``X-Field-Device``), and a revoked link stops them.
"""

from __future__ import annotations

from flask_babel import gettext as _

from web.core.models import FieldDevice
from web.respondent.submissions import submissions

HEADER = "X-Field-Device"


def device_refusal(slug: str, token: str) -> str | None:
    """Why a device with this link's secret may not submit to the survey, or None if it may."""
    found = FieldDevice.state_of(token)
    state = submissions().state(slug)
    if found is None or state is None or found[0] != state.id:
        return _("This field device link is not one of this survey's. Open the survey through "
                 "the link the researcher gave you.")  # fmt: skip
    if found[1]:
        return _("This device's field link was revoked: it cannot send answers any more. "
                 "Ask the researcher for a new link.")  # fmt: skip
    return None
