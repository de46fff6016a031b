"""The designer's workbench (issue 22): a game's content as forms, variants, A/B experiments.

Off unless `serve --lab`: without it none of these routes exist (404). With it, every
`/api/lab` call needs the operator token (printed at start, or `$BLOODFORGE_LAB_TOKEN`) as a
Bearer token, because an experiment can spend a lot of CPU. Variants are content (JSON
validated by the game's own pydantic models), never paths; an experiment is a lab
`Experiment` (variant content inline) run by the lab's own code in its process pool from a
worker thread, never on the event loop, so its export reproduces it with `bloodforge lab run`.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
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
from bloodforge.core import BloodforgeError
from bloodforge.lab.content import (
    ContentError,
    content_games,
    content_hash,
    content_source,
    diff_content,
    validate_content,
    write_content,
)
from bloodforge.lab.experiments import Experiment, ExperimentError, Variant, check_experiment, summarise, variant_jobs
from bloodforge.lab.jobs import AgentSpec, GameResult
from bloodforge.lab.runner import run_jobs

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


class ExperimentCreate(BaseModel):
    kind: str = Field("ab", pattern="^ab$")
    game: str = Field(max_length=40)
    variant: int
    agents: list[str] = Field(min_length=1, max_length=8)
    games: int = Field(ge=1, le=MAX_GAMES, description="seeds per side (base and variant)")
    seed: int = 0
    players: int | None = Field(None, ge=1, le=8)


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

    def start(self) -> None:
        """At start: write every variant's content for playtest tables, and end experiments a
        stopped server left running (their games are gone with its process pool)."""
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
            bloodforge.load_game(game, seed=0, **params).new_initial_state()
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
    params: dict[str, Any] = {"players": body.players} if body.players is not None else {}
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
def experiment_config(row: LabVariantRow, body: ExperimentCreate) -> Experiment:
    """The lab experiment an A/B is: the base (packaged content) then the variant (inline), on
    the same seeds with the same agents."""
    params: dict[str, Any] = {}
    if body.players is not None:
        params["players"] = body.players
    return Experiment(kind="variants", name=f"{row.name} v{row.version} against the base", game=row.game,
                      params=params, agents=body.agents, games=body.games, seed=body.seed,
                      variants=[Variant(name="base"), Variant(name=f"{row.name} v{row.version}", content=row.content)])


@router.post("/experiments", status_code=202)
async def create_experiment(body: ExperimentCreate, bench: Bench, op: Operator) -> dict[str, Any]:
    """Start an A/B of a variant against the base as a job (at most `lab_jobs_per_operator`
    running per operator, else 429)."""
    row, _ = await asyncio.to_thread(_load_variant, bench, body.variant)
    if row.game != body.game:
        raise ApiError(422, "lab/variant_game", f"variant {row.id} is content of {row.game}, not {body.game[:40]}")
    try:
        for a in body.agents:
            AgentSpec.parse(a)
        exp = experiment_config(row, body)
    except ValueError as err:
        raise ApiError(422, "lab/experiment_invalid", str(err)) from None

    def check() -> None:
        with tempfile.TemporaryDirectory(prefix="bloodforge-lab-") as tmp:
            try:
                check_experiment(exp, Path(tmp))
            except (ExperimentError, BloodforgeError, ValueError) as err:
                message = str(err).replace(tmp, "content")
                raise ApiError(422, "lab/experiment_invalid", message) from None

    await asyncio.to_thread(check)  # a bad agent or player count is refused now, not in the job
    with bench.lock:
        running = [j for j in bench.jobs.values() if j.operator == op and j.status in ("queued", "running")]
        if len(running) >= bench.settings.lab_jobs_per_operator:
            raise ApiError(429, "lab/too_many_jobs", f"{len(running)} experiments are running; wait for one or "
                           "cancel it", retry_after=5)
        job = JobState(id=secrets.token_hex(8), operator=op, total=2 * body.games)
        bench.jobs[job.id] = job

    def insert() -> None:
        with bench.sessions.begin() as s:
            s.add(LabExperimentRow(id=job.id, kind="ab", game=row.game, variant_id=row.id,
                                   config=exp.model_dump(mode="json"), status="queued", done=0, total=job.total,
                                   operator=op, created_at=datetime.now(UTC)))

    await asyncio.to_thread(insert)
    base = await asyncio.to_thread(_source(row.game).base)
    changes = diff_content(base, row.content)
    bench.threads.submit(run_experiment_job, bench, job, exp, changes)
    return {"id": job.id, "status": job.status, "total": job.total}


def run_experiment_job(bench: Workbench, job: JobState, exp: Experiment, changes: list[dict[str, Any]]) -> None:
    """In a worker thread: the lab's jobs in its process pool, then the summary in the database."""
    job.status = "running"
    _update(bench, job.id, status="running")
    try:
        with tempfile.TemporaryDirectory(prefix="bloodforge-lab-") as tmp:
            specs = check_experiment(exp, Path(tmp))
            jobs = variant_jobs(exp, Path(tmp), specs if len(specs) == exp.players else specs * exp.players)

            def on_result(_r: GameResult) -> None:
                job.done += 1

            def stop(done: Sequence[GameResult]) -> int | None:
                return len(done) if job.cancel.is_set() else None

            results = run_jobs(jobs, backend="process", workers=bench.settings.lab_workers, stop=stop,
                               on_result=on_result)
        if job.cancel.is_set():
            _update(bench, job.id, status="cancelled", done=job.done, finished_at=datetime.now(UTC))
            job.status = "cancelled"
        else:
            summary = summarise(exp, results)
            roles = seat_roles(results, exp.players)
            sentence = what_changed(changes, summary, roles)
            _update(bench, job.id, status="done", done=job.done, summary={**summary, "seat_roles": roles},
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
            "summary": row.summary, "sentence": row.sentence, "error": row.error,
            "agents": row.config.get("agents"), "games": row.config.get("games"), "seed": row.config.get("seed")}


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
