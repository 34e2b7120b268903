"""The researcher's pages: accounts, the builder, the dashboard, the projector and the downloads."""

from web.workspace import (
    account,
    auth,
    builder,
    dashboard,
    downloads,
    field_devices,
    invitations,
    people,
    projector,
    series_page,
)

BLUEPRINTS = (
    auth.bp,
    account.bp,
    dashboard.bp,
    builder.bp,
    downloads.bp,
    field_devices.bp,
    invitations.bp,
    people.bp,
    projector.bp,
    series_page.bp,
)
