"""One lab game as plain data: what to play (a `Job`) and what came of it (a `GameResult`).

Jobs are small JSON-safe values so that any backend (this process, a process pool, Ray) can
carry them; a job fixes the game, parameters, seed and every seat's agent with its options, and
the agents' seeds derive from the game seed, so a job's result is the same wherever it runs.
"""

from __future__ import annotations

import json
import time
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

import bloodforge
from bloodforge.agents import Agent, agent_names, make_agent
from bloodforge.core import State
from bloodforge.core.rng import mix_seed
from bloodforge.match import Record, play_match


class AgentSpec(BaseModel):
    """An agent by name with options, written `name` or `name:key=value:key=value`
    (values are JSON where they parse, e.g. `mcts:seconds=1:rollout=greedy`; a JSON object or
    list may hold colons of its own: `mcts:policy_options={"retreat":true}`)."""

    model_config = ConfigDict(frozen=True)

    name: str
    options: dict[str, Any] = Field(default_factory=dict)

    @property
    def label(self) -> str:
        """The spec as text again (`parse(label)` gives the same spec): objects and lists as
        compact JSON, everything else as written."""
        return ":".join([self.name, *(f"{k}={_option_text(v)}" for k, v in sorted(self.options.items()))])

    @classmethod
    def parse(cls, text: str) -> AgentSpec:
        parts = [p.strip() for p in split_spec(text)]
        if not parts[0]:
            raise ValueError(f"agent {text!r}: empty name")
        options: dict[str, Any] = {}
        for part in parts[1:]:
            if "=" not in part:
                raise ValueError(f"agent {text!r}: option {part!r} is not key=value")
            key, raw = part.split("=", 1)
            try:
                options[key.strip()] = json.loads(raw)
            except json.JSONDecodeError:
                if raw.lstrip().startswith(("{", "[")):
                    raise ValueError(f"agent {text!r}: option {key.strip()!r}: {raw!r} is not JSON") from None
                options[key.strip()] = raw
        if parts[0] not in agent_names():
            raise ValueError(f"agent {text!r}: unknown agent {parts[0]!r}; known: {', '.join(agent_names())}")
        return cls(name=parts[0], options=options)

    def make(self, seat: int, seed: int) -> Agent:
        return make_agent(self.name, seat=seat, seed=seed, **self.options)


def split_spec(text: str) -> list[str]:
    """`text` cut at every colon outside JSON brackets and quotes (an option's JSON value may
    hold colons); an unclosed bracket or quote is an error naming the spec."""
    parts: list[str] = []
    current: list[str] = []
    closers: list[str] = []
    quote = escaped = False
    pairs = {"{": "}", "[": "]"}
    for ch in text:
        if quote:
            current.append(ch)
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quote = False
            continue
        if ch == ":" and not closers:
            parts.append("".join(current))
            current = []
            continue
        current.append(ch)
        if ch == '"':
            quote = True
        elif ch in pairs:
            closers.append(pairs[ch])
        elif closers and ch == closers[-1]:
            closers.pop()
    if quote or closers:
        raise ValueError(f"agent {text!r}: an unclosed {'quote' if quote else repr(closers[-1])[1]} "
                         f"(a JSON value must be whole)")
    parts.append("".join(current))
    return parts


def _option_text(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True) if isinstance(value, (dict, list)) else str(value)


class Job(BaseModel):
    """One game to play. `tags` say where it belongs in the experiment (pair, variant, ...)."""

    model_config = ConfigDict(frozen=True)

    index: int
    game: str
    params: dict[str, Any]
    seed: int
    agents: list[AgentSpec]
    tags: dict[str, Any] = Field(default_factory=dict)
    max_plies: int = 200_000


def job_key(tags: dict[str, Any], seed: int) -> tuple[str, int]:
    """Which job of an experiment a game is: its tags (pair and seat, or variant) and its seed."""
    return json.dumps(tags, sort_keys=True), seed


class GameResult(BaseModel):
    """What the lab keeps of a game: the outcome, the roles, and the record's digest (so a
    game can be replayed and checked from its job).

    `digest_kind` says which digest `digest` is: "chain" (`State.digest`, written since the
    hash chain exists) or "position" (`State.position_digest`); documents written before the
    field existed hold position digests, hence the default."""

    index: int
    tags: dict[str, Any]
    seed: int
    agents: list[str]
    returns: list[float]
    scores: list[float]
    roles: list[str]
    plies: int
    digest: str
    digest_kind: Literal["chain", "position"] = "position"
    seconds: float
    #: the game's own numbers about how it went (`State.statistics()`), averaged by the lab
    stats: dict[str, float] = Field(default_factory=dict)
    record: dict[str, Any] | None = None

    def digest_of(self, state: State) -> str:
        """`state`'s digest of this result's kind: a rerun of the job checks itself with it."""
        return state.digest_of(self.digest_kind)


def play_job(job: Job, keep_record: bool = False) -> GameResult:
    """Play one job to the end (the `match` driver is the one loop)."""
    game = bloodforge.load_game(job.game, seed=job.seed, **job.params)
    agents = {seat: spec.make(seat, mix_seed(job.seed, "agent", seat)) for seat, spec in enumerate(job.agents)}
    labels = [spec.label for spec in job.agents]
    start = time.perf_counter()
    result = play_match(game.new_initial_state(), agents, agent_names=labels, max_plies=job.max_plies,
                        host_seed=mix_seed(job.seed, "host"))
    state = result.state
    record: Record = result.record
    return GameResult(
        index=job.index, tags=job.tags, seed=job.seed, agents=labels, returns=state.returns(),
        scores=state.scores(), roles=state.seat_roles(), plies=result.plies, digest=state.digest(),
        digest_kind="chain", seconds=round(time.perf_counter() - start, 4), stats=state.statistics(),
        record=record.to_json() if keep_record else None,
    )
