"""The yardstick for submissions: a minimal Flask endpoint that inserts a JSON body into SQLite.

Served by bench/load.py with the same gunicorn settings as the app; BASELINE_DB names the file.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading

from flask import Flask, request

DATABASE = os.environ.get("BASELINE_DB", "baseline.sqlite3")
_local = threading.local()


def connection() -> sqlite3.Connection:
    if not hasattr(_local, "connection"):
        connection = sqlite3.connect(DATABASE, timeout=10)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")
        connection.execute(
            "CREATE TABLE IF NOT EXISTS response (id INTEGER PRIMARY KEY, bits TEXT)"
        )
        _local.connection = connection
    return _local.connection


def create_app() -> Flask:
    app = Flask(__name__)

    @app.post("/insert")
    def insert():
        """Store the body's answers."""
        answers = request.get_json()["answers"]
        with connection() as db:
            db.execute("INSERT INTO response (bits) VALUES (?)", (json.dumps(answers),))
        return {"ok": True}, 201

    return app


def constant_app(environ, start_response):
    """The server's own ceiling: a WSGI callable that reads the body and sends a fixed reply."""
    environ["wsgi.input"].read()
    start_response("201 CREATED", [("Content-Type", "application/json"), ("Content-Length", "12")])
    return [b'{"ok": true}']
