"""Production settings: ``gunicorn -c gunicorn.conf.py "app:create_app()"``.

On the embedded SQLite database one process serves, with threads: the SQLite linked here has the
WAL-reset bug (see web/sqlite_guard.py). With DATABASE_URL pointing at PostgreSQL, several
processes serve (WEB_CONCURRENCY, default two per core).
"""

import ipaddress
import multiprocessing
import os
import sys

bind = os.environ.get("BIND", "127.0.0.1:8000")


def _loopback(address: str) -> bool:
    """Whether a gunicorn bind address (host:port, [v6]:port or unix:path) stays on this machine."""
    if address.startswith("unix:"):
        return True
    host = address.rpartition(":")[0].strip("[]") or address
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


# Beyond the loopback, absolute links and QR codes must not come from the Host header a client
# sends (web/site/public_url.py): refuse to start without the public address.
if not (os.environ.get("PUBLIC_URL") or os.environ.get("FLASK_PUBLIC_URL")) and not all(
    _loopback(address) for address in bind.split(",")
):
    sys.exit(
        f"Refusing to serve on {bind} without PUBLIC_URL: set PUBLIC_URL to the address "
        "respondents open (e.g. PUBLIC_URL=https://surveys.example.edu)."
    )
worker_class = "gthread"
threads = int(os.environ.get("THREADS", "16"))
_on_postgres = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql"))
workers = (
    int(os.environ.get("WEB_CONCURRENCY", 2 * multiprocessing.cpu_count())) if _on_postgres else 1
)
# X-Forwarded-Proto (and gunicorn's other secure-scheme headers) count only when the app is told it
# sits behind a proxy (FLASK_TRUST_PROXY, which also sets ProxyFix's hops): gunicorn's own
# default trusts them from the loopback, where any local process could claim HTTPS.
_trust_proxy = os.environ.get("FLASK_TRUST_PROXY", "0").strip() not in ("", "0")
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1") if _trust_proxy else ""
# No control socket: the app needs none, and gunicorn's default path is one per user, which a
# second instance on the machine would take over or remove.
control_socket_disable = True
timeout = 60
graceful_timeout = 20
# No client address, user agent or referrer in the access log: only what was asked and answered;
# and no query string, which may carry a panel's id for the respondent (web/core/surveys/panel.py).
accesslog = os.environ.get("ACCESS_LOG", "-")
access_log_format = '"%(m)s %(U)s %(H)s" %(s)s %(b)s %(M)sms'
# ...and no line at all for a stored response, which would give it a time (web/site/logs.py).
logger_class = "web.site.logs.GunicornLogger"
# Served over HTTPS in production: cookies only travel encrypted. Set these to false to serve a
# classroom over plain HTTP on a local network.
os.environ.setdefault("FLASK_SESSION_COOKIE_SECURE", "true")
os.environ.setdefault("FLASK_REMEMBER_COOKIE_SECURE", "true")
os.environ.setdefault("FLASK_PREFERRED_URL_SCHEME", "https")


def on_starting(server):
    """Upgrade the database once, in the master, before any worker starts (several workers on
    PostgreSQL would otherwise all try; the advisory lock in web/core/infrastructure/database.py stays as a guard
    for several servers on one database)."""
    from app import create_app
    from web.core.startup import prepare_database
    from web.site.public_url import NOT_SET

    app = create_app()
    if not app.config["PUBLIC_URL"]:
        server.log.warning(NOT_SET)
    prepare_database(app)
