"""The game record: what identifies a game plus every entry of its history, with the seat.

One format for everything that keeps or exchanges games (`play --save`, `selfplay --jsonl`,
the lab, the server's replays): game, params, seed, the scenario it started from (if any) and
[(seat, action text)], where seat None marks the game's own steps and the host's `timeout`s.
Replaying the entries through the engine reproduces every state exactly; the digest of the
final state checks it. `digest_kind` says which digest the record keeps: "chain" (`State.digest`,
a hash chain over the header and every entry, what new records carry) or "position"
(`State.position_digest`, the whole final state); a record without the field was written before
the chain existed and carries the position digest, so published records keep verifying.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

import bloodforge
from bloodforge.core import BloodforgeError, State, format_validation_error

Move = tuple[int | None, str]


class ReplayError(BloodforgeError, ValueError):
    """A record that does not replay: an entry is refused, or the final digest differs."""


class Record(BaseModel):
    """A whole game. Summary fields (winner, scores, ...) are filled once the game is over."""

    model_config = ConfigDict(extra="forbid")

    game: str
    version: int | None = None
    params: dict[str, Any]
    seed: int
    scenario: dict[str, Any] | None = None
    moves: list[Move] = Field(default_factory=list)
    agents: list[str] | None = None
    winner: list[int] | None = None
    scores: list[float] | None = None
    returns: list[float] | None = None
    roles: list[str] | None = None
    plies: int | None = None
    digest: str | None = None
    #: which digest `digest` is (see the module doc); None: an older record, a position digest
    digest_kind: Literal["chain", "position"] | None = None
    seconds: float | None = None
    meta: dict[str, Any] = Field(default_factory=dict)

    # -- building ------------------------------------------------------------------------------
    @classmethod
    def of(
        cls, state: State, *, agents: list[str] | None = None, seconds: float | None = None,
        meta: dict[str, Any] | None = None,
    ) -> Record:
        """The record of `state`'s game so far (with its result if the game is over)."""
        head = state.game.record()
        outcome = state.outcome()
        plies = sum(1 for s in state.history_seats if s is not None)
        return cls(
            game=head["game"], version=head["version"], params=head["params"], seed=head["seed"],
            scenario=state.scenario, moves=state.moves(), agents=agents,
            winner=None if outcome is None else outcome.winners,
            scores=None if outcome is None else outcome.scores,
            returns=None if outcome is None else outcome.returns,
            roles=None if outcome is None else outcome.roles,
            plies=plies, digest=state.digest(), digest_kind="chain",
            seconds=None if seconds is None else round(seconds, 4), meta=meta or {},
        )

    # -- replaying -----------------------------------------------------------------------------
    def initial_state(self) -> State:
        """The state before the first entry (the game's own first steps not yet taken)."""
        try:
            if self.scenario is not None:
                return bloodforge.load_scenario(self.scenario, advance=False)
            game = bloodforge.load_game(self.game, seed=self.seed, **self.params)
            return game.new_initial_state(advance=False)
        except (BloodforgeError, KeyError) as err:
            raise ReplayError(f"record of {self.game!r}: cannot set the game up: {err}") from None

    def replay(self, upto: int | None = None, *, check_digest: bool = True) -> State:
        """The state after the first `upto` entries (all by default); the digest is checked
        when the whole record is replayed."""
        state = self.initial_state()
        for _ in self._steps(state, upto):  # each step mutates `state`
            pass
        if check_digest and upto is None and self.digest is not None:
            got = self.digest_of(state)
            if got != self.digest:
                raise ReplayError(
                    f"record of {self.game!r}: the replay ends in {self.kind_of_digest} digest {got[:16]}, "
                    f"the record says {self.digest[:16]}"
                )
        return state

    @property
    def kind_of_digest(self) -> str:
        """The kind of `digest`: records without `digest_kind` predate the chain (position)."""
        return self.digest_kind or "position"

    def digest_of(self, state: State) -> str:
        """`state`'s digest of the kind this record keeps, to compare with `digest`."""
        return state.digest_of(self.kind_of_digest)

    def states(self, upto: int | None = None) -> Iterator[State]:
        """The initial state, then the state after each entry (the same object, mutated: clone
        what you keep)."""
        yield from self._steps(self.initial_state(), upto)

    def _steps(self, state: State, upto: int | None) -> Iterator[State]:
        yield state
        end = len(self.moves) if upto is None else upto
        if not 0 <= end <= len(self.moves):
            raise ReplayError(f"the record has {len(self.moves)} entries; {end} is out of range")
        for i, (seat, text) in enumerate(self.moves[:end]):
            try:
                state.step_entry(seat, text)
            except BloodforgeError as err:
                who = "the game" if seat is None else f"seat {seat}"
                raise ReplayError(f"entry {i} ({who}: {text!r}) does not replay: {err}") from None
            yield state

    # -- files ---------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")

    @classmethod
    def from_json(cls, data: Any, source: str = "record") -> Record:
        if isinstance(data, dict) and "moves" not in data and "actions" in data:
            data = _upgrade_actions_only(data, source)
        try:
            return cls.model_validate(data)
        except ValidationError as err:
            raise ReplayError(format_validation_error(err, source)) from None


def _upgrade_actions_only(data: dict[str, Any], source: str) -> dict[str, Any]:
    """Records written before seats were kept list only action texts, each played by the
    seat to move then: recover the seats by replaying them."""
    out = {k: v for k, v in data.items() if k != "actions"}
    probe = Record.model_validate({**out, "moves": [], "digest": None})
    state = probe.initial_state()
    state._advance()
    moves: list[Move] = list(state.moves())
    for i, text in enumerate(data["actions"]):
        before = len(state.history)
        try:
            state.apply(str(text))
        except BloodforgeError as err:
            raise ReplayError(f"{source}: action {i} ({text!r}) does not replay: {err}") from None
        moves.extend(state.moves()[before:])
    out["moves"] = moves
    return out


def read_records(path: str | Path) -> list[Record]:
    """Records from a JSON file (one record or a list) or a JSON-lines file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as err:
        raise ReplayError(f"{p}: cannot read ({err.strerror or err})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        rows = []
        for i, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    rows.append((f"{p}:{i}", json.loads(line)))
                except json.JSONDecodeError as err:
                    raise ReplayError(f"{p}:{i}: not JSON ({err})") from None
        return [Record.from_json(row, label) for label, row in rows]
    items = data if isinstance(data, list) else [data]
    return [Record.from_json(item, f"{p}[{i}]") for i, item in enumerate(items)]


def write_records(records: Iterable[Record], out: IO[str]) -> None:
    """One JSON object per line."""
    for rec in records:
        out.write(json.dumps(rec.to_json(), separators=(",", ":")) + "\n")
