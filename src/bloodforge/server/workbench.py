"""The designer's workbench (issue 22): a game's content as forms, variants, A/B experiments.

Off unless `serve --lab`: without it none of these routes exist (404). With it, every
`/api/lab` call needs the operator token (printed at start, or `$BLOODFORGE_LAB_TOKEN`) as a
Bearer token, because an experiment can spend a lot of CPU. Variants are content (JSON
validated by the game's own pydantic models), never paths; an experiment (an A/B, a sweep of
one number, or a matchup of agents) is a lab `Experiment` (content inline) run by the lab's
own code from a worker thread, never on the event loop: in its process pool (workers started
by the forkserver, since forking a threaded server is unsafe) or on a Ray cluster
(`serve --lab --ray ADDRESS`). Its export reproduces it with `bloodforge lab run`, and the
plots of `lab report` are served as PNGs for the page.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import hmac
import json
import logging
import math
import os
import secrets
import tempfile
import threading
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

import bloodforge
from bloodforge.core import BloodforgeError, game_class
from bloodforge.lab.content import (
    ContentError,
    content_games,
    content_hash,
    content_source,
    diff_content,
    validate_content,
    write_content,
)
from bloodforge.lab.experiments import (
    Experiment,
    ExperimentError,
    SprtSpec,
    Variant,
    check_experiment,
    run_experiment,
)
from bloodforge.lab.jobs import AgentSpec, GameResult, split_spec

from .config import Settings
from .db import make_engine, make_sessionmaker
from .errors import ApiError
from .schemas import SeatCreate, TableCreate
from .tables import TableManager
from .workbench_models import LabExperimentRow, LabVariantRow

log = logging.getLogger("bloodforge.server.workbench")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
TOKEN_ENV = "BLOODFORGE_LAB_TOKEN"
#: Games one A/B may ask for per variant (a guard against a typo of 10^6, not a policy).
MAX_GAMES = 5000
#: Values one sweep may try (each one more set of games).
MAX_SWEEP_POINTS = 21
#: Agents one matchup may pit against each other (every pair plays).
MAX_MATCHUP_AGENTS = 6


# -- requests ---------------------------------------------------------------------------------
class VariantCreate(BaseModel):
    game: str = Field(max_length=40)
    name: str = Field(min_length=1, max_length=80)
    parent: int | None = Field(None, description="the variant this one was edited from; default: the "
                               "newest version of the same name")
    content: dict[str, Any]


class PlaytestCreate(BaseModel):
    players: int | None = Field(None, ge=1, le=8)
    seats: list[SeatCreate] | None = Field(None, description="default: you in seat 1, greedy AI in the others")


class SweepCreate(BaseModel):
    """One number of the content over a range: `path` as the form names it (file, then keys
    and list positions, dot-separated: `bosses.0.hp_base`)."""

    path: str = Field(min_length=1, max_length=300)
    start: float
    stop: float
    step: float = Field(gt=0)


class ExperimentCreate(BaseModel):
    kind: str = Field("ab", pattern="^(ab|sweep|matchup)$", description="ab: the variant against the base; "
                      "sweep: one value of the variant over a range, each against the base; matchup: agents "
                      "against each other")
    game: str = Field(max_length=40)
    variant: int = Field(description="ab and sweep: the variant (a sweep varies one value of its content); "
                         "matchup: the content the agents play on, unless on_base")
    agents: list[str] = Field(min_length=1, max_length=8)
    games: int = Field(ge=1, le=MAX_GAMES, description="ab and sweep: seeds per side; matchup: games per pair")
    seed: int = 0
    players: int | None = Field(None, ge=1, le=8)
    sweep: SweepCreate | None = None
    on_base: bool = Field(False, description="matchup: play on the published content instead of the variant")
    sprt: SprtSpec | None = Field(None, description="matchup: stop each pair once Wald's SPRT decides")


# -- jobs -------------------------------------------------------------------------------------
@dataclass
class JobState:
    """A running experiment as the websocket and polling see it (the database keeps the end)."""

    id: str
    operator: str
    total: int = 0
    done: int = 0
    status: str = "queued"
    cancel: threading.Event = field(default_factory=threading.Event)


class Workbench:
    """Holds the operator token, the database sessions and the running jobs."""

    def __init__(self, settings: Settings, token: str) -> None:
        self.settings = settings
        self.token = token
        self.engine = make_engine(settings.db_url)
        self.sessions: sessionmaker[Session] = make_sessionmaker(self.engine)
        self.jobs: dict[str, JobState] = {}
        self.threads = ThreadPoolExecutor(max_workers=max(1, settings.lab_jobs_per_operator * 4),
                                          thread_name_prefix="lab-job")
        self.lock = threading.Lock()
        #: Where playtest tables' content is written (by content hash; rewritten at start, so a
        #: table survives a restart that cleared the temporary folder).
        self.content_dir = Path(tempfile.gettempdir()) / "bloodforge-lab-content"
        #: "ray" once connected to the cluster of `--ray ADDRESS`, else the lab's process pool.
        self.backend = "process"
        self.ray_started_here = False
        #: Rendered plots of finished experiments: experiment -> [(name, title, PNG)].
        self.plots: dict[str, list[tuple[str, str, bytes]]] = {}
        #: matplotlib's pyplot is not thread-safe; a lock of its own, so drawing never holds up
        #: `lock`, which the event loop takes to start a job.
        self.plot_lock = threading.Lock()

    def connect_ray(self) -> None:
        """Connect to the Ray cluster of `--ray ADDRESS` (or use the connection this process
        already has), so every job runs through the lab's Ray backend."""
        address = self.settings.lab_ray
        if not address:
            return
        try:
            import ray
        except ImportError:
            raise RuntimeError("--ray needs Ray: pip install 'bloodforge[research]'") from None
        if not ray.is_initialized():
            ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)
            self.ray_started_here = True
        self.backend = "ray"
        log.info("lab experiments run on the Ray cluster at %s", address)

    def start(self) -> None:
        """At start: connect to Ray when asked, write every variant's content for playtest
        tables, and end experiments a stopped server left running (their games are gone with its
        process pool)."""
        self.connect_ray()
        with self.sessions() as s:
            for row in s.scalars(select(LabVariantRow)):
                write_content(row.game, row.content, self.content_dir)
        with self.sessions.begin() as s:
            for exp in s.scalars(select(LabExperimentRow).where(LabExperimentRow.status.in_(("queued", "running")))):
                exp.status = "failed"
                exp.error = "the server stopped while it ran; start it again"
                exp.finished_at = datetime.now(UTC)

    def operator_of(self, authorization: str | None) -> str:
        """The operator's id (a hash of the token) if `authorization` carries the token; else 401."""
        scheme, _, given = (authorization or "").partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), self.token.encode()):
            raise ApiError(401, "lab/unauthorized", "the workbench needs the operator token printed when the "
                           "server started (Authorization: Bearer <token>)")
        return hashlib.sha256(self.token.encode()).hexdigest()[:16]

    def close(self) -> None:
        for job in self.jobs.values():
            job.cancel.set()
        self.threads.shutdown(wait=True, cancel_futures=True)
        self.engine.dispose()
        if self.ray_started_here:
            import ray

            ray.shutdown()


def install_workbench(app: FastAPI, settings: Settings) -> None:
    """Add the workbench to `app` when `settings.lab` is on; otherwise nothing (every /lab and
    /api/lab path stays a 404). Its database engine and job threads live inside the app's own
    lifespan (after the migrations ran)."""
    if not settings.lab:
        return
    token = settings.lab_token or os.environ.get(TOKEN_ENV) or secrets.token_urlsafe(24)
    if not (settings.lab_token or os.environ.get(TOKEN_ENV)):
        print(f"bloodforge: lab operator token: {token}", flush=True)
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(a: FastAPI) -> AsyncIterator[Any]:
        async with inner(a) as state:
            bench = Workbench(settings, token)
            a.state.workbench = bench
            await asyncio.to_thread(bench.start)
            try:
                yield state
            finally:
                await asyncio.to_thread(bench.close)

    app.router.lifespan_context = lifespan
    app.include_router(router)

    @app.get("/lab", include_in_schema=False)
    async def lab_page() -> FileResponse:
        return FileResponse(WEB_DIR / "lab.html")

    @app.websocket("/ws/lab/experiments/{experiment_id}")
    async def lab_ws(ws: WebSocket, experiment_id: str) -> None:
        await serve_progress(ws, experiment_id[:32])


def get_bench(request: Request) -> Workbench:
    bench: Workbench = request.app.state.workbench
    return bench


def get_operator(request: Request, authorization: Annotated[str | None, Header()] = None) -> str:
    return get_bench(request).operator_of(authorization)


Bench = Annotated[Workbench, Depends(get_bench)]
Operator = Annotated[str, Depends(get_operator)]

router = APIRouter(prefix="/api/lab", tags=["lab"])


# -- content ----------------------------------------------------------------------------------
@router.get("/games")
async def lab_games(_op: Operator) -> dict[str, Any]:
    """Games whose content the workbench edits, with their names and seat counts."""
    known = {g["id"]: g for g in bloodforge.list_games()}
    return {"games": [{"id": g, "name": known[g]["name"], "min_players": known[g]["min_players"],
                       "max_players": known[g]["max_players"]} for g in content_games() if g in known]}


def _source(game: str) -> Any:
    try:
        return content_source(game)
    except KeyError as err:
        raise ApiError(404, "lab/no_content", str(err).strip("'\"")) from None


@router.get("/games/{game}/content")
async def game_content(game: str, _op: Operator) -> dict[str, Any]:
    """The game's base content (every data file as JSON) and the JSON Schema of each file."""
    source = _source(game[:40])
    base, schemas = await asyncio.to_thread(lambda: (source.base(), source.schemas()))
    return {"game": source.game, "files": base, "schemas": schemas}


def default_players(game: str) -> dict[str, Any]:
    """`players` for a game whose parameters require it (Bloodstones): its fewest, so content
    is checked and an experiment played without the designer naming a count; else nothing."""
    cls = game_class(game)
    field = cls.info.params_model.model_fields.get("players")
    return {"players": cls.info.min_players} if field is not None and field.is_required() else {}


def check_content(game: str, content: dict[str, Any]) -> dict[str, Any]:
    """Validate with the game's models, then build a game from it (in a private folder) so the
    game's own compile step also checks it; 422 with every field path, nothing saved."""
    source = _source(game)
    try:
        checked = validate_content(source, content)
    except ContentError as err:
        raise ApiError(422, "lab/content_invalid", str(err), errors=err.errors) from None
    with tempfile.TemporaryDirectory(prefix="bloodforge-lab-") as tmp:
        params = write_content(game, checked, Path(tmp))
        try:
            bloodforge.load_game(game, seed=0, **default_players(game), **params).new_initial_state()
        except (BloodforgeError, ValueError) as err:
            message = str(err).replace(tmp, "content")
            raise ApiError(422, "lab/content_invalid", message, errors=[{"path": "", "message": message}]) from None
    return checked


def _variant_out(row: LabVariantRow, with_content: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"id": row.id, "game": row.game, "name": row.name, "version": row.version,
                           "parent": row.parent_id, "label": f"{row.name} v{row.version}",
                           "created_at": row.created_at.isoformat() if row.created_at else None}
    if with_content:
        out["content"] = row.content
    return out


@router.post("/variants", status_code=201)
async def create_variant(body: VariantCreate, bench: Bench, op: Operator) -> dict[str, Any]:
    """Save content as the next version of a named variant (validated first; 422 saves nothing)."""
    checked = await asyncio.to_thread(check_content, body.game, body.content)

    def save() -> dict[str, Any]:
        with bench.sessions.begin() as s:
            latest = s.scalars(select(LabVariantRow).where(LabVariantRow.game == body.game,
                                                           LabVariantRow.name == body.name)
                               .order_by(LabVariantRow.version.desc()).limit(1)).first()
            parent = latest.id if latest is not None else None
            if body.parent is not None:
                row = s.get(LabVariantRow, body.parent)
                if row is None or row.game != body.game:
                    raise ApiError(422, "lab/parent_unknown", f"no variant {body.parent} of this game to edit from")
                parent = row.id
            new = LabVariantRow(game=body.game, name=body.name, version=(latest.version + 1) if latest else 1,
                                parent_id=parent, content=checked, content_hash=content_hash(checked), operator=op,
                                created_at=datetime.now(UTC))
            s.add(new)
            s.flush()
            return _variant_out(new)

    return await asyncio.to_thread(save)


@router.get("/variants")
async def list_variants(bench: Bench, _op: Operator, game: str | None = None) -> dict[str, Any]:
    def load() -> list[dict[str, Any]]:
        with bench.sessions() as s:
            q = select(LabVariantRow).order_by(LabVariantRow.id.desc()).limit(200)
            if game:
                q = q.where(LabVariantRow.game == game)
            return [_variant_out(r) for r in s.scalars(q)]

    return {"variants": await asyncio.to_thread(load)}


def _load_variant(bench: Workbench, variant_id: int) -> tuple[LabVariantRow, LabVariantRow | None]:
    with bench.sessions() as s:
        row = s.get(LabVariantRow, variant_id)
        if row is None:
            raise ApiError(404, "lab/variant_not_found", f"no variant {variant_id}")
        parent = s.get(LabVariantRow, row.parent_id) if row.parent_id is not None else None
        return row, parent


@router.get("/variants/{variant_id}")
async def get_variant(variant_id: int, bench: Bench, _op: Operator) -> dict[str, Any]:
    """The variant's content with what differs from the base content and from its parent."""
    row, parent = await asyncio.to_thread(_load_variant, bench, variant_id)
    base = await asyncio.to_thread(_source(row.game).base)
    return {**_variant_out(row, True), "diff_base": diff_content(base, row.content),
            "diff_parent": diff_content(parent.content, row.content) if parent is not None else None}


@router.get("/variants/{variant_id}/files/{name}")
async def variant_file(variant_id: int, name: str, bench: Bench, _op: Operator) -> Response:
    """One data file of the variant, as the game reads it (a download)."""
    row, _ = await asyncio.to_thread(_load_variant, bench, variant_id)
    if name not in row.content:
        raise ApiError(404, "lab/file_not_found", f"the variant has no data file {name[:40]!r}")
    safe = "".join(c if c.isalnum() else "-" for c in row.name)[:40]
    return Response(json.dumps(row.content[name], indent=1) + "\n", media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="{row.game}-{safe}-v{row.version}-{name}.json"'})


@router.post("/variants/{variant_id}/playtest", status_code=201)
async def playtest(variant_id: int, body: PlaytestCreate, bench: Bench, _op: Operator,
                   request: Request) -> dict[str, Any]:
    """A table playing the variant's content (human seats plus AI), named after the variant so
    its header says what it plays. The client names the stored variant, never a file: the
    server writes the content into its own folder and builds the game from it."""
    row, _ = await asyncio.to_thread(_load_variant, bench, variant_id)
    manager: TableManager = request.app.state.manager
    params: dict[str, Any] = {"players": body.players} if body.players is not None else default_players(row.game)
    req = TableCreate(game=row.game, name=f"Playtest of {row.name} (version {row.version})"[:80], params=params,
                      seats=body.seats)

    def build() -> tuple[Any, Any]:
        files = write_content(row.game, row.content, bench.content_dir)
        try:
            game = bloodforge.load_game(row.game, seed=secrets.randbelow(2**31), **params, **files)
        except (BloodforgeError, ValueError) as err:
            raise ApiError(422, "params/invalid", str(err).replace(str(bench.content_dir), "content")) from None
        return game, game.new_initial_state()

    live, tokens, host = await manager.create(req, prepared=await asyncio.to_thread(build))
    links = [{"seat": seat, "name": live.seats[seat].name, "url": f"/table/{live.id}#seat={seat}&token={token}"}
             for seat, token in sorted(tokens.items())]
    return {"table": live.id, "name": live.record.name, "links": links, "spectator_url": f"/table/{live.id}",
            "host_token": host}


# -- experiments ------------------------------------------------------------------------------
def experiment_config(row: LabVariantRow, body: ExperimentCreate) -> tuple[Experiment, dict[str, Any] | None]:
    """The lab experiment the request is, and a sweep's description (path, words, values):

    * ab: the base (packaged content) then the variant (inline), same seeds, same agents;
    * sweep: the base, then one copy of the variant per value with the value set;
    * matchup: the agents against each other, seats rotated, on the variant (inline) or the base.
    """
    params: dict[str, Any] = {"players": body.players} if body.players is not None else default_players(row.game)
    label = f"{row.name} v{row.version}"
    if body.kind == "matchup":
        if len(body.agents) < 2 or len(body.agents) > MAX_MATCHUP_AGENTS:
            raise ValueError(f"a matchup needs 2 to {MAX_MATCHUP_AGENTS} agents, got {len(body.agents)}")
        on = "the published content" if body.on_base else label
        return Experiment(kind="matchup", name=f"{' vs '.join(body.agents)} on {on}", game=row.game, params=params,
                          agents=body.agents, games=body.games, seed=body.seed, sprt=body.sprt,
                          content=None if body.on_base else row.content), None
    if body.kind == "sweep":
        if body.sweep is None:
            raise ValueError("a sweep needs the value to vary and its range (path, start, stop, step)")
        steps = parse_path(body.sweep.path)
        old = get_at(row.content, steps)
        if isinstance(old, bool) or not isinstance(old, int | float):
            raise ValueError(f"{_words(body.sweep.path)} is not a number; a sweep varies one number")
        values = sweep_values(body.sweep.start, body.sweep.stop, body.sweep.step, integer=isinstance(old, int))
        words = _words(body.sweep.path)
        variants = [Variant(name="base")]
        for v in values:
            content = copy.deepcopy(row.content)
            set_at(content, steps, v)
            variants.append(Variant(name=f"{words} = {v}", content=content))
        sweep = {"path": body.sweep.path, "label": words, "values": values, "variant": label}
        return Experiment(kind="variants", name=f"{words} from {values[0]} to {values[-1]} ({label}) against the base",
                          game=row.game, params=params, agents=body.agents, games=body.games, seed=body.seed,
                          variants=variants), sweep
    return Experiment(kind="variants", name=f"{label} against the base", game=row.game,
                      params=params, agents=body.agents, games=body.games, seed=body.seed,
                      variants=[Variant(name="base"), Variant(name=label, content=row.content)]), None


def parse_path(path: str) -> list[str | int]:
    """`bosses.0.hp_base` -> ["bosses", 0, "hp_base"] (list positions are numbers)."""
    return [int(p) if p.isdigit() else p for p in path.split(".") if p != ""]


def get_at(content: Any, steps: Sequence[str | int]) -> Any:
    node = content
    for step in steps:
        in_dict = isinstance(node, dict) and isinstance(step, str) and step in node
        in_list = isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node)
        if in_dict or in_list:
            node = node[step]
        else:
            raise ValueError(f"the content has no value at {'.'.join(str(x) for x in steps)[:300]!r}")
    return node


def set_at(content: Any, steps: Sequence[str | int], value: Any) -> None:
    parent = get_at(content, steps[:-1])
    parent[steps[-1]] = value


def sweep_values(start: float, stop: float, step: float, *, integer: bool) -> list[int | float]:
    """start, start + step, ... up to stop (included when the steps land on it); whole numbers
    for a whole-number field, which then needs whole start and step."""
    if stop < start:
        raise ValueError(f"the sweep's end ({stop:g}) is below its start ({start:g})")
    count = int((stop - start) / step + 1e-9) + 1
    if count > MAX_SWEEP_POINTS:
        raise ValueError(f"a sweep tries at most {MAX_SWEEP_POINTS} values; this one would try {count}")
    if integer:
        if start != int(start) or step != int(step):
            raise ValueError("this value is a whole number: give a whole start and step")
        return [int(start) + i * int(step) for i in range(count)]
    return [round(start + i * step, 9) for i in range(count)]


def experiment_total(exp: Experiment) -> int:
    """Games the experiment plays at most (a matchup's SPRT may stop a pair sooner)."""
    if exp.kind == "matchup":
        k = len(exp.agents)
        return (k * (k - 1) // 2) * math.ceil(exp.games / exp.players) * exp.players
    return exp.games * len(exp.variants)


@router.post("/experiments", status_code=202)
async def create_experiment(body: ExperimentCreate, bench: Bench, op: Operator) -> dict[str, Any]:
    """Start an experiment (an A/B, a sweep or a matchup) as a job (at most
    `lab_jobs_per_operator` running per operator, else 429)."""
    row, _ = await asyncio.to_thread(_load_variant, bench, body.variant)
    if row.game != body.game:
        raise ApiError(422, "lab/variant_game", f"variant {row.id} is content of {row.game}, not {body.game[:40]}")
    try:
        for a in body.agents:
            AgentSpec.parse(a)
        exp, sweep = experiment_config(row, body)
    except ValueError as err:
        raise ApiError(422, "lab/experiment_invalid", str(err)) from None

    def check() -> None:
        with tempfile.TemporaryDirectory(prefix="bloodforge-lab-") as tmp:
            try:
                check_experiment(exp, Path(tmp))
            except (ExperimentError, BloodforgeError, ValueError) as err:
                message = str(err).replace(tmp, "content")
                raise ApiError(422, "lab/experiment_invalid", message) from None

    await asyncio.to_thread(check)  # a bad agent, player count or swept value is refused now, not in the job
    with bench.lock:
        running = [j for j in bench.jobs.values() if j.operator == op and j.status in ("queued", "running")]
        if len(running) >= bench.settings.lab_jobs_per_operator:
            raise ApiError(429, "lab/too_many_jobs", f"{len(running)} experiments are running; wait for one or "
                           "cancel it", retry_after=5)
        job = JobState(id=secrets.token_hex(8), operator=op, total=experiment_total(exp))
        bench.jobs[job.id] = job

    def insert() -> None:
        with bench.sessions.begin() as s:
            s.add(LabExperimentRow(id=job.id, kind=body.kind, game=row.game, variant_id=row.id,
                                   config=exp.model_dump(mode="json", exclude_none=True), status="queued", done=0,
                                   total=job.total, operator=op, created_at=datetime.now(UTC)))

    await asyncio.to_thread(insert)
    base = await asyncio.to_thread(_source(row.game).base)
    changes = diff_content(base, row.content)
    bench.threads.submit(run_experiment_job, bench, job, exp, changes, sweep)
    return {"id": job.id, "status": job.status, "total": job.total}


def run_experiment_job(bench: Workbench, job: JobState, exp: Experiment, changes: list[dict[str, Any]],
                       sweep: dict[str, Any] | None = None) -> None:
    """In a worker thread: the lab's own `run_experiment` (its process pool, or Ray), then the
    summary and the sentence in the database."""
    job.status = "running"
    _update(bench, job.id, status="running")
    try:
        with tempfile.TemporaryDirectory(prefix="bloodforge-lab-") as tmp:

            def on_result(_r: GameResult) -> None:
                job.done += 1

            doc = run_experiment(exp, work_dir=Path(tmp), backend=bench.backend, workers=bench.settings.lab_workers,
                                 on_result=on_result, cancelled=job.cancel.is_set,
                                 start_method=bench.settings.lab_start_method)
        if job.cancel.is_set():
            _update(bench, job.id, status="cancelled", done=job.done, finished_at=datetime.now(UTC))
            job.status = "cancelled"
        else:
            summary: dict[str, Any] = doc["summary"]
            games = [GameResult.model_validate(g) for g in doc["games"]]
            roles = seat_roles(games, exp.players)
            extra: dict[str, Any] = {"seat_roles": roles}
            if sweep is not None:
                extra["sweep"] = sweep
                sentence = sweep_sentence(sweep, summary, roles)
            elif exp.kind == "matchup":
                sentence = matchup_sentence(summary)
            else:
                sentence = what_changed(changes, summary, roles)
            _update(bench, job.id, status="done", done=job.done, summary={**summary, **extra},
                    sentence=sentence, finished_at=datetime.now(UTC))
            job.status = "done"  # only once the database holds the result a watcher will read
    except (ExperimentError, BloodforgeError, ValueError) as err:
        _update(bench, job.id, status="failed", error=str(err)[:2000], finished_at=datetime.now(UTC))
        job.status = "failed"
    except Exception as err:  # a worker crash must still end the job, not leave it "running"
        log.exception("lab experiment %s failed", job.id)
        _update(bench, job.id, status="failed", error=f"unexpected error: {type(err).__name__}",
                finished_at=datetime.now(UTC))
        job.status = "failed"


def sprt_words(sprt: dict[str, Any], a: str, games: int) -> str:
    """The SPRT's verdict as a sentence (H1: A's rate is at least p1; H0: at most p0)."""
    decision = sprt.get("decision")
    if decision == "H1":
        return f"SPRT: {a} is stronger (win rate at least {sprt['p1']:g}), decided after {games} games"
    if decision == "H0":
        return f"SPRT: {a} is not stronger (win rate at most {sprt['p0']:g}), decided after {games} games"
    return f"SPRT: undecided after {games} games"


def matchup_sentence(summary: dict[str, Any]) -> str:
    """Each pair's score with its interval (and the SPRT's verdict when asked for)."""
    parts = []
    for p in summary["pairs"]:
        text = (f"{_agent_words(p['a'])} against {_agent_words(p['b'])}: score {p['rate']:.2f} "
                f"[{p['low']:.2f}, {p['high']:.2f}] over {p['games']} games")
        if p.get("sprt"):
            text += f"; {sprt_words(p['sprt'], _agent_words(p['a']), p['games'])}"
        parts.append(text)
    return ". ".join(parts) + "." if parts else "No games were played."


def _agent_words(label: str) -> str:
    """`mcts:iterations=200` -> "MCTS (iterations 200)"."""
    try:
        name, *options = split_spec(label)
    except ValueError:
        name, options = label, []
    shown = name.upper() if name == "mcts" else name.capitalize()
    if options:
        shown += " (" + ", ".join(o.replace("_", " ").replace("=", " ") for o in options) + ")"
    return shown


def sweep_sentence(sweep: dict[str, Any], summary: dict[str, Any], roles: list[str]) -> str:
    """The seat whose win rate moved most over the range: from the first value's rate to the last's."""
    values = sweep["values"]
    points = summary["variants"][-len(values):]
    seats = list(points[0]["seats"])
    if not seats:
        return f"{sweep['label']} from {values[0]} to {values[-1]}: no games."
    seat = max(seats, key=lambda k: abs(points[-1]["seats"][k]["rate"] - points[0]["seats"][k]["rate"]))
    who = roles[int(seat)] if int(seat) < len(roles) and roles[int(seat)] else f"Seat {int(seat) + 1}"
    first, last = points[0]["seats"][seat], points[-1]["seats"][seat]
    base = summary["variants"][0]["seats"][seat]
    return (f"{sweep['label']} from {values[0]} to {values[-1]}: {who} win rate {first['rate']:.2f} -> "
            f"{last['rate']:.2f} [{last['low']:.2f}, {last['high']:.2f}] (base {base['rate']:.2f})")


def _update(bench: Workbench, experiment_id: str, **values: Any) -> None:
    with bench.sessions.begin() as s:
        row = s.get(LabExperimentRow, experiment_id)
        if row is not None:
            for k, v in values.items():
                setattr(row, k, v)


def seat_roles(results: Sequence[GameResult], players: int) -> list[str]:
    """Each seat's side when every game gave it the same one (an asymmetric game), else ""."""
    out = []
    for seat in range(players):
        roles = {r.roles[seat] for r in results if seat < len(r.roles)}
        out.append(next(iter(roles)) if len(roles) == 1 else "")
    return out


def _words(path: str) -> str:
    """A JSON path as a designer says it: `units[id=soldier].hp` -> "Soldier HP"."""
    parts: list[str] = []
    for step in path.replace("]", "").replace("[", ".").split("."):
        if not step or step.isdigit():
            continue
        step = step.split("=", 1)[1] if "=" in step else step
        words = [w.upper() if len(w) <= 2 else w for w in step.split("_") if w]  # hp -> HP, x -> X
        text = " ".join(words)
        parts.append(text[:1].upper() + text[1:])
    if parts and parts[0].lower() in ("content",):
        parts = parts[1:]
    keep = [p for p in parts if p.lower() not in ("units", "champions", "bosses", "board", "rules")] or parts
    return " ".join(keep[-2:])


def _change_words(change: dict[str, Any]) -> str:
    old, new = change["old"], change["new"]
    name = _words(change["path"])
    if isinstance(old, int | float) and isinstance(new, int | float) and not isinstance(old, bool):
        delta = new - old
        shown = f"{delta:+d}" if isinstance(delta, int) else f"{delta:+g}"
        return f"{name} {shown}"
    if old is None:
        return f"{name} added"
    if new is None:
        return f"{name} removed"
    return f"{name} {_short(old)} -> {_short(new)}"


def _short(x: Any) -> str:
    text = x if isinstance(x, str) else json.dumps(x)
    return text if len(text) <= 24 else text[:23] + "…"


def what_changed(changes: list[dict[str, Any]], summary: dict[str, Any], roles: list[str]) -> str:
    """One sentence: the edits, then the seat whose win rate moved most clearly (smallest
    McNemar p), from the base's rate to the variant's with the variant's Wilson interval."""
    edits = ", ".join(_change_words(c) for c in changes[:3]) or "No change to the content"
    if len(changes) > 3:
        edits += f" and {len(changes) - 3} more changes"
    base, variant = summary["variants"][0], summary["variants"][-1]
    paired = variant.get("vs_first") or {}
    if not paired:
        return f"{edits}: no paired games to compare."
    seat = min(paired, key=lambda s: (paired[s]["p_value"], -abs(paired[s]["diff"])))
    who = roles[int(seat)] if int(seat) < len(roles) and roles[int(seat)] else f"Seat {int(seat) + 1}"
    b, v = base["seats"][seat], variant["seats"][seat]
    p = paired[seat]["p_value"]
    p_text = "p < 0.001" if p < 0.001 else f"p = {p:.3f}" if p < 0.995 else "p = 1"
    return (f"{edits}: {who} win rate {b['rate']:.2f} -> {v['rate']:.2f} "
            f"[{v['low']:.2f}, {v['high']:.2f}], {p_text}")


def _experiment_out(row: LabExperimentRow, job: JobState | None) -> dict[str, Any]:
    live = job is not None and job.status in ("queued", "running")
    return {"id": row.id, "kind": row.kind, "game": row.game, "variant": row.variant_id,
            "status": job.status if live and job is not None else row.status,
            "done": job.done if live and job is not None else row.done, "total": row.total,
            "summary": row.summary, "sentence": row.sentence, "error": row.error, "name": row.config.get("name"),
            "agents": row.config.get("agents"), "games": row.config.get("games"), "seed": row.config.get("seed"),
            "sprt": row.config.get("sprt")}


def _load_experiment(bench: Workbench, experiment_id: str) -> LabExperimentRow:
    with bench.sessions() as s:
        row = s.get(LabExperimentRow, experiment_id)
        if row is None:
            raise ApiError(404, "lab/experiment_not_found", f"no experiment {experiment_id[:32]!r}")
        return row


@router.get("/experiments/{experiment_id}")
async def get_experiment(experiment_id: str, bench: Bench, _op: Operator) -> dict[str, Any]:
    row = await asyncio.to_thread(_load_experiment, bench, experiment_id[:32])
    return _experiment_out(row, bench.jobs.get(row.id))


@router.get("/experiments/{experiment_id}/config")
async def experiment_export(experiment_id: str, bench: Bench, _op: Operator) -> Response:
    """The experiment as a config for `bloodforge lab run` (the variant's content inline), which
    plays the same games and gives the same summary."""
    row = await asyncio.to_thread(_load_experiment, bench, experiment_id[:32])
    return Response(json.dumps(row.config, indent=1) + "\n", media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="lab-{row.game}-{row.id}.json"'})


def experiment_plots(bench: Workbench, row: LabExperimentRow) -> list[tuple[str, str, bytes]]:
    """The plots of `lab report` for a finished experiment (rendered once, then kept)."""
    from bloodforge.lab import report

    if row.summary is None:
        raise ApiError(409, "lab/no_result", f"experiment {row.id} has no result to plot ({row.status})")
    if report.plt is None:
        raise ApiError(503, "lab/no_plots", "This server cannot draw plots: it does not have matplotlib "
                       "(install it with pip install 'bloodforge[lab]'). The tables above hold every number.")
    if row.id not in bench.plots:
        with bench.plot_lock:
            sweep = row.summary.get("sweep")
            if sweep is not None:  # the seats by their sides in the plot's legend
                sweep = {**sweep, "seat_roles": row.summary.get("seat_roles", [])}
            bench.plots[row.id] = report.summary_plots(row.summary, sweep)
        while len(bench.plots) > 64:
            bench.plots.pop(next(iter(bench.plots)))
    return bench.plots[row.id]


@router.get("/experiments/{experiment_id}/plots")
async def list_plots(experiment_id: str, bench: Bench, _op: Operator) -> dict[str, Any]:
    """The plots of a finished experiment (name, title and where to get each PNG)."""
    row = await asyncio.to_thread(_load_experiment, bench, experiment_id[:32])
    plots = await asyncio.to_thread(experiment_plots, bench, row)
    return {"plots": [{"name": name, "title": title, "url": f"/api/lab/experiments/{row.id}/plots/{name}.png"}
                      for name, title, _ in plots]}


@router.get("/experiments/{experiment_id}/plots/{name}.png")
async def plot_png(experiment_id: str, name: str, bench: Bench, _op: Operator) -> Response:
    row = await asyncio.to_thread(_load_experiment, bench, experiment_id[:32])
    plots = await asyncio.to_thread(experiment_plots, bench, row)
    for n, _title, png in plots:
        if n == name:
            return Response(png, media_type="image/png", headers={"Cache-Control": "private, max-age=3600"})
    raise ApiError(404, "lab/no_such_plot", f"experiment {row.id} has no plot {name[:40]!r}")


@router.delete("/experiments/{experiment_id}")
async def cancel_experiment(experiment_id: str, bench: Bench, _op: Operator) -> dict[str, Any]:
    """Stop a running experiment after the games in flight (nothing is kept of a cancelled one
    but its status)."""
    row = await asyncio.to_thread(_load_experiment, bench, experiment_id[:32])
    job = bench.jobs.get(row.id)
    if job is None or job.status not in ("queued", "running"):
        raise ApiError(409, "lab/not_running", f"experiment {row.id} is {row.status}")
    job.cancel.set()
    return {"id": row.id, "status": "cancelling"}


async def serve_progress(ws: WebSocket, experiment_id: str) -> None:
    """Progress of one experiment: the first message must be {"token": ...}; then one message
    per finished game and a last one with the result."""
    bench: Workbench = ws.app.state.workbench
    await ws.accept()
    try:
        first = await asyncio.wait_for(ws.receive_json(), timeout=10)
        bench.operator_of(f"Bearer {first.get('token', '') if isinstance(first, dict) else ''}")
        row = await asyncio.to_thread(_load_experiment, bench, experiment_id)
    except ApiError as err:
        await ws.send_json(err.body())
        await ws.close(code=4000 + err.status)
        return
    except (TimeoutError, WebSocketDisconnect, ValueError):
        await ws.close(code=4401)
        return
    job = bench.jobs.get(row.id)
    try:
        sent: tuple[str, int] | None = None
        while job is not None and job.status in ("queued", "running"):
            now = (job.status, job.done)
            if now != sent:
                await ws.send_json({"id": row.id, "status": job.status, "done": job.done, "total": job.total})
                sent = now
            await asyncio.sleep(0.25)
        row = await asyncio.to_thread(_load_experiment, bench, experiment_id)
        await ws.send_json(_experiment_out(row, job))
        await ws.close()
    except WebSocketDisconnect:
        return
