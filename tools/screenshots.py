"""Refresh the README's screenshots (docs/screenshots/<game>.png and lobby.png).

Starts `bloodforge serve` on a free port with a throwaway database, creates one table per game
(Anna in seat 1, the game's AI in the others), plays a few of your moves through the API (a seeded
random pick among the legal actions) while the AI answers on the server, and photographs your
seat's page at 1280x800 with Debian's Chromium (/usr/bin/chromium) driven by Playwright.
PNGs over MAX_BYTES are reduced to a 256-colour palette (Pillow), so the repository stays small.

    .venv/bin/python tools/screenshots.py                 # every game and the lobby
    .venv/bin/python tools/screenshots.py --only witch --moves 8
    .venv/bin/python tools/screenshots.py --size 390x844 --out /tmp/phone   # a phone's view
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
CHROMIUM = Path("/usr/bin/chromium")
SIZE = {"width": 1280, "height": 800}
MAX_BYTES = 300_000
#: Verbs a few first moves should avoid when anything else is legal (so the board shows play).
DULL = ("cancel", "pass", "concede", "resign")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def call(url: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


def start_server(data_dir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    cmd = [sys.executable, "-m", "bloodforge.cli.main", "serve", "--port", str(port),
           "--data-dir", str(data_dir), "--ai-delay", "0.05", "--ai-budget", "5"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            call(url, "GET", "/api/health")
            return proc, url
        except (urllib.error.URLError, ConnectionError):
            if proc.poll() is not None:
                raise SystemExit("the server did not start") from None
            time.sleep(0.3)
    proc.terminate()
    raise SystemExit("the server did not answer within 60 s")


def wait_for_turn(url: str, table: str, token: str, timeout: float = 90) -> dict[str, Any]:
    """Seat 0's view once it may act (or the game is over)."""
    deadline = time.monotonic() + timeout
    while True:
        view: dict[str, Any] = call(url, "GET", f"/api/tables/{table}/state?seat=0", token=token)
        if view["legal"] or view["terminal"] or time.monotonic() > deadline:
            return view
        time.sleep(0.2)


def play_table(url: str, game: dict[str, Any], moves: int, seed: int) -> tuple[str, str]:
    """Create the game's default table (the lobby's setup: you and its AI) and play `moves` of
    your moves; returns the table id and your seat's token."""
    players = game["parameters"]["properties"].get("players", {}).get("default", game["min_players"])
    players = min(max(int(players), game["min_players"]), game["max_players"])
    seats = [{"name": "Anna", "kind": "human"}] + [{"kind": "agent", "agent": "greedy"} for _ in range(players - 1)]
    created = call(url, "POST", "/api/tables", {"game": game["id"], "params": {"players": players},
                                                  "seed": seed, "seats": seats})
    table, token = created["table"]["id"], created["links"][0]["token"]
    rng = random.Random(seed)
    for _ in range(moves):
        view = wait_for_turn(url, table, token)
        if view["terminal"] or not view["legal"]:
            break
        lively = [a for a in view["legal"] if not a.startswith(DULL)] or view["legal"]
        try:
            call(url, "POST", f"/api/tables/{table}/actions",
                 {"seat": 0, "action": rng.choice(lively), "version": view["version"]}, token=token)
        except urllib.error.HTTPError:
            continue  # stale (a simultaneous commitment came first): look again
    wait_for_turn(url, table, token)
    return table, token


def shrink(path: Path) -> None:
    """Keep a PNG under MAX_BYTES: a 256-colour palette (Pillow) when the full colour one is over."""
    if path.stat().st_size <= MAX_BYTES:
        return
    try:
        from PIL import Image
    except ImportError:
        print(f"  {path.name}: {path.stat().st_size} bytes (install Pillow to shrink it)")
        return
    with Image.open(path) as img:
        small = img.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        small.save(path, optimize=True)


def shoot(page: Page, url: str, path: Path) -> None:
    page.goto(url)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1500)  # renderers and their short animations settle
    page.evaluate("() => document.querySelectorAll('dialog[open]').forEach((d) => d.close())")  # battle pop-ups
    page.wait_for_timeout(300)
    page.screenshot(path=str(path))
    shrink(path)
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    print(f"  {shown}: {path.stat().st_size // 1000} KB")


def viewport(text: str) -> dict[str, int]:
    """`WIDTHxHEIGHT` as Playwright's viewport."""
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: expected WIDTHxHEIGHT, e.g. 390x844") from None
    if not (200 <= width <= 4000 and 200 <= height <= 4000):
        raise argparse.ArgumentTypeError(f"{text!r}: width and height must be 200-4000 pixels")
    return {"width": width, "height": height}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="game id (repeatable); default: every game")
    parser.add_argument("--moves", type=int, default=12, help="your moves played before the picture")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--size", type=viewport, default=SIZE,
                        help="viewport WIDTHxHEIGHT (default 1280x800, the README's; 390x844 is a phone)")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        raise SystemExit("Debian's chromium is missing: apt-get install chromium")
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(Path(tmp))
        try:
            games = [g for g in call(url, "GET", "/api/games") if not args.only or g["id"] in args.only]
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=str(CHROMIUM),
                                            args=["--headless", "--no-sandbox", "--disable-gpu"])
                page = browser.new_page(viewport=args.size)
                for game in games:
                    print(f"{game['name']}: playing {args.moves} moves")
                    table, token = play_table(url, game, args.moves, args.seed)
                    shoot(page, f"{url}/table/{table}#seat=0&token={token}", args.out / f"{game['id']}.png")
                if not args.only:
                    shoot(page, f"{url}/", args.out / "lobby.png")
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=20)


if __name__ == "__main__":
    main()
