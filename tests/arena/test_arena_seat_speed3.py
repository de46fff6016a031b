"""Issue 23 item 1, the seat side of solo playouts (eighth session): each shortcut of the
seat's listing and of the engine's hot path against the plain computation, on positions of
random games as `benchmarks/bench_playouts.py` plays them.

*Why:* a kept answer keyed by too little, or a usual case read without the tests it stands
for, still plays plausible games; these checks fail when the shortcut answers differently
from the rule worked out afresh.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from arena_helpers import put_spike_traps

import bloodforge
from bloodforge.core import Action, Rng, State
from bloodforge.games.arena import attack, movement, player, turns
from bloodforge.games.arena import game as arena_game
from bloodforge.games.arena.game import ArenaState
from bloodforge.games.arena.model import Unit
from bloodforge.games.arena.turns import act


def _random_state(players: int, seed: int, **params: object) -> tuple[ArenaState, Rng]:
    state = bloodforge.load_game("arena", players=players, seed=seed, **params).new_initial_state()
    assert isinstance(state, ArenaState)
    return state, Rng(seed)


def _plies(state: ArenaState, rng: Rng, limit: int = 400) -> Iterator[ArenaState]:
    """The positions of a random game, one a ply (the state itself, stepped on after each)."""
    for _ in range(limit):
        if state.is_terminal():
            return
        yield state
        seat = rng.choice(state.actors())
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)


def _seat_figures_that_may_attack(state: ArenaState, rng: Rng, limit: int) -> Iterator[tuple[ArenaState, Unit]]:
    """The positions of a random game where a seat's figure lists its act stage and has not
    attacked yet (the listings that offer attacks), with that figure."""
    for s in _plies(state, rng, limit):
        b = s.board
        if b.phase != "turns" or b.pending is not None or b.stage != "act" or b.active is None:
            continue
        u = s.unit(b.active)
        if u.seat is not None and not u.attacked:
            yield s, u


def test_issue23_legal_actions_usual_case_equals_actors_and_legal() -> None:
    """The act stage's listing read without `turns.actors` and `player.legal`: at every ply
    of random solo and three-seat games every seat's legal actions are `player.legal`'s when
    `turns.actors` lists the seat, else none (the other seats at a figure's act stage)."""
    for players, seed in ((1, 31), (1, 32), (3, 33)):
        state, rng = _random_state(players, seed)
        for s in _plies(state, rng):
            actors = turns.actors(s)
            for seat in range(players):
                s._invalidate_legal()
                expected = player.legal(s, seat) if seat in actors else []
                assert s.legal_actions(seat) == expected


def test_issue23_advance_raises_after_as_many_steps_as_state_advance(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fused `_advance` (the cache emptied once, the first step asked before the loop)
    applies and records exactly as many own steps as `State._advance` before it gives up,
    and the same steps when they end in time."""
    state, rng = _random_state(1, 7)
    for s in _plies(state, rng):  # a seat's action after which the game takes 4+ own steps
        seat = rng.choice(s.actors())
        action = rng.choice(s.legal_actions(seat))
        trial = s.clone()
        trial.apply_unchecked(action, seat)
        if len(trial.history) - len(s.history) >= 5:
            break
    else:
        raise AssertionError("no long run of own steps")
    steps = len(trial.history) - len(s.history) - 1
    for limit, raises in ((3, True), (steps, True), (steps + 1, False)):
        results = []
        for advance in (ArenaState._advance, State._advance):
            twin = s.clone()
            twin._apply(action, seat)
            twin._record(action, seat)
            monkeypatch.setattr(arena_game, "MAX_AUTOMATIC_STEPS", limit)
            monkeypatch.setattr("bloodforge.core.game.MAX_AUTOMATIC_STEPS", limit)
            if raises:
                with pytest.raises(RuntimeError, match=f"over {limit} automatic steps"):
                    advance(twin)
            else:
                advance(twin)
            monkeypatch.undo()
            results.append((list(twin.history), list(twin.history_seats), twin.position_digest()))
        assert results[0] == results[1]
        assert len(results[0][0]) == len(s.history) + 1 + min(limit, steps)


def _offered_plain(w: ArenaState, u: Unit) -> list[Action]:
    return [act("attack", a.id) for a in attack.offered_attacks(w, u)]


def test_issue23_offered_attacks_by_nearest_enemy_equal_offered_attacks() -> None:
    """R-ATT-4, issue 18 defect 2: the `attack` actions a figure is offered, kept by (its
    rank, its Range bonus this turn, the distance to its nearest damageable enemy), equal
    `attack.offered_attacks` at every act-stage listing of random solo, solo Grevvar and
    six-seat games, and again with a Range bonus of -3..3 put on the figure (every answer
    asked twice: the kept one read back)."""
    seen = 0
    for players, seed, params in ((1, 41, {}), (1, 42, {"boss": "grevvar"}), (6, 43, {})):
        state, rng = _random_state(players, seed, **params)
        for s, u in _seat_figures_that_may_attack(state, rng, 300):
            minions = player._minions_of(s, u.uid)
            for _ in range(2):
                assert player._offered_actions(s, u, minions) == _offered_plain(s, u)
            seen += 1
            twin = s.clone()
            v = twin.unit(u.uid)
            for bonus in (-3, -1, 1, 3):
                v.mods = {**v.mods, "range": bonus}
                assert player._offered_actions(twin, v, player._minions_of(twin, v.uid)) == _offered_plain(twin, v)
    assert seen > 50
    # another content (every attack's Range 6 longer) makes its own entries: every option
    # reaches the nearest enemy there, not only those that reach it here
    other = state.content.model_copy(deep=True)
    for champion in other.champions:
        for a in champion.attacks:
            object.__setattr__(a, "range_bonus", a.range_bonus + 6)
    state, rng = _random_state(1, 44)
    differ = 0
    for s, u in _seat_figures_that_may_attack(state, rng, 200):
        twin = s.clone()
        twin.content = other
        twin.route_memo = None  # `offered_attacks` keeps its answers by layout, not content
        here = player._offered_actions(s, u, ())
        there = player._offered_actions(twin, twin.unit(u.uid), ())
        assert here == _offered_plain(s, u)
        assert there == _offered_plain(twin, twin.unit(u.uid))
        differ += here != there
    assert differ > 0


def test_issue23_champion_table_follows_the_content_it_is_asked_with() -> None:
    """The Champion's table kept by its id alone is made again when another content asks:
    a content whose pact costs differ reads its own costs, and the first content its own
    again after it."""
    state, _ = _random_state(1, 5)
    content = state.content
    champion = content.champion(state.unit(player.seat_unit(state, 0).uid).content_id)
    other = content.model_copy(deep=True)
    changed = other.champion(champion.id)
    for p in changed.pacts:
        object.__setattr__(p, "cost", p.cost + 7)
    twin = state.clone()
    twin.content = other
    for _ in range(2):
        assert [c for _, c, _ in player._champion_table(state, champion.id)[0]] == [p.cost for p in champion.pacts]
        assert [c for _, c, _ in player._champion_table(twin, champion.id)[0]] == [p.cost + 7 for p in champion.pacts]
    # the act stage's listing reads the table of its own content too: with just enough
    # Blood Energy for the cheapest pact, one content lists it and the other does not
    rng = Rng(5)
    for s in _plies(state, rng):
        b = s.board
        if b.phase == "turns" and b.pending is None and b.stage == "act" and b.active is not None \
                and s.unit(b.active).seat is not None and champion.pacts:
            break
    u = s.unit(str(s.board.active))
    cheapest = min(p.cost for p in s.content.champion(u.content_id).pacts)
    other_twin = s.clone()
    other_twin.content = other
    for w in (s, other_twin, s, other_twin):
        w.unit(u.uid).energy = cheapest
        got = player.turn_actions(w, w.unit(u.uid))
        assert got == player.plain_turn_actions(w, w.unit(u.uid))
        assert any(a.kind == "pact" for a in got) is (w is s)


def test_issue23_seat_log_lines_as_parts_read_as_the_eager_lines() -> None:
    """R-BE-3, R-PACT-1, R-BON: the lines of a Blood Energy die taken, a pact paid and a
    spell die used, logged as parts, read as the f-string and the facts of before (text,
    kind, data and visibility), at every such action of random solo and six-seat games; the
    actors at every ply are `turns.actors`'."""
    seen: set[str] = set()
    for players, seed in ((1, 51), (1, 52), (6, 53), (6, 54)):
        state, rng = _random_state(players, seed)
        for _ in range(500):
            if state.is_terminal():
                break
            assert state.actors() == turns.actors(state)
            seat = rng.choice(state.actors())
            action = rng.choice(state.legal_actions(seat))
            before = len(state.events)
            u = state.unit(str(state.board.active)) if state.board.active else None
            spell = (u.pool[int(action.args[0])].kind, u.pool[int(action.args[0])].face) \
                if u is not None and action.kind == "spell" else None
            state.apply_unchecked(action, seat)
            if action.kind not in ("energy", "pact", "spell") or u is None:
                continue
            event = next(e for e in list(state.events)[before:] if e.kind == action.kind)
            data = dict(event.data or {})
            if action.kind == "energy":
                text = f"{u.name} gains {data['amount']} Blood Energy from a die (now {u.energy})"
                keys = ["unit", "amount"]
            elif action.kind == "pact":
                pact = next(p for p in state.content.champion(u.content_id).pacts if p.id == action.args[0])
                text = f"{u.name} pays {pact.cost} Blood Energy for {pact.name}"
                keys = ["unit", "pact", "cost"]
                assert (data["pact"], data["cost"]) == (pact.id, pact.cost)
            else:
                assert spell is not None
                text = f"{u.name} uses a {state.content.special_die(spell[0]).name} die showing {spell[1]}"
                keys = ["unit", "die", "face"]
                assert (data["die"], data["face"]) == spell
            assert (event.text, event.visible, event.masked, list(data), data["unit"]) == (text, None, None, keys,
                                                                                           u.uid)
            seen.add(action.kind)
    assert seen >= {"energy", "pact"}


def test_issue23_n11_nearest_safe_by_masks_equals_the_walk_with_parents() -> None:
    """N11 (TB4): the safe ends nearest an NPC's target and their routes, read off the
    layout's masks (rings of cells, each end's path by `_mask_path`), equal the breadth-first
    walk with parents (`_nearest_safe_plain`: the same stops, the pruning by distance to the
    target) for every figure on the board, every other figure as the target, Movements 1-5
    and Ranges 0-3, in positions of random solo and six-seat games, and again with Spike
    Traps put on a third of the free hexes (some already hit this turn); answers and None
    alike."""
    seen = {"answer": 0, "none": 0, "hazards": 0}
    for players, seed, every in ((1, 61, 7), (6, 62, 30)):
        state, rng = _random_state(players, seed)
        for k, s in enumerate(_plies(state, rng, 300)):
            if k % every or sum(u.alive and u.hex is not None for u in s.board.units.values()) < 2:
                continue
            for traps in (False, True):
                twin = s.clone()
                if traps:
                    put_spike_traps(twin, 3, k, 4)
                figures = [u for u in twin.board.units.values() if u.alive and u.hex is not None]
                for u in figures:
                    for t in figures:
                        if t is u or t.hex is None:
                            continue
                        for steps, reach in ((1, 0), (2, 1), (3, 3), (5, 1), (4, 2)):
                            got = movement.nearest_safe(twin, u, steps, t.hex, reach)
                            assert got == movement._nearest_safe_plain(twin, u, steps, t.hex, reach)
                            seen["none" if got is None else "answer"] += 1
                            seen["hazards"] += traps and got is not None
    assert min(seen.values()) > 100, seen
