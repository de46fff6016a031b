"""What one update of a table page costs the browser: Chromium's CPU per version the page shows.

Run on demand; needs Debian's Chromium and the `test` extra (Playwright):

    .venv/bin/python benchmarks/bench_page_updates.py                     # every game, 2 runs
    .venv/bin/python benchmarks/bench_page_updates.py --games kingdoms --seconds 10

Why: a page redraws on every state message, and a phone (or a headless browser rendering in
software, as the browser tests do) pays each redraw in CPU. The server plays random AI seats
(`ai_delay` between moves, so every move reaches the page on its own); a spectator page at
`--size` with reduced motion watches for `--seconds`; the table shows the CPU of every Chromium
process (renderer, browser, GPU; from /proc, children included) divided by the number of
versions the page showed, as the median of `--runs` games of different seeds. The machine's
other load counts for little: CPU time, not wall time, is measured, of this run's Chromium only.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

import httpx
import uvicorn
from playwright.sync_api import Browser, sync_playwright
from rich.console import Console
from rich.table import Table

from bloodforge.server.app import create_app
from bloodforge.server.config import Settings
from bloodforge.server.runner import uvicorn_config

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: Parameters of a short game of each kind (Kingdoms ends after three rounds).
GAMES: dict[str, dict[str, object]] = {
    "bloodstones": {"players": 2}, "witch": {"players": 2}, "forts": {"players": 2},
    "kingdoms": {"players": 2, "max_rounds": 3}, "arena": {"players": 2},
}
TICK = os.sysconf("SC_CLK_TCK")


def chromium_cpu() -> float:
    """CPU seconds of this process's Chromium (every process below this one whose command is
    Chromium's), with the children each has reaped (so a renderer that exited still counts, in
    its zygote). Another Chromium on the machine does not count."""
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for pid in (int(p) for p in os.listdir("/proc") if p.isdigit()):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        parents[pid] = int(fields[1])
        if b"chromium" in cmd.split(b" ")[0]:
            cpu[pid] = sum(int(x) for x in fields[11:15]) / TICK
    me = os.getpid()

    def mine(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == me:
                return True
        return False

    return sum(seconds for pid, seconds in cpu.items() if mine(pid))


class Server:
    """The app on 127.0.0.1 in a thread, as the browser tests run it."""

    def __init__(self, settings: Settings) -> None:
        self.server = uvicorn.Server(uvicorn_config(create_app(settings), host="127.0.0.1", port=0))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        while not self.server.started:
            time.sleep(0.02)
        return f"http://127.0.0.1:{self.server.servers[0].sockets[0].getsockname()[1]}"

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


def measure(
    url: str, browser: Browser, game: str, seed: int, seconds: float, size: tuple[int, int]
) -> tuple[int, float]:
    """(versions shown, Chromium CPU-s) while a spectator page watches one AI game."""
    params = GAMES[game]
    seats = [{"name": f"AI {i + 1}", "kind": "agent", "agent": "random"} for i in range(int(str(params["players"])))]
    table = httpx.post(f"{url}/api/tables", json={"game": game, "params": params, "seed": seed, "seats": seats},
                       timeout=60).json()["table"]["id"]
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{url}/table/{table}")
    page.wait_for_function("() => document.body.dataset.version !== undefined")
    time.sleep(0.5)  # the first draw is not an update
    before, shown = chromium_cpu(), int(page.evaluate("Number(document.body.dataset.version)"))
    time.sleep(seconds)
    after, now = chromium_cpu(), int(page.evaluate("Number(document.body.dataset.version)"))
    context.close()
    return now - shown, after - before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=6.0, help="watching time per run")
    parser.add_argument("--delay", type=float, default=0.05, help="the server's pause before each AI move")
    parser.add_argument("--size", default="1280x800")
    args = parser.parse_args()
    size = tuple(int(x) for x in args.size.split("x"))

    table = Table(title=f"Chromium CPU per page update, spectator at {args.size}, median of {args.runs} runs")
    for column in ("game", "updates a run", "CPU-s an update"):
        table.add_column(column, justify="right" if column != "game" else "left")
    with tempfile.TemporaryDirectory() as tmp, \
            Server(Settings(db_url=f"sqlite:///{tmp}/bench.sqlite3", ai_delay=args.delay)) as url, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        for game in args.games:
            runs = [measure(url, browser, game, 3 + run, args.seconds, (size[0], size[1])) for run in range(args.runs)]
            per_update = statistics.median(cpu / max(1, versions) for versions, cpu in runs)
            table.add_row(game, str(round(statistics.median(v for v, _ in runs))), f"{per_update:.4f}")
        browser.close()
    Console().print(table)


if __name__ == "__main__":
    main()
