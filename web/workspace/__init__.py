"""The researcher's pages: accounts, the builder, the dashboard and the downloads."""

from web.workspace import (
    account,
    auth,
    builder,
    dashboard,
    downloads,
    field_devices,
    invitations,
    people,
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
    series_page.bp,
)
