"""Issue 23 item 1 (ninth session): the round, the dice and the seat's shortcuts against the
plain computations, at every step of random games.

*Why:* each shortcut keeps or skips work the rules did before (the dice in use kept on the
board instead of counted at every die gained, a roll-off's d6 drawn without `World.roll`'s
frame, the allies' tie question skipped outside team play); the golden-game tests catch a
changed game only when the random games happen to reach the difference, so here every use
is compared with what the plain computation says on the same position.
"""

from __future__ import annotations

from typing import Any

import pytest

import bloodforge
from bloodforge.core import Rng
from bloodforge.core.dice import Dice
from bloodforge.games.arena import dice, initiative
from bloodforge.games.arena.effects import GONE
from bloodforge.games.arena.game import ArenaState
from bloodforge.games.arena.model import Board, Die

# setting name -> game parameters (solo first: the cell this work is for)
SETTINGS: dict[str, dict[str, Any]] = {
    "solo": {"players": 1},
    "solo_grevvar": {"players": 1, "champions": ["calvio"], "rivals": ["lienne"], "boss": "grevvar"},
    "ffa_3_two_bosses": {"players": 3, "bosses": ["malvarra", "grevvar"]},
    "six": {"players": 6},
}


def _fresh_counts(state: ArenaState) -> dict[str, int]:
    """The dice in the living figures' pools by kind, counted die by die (`dice.in_use`)."""
    kinds = {d.kind for u in state.board.units.values() for d in u.pool} - {GONE}
    return {k: n for k in sorted(kinds) if (n := dice.in_use(state, k))}


def _kept_counts(state: ArenaState) -> dict[str, int]:
    kept = state.board.in_use
    assert kept is not None
    return {k: n for k, n in sorted(kept.items()) if n and k != GONE}


def _play_checking(state: ArenaState, rng: Rng, steps: int | None = None) -> int:
    """Play on (random seat actions, the game's own steps one at a time); before every step
    the board's kept count is made if missing, and after it the count must equal a fresh
    one. Returns how many steps were checked."""
    checked = 0
    while not state.is_terminal() and (steps is None or checked < steps):
        dice.counts_in_use(state)  # kept from here on: every change of a pool must follow it
        step = state._automatic_action()
        if step is not None:
            state._apply(step, None)
            state.history.append(str(step))
            state.history_seats.append(None)
        else:
            seat = rng.choice(state.actors())
            action = rng.choice(state.legal_actions(seat))
            state._apply(action, seat)
            state.history.append(str(action))
            state.history_seats.append(seat)
        if state.board.in_use is not None:
            assert _kept_counts(state) == _fresh_counts(state), state.history[-1]
        checked += 1
    return checked


@pytest.mark.parametrize("setting", sorted(SETTINGS))
def test_a13_supply_count_kept_on_the_board_equals_a_fresh_count(setting: str) -> None:
    """A13's supply: `Board.in_use` (kept by the dice gained and recalled, dropped by every
    other change of a pool or a life) equals the die-by-die count after every step of random
    games, and on clones played on from the middle of a game (a copy counts again)."""
    params = SETTINGS[setting]
    seeds = (11, 12) if setting != "six" else (13,)
    for seed in seeds:
        state = bloodforge.load_game("arena", seed=seed, **params).new_initial_state(advance=False)
        assert isinstance(state, ArenaState)
        rng = Rng(seed)
        assert _play_checking(state, rng, 60) > 0
        clone = state.clone()
        assert clone.board.in_use is None  # not copied: counted again when asked
        _play_checking(clone, Rng(seed + 100))
        _play_checking(state, rng)


def test_a13_supply_left_reads_the_kept_count_and_counts_when_missing() -> None:
    """`supply_left` equals the supply's size less the die-by-die count, whether the count
    was kept, is missing, or a pool changed by a path that drops it."""
    state = bloodforge.load_game("arena", players=1, seed=3).new_initial_state()
    assert isinstance(state, ArenaState)
    limits = state.content.rules.supply
    totals = {"atk": limits.attack, "tmp": limits.temp, "be": limits.be}
    champion = next(u for u in state.board.units.values() if u.seat == 0)
    for kind, total in totals.items():
        assert dice.supply_left(state, kind) == total - dice.in_use(state, kind)
    assert state.board.in_use is not None
    assert dice.gain_die(state, champion, "tmp")
    assert dice.gain_dice(state, champion, "be", 2) == 2
    for kind, total in totals.items():
        assert dice.supply_left(state, kind) == total - dice.in_use(state, kind)
    state.board.in_use = None  # a path that drops the count
    champion.pool.append(Die("tmp", 6, None, False, True))
    assert dice.supply_left(state, "tmp") == limits.temp - dice.in_use(state, "tmp")
    # the supply runs out by the kept count exactly as by the plain one
    while dice.supply_left(state, "tmp") > 0:
        assert dice.gain_die(state, champion, "tmp")
    assert not dice.gain_die(state, champion, "tmp")
    assert dice.supply_left(state, "tmp") == 0 == limits.temp - dice.in_use(state, "tmp")


def test_a13_a_board_made_anew_or_copied_keeps_no_count() -> None:
    """The kept count is no part of the position: a loaded or copied board counts again."""
    state = bloodforge.load_game("arena", players=1, seed=4).new_initial_state()
    assert isinstance(state, ArenaState)
    dice.counts_in_use(state)
    assert state.board.in_use
    assert Board.from_json(state.board.to_json()).in_use is None
    assert state.board.copy().in_use is None
    assert "in_use" not in state.board.to_json()


def _tied_state(seed: int, rigged: list[int] | None) -> ArenaState:
    state = bloodforge.load_game("arena", players=1, seed=seed).new_initial_state()
    assert isinstance(state, ArenaState)
    if rigged is not None:
        state.board.dice[6] = Dice(list(rigged))
    return state


def _plain_roll_off(w: ArenaState, group: list[str], names: dict[str, str]) -> list[str]:
    """TB-INI's roll-off as before: `World.roll(6)` per figure, highest first, ties again."""
    rolls = {x: w.roll(6) for x in group}
    w.events.add_public("roll-off: " + ", ".join(f"{names[x]} {r}" for x, r in rolls.items()), "rolloff", None)
    out: list[str] = []
    for r in sorted(set(rolls.values()), reverse=True):
        same = [x for x in group if rolls[x] == r]
        out += _plain_roll_off(w, same, names) if len(same) > 1 else same
    return out


@pytest.mark.parametrize("rigged", [None, [2, 5, 5, 1, 3, 6, 4, 4]])
def test_tb_ini_roll_off_draws_as_world_roll(rigged: list[int] | None) -> None:
    """TB-INI: the roll-off's d6 drawn inline equals `World.roll(6)`, die by die, with no rig
    and with a rig queue (which still answers first), and the same line and order."""
    tied = ["a", "b", "c", "d"]
    names = {x: x.upper() for x in tied}
    for seed in range(6):
        fast = _tied_state(seed, rigged)
        plain = _tied_state(seed, rigged)
        order = initiative.roll_off(fast, tied, names)
        assert order == _plain_roll_off(plain, tied, names)
        assert fast.rng.state == plain.rng.state
        assert [e.text for e in fast.events] == [e.text for e in plain.events]
        if rigged is not None:
            assert fast.board.dice[6].rigged == plain.board.dice[6].rigged


def test_r_ini_9_ally_ties_asked_only_in_team_play() -> None:
    """R-INI-9: outside team play `ally_tie_groups` is empty at every reveal (the reveal
    skips asking); in team play the reveal still asks (a team match's pending tie)."""
    for players in (1, 3):
        state = bloodforge.load_game("arena", players=players, seed=5).new_initial_state()
        assert isinstance(state, ArenaState)
        assert state.params.mode != "team"
        rng = Rng(5)
        while not state.is_terminal() and state.board.round < 6:
            assert initiative.ally_tie_groups(state) == []
            seat = rng.choice(state.actors())
            state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    asked = 0
    for seed in range(40):
        state = bloodforge.load_game("arena", players=4, mode="team", seed=seed).new_initial_state()
        assert isinstance(state, ArenaState)
        rng = Rng(seed)
        while not state.is_terminal() and state.board.round < 4:
            pending = state.board.pending
            if pending is not None and pending.kind == "tie":
                asked += 1
            seat = rng.choice(state.actors())
            state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
        if asked:
            break
    assert asked


def test_r_rcl_1_a_die_leaving_a_pool_leaves_the_kept_count() -> None:
    """R-RCL-1 / R-ULT-1: `lose_die` takes a die leaving a living figure's pool off the kept
    count; for a fallen figure's die, or a kind not counted, it drops the count (made again
    when asked), so the count is never below the truth."""
    state = bloodforge.load_game("arena", players=1, seed=6).new_initial_state()
    assert isinstance(state, ArenaState)
    champion = next(u for u in state.board.units.values() if u.seat == 0)
    assert dice.gain_die(state, champion, "tmp")
    before = dict(dice.counts_in_use(state))
    champion.pool.pop()
    dice.lose_die(state, champion, "tmp")
    assert _kept_counts(state) == _fresh_counts(state)
    assert state.board.in_use == {**before, "tmp": before["tmp"] - 1}
    dice.lose_die(state, champion, "no such kind")
    assert state.board.in_use is None
    dice.counts_in_use(state)
    champion.alive = False
    dice.lose_die(state, champion, "atk")
    assert state.board.in_use is None
