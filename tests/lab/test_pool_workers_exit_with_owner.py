"""The lab's process backend (docs/lab.md, "Experiments"): its worker processes do not outlive
a lab command killed without its shutdown (SIGKILL).

A worker waits on the pool's call queue and, forked, holds the queue's write end itself (from a
fork server, the fork server's keep-alive pipe), so it never learns that its owner is gone: a
killed `lab matchup` or `lab levels` left its workers, each with every game loaded, waiting
forever, a busy one after finishing its game (minutes of search). Each worker watches the pool's
owner (`procpool.exit_with_owner`, shared with the server's AI workers) and exits when it is gone.
The owner here is killed in the middle of a search game and not reaped at once (a zombie still
has its number: the watch must not take it for running).
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

# A lab run on the process backend: a quick game (random players, some milliseconds) and then a
# search game of a minute a decision; "ready" once the quick one is in, when the pool's worker
# plays the search game.
OWNER = """
import sys
import bloodforge.procpool as procpool
procpool.WATCH_SECONDS = 0.2  # the test's patience, not the production interval
from bloodforge.lab.jobs import AgentSpec, Job
from bloodforge.lab.runner import run_jobs
def job(index, agent):
    return Job(index=index, game="bloodstones", params={"players": 2}, seed=index, agents=[AgentSpec.parse(agent)] * 2)
run_jobs([job(0, "random"), job(1, "mcts:seconds=60")], backend="process", workers=1,
         start_method=sys.argv[1], on_result=lambda r: print("ready", flush=True))
"""


def running(pid: int) -> bool:
    """A process that exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return False
    return state.rpartition(")")[2].split()[0] != "Z"


def descendants(pid: int) -> set[int]:
    """Every process below `pid` (workers, a fork server, a resource tracker), from /proc."""
    children: dict[int, set[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text(encoding="ascii", errors="replace")
                parent = int(stat.rpartition(")")[2].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, set()).add(int(entry.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="reads processes from /proc (Linux)")
@pytest.mark.parametrize("start_method", ["fork", "forkserver"])
def test_lab_pool_workers_exit_when_the_lab_command_is_killed(start_method: str) -> None:
    """`fork`: what `lab matchup/levels --workers N` use (the platform's default here);
    `forkserver`: what the workbench (`serve --lab`) asks for."""
    owner = subprocess.Popen([sys.executable, "-c", OWNER, start_method], stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    below: set[int] = set()
    try:
        assert owner.stdout is not None
        assert select.select([owner.stdout], [], [], 60)[0], "the quick game came back within a minute"
        assert owner.stdout.readline().strip() == "ready", "the quick game came back from the pool"
        below |= descendants(owner.pid)
        assert below, "the pool's worker runs below the lab process"
        owner.send_signal(signal.SIGKILL)
        deadline = time.monotonic() + 10
        while any(running(p) for p in below) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = sorted(p for p in below if running(p))
        assert not left, f"processes of the pool outlived the killed lab command: {left}"
    finally:
        if owner.poll() is None:
            owner.kill()
        owner.wait(timeout=30)
        for pid in below:  # a failed run leaves no searching worker behind
            if running(pid):
                os.kill(pid, signal.SIGKILL)
