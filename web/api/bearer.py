"""Who an API request speaks for: the account of its bearer token, and whether it may write."""

from __future__ import annotations

from flask import abort, request

from web.core.models import ApiToken, TokenHolder
from web.site.logs import security_event


def bearer_holder() -> TokenHolder:
    """The holder of the request's bearer token; 401 without a valid one."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    holder = ApiToken.holder_of(token.strip()) if scheme.lower() == "bearer" and token else None
    if holder is None:
        security_event("token.refused")
        abort(401, "a valid API token is needed: Authorization: Bearer TOKEN")
    return holder


def bearer_user_id() -> int:
    """The id of the account of the request's bearer token; 401 without a valid one."""
    return bearer_holder().user_id


def writing_user_id() -> int:
    """The id of the account of a read-and-write token; 401 without a token, 403 for a
    read-only one."""
    holder = bearer_holder()
    if not holder.may_write:
        security_event("token.read_only", account=holder.user_id)
        abort(403, "this token is read-only: create a read-and-write token to change surveys")
    return holder.user_id
