"""Process pools whose workers do not outlive the process that made the pool.

Used by the server's AI workers (`server.aiwork.make_pool`) and the lab's process backend
(`lab.runner`, also what the workbench runs its experiments on). *Why:* a worker waits on the
pool's call queue, and nothing tells it that the pool's owner is gone when the owner dies
without shutting the pool down (SIGKILL, an out-of-memory kill, a test runner's hard exit).
A forked worker holds the queue's write end itself, and a fork server's worker holds the fork
server's keep-alive pipe, so neither ever reads an end of file: the workers (and the fork
server), each with every game loaded, waited forever, and a busy worker finished its game
first (a search game at a CPU second a move: minutes). Each worker now watches the owner and
exits when it is gone.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.context import BaseContext

#: Seconds between a worker's looks at its pool's owner: the longest a worker outlives it.
WATCH_SECONDS = 2.0


def watched_pool(max_workers: int, mp_context: BaseContext | None = None) -> ProcessPoolExecutor:
    """A process pool whose workers exit when this process (the pool's owner) is gone; the
    interval is `WATCH_SECONDS` as it is when the pool is made."""
    return ProcessPoolExecutor(max_workers=max_workers, mp_context=mp_context, initializer=exit_with_owner,
                               initargs=(os.getpid(), WATCH_SECONDS))


def exit_with_owner(owner_pid: int, interval: float = WATCH_SECONDS) -> None:
    """A worker's watch (the pool's initializer): a daemon thread that looks every `interval`
    seconds whether the process `owner_pid` still runs (`owner_gone`) and ends this worker at
    once when it does not (`os._exit`: the worker's queues belong to a dead owner, nothing to
    flush)."""

    def watch() -> None:
        while True:
            time.sleep(interval)
            if owner_gone(owner_pid):
                os._exit(0)

    threading.Thread(target=watch, name="exit-with-owner", daemon=True).start()


def owner_gone(pid: int) -> bool:
    """Whether process `pid` has ended: no such process, a number taken over by another user's
    process, or a zombie (killed, not yet reaped by its parent: a lab command whose caller does
    not wait for it). A number taken over by a process of ours within the interval would read as
    running (pids are not reused that fast)."""
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):
        return True
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rpartition(")")[2].split()[0] == "Z"
    except (OSError, IndexError):  # no /proc (not Linux), or it ended just now: the next look decides
        return False
