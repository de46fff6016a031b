"""Server load: many simulated players over websocket on 127.0.0.1, many tables at once.

Run on demand (not a test):
    python benchmarks/bench_server_load.py [--tables 20,100,300] [--seconds 15] [--db URL]
    python benchmarks/bench_server_load.py --processes 2 --db postgresql://user:pass@127.0.0.1/bench

With `--processes N` (PostgreSQL only) N `serve` processes share the database; each client
creates its table on one process and plays it over the websocket of the next one, so every
action crosses processes (LISTEN/NOTIFY) on its way to the other seats' views.

Starts `bloodforge serve` in a subprocess (temp SQLite file unless --db), then for each table
count: creates that many Bloodstones tables (seat 0 a simulated human client, seat 1 the random
AI on the server), connects one websocket client per table, and lets every client play random
legal moves as fast as the server answers. The measured `--seconds` start once every client
holds its table (at most SETUP_SECONDS later), so creating the tables is in none of the
figures. Each client action is timed from send to its ack (the ack follows the commit and the
broadcast). A client whose game ends starts a new table. Prints one table row per table count:
client actions/s, all actions/s (including the AI's, from the versions seen), p50/p95/p99
round trip, errors, tables held at once and the server's memory and CPU time (user + system,
all threads, from /proc) per committed action (`--max-cpu-ms X` makes the run fail above X).
`--profile FILE` runs the server under py-spy (`pip install py-spy`; samples of the thread
holding the GIL, every thread, collapsed stacks): where the CPU per action goes. Bounded in
time and count, loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import websockets
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
#: Seconds a client waits for any message before it counts a stall and leaves the table.
RECV_TIMEOUT = 10.0
#: Longest wait for every client to hold its table before a level's measured seconds start.
SETUP_SECONDS = 60.0


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    versions: int = 0
    errors: int = 0
    stalls: int = 0
    games_finished: int = 0


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db_url: str, port: int, profile: str | None = None) -> subprocess.Popen[bytes]:
    code = (
        "from bloodforge.server.runner import serve; "
        f"serve(host='127.0.0.1', port={port}, db_url={db_url!r}, ai_delay=0.0, "
        "tables_per_minute=1e6, table_burst=100000, max_ai_tables_per_client=100000, "
        "max_connections_per_client=100000)"
    )
    command = [sys.executable, "-c", code]
    if profile:  # py-spy samples every thread of the server (the event loop, the database writer)
        spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
        command = [spy, "record", "--nonblocking", "--gil", "--threads", "--format", "raw", "--rate", "200",
                   "-o", profile, "--", *command]
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).raise_for_status()
            return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("server did not start")


def server_pid(proc: subprocess.Popen[bytes]) -> int:
    """The server's own process: `proc`, or the one py-spy started (`--profile`)."""
    try:
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
    except OSError:
        children = []
    return int(children[0]) if children and Path(f"/proc/{proc.pid}/exe").resolve().name == "py-spy" else proc.pid


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system, every thread) the process has used so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return float("nan")


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


async def new_table(http: httpx.AsyncClient, seed: int) -> tuple[str, str]:
    body = {"game": "bloodstones", "params": {"players": 2}, "seed": seed,
            "seats": [{"name": "bench"}, {"kind": "agent", "agent": "random"}]}
    for attempt in range(3):
        try:
            r = await http.post("/api/tables", json=body)
            break
        except httpx.TransportError:  # a kept-alive connection the server closed as it was reused
            if attempt == 2:
                raise
    r.raise_for_status()
    data = r.json()
    return data["table"]["id"], data["links"][0]["token"]


async def client(port: int, http: httpx.AsyncClient, seed: int, stop_at: list[float], stats: Stats,
                 held: list[int]) -> None:
    """Create tables through `http` (one server process) and play them on `port` (maybe another)."""
    rng = random.Random(seed)
    while time.monotonic() < stop_at[0]:
        table_id, token = await new_table(http, seed)
        seed += 100_003
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}", max_size=2**22) as ws:
            held[0] += 1
            held[1] = max(held[1], held[0])
            try:
                await ws.send(json.dumps({"type": "hello", "seat": 0, "token": token}))
                last_version = 0
                sent_at: float | None = None
                view: dict[str, object] = {}
                while time.monotonic() < stop_at[0]:
                    try:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT))
                    except TimeoutError:
                        stats.stalls += 1  # no answer: counted, and the table is left
                        break
                    if msg["type"] == "state":
                        stats.versions += max(0, msg["version"] - last_version)
                        last_version = msg["version"]
                        view = msg
                        if msg["terminal"]:
                            stats.games_finished += 1
                            break
                    elif msg["type"] == "ack":
                        assert sent_at is not None
                        stats.latencies.append(time.perf_counter() - sent_at)
                        sent_at = None
                    elif msg["type"] == "error":
                        stats.errors += 1
                        sent_at = None
                    legal = view.get("legal") or []
                    if sent_at is None and isinstance(legal, list) and legal:
                        useful = [a for a in legal if a != "cancel"] or legal
                        sent_at = time.perf_counter()
                        await ws.send(json.dumps({"type": "act", "action": rng.choice(useful),
                                                  "version": view["version"], "id": last_version}))
                        view = {**view, "legal": []}
            finally:
                held[0] -= 1


async def run_level(ports: list[int], tables: int, seconds: float, pids: list[int]) -> dict[str, float]:
    """One level: the clients create and join their tables, and once every one holds its table
    (or after SETUP_SECONDS) the measured `seconds` start: rates, latencies and CPU per action
    count only that window, so the tables' creation is not in them."""
    stats = Stats()
    held = [0, 0]
    limits = httpx.Limits(max_connections=64)
    https = [httpx.AsyncClient(base_url=f"http://127.0.0.1:{p}", timeout=60, limits=limits) for p in ports]
    steady: list[float] = []  # time, CPU seconds, versions and latencies once every client holds its table
    stop_at = [time.monotonic() + SETUP_SECONDS + seconds]

    async def mark_steady() -> None:
        while held[0] < tables and time.monotonic() < stop_at[0] - seconds:
            await asyncio.sleep(0.05)
        now = time.monotonic()
        stop_at[0] = now + seconds
        steady.extend([now, sum(cpu_seconds(pid) for pid in pids), stats.versions, len(stats.latencies)])

    try:
        n = len(ports)
        marker = asyncio.create_task(mark_steady())
        await asyncio.gather(*(client(ports[(i + 1) % n], https[i % n], 1000 + i, stop_at, stats, held)
                               for i in range(tables)))
        await marker
        elapsed = time.monotonic() - steady[0]
        cpu_used = sum(cpu_seconds(pid) for pid in pids) - steady[1]
        steady_versions = stats.versions - int(steady[2])
        del stats.latencies[:int(steady[3])]
        live = [(await h.get("/api/health")).json()["live_tables"] for h in https]
    finally:
        for h in https:
            await h.aclose()
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    return {
        "tables": tables,
        "client_actions_s": len(lat) / elapsed,
        "all_actions_s": steady_versions / elapsed,
        "p50": pct(0.50), "p95": pct(0.95), "p99": pct(0.99),
        "mean": statistics.fmean(lat) * 1000 if lat else float("nan"),
        "errors": stats.errors,
        "stalls": stats.stalls,
        "held": held[1],
        "games": stats.games_finished,
        "live_tables": sum(live),
        "rss": sum(rss_mb(pid) for pid in pids),
        # the tables' creation and connection excluded: CPU per committed action while playing
        "cpu_ms": cpu_used * 1000 / steady_versions if steady_versions > 0 else float("nan"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="20,100,300", help="comma-separated table counts")
    parser.add_argument("--seconds", type=float, default=15.0, help="duration of each level")
    parser.add_argument("--db", default=None, help="database URL (default: a temp SQLite file)")
    parser.add_argument("--processes", type=int, default=1, help="server processes sharing the database")
    parser.add_argument("--max-cpu-ms", type=float, default=None,
                        help="fail (exit 1) if the servers spend more CPU than this per committed action")
    parser.add_argument("--profile", default=None, metavar="FILE",
                        help="record the server with py-spy (collapsed stacks of every thread) into FILE")
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="bloodforge-bench-")
    db_url = args.db or f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
    if args.processes > 1 and db_url.startswith("sqlite"):
        parser.error("several server processes share a PostgreSQL database: give --db postgresql://...")
    ports = [free_port() for _ in range(args.processes)]
    procs = [start_server(db_url, p, args.profile and f"{args.profile}.{i}" if args.processes > 1 else args.profile)
             for i, p in enumerate(ports)]
    console = Console(width=180)
    table = Table(title=f"bloodforge server load ({'SQLite' if db_url.startswith('sqlite') else 'PostgreSQL'}, "
                        f"{args.processes} server process(es), {os.cpu_count()} cores, clients and servers "
                        "on one machine)")
    for col in ("tables (clients)", "client actions/s", "all actions/s", "p50 ms", "p95 ms", "p99 ms",
                "errors", "stalls", "tables held", "games ended", "servers' RSS MB", "server CPU ms/action"):
        table.add_column(col, justify="right")
    worst = 0.0
    try:
        for level in (int(x) for x in args.tables.split(",")):
            r = asyncio.run(run_level(ports, level, args.seconds, [server_pid(p) for p in procs]))
            table.add_row(f"{level}", f"{r['client_actions_s']:.0f}", f"{r['all_actions_s']:.0f}",
                          f"{r['p50']:.1f}", f"{r['p95']:.1f}", f"{r['p99']:.1f}", f"{r['errors']}", f"{r['stalls']}",
                          f"{r['held']}", f"{r['games']}", f"{r['rss']:.0f}", f"{r['cpu_ms']:.2f}")
            worst = max(worst, r["cpu_ms"])
    finally:
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):  # py-spy (--profile) writes its file when it ends
                os.kill(server_pid(proc), signal.SIGTERM)
        for proc in procs:
            proc.wait(timeout=60)
    console.print(table)
    if args.max_cpu_ms is not None and not worst <= args.max_cpu_ms:
        console.print(f"FAIL: the server spent {worst:.2f} ms of CPU per action (at most {args.max_cpu_ms} allowed)")
        sys.exit(1)


if __name__ == "__main__":
    main()
