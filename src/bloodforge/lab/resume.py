"""Going on with a run that stopped: the games an earlier run of the same experiment logged.

*Why:* a matchup at one second a decision runs for hours, and a run ends when its process
does (a session closed, a machine rebooted, Ctrl-C). Its games log (`<out>.games.jsonl`)
keeps every game it finished; `--resume` plays only the games the log lacks and writes one
result document of them all, as if the run had never stopped. Seeds fix which game each job
is, and the games log is written in job order, so an early stop (SPRT) is decided on the
same ordered games as an uninterrupted run would have seen. Games decided by the clock are
other games when played again, so a finished game is never replayed.
"""

from __future__ import annotations

import json
from pathlib import Path

from .experiments import Experiment, ExperimentError
from .jobs import GameResult, job_key
from .merge import read_run

#: What a resumed run may change: only how many games it plays (a matchup's seeds come in
#: order, so more games extend the job list; fewer are refused when a logged game would be no
#: job of the run: `experiments._match_logged`).
MAY_DIFFER = frozenset({"games"})


def count_lines(path: Path) -> int:
    """Non-blank lines of a file (0 when there is none)."""
    if not path.exists():
        return 0
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def logged_games(path: Path) -> int:
    """How many games a games log holds (0 when there is no file or only its first line)."""
    return max(0, count_lines(path) - 1)


def drop_torn_line(path: Path) -> bool:
    """Cut a last line the stopped process left half written (no newline and not JSON), so
    that the games appended next start on a line of their own. True when one was cut."""
    raw = path.read_bytes()
    if not raw or raw.endswith(b"\n"):
        return False
    head, _, tail = raw.rpartition(b"\n")
    try:
        json.loads(tail)
    except ValueError:
        path.write_bytes(head + b"\n" if head else b"")
        return True
    path.write_bytes(raw + b"\n")  # a whole line that only lacked its newline
    return False


def read_for_resume(path: Path, exp: Experiment) -> list[GameResult]:
    """The games `path` (a games log) holds of `exp`, refused with the reason when the log is
    of another experiment (only the number of games may differ)."""
    logged_exp, games = read_run(path)
    mine, theirs = exp.model_dump(mode="json"), logged_exp.model_dump(mode="json")
    differ = [k for k in mine if k not in MAY_DIFFER and mine[k] != theirs.get(k)]
    if differ:
        details = "; ".join(f"{k}: log {theirs.get(k)!r}, now {mine[k]!r}" for k in differ)
        raise ExperimentError(f"{path} is the log of another experiment ({details}); "
                              "resume with the same settings, or choose another --out to start afresh")
    seen: set[tuple[str, int]] = set()
    for g in games:
        key = job_key(g.tags, g.seed)
        if key in seen:
            raise ExperimentError(f"{path}: game seed {g.seed} {g.tags} is in the log twice")
        seen.add(key)
    return games
