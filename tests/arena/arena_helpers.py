"""Shared helpers for the arena tests: scenario states and small queries."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import bloodforge
from bloodforge.core import Action, Rng
from bloodforge.games.arena.game import ArenaGame, ArenaState
from bloodforge.games.arena.model import Tile


def game(**params: Any) -> ArenaGame:
    g = bloodforge.load_game("arena", **params)
    assert isinstance(g, ArenaGame)
    return g


def scenario(params: dict[str, Any], position: dict[str, Any], rig: dict[str, Any] | None = None,
             seed: int = 0) -> ArenaState:
    state = game(**params).load_scenario(
        {"game": "arena", "params": params, "seed": seed, "position": position, "rig": rig}
    )
    assert isinstance(state, ArenaState)
    return state


def pool(*faces: int | None, kinds: str = "") -> list[dict[str, Any]]:
    """Dice specs: `kinds` letters a=atk t=tmp b=be (default: atk atk atk be ...)."""
    letters = kinds or "aaab" + "a" * max(0, len(faces) - 4)
    names = {"a": "atk", "t": "tmp", "b": "be"}
    return [{"kind": names[k], "face": f} for k, f in zip(letters, faces, strict=True)]


def die(kind: str, face: int | None = None, **kw: Any) -> dict[str, Any]:
    return {"kind": kind, "face": face, **kw}


def texts(state: ArenaState) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def game_steps(state: ArenaState, start: int = 0) -> list[str]:
    return [t for s, t in state.moves()[start:] if s is None]


def hp(state: ArenaState, uid: str) -> int | None:
    return state.board.units[uid].hp


def at(state: ArenaState, uid: str) -> str | None:
    h = state.board.units[uid].hex
    return None if h is None else f"{h[0]},{h[1]}"


def positions_before_own_steps(players: int, seed: int, want: Callable[[str], bool]) -> Iterator[ArenaState]:
    """A copy of the position before every own step of a random game (seats and actions drawn
    from `Rng(seed)`) whose text `want`s: the positions the speed tests check a shortcut on
    against the plain computation."""
    return positions_before_steps(seed, lambda _, step: want(str(step)), players=players)


def positions_before_steps(seed: int, want: Callable[[ArenaState, Action], bool],
                           **params: Any) -> Iterator[ArenaState]:
    """`positions_before_own_steps` for a game of any parameters, choosing by the position and
    the step (e.g. an NPC step at a given stage)."""
    state = bloodforge.load_game("arena", seed=seed, **params).new_initial_state(advance=False)
    assert isinstance(state, ArenaState)
    rng = Rng(seed)
    while not state.is_terminal():
        step = state._automatic_action()
        if step is not None:
            if want(state, step):
                yield state.clone()
            state._apply(step, None)
            state.history.append(str(step))
            state.history_seats.append(None)
            continue
        seat = rng.choice(state.actors())
        action = rng.choice(state.legal_actions(seat))
        state._apply(action, seat)
        state.history.append(str(action))
        state.history_seats.append(seat)


def without_memos(state: ArenaState) -> ArenaState:
    """A copy with no memo of any kind (no kept NPC step, an empty layout memo): the plain
    computation the speed tests compare a shortcut with."""
    c = state.clone()
    c.route_memo = None
    c.__dict__.pop("_npc_step", None)
    return c


def put_spike_traps(state: ArenaState, every: int, offset: int, hit_every: int) -> None:
    """Spike Traps on every `every`-th free hex (from `offset`), and every `hit_every`-th tile
    already hit this turn by the first figure on the board: harmful tiles, some of them spent,
    for the route tests (the Bosses' own tiles seldom lie in the way)."""
    free = [h for h in sorted(state.cells) if state.occupant(h) is None]
    state.board.tiles += [Tile(f"trap{k}", "spike_traps", h, [h], None)
                          for k, h in enumerate(free) if k % every == offset % every]
    state.board.moved()
    movers = [u for u in state.board.units.values() if u.alive and u.hex is not None]
    if movers:
        state.board.hazard_hits = {(movers[0].uid, t.tid) for t in state.board.tiles[::hit_every]}
