"""Submissions on PostgreSQL from one app server and from two, with one of the two killed.

Starts PostgreSQL and Redis the way the test suite does (``.ci/postgres`` with a database of its
own, ``rr_bench``; ``.ci/redis`` on port 6393), and the production server (gunicorn as
``gunicorn.conf.py`` starts it: gthread workers, limits shared through Redis). Each run starts
from an empty database with the demo survey, and ``--clients`` clients post responses with
random bits, each on a keep-alive connection of its own, without cookies (each a new browser):

1. **One host** (``--workers`` workers): ``--responses`` responses (default 60,000), so that the
   rate late in a large survey can be read against the rate of its first thousand.
2. **Two hosts**, the clients split between them: ``--two-host-responses`` responses; once half
   are acknowledged, the second host is killed with SIGKILL and its clients go on through the
   first.
3. **One host against two**, in ``--rounds`` alternating rounds of ``--round-responses`` on the
   same two servers (one-host rounds post to the first only): the machine's speed drifts by a
   third between runs minutes apart, so the ratio is read round by round, and its median given.

After each run it prints what was sent, acknowledged, stored and published, whether every tally
equals a recount of the stored rows, the rate per thousand responses, and the rows written per
stored response (``pg_stat_user_tables``, read once the servers have stopped and flushed their
statistics). Asserts nothing, but says where a promise did not hold.

    python bench/hosts.py [--responses 60000] [--two-host-responses 20000] [--clients 16]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.servers import free_port, start_gunicorn, wait_until_serving  # noqa: E402

SLUG = "campus-life"
TABLES = ("response", "pending_response", "survey", "question", "option", "group_tally")
BLOCK = 1000


def service(script: str, **settings: str) -> str:
    """Start a service with one of the test suite's scripts; its URL."""
    done = subprocess.run(
        ["bash", str(ROOT / ".ci" / script)],
        env={**os.environ, **settings},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip().splitlines()[-1]


def random_answers(draw: random.Random) -> dict:
    """Reported bits of the demo survey, drawn at random (the server sees nothing else)."""
    bit = lambda: draw.randint(0, 1)  # noqa: E731
    return {
        "cheated": bit(),
        "skipped": bit(),
        "substances": {"alcohol": bit(), "tobacco": bit(), "sleeping_pills": bit()},
        "shared_homework": bit(),
        "copied_work": draw.choice(["never", "once", "two_to_five", "more"]),
        "all_nighters": bit(),
        "year": draw.choice(["first", "second", "third", "fourth", None]),
    }


def request_bytes(port: int, body: bytes) -> bytes:
    return (
        f"POST /api/surveys/{SLUG}/responses HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode() + body


async def exchange(reader, writer, payload: bytes) -> int:
    """Send one request on a kept-alive connection; the reply's status (its body is read)."""
    writer.write(payload)
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.lower() == "content-length":
            length = int(value)
    await reader.readexactly(length)
    return int(lines[0].split()[1])


@dataclass
class Tally:
    """What the clients of one run did."""

    total: int
    sent: int = 0
    acknowledged: int = 0
    failed: int = 0
    refused: dict[int, int] = field(default_factory=dict)
    times: list[float] = field(default_factory=list)


async def post_all(ports: list[int], tally: Tally, clients: int, kill=None) -> None:
    """``tally.total`` submissions from ``clients`` clients spread over ``ports``; ``kill`` is
    called once when half are acknowledged, and returns the port that died."""
    alive = list(ports)
    draw = random.Random(1)

    async def client(index: int) -> None:
        port = alive[index % len(alive)]
        connection = None
        while tally.sent < tally.total:
            tally.sent += 1
            payload = request_bytes(port, json.dumps({"answers": random_answers(draw)}).encode())
            try:
                if connection is None:
                    connection = await asyncio.open_connection("127.0.0.1", port)
                status = await exchange(*connection, payload)
            except (OSError, asyncio.IncompleteReadError):
                # Sent but not acknowledged: it may or may not be stored. Not sent again.
                tally.failed += 1
                connection = None
                if port not in alive:
                    port = alive[index % len(alive)]
                else:
                    await asyncio.sleep(0.05)
                continue
            if status == 201:
                tally.acknowledged += 1
                tally.times.append(time.monotonic())
                if kill is not None and tally.acknowledged == tally.total // 2:
                    alive.remove(kill())
            else:
                tally.refused[status] = tally.refused.get(status, 0) + 1
        if connection is not None:
            connection[1].close()

    await asyncio.gather(*(client(index) for index in range(clients)))


def table_writes(url: str) -> dict[str, tuple[int, int, int]]:
    with psycopg.connect(url) as connection:
        rows = connection.execute(
            "SELECT relname, n_tup_ins, n_tup_upd, n_tup_del FROM pg_stat_user_tables "
            "WHERE relname = ANY(%s)",
            (list(TABLES),),
        ).fetchall()
    return {name: (inserted, updated, deleted) for name, inserted, updated, deleted in rows}


def recount(url: str) -> dict:
    """The survey's counts as stored, and whether every tally equals a recount of its rows."""
    with psycopg.connect(url) as connection:
        survey_id, received, published, publications = connection.execute(
            "SELECT id, response_count, published_count, publication FROM survey WHERE slug = %s",
            (SLUG,),
        ).fetchone()
        rows = [
            json.loads(bits)
            for table in ("response", "pending_response")
            for (bits,) in connection.execute(
                f"SELECT bits FROM {table} WHERE survey_id = %s", (survey_id,)
            )
        ]
        in_response = connection.execute(
            "SELECT count(*) FROM response WHERE survey_id = %s", (survey_id,)
        ).fetchone()[0]
        questions = connection.execute(
            "SELECT id, key, kind, n, noisy_yes FROM question WHERE survey_id = %s", (survey_id,)
        ).fetchall()
        options = connection.execute(
            "SELECT question_id, key, n, noisy_yes FROM option WHERE question_id = ANY(%s)",
            ([row[0] for row in questions],),
        ).fetchall()
    kinds = {row[0]: (row[1], row[2]) for row in questions}
    mismatched = []
    for _, key, kind, n, yes in questions:
        counted = sum(row[key] for row in rows) if kind in ("yesno", "number") else yes
        if kind in ("yesno", "number") and (n, yes) != (len(rows), counted):
            mismatched.append(key)
    for question_id, key, n, yes in options:
        question, kind = kinds[question_id]
        if kind == "multi":
            counted = sum(row[question][key] for row in rows)
        elif kind == "choice":
            counted = sum(row[question] == key for row in rows)
        else:
            continue  # a direct question's options keep no running tally
        if (n, yes) != (len(rows), counted):
            mismatched.append(f"{question}.{key}")
    return {
        "stored": len(rows),
        "received": received,
        "published": published,
        "publications": publications,
        "in_response": in_response,
        "mismatched": mismatched,
    }


def rates(times: list[float], start: float) -> list[float]:
    """Responses per second in each block of a thousand acknowledgements."""
    edges = [start] + times[BLOCK - 1 :: BLOCK]
    return [BLOCK / (later - earlier) for earlier, later in zip(edges, edges[1:], strict=False)]


def rate_between(times: list[float], start: float, low: int, high: int) -> float | None:
    """Responses per second from the ``low``-th acknowledgement to the ``high``-th."""
    if len(times) < high:
        return None
    begin = start if low == 0 else times[low - 1]
    return (high - low) / (times[high - 1] - begin)


def start_hosts(arguments, hosts: int, logs: Path) -> tuple[str, list[int], list]:
    """An empty database with the demo survey, Redis, and ``hosts`` servers on it."""
    database = service("postgres", PG_TEST_DATABASE="rr_bench")
    redis = service("redis", REDIS_TEST_PORT="6393")
    settings = {
        "DATABASE_URL": database,
        "WEB_CONCURRENCY": str(arguments.workers),
        "THREADS": str(arguments.threads),
        "ACCESS_LOG": "/dev/null",
        "FLASK_RATELIMIT_STORAGE_URI": redis,
        # Shared through Redis as in production, but high enough not to refuse the bench.
        "FLASK_SUBMISSION_RATE_LIMIT": "100000000/minute",
    }
    ports = [free_port() for _ in range(hosts)]
    servers = []
    for index, port in enumerate(ports):
        log = (logs / f"host-{hosts}-{index}.log").open("w")
        servers.append(start_gunicorn(port, log, **settings))
        # The first host migrates the database and adds the demo; the second starts after it.
        wait_until_serving(servers[-1], f"http://127.0.0.1:{port}/s/{SLUG}", logs / log.name)
    return database, ports, servers


def stop(servers) -> None:
    for server in servers:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=120)


def alternating(arguments, logs: Path) -> list[tuple[float, float]]:
    """One host against two in alternating rounds on the same servers (the machine's speed
    drifts by a third between runs here, so the two are compared round by round): in a one-host
    round every client posts to the first host, in a two-host round half post to each. Each
    round's responses per second, as (one host, two hosts) pairs, after a warm-up of both."""
    database, ports, servers = start_hosts(arguments, 2, logs)
    try:
        asyncio.run(post_all(ports, Tally(1000), arguments.clients))  # warm-up
        pairs = []
        for round_number in range(arguments.rounds):
            rates = {}
            order = (1, 2) if round_number % 2 == 0 else (2, 1)
            for hosts in order:
                tally = Tally(arguments.round_responses)
                start = time.monotonic()
                asyncio.run(post_all(ports[:hosts], tally, arguments.clients))
                rates[hosts] = tally.acknowledged / (time.monotonic() - start)
            pairs.append((rates[1], rates[2]))
    finally:
        stop(servers)
    return pairs


def run(arguments, hosts: int, total: int, logs: Path) -> dict:
    """One run from an empty database; its figures."""
    database, ports, servers = start_hosts(arguments, hosts, logs)
    before = table_writes(database)
    tally = Tally(total)
    killed = []

    def kill() -> int:
        os.killpg(servers[-1].pid, signal.SIGKILL)
        killed.append(time.monotonic())
        return ports[-1]

    start = time.monotonic()
    asyncio.run(post_all(ports, tally, arguments.clients, kill if hosts > 1 else None))
    elapsed = time.monotonic() - start
    stop(servers)
    after = table_writes(database)
    counted = recount(database)
    written = {
        name: tuple(a - b for a, b in zip(after[name], before.get(name, (0, 0, 0)), strict=True))
        for name in TABLES
    }
    return {
        "tally": tally,
        "start": start,
        "elapsed": elapsed,
        "killed_at": killed[0] if killed else None,
        "counted": counted,
        "written": written,
    }


def report(name: str, figures: dict) -> None:
    tally, counted, written = figures["tally"], figures["counted"], figures["written"]
    stored = counted["stored"]
    print(f"\n## {name}")
    print(
        f"sent {tally.sent:,}, acknowledged {tally.acknowledged:,}, not acknowledged "
        f"{tally.failed:,}, refused {tally.refused or 0}; stored {stored:,} "
        f"(survey's count {counted['received']:,}), published {counted['published']:,} "
        f"in {counted['publications']:,} publications ({counted['in_response']:,} rows moved)"
    )
    lost = tally.acknowledged - stored
    print(
        "acknowledged and lost: "
        + (f"{lost:,} (A PROMISE BROKEN)" if lost > 0 else "none")
        + "; tallies equal a recount of the rows: "
        + ("yes" if not counted["mismatched"] else f"NO: {counted['mismatched']}")
    )
    print(f"{tally.acknowledged / figures['elapsed']:.0f} responses/s over the run")
    blocks = rates(tally.times, figures["start"])
    shown = [0, *range(4, len(blocks), 5)]
    print(
        "rate per thousand (responses/s): "
        + ", ".join(
            f"{(i + 1) * BLOCK // 1000}k: {blocks[i]:.0f}" for i in shown if i < len(blocks)
        )
    )
    inserted = sum(written[table][0] for table in ("response", "pending_response"))
    deleted = sum(written[table][2] for table in ("response", "pending_response"))
    updated = sum(written[table][1] for table in ("response", "pending_response"))
    print(
        f"rows written per stored response: {inserted / stored:.3f} inserted, "
        f"{updated / stored:.3f} updated, {deleted / stored:.3f} deleted (response and "
        f"pending_response); "
        + ", ".join(
            f"{table} {sum(written[table][:2]) / stored:.3f}"
            for table in ("survey", "question", "option", "group_tally")
        )
        + " rows inserted or updated per response"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--responses", type=int, default=60_000)
    parser.add_argument("--two-host-responses", type=int, default=20_000)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per host")
    parser.add_argument("--threads", type=int, default=16, help="threads per worker")
    parser.add_argument("--rounds", type=int, default=6, help="alternating one/two-host rounds")
    parser.add_argument("--round-responses", type=int, default=4000)
    arguments = parser.parse_args()
    logs = Path(os.environ.get("TMPDIR", "/tmp")) / "rr-bench-hosts"
    logs.mkdir(exist_ok=True)
    print(
        f"{os.cpu_count()} cores; {arguments.clients} clients; hosts of {arguments.workers} "
        f"gunicorn workers x {arguments.threads} threads; PostgreSQL and Redis on this machine"
    )
    one = run(arguments, 1, arguments.responses, logs)
    report("One host", one)
    first = rate_between(one["tally"].times, one["start"], 0, 1000)
    late = rate_between(one["tally"].times, one["start"], 50_000, 60_000)
    if first and late:
        print(
            f"responses 50,000-60,000: {late:.0f}/s against {first:.0f}/s for the first 1,000: "
            f"{late / first:.2f}x"
        )
    two = run(arguments, 2, arguments.two_host_responses, logs)
    report("Two hosts, the second killed with SIGKILL half way", two)
    half = arguments.two_host_responses // 2
    # Both runs from the 1,000th response (past the servers' warm-up) to the kill.
    two_rate = rate_between(two["tally"].times, two["start"], 1000, half)
    one_rate = rate_between(one["tally"].times, one["start"], 1000, half)
    if two_rate and one_rate:
        print(
            f"\nresponses 1,000-{half:,} (separate runs, minutes apart): two hosts "
            f"{two_rate:.0f}/s, one host {one_rate:.0f}/s: two/one = {two_rate / one_rate:.2f}"
        )
    pairs = alternating(arguments, logs)
    ratios = [two / one for one, two in pairs]
    print(
        f"\n## One host against two, {len(pairs)} alternating rounds of "
        f"{arguments.round_responses:,} responses on the same servers"
    )
    for index, (one_host, two_hosts) in enumerate(pairs, start=1):
        print(f"round {index}: one host {one_host:.0f}/s, two hosts {two_hosts:.0f}/s: "
              f"{two_hosts / one_host:.2f}")  # fmt: skip
    print(f"two/one, median of rounds: {statistics.median(ratios):.2f} "
          f"(from {min(ratios):.2f} to {max(ratios):.2f})")  # fmt: skip


if __name__ == "__main__":
    main()
