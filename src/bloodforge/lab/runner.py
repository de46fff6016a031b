"""Running many jobs: in this process, on a local process pool (default) or on Ray.

Every backend returns results in job order and decides early stops on the ordered prefix of
results, never on which game happened to finish first, so aggregates are identical on every
backend and worker count (timings aside).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from typing import Any

from bloodforge.procpool import watched_pool

from .jobs import GameResult, Job, play_job

#: Given the results so far (in job order, a prefix of the jobs), how many of them to keep if
#: the run should stop now, else None.
StopRule = Callable[[Sequence[GameResult]], int | None]
OnResult = Callable[[GameResult], None]
#: A submitted job: a Future on the process pool, an ObjectRef on Ray.
_Handle = Any

BACKENDS = ("local", "process", "ray")


def run_jobs(
    jobs: Sequence[Job],
    *,
    backend: str = "process",
    workers: int = 1,
    stop: StopRule | None = None,
    on_result: OnResult | None = None,
    keep_records: bool = False,
    start_method: str | None = None,
) -> list[GameResult]:
    """Play `jobs`; with `stop`, as soon as the ordered prefix of results satisfies it, the
    remaining jobs are cancelled and only the prefix it names is returned.

    `start_method` ("fork", "forkserver", "spawn"; default the platform's): how the process
    pool starts workers. A server runs jobs from a thread, and forking a threaded process can
    copy a lock held by another thread into the child: it asks for "forkserver". Given a start
    method, even one worker is a separate process (else one worker plays here): the caller
    wants the games out of its own process, whose other threads they would slow."""
    if start_method is not None and start_method not in multiprocessing.get_all_start_methods():
        raise ValueError(f"unknown start method {start_method!r}; here: "
                         f"{', '.join(multiprocessing.get_all_start_methods())}")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if backend == "local" or (backend == "process" and workers == 1 and start_method is None):
        stream: Iterator[GameResult] = (play_job(j, keep_records) for j in jobs)
        return _collect(stream, stop, on_result)
    if backend == "process":
        return _collect_pool(jobs, workers, stop, on_result, keep_records, start_method)
    return _collect_ray(jobs, workers, stop, on_result, keep_records)


def _collect(stream: Iterator[GameResult], stop: StopRule | None, on_result: OnResult | None) -> list[GameResult]:
    done: list[GameResult] = []
    for result in stream:
        done.append(result)
        if on_result is not None:
            on_result(result)
        if stop is not None:
            keep = stop(done)
            if keep is not None:
                return done[:keep]
    return done


def _window(workers: int) -> int:
    """Unfinished jobs in flight: enough to keep every worker busy, few enough that an early
    stop wastes little."""
    return 2 * workers


def _in_order(jobs: Iterable[Job], workers: int, submit: Callable[[Job], _Handle],
              wait_any: Callable[[list[_Handle]], list[_Handle]],
              result_of: Callable[[_Handle], GameResult]) -> Iterator[GameResult]:
    """Results in job order while the workers run ahead.

    Why not wait on the oldest job: games differ in length by 10x (a Blood Stone game at one
    second a decision takes 21-234 s), and refilling only when the oldest game ends leaves the
    other workers idle behind it. Here a finished game frees its slot at once; its result waits
    in a buffer until every earlier game is in, so the stream (and an early stop decided on it)
    is the same on any worker count."""
    it = iter(jobs)
    index_of: dict[_Handle, int] = {}  # futures and Ray refs are hashable
    running: dict[int, _Handle] = {}
    finished: dict[int, GameResult] = {}
    submitted = 0
    emitted = 0

    def refill() -> None:
        nonlocal submitted
        while len(running) < _window(workers):
            job = next(it, None)
            if job is None:
                return
            handle = submit(job)
            running[submitted] = handle
            index_of[handle] = submitted
            submitted += 1

    refill()
    while running or emitted in finished:
        if emitted in finished:
            yield finished.pop(emitted)
            emitted += 1
            continue
        for handle in wait_any(list(running.values())):
            position = index_of.pop(handle)
            del running[position]
            finished[position] = result_of(handle)
        refill()


def _collect_pool(jobs: Sequence[Job], workers: int, stop: StopRule | None, on_result: OnResult | None,
                  keep_records: bool, start_method: str | None = None) -> list[GameResult]:
    context = multiprocessing.get_context(start_method) if start_method is not None else None
    # the workers exit when this process is gone, even killed without its shutdown (`procpool`)
    with watched_pool(workers, context) as pool:
        unfinished: set[Future[GameResult]] = set()

        def submit(job: Job) -> Future[GameResult]:
            future = pool.submit(play_job, job, keep_records)
            unfinished.add(future)
            return future

        def wait_any(pending: list[Future[GameResult]]) -> list[Future[GameResult]]:
            done = list(wait(pending, return_when=FIRST_COMPLETED).done)
            unfinished.difference_update(done)
            return done

        try:
            return _collect(_in_order(jobs, workers, submit, wait_any, lambda f: f.result()), stop, on_result)
        finally:
            for f in unfinished:  # an early stop: the games still queued or running are not wanted
                f.cancel()


def _collect_ray(jobs: Sequence[Job], workers: int, stop: StopRule | None, on_result: OnResult | None,
                 keep_records: bool) -> list[GameResult]:
    try:
        import ray
    except ImportError:
        raise ValueError("the ray backend needs Ray: pip install 'bloodforge[research]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
    remote_play: Any = ray.remote(_ray_play)
    try:
        unfinished: set[Any] = set()

        def submit(job: Job) -> Any:
            ref = remote_play.remote(job.model_dump(mode="json"), keep_records)
            unfinished.add(ref)
            return ref

        def wait_any(pending: list[Any]) -> list[Any]:
            done, _ = ray.wait(pending, num_returns=1)
            unfinished.difference_update(done)
            return list(done)

        def result_of(ref: Any) -> GameResult:
            return GameResult.model_validate(ray.get(ref))

        try:
            return _collect(_in_order(jobs, workers, submit, wait_any, result_of), stop, on_result)
        finally:
            for ref in unfinished:  # only games not yet done: a forced cancel kills a worker
                ray.cancel(ref, force=True)
    finally:
        if started_here:
            ray.shutdown()


def _ray_play(job: dict[str, Any], keep_records: bool) -> dict[str, Any]:
    return play_job(Job.model_validate(job), keep_records).model_dump(mode="json")
