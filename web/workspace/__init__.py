"""The researcher's pages: accounts, the builder, the dashboard and the downloads."""

from web.workspace import account, auth, builder, dashboard, downloads

BLUEPRINTS = (auth.bp, account.bp, dashboard.bp, builder.bp, downloads.bp)
