"""Lab experiments: a config (YAML or JSON, or built by the CLI) -> jobs -> results -> summary.

Two kinds:

* `matchup`: agents against each other, every pair on the same seeds with the first agent of the
  pair rotated through every seat (seat-swapped pairs in two-player games), with an optional
  SPRT early stop per pair, Wilson intervals, Elo differences and a Bradley-Terry rating list.
* `variants`: rule variants (parameters, or copies of a data file with some values changed)
  played on the same seeds with the same agents, each compared with the first variant as
  paired samples; seat and faction/side win rates with Wilson intervals for every variant.

Summaries are pure functions of the results (timings left out), so a run on Ray and a run on
local processes give identical summaries.
"""

from __future__ import annotations

import json
import math
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

import bloodforge
from bloodforge.buildinfo import build_info
from bloodforge.core import BloodforgeError, format_validation_error

from .content import content_source, validate_content, write_content
from .datafiles import write_variant
from .jobs import AgentSpec, GameResult, Job, job_key
from .runner import OnResult, run_jobs
from .stats import (
    bradley_terry,
    elo_with_interval,
    paired_difference,
    sprt,
    sprt_by_group,
    sprt_stop_index,
    wilson_interval,
)


class ExperimentError(BloodforgeError, ValueError):
    """A lab config that cannot run: the message names the file, the field and why."""


class SprtSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    p0: float = Field(0.5, gt=0, lt=1, description="win rate of the null hypothesis (no better)")
    p1: float = Field(0.75, gt=0, lt=1, description="win rate of the alternative (clearly better)")
    alpha: float = Field(0.05, gt=0, lt=1)
    beta: float = Field(0.05, gt=0, lt=1)
    by_seat: bool = Field(False, description="one test per seat of the first agent: every seat must pass "
                          "(an asymmetric game beaten from both sides)")

    @model_validator(mode="after")
    def _ordered(self) -> SprtSpec:
        if self.p0 >= self.p1:
            raise ValueError(f"p0 ({self.p0}) must be below p1 ({self.p1})")
        return self


class FileEdit(BaseModel):
    """A copy of `base` (a data file) with the values at JSON paths replaced."""

    model_config = ConfigDict(extra="forbid")

    base: str
    set: dict[str, Any]


class Variant(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    params: dict[str, Any] = Field(default_factory=dict)
    files: dict[str, FileEdit] = Field(default_factory=dict, description="file parameter -> edited copy")
    content: dict[str, Any] | None = Field(
        None, description="the game's whole content inline (data file name -> JSON), as the workbench edits it; "
        "written to the run's own folder and passed as the game's file parameters")


class Experiment(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["matchup", "variants"]
    name: str = "experiment"
    description: str = ""
    game: str
    params: dict[str, Any] = Field(default_factory=dict)
    agents: list[str]
    games: int = Field(100, ge=1, description="matchup: games per pair (at most); variants: seeds per variant")
    seed: int = 0
    sprt: SprtSpec | None = None
    variants: list[Variant] = Field(default_factory=list)
    content: dict[str, Any] | None = Field(
        None, description="matchup: the game's whole content inline (data file name -> JSON), as the workbench "
        "edits it; the agents play on it instead of the packaged files")
    max_plies: int = Field(200_000, ge=1)

    @model_validator(mode="after")
    def _shape(self) -> Experiment:
        if self.kind == "matchup" and len(self.agents) < 2:
            raise ValueError("a matchup needs at least two agents")
        if self.kind == "variants" and not self.variants:
            raise ValueError("a variants experiment needs at least one variant")
        if self.kind == "variants" and self.content is not None:
            raise ValueError("a variants experiment gives content per variant, not for the whole experiment")
        names = [v.name for v in self.variants]
        if len(set(names)) != len(names):
            raise ValueError(f"variant names must be distinct: {names}")
        return self

    @property
    def players(self) -> int:
        return int(self.params.get("players", 2))


def load_experiment(path: str | Path) -> Experiment:
    p = Path(path)
    try:
        raw = yaml.safe_load(p.read_text(encoding="utf-8"))
    except OSError as err:
        raise ExperimentError(f"{p}: cannot read ({err.strerror or err})") from None
    except yaml.YAMLError as err:
        raise ExperimentError(f"{p}: not YAML/JSON ({err})") from None
    try:
        exp = Experiment.model_validate(raw)
    except ValidationError as err:
        raise ExperimentError(format_validation_error(err, str(p))) from None
    # relative data-file bases are relative to the config file
    for v in exp.variants:
        for edit in v.files.values():
            base = Path(edit.base)
            if not base.is_absolute():
                edit.base = str((p.parent / base).resolve())
    return exp


# -- jobs -------------------------------------------------------------------------------------
def matchup_jobs(exp: Experiment, a: int, b: int, specs: Sequence[AgentSpec],
                 params: dict[str, Any] | None = None) -> list[Job]:
    """Games of agent `a` against `b` (every other seat): per seed, `a` sits once in every seat.
    `params`: the game parameters (default the experiment's; `matchup_params` adds its content)."""
    n = exp.players
    params = exp.params if params is None else params
    seeds = math.ceil(exp.games / n)
    jobs: list[Job] = []
    for s in range(seeds):
        for seat in range(n):
            seats = [specs[b]] * n
            seats[seat] = specs[a]
            jobs.append(Job(index=len(jobs), game=exp.game, params=params, seed=exp.seed + s, agents=seats,
                            tags={"pair": [a, b], "a_seat": seat}, max_plies=exp.max_plies))
    return jobs


def _content_params(game: str, content: dict[str, Any], work_dir: Path, what: str) -> dict[str, str]:
    try:
        return write_content(game, validate_content(content_source(game), content), work_dir / "variants")
    except (KeyError, ValueError) as err:
        raise ExperimentError(f"{what}, content: {err}") from None


def matchup_params(exp: Experiment, work_dir: Path) -> dict[str, Any]:
    """A matchup's game parameters: the experiment's, plus its inline content written out."""
    if exp.content is None:
        return dict(exp.params)
    return {**exp.params, **_content_params(exp.game, exp.content, work_dir, f"experiment {exp.name!r}")}


def variant_params(exp: Experiment, variant: Variant, work_dir: Path) -> dict[str, Any]:
    params = {**exp.params, **variant.params}
    if variant.content is not None:
        params.update(_content_params(exp.game, variant.content, work_dir, f"variant {variant.name!r}"))
    for name, edit in variant.files.items():
        try:
            params[name] = str(write_variant(Path(edit.base), edit.set, work_dir / "variants"))
        except ValueError as err:
            raise ExperimentError(f"variant {variant.name!r}, file parameter {name!r}: {err}") from None
    return params


def variant_jobs(exp: Experiment, work_dir: Path, specs: Sequence[AgentSpec]) -> list[Job]:
    """Each variant's games; one agent given plays every seat of each variant, whatever its
    player count (a variant may change it)."""
    jobs: list[Job] = []
    for v in exp.variants:
        params = variant_params(exp, v, work_dir)
        seated = list(specs) * _seats(exp, params) if len(specs) == 1 else list(specs)
        for s in range(exp.games):
            jobs.append(Job(index=len(jobs), game=exp.game, params=params, seed=exp.seed + s, agents=seated,
                            tags={"variant": v.name}, max_plies=exp.max_plies))
    return jobs


def _seats(exp: Experiment, params: dict[str, Any]) -> int:
    """How many seats the game has with `params` (the game says, not the experiment's own
    `players`: a variant may set its own, a config may leave the game's default)."""
    try:
        return bloodforge.load_game(exp.game, seed=exp.seed, **params).new_initial_state().num_players
    except BloodforgeError as err:
        raise ExperimentError(f"experiment {exp.name!r}: {err}") from None


def check_experiment(exp: Experiment, work_dir: Path) -> list[AgentSpec]:
    """Refuse a config that cannot run before any game starts (unknown game or agent, bad
    parameters, a data-file path that names nothing, agents that do not fill a variant's
    seats), each with the reason."""
    try:
        specs = [AgentSpec.parse(a) for a in exp.agents]
    except ValueError as err:
        raise ExperimentError(f"experiment {exp.name!r}: {err}") from None
    if exp.kind == "matchup":
        _seats(exp, matchup_params(exp, work_dir))
        return specs
    for variant in exp.variants:
        seats = _seats(exp, variant_params(exp, variant, work_dir))
        if len(specs) not in (1, seats):
            raise ExperimentError(f"experiment {exp.name!r}, variant {variant.name!r}: give one agent per seat "
                                  f"({seats}) or one for all; got {len(specs)}")
    return specs


# -- running ----------------------------------------------------------------------------------
def run_experiment(
    exp: Experiment,
    *,
    work_dir: Path,
    backend: str = "process",
    workers: int = 1,
    on_result: OnResult | None = None,
    on_stage: Callable[[str, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    start_method: str | None = None,
    keep_records: bool = False,
    resume: Sequence[GameResult] = (),
) -> dict[str, Any]:
    """Run an experiment; the result document holds the config, every game and the summary.

    `cancelled`: asked after every game; once it says yes the run ends with the games done so
    far (the workbench's cancel button). `start_method`: how the process pool starts its
    workers (the workbench runs from a server thread, where forking is unsafe). `keep_records`:
    each `GameResult` handed to `on_result` carries its game's record (the document never
    does: it stays the size of its games' outcomes). `resume`: games an earlier run of this
    experiment finished (`lab.resume`): they are not played again, `on_result` is not called
    for them, and the document holds them with the new games in job order."""
    specs = check_experiment(exp, work_dir)
    start = time.perf_counter()
    stages: list[tuple[str, list[Job], Callable[[Sequence[GameResult]], int | None] | None]] = []
    if exp.kind == "matchup":
        params = matchup_params(exp, work_dir)
        stop = _sprt_stop(exp.sprt) if exp.sprt is not None else None
        for a in range(len(specs)):
            for b in range(a + 1, len(specs)):
                stages.append((f"{specs[a].label} vs {specs[b].label}", matchup_jobs(exp, a, b, specs, params), stop))
    else:
        stages.append((exp.name, variant_jobs(exp, work_dir, specs), None))
    logged = _match_logged(resume, [job for _, jobs, _ in stages for job in jobs])

    def play(jobs: Sequence[Job], stop: Callable[[Sequence[GameResult]], int | None] | None) -> list[GameResult]:
        return run_jobs(jobs, backend=backend, workers=workers, stop=_or_cancel(stop, cancelled),
                        on_result=on_result, start_method=start_method, keep_records=keep_records)

    results: list[GameResult] = []
    for label, jobs, stop in stages:
        if cancelled is not None and cancelled() and exp.kind == "matchup":
            break
        results += _play_stage(label, jobs, stop, logged, play, on_stage)
    wall = time.perf_counter() - start
    run: dict[str, Any] = {"backend": backend, "workers": workers, "build": build_info().describe(),
                           "wall_seconds": round(wall, 2),
                           "game_seconds": round(sum(r.seconds for r in results), 2)}
    if resume:
        run["resumed_games"] = sum(1 for r in results if job_key(r.tags, r.seed) in logged)
    return {
        "experiment": exp.model_dump(mode="json"),
        "summary": summarise(exp, results),
        "games": [r.model_dump(mode="json", exclude={"record"}) for r in results],
        "run": run,
    }


def _match_logged(resume: Sequence[GameResult], jobs: Sequence[Job]) -> dict[tuple[str, int], GameResult]:
    """The logged games by job, each checked to be the game its job would play (same agents);
    refused when the log holds a game that is no job of this experiment."""
    by_key = {job_key(j.tags, j.seed): j for j in jobs}
    logged: dict[tuple[str, int], GameResult] = {}
    for g in resume:
        key = job_key(g.tags, g.seed)
        job = by_key.get(key)
        if job is None:
            raise ExperimentError(f"the games log holds game seed {g.seed} {g.tags}, which is no game of this "
                                  f"experiment (fewer games than the logged run?)")
        labels = [a.label for a in job.agents]
        if g.agents != labels:
            raise ExperimentError(f"the games log's game seed {g.seed} {g.tags} was played by {g.agents}, "
                                  f"this experiment's by {labels}")
        logged[key] = g
    return logged


def _play_stage(label: str, jobs: list[Job], stop: Callable[[Sequence[GameResult]], int | None] | None,
                logged: dict[tuple[str, int], GameResult],
                play: Callable[[Sequence[Job], Callable[[Sequence[GameResult]], int | None] | None],
                               list[GameResult]],
                on_stage: Callable[[str, int], None] | None) -> list[GameResult]:
    """One stage's games (a pair of agents, or all variants): the logged ones and the rest.

    With an early stop the logged games must be the stage's first jobs (a run logs its games
    in job order), and the test is decided on them followed by the new ones, exactly the
    ordered games an uninterrupted run decides on. Without one, missing games are played
    wherever they fall (a resumed run with more games per variant)."""
    have = [logged.get(job_key(j.tags, j.seed)) for j in jobs]
    if stop is None:
        todo = [j for j, g in zip(jobs, have, strict=True) if g is None]
        if on_stage is not None:
            on_stage(_stage_label(label, len(jobs) - len(todo)), len(todo))
        new = iter(play(todo, None) if todo else [])
        out: list[GameResult] = []
        for g in have:
            nxt = g if g is not None else next(new, None)
            if nxt is not None:
                out.append(nxt)
        return out
    first = next((i for i, g in enumerate(have) if g is None), len(have))
    late = [j for j, g in zip(jobs[first:], have[first:], strict=True) if g is not None]
    if late:
        raise ExperimentError(f"the games log holds game seed {late[0].seed} {late[0].tags} but not the earlier "
                              f"seed {jobs[first].seed} {jobs[first].tags}: an early-stopped test needs its games "
                              "in order")
    prefix = [g for g in have[:first] if g is not None]
    keep = stop(prefix) if prefix else None
    if keep is not None:  # the test had decided on the logged games
        if on_stage is not None:
            on_stage(_stage_label(label, len(prefix)), 0)
        return prefix[:keep]
    rest = jobs[first:]
    if on_stage is not None:
        on_stage(_stage_label(label, len(prefix)), len(rest))

    def stop_after_prefix(done: Sequence[GameResult]) -> int | None:
        n = stop(prefix + list(done))
        return None if n is None else max(0, n - len(prefix))

    return prefix + (play(rest, stop_after_prefix) if rest else [])


def _stage_label(label: str, resumed: int) -> str:
    return f"{label} ({resumed} from the log)" if resumed else label


def _or_cancel(stop: Callable[[Sequence[GameResult]], int | None] | None,
               cancelled: Callable[[], bool] | None) -> Callable[[Sequence[GameResult]], int | None] | None:
    """`stop`, or keep everything done so far once `cancelled` says so."""
    if cancelled is None:
        return stop

    def either(done: Sequence[GameResult]) -> int | None:
        if cancelled():
            return len(done)
        return stop(done) if stop is not None else None

    return either


def _sprt_stop(spec: SprtSpec) -> Callable[[Sequence[GameResult]], int | None]:
    def stop(done: Sequence[GameResult]) -> int | None:
        n, decision = sprt_stop(spec, done)
        return n if decision is not None else None

    return stop


def sprt_stop(spec: SprtSpec, games: Sequence[GameResult]) -> tuple[int, str | None]:
    """After how many of the ordered games the test decides, and how (all games, None: not yet)."""
    if spec.by_seat:
        n, decision, _ = sprt_by_group([(str(r.tags["a_seat"]), _a_score(r)) for r in games],
                                       spec.p0, spec.p1, spec.alpha, spec.beta)
        return n, decision
    n, result = sprt_stop_index([_a_score(r) for r in games], spec.p0, spec.p1, spec.alpha, spec.beta)
    return n, result.decision


def _a_score(r: GameResult) -> float:
    return r.returns[int(r.tags["a_seat"])]


# -- summaries --------------------------------------------------------------------------------
def rate(score: float, n: int) -> dict[str, float | int]:
    low, high = wilson_interval(score, n)
    return {"games": n, "score": round(score, 6), "rate": round(score / n, 6) if n else 0.0,
            "low": round(low, 6), "high": round(high, 6)}


def summarise(exp: Experiment, results: Sequence[GameResult]) -> dict[str, Any]:
    if exp.kind == "matchup":
        return summarise_matchup(exp, results)
    return summarise_variants(exp, results)


def summarise_matchup(exp: Experiment, results: Sequence[GameResult]) -> dict[str, Any]:
    labels = [AgentSpec.parse(a).label for a in exp.agents]
    k = len(labels)
    wins = [[0.0] * k for _ in range(k)]
    pairs = []
    by_pair: dict[tuple[int, int], list[GameResult]] = defaultdict(list)
    for r in results:
        a, b = r.tags["pair"]
        by_pair[(a, b)].append(r)
    for (a, b), games in sorted(by_pair.items()):
        scores = [_a_score(r) for r in games]
        total = sum(scores)
        n = len(games)
        wins[a][b] += total
        wins[b][a] += n - total
        elo, elo_low, elo_high = elo_with_interval(total, n)
        by_seat: dict[str, dict[str, Any]] = {}
        for seat in range(exp.players):
            seat_games = [r for r in games if r.tags["a_seat"] == seat]
            by_seat[str(seat)] = dict(rate(sum(_a_score(r) for r in seat_games), len(seat_games)))
            roles = {r.roles[seat] for r in seat_games}
            if len(roles) == 1 and next(iter(roles)):
                by_seat[str(seat)]["role"] = next(iter(roles))  # an asymmetric game's side
        a_roles: dict[str, list[float]] = defaultdict(list)
        for r in games:
            role = r.roles[int(r.tags["a_seat"])]
            if role:
                a_roles[role].append(_a_score(r))
        entry: dict[str, Any] = {
            "a": labels[a], "b": labels[b], **rate(total, n),
            "elo": _finite(elo), "elo_low": _finite(elo_low), "elo_high": _finite(elo_high),
            "a_by_seat": by_seat, "a_by_role": {k: rate(sum(v), len(v)) for k, v in sorted(a_roles.items())},
            "mean_plies": round(sum(r.plies for r in games) / n, 2), "stats": mean_stats(games),
        }
        if exp.sprt is not None:
            spec = exp.sprt
            s = sprt(total, n, spec.p0, spec.p1, spec.alpha, spec.beta)
            entry["sprt"] = {"llr": round(s.llr, 6), "lower": round(s.lower, 6), "upper": round(s.upper, 6),
                             "decision": s.decision, "p0": spec.p0, "p1": spec.p1}
            if spec.by_seat:
                _, decision, groups = sprt_by_group([(str(r.tags["a_seat"]), _a_score(r)) for r in games],
                                                    spec.p0, spec.p1, spec.alpha, spec.beta)
                entry["sprt"]["decision"] = decision
                entry["sprt"]["by_seat"] = {
                    seat: {"games": used, "llr": round(res.llr, 6), "decision": res.decision}
                    for seat, (used, res) in sorted(groups.items())
                }
        pairs.append(entry)
    ratings = bradley_terry(wins) if results else [0.0] * k
    return {
        "kind": "matchup", "agents": labels, "pairs": pairs,
        "matrix": [[round(x, 6) for x in row] for row in wins],
        "elo": {labels[i]: round(ratings[i], 2) for i in range(k)},
        "seats": seat_summary(results, exp.players), "roles": role_summary(results),
    }


def summarise_variants(exp: Experiment, results: Sequence[GameResult]) -> dict[str, Any]:
    by_variant: dict[str, list[GameResult]] = defaultdict(list)
    for r in results:
        by_variant[r.tags["variant"]].append(r)
    names = [v.name for v in exp.variants]
    base = sorted(by_variant.get(names[0], []), key=lambda r: r.seed)
    variants = []
    for name in names:
        games = sorted(by_variant.get(name, []), key=lambda r: r.seed)
        entry: dict[str, Any] = {
            "name": name, "games": len(games),
            "seats": seat_summary(games, exp.players), "roles": role_summary(games),
            "mean_plies": round(sum(r.plies for r in games) / len(games), 2) if games else 0.0,
            # games without a sole winner: draws, shared wins, or a boss win (every seat 0)
            "draws": sum(1 for r in games if max(r.returns) < 1.0),
            "stats": mean_stats(games),
        }
        if name != names[0] and games and len(games) == len(base):
            entry["vs_first"] = {
                str(seat): _paired(base, games, seat) for seat in range(exp.players)
            }
        variants.append(entry)
    return {"kind": "variants", "baseline": names[0], "variants": variants}


def _paired(base: Sequence[GameResult], games: Sequence[GameResult], seat: int) -> dict[str, Any]:
    if [r.seed for r in base] != [r.seed for r in games]:
        raise ExperimentError("variants were not played on the same seeds; cannot pair them")
    p = paired_difference([r.returns[seat] for r in games], [r.returns[seat] for r in base])
    return {"diff": round(p.diff, 6), "low": round(p.low, 6), "high": round(p.high, 6),
            "variant_only_wins": p.a_only, "first_only_wins": p.b_only, "p_value": round(p.p_value, 6)}


def mean_stats(games: Sequence[GameResult]) -> dict[str, float]:
    """The mean of each of the game's statistics per game (a count missing from a game is 0)."""
    names = sorted({k for r in games for k in r.stats})
    return {k: round(sum(r.stats.get(k, 0.0) for r in games) / len(games), 6) for k in names} if games else {}


def seat_summary(results: Sequence[GameResult], players: int) -> dict[str, Any]:
    """Win rate of each seat (whoever plays it) with Wilson intervals: the seat advantage."""
    n = len(results)
    return {str(s): rate(sum(r.returns[s] for r in results), n) for s in range(players)}


def role_summary(results: Sequence[GameResult]) -> dict[str, Any]:
    """Win rate of each faction / side with Wilson intervals: the faction advantage."""
    score: dict[str, float] = defaultdict(float)
    games: dict[str, int] = defaultdict(int)
    for r in results:
        for seat, role in enumerate(r.roles):
            if role:
                score[role] += r.returns[seat]
                games[role] += 1
    return {role: rate(score[role], games[role]) for role in sorted(games)}


def _finite(x: float) -> float | None:
    return round(x, 2) if math.isfinite(x) else None


def write_result(doc: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
