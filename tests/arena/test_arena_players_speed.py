"""Issue 23 item 1, the players' side of six-seat playouts (fifth session): each speed
structure against the plain computation, on positions of random games as
`benchmarks/bench_playouts.py` plays them.

*Why:* a memo that keeps too much, or a table read instead of a pass over the figures, still
plays plausible games; these checks fail when the structure answers differently from the
rule worked out afresh, or when it stops bounding what it keeps.
"""

from __future__ import annotations

from typing import Any

import pytest

import bloodforge
from bloodforge.core import Rng
from bloodforge.games.arena import attack, effects, movement, player
from bloodforge.games.arena.content import Attack
from bloodforge.games.arena.game import ArenaState
from bloodforge.games.arena.hexes import distance, hex_id, neighbours
from bloodforge.games.arena.model import Unit
from bloodforge.games.arena.movement import _Layout, destinations
from bloodforge.games.arena.turns import act
from bloodforge.games.arena.world import LAYOUT_MEMO_SIZE


def _random_state(players: int, seed: int) -> tuple[ArenaState, Rng]:
    state = bloodforge.load_game("arena", players=players, seed=seed).new_initial_state()
    assert isinstance(state, ArenaState)
    return state, Rng(seed)


def test_issue23_layout_memo_keeps_at_most_its_size_and_starts_again() -> None:
    """The layout memo (route searches, move lists, who is in Range) is emptied once it holds
    `LAYOUT_MEMO_SIZE` answers, whoever asks: kept long, old layouts' answers only fed the
    cyclic collector. Every ply of a random six-seat game leaves it within a few entries of
    the size (one access may be followed by a few insertions), and an access at the size
    hands back an empty memo that is still the one clones share."""
    state, rng = _random_state(6, 5)
    largest = 0
    for _ in range(600):
        if state.is_terminal():
            break
        seat = rng.choice(state.actors())
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
        if state.route_memo is not None:  # none before the first search
            largest = max(largest, len(state.route_memo[1]))
    assert LAYOUT_MEMO_SIZE // 2 <= largest <= LAYOUT_MEMO_SIZE + 8
    twin = state.clone()
    table = state.layout_memo()
    for i in range(LAYOUT_MEMO_SIZE - len(table)):
        table[("filler", i)] = i
    assert len(state.layout_memo()) == 0
    assert twin.layout_memo() is state.layout_memo()


def test_issue23_champion_table_equals_the_printed_card() -> None:
    """R-PACT-1, R-ULT-1, R-BON, R-MIN-5: what the act stage's listing reads off a
    Champion's table (pacts with their cost and action in printed order, the Ultimate's
    cost, the Initiative cards with a Bonus Action, whether it has minions) is the printed
    card's, for every Champion; an unknown Champion raises as the content's look-up does."""
    state, _ = _random_state(6, 1)
    content = state.content
    for champion in content.champions:
        pacts, ultimate, bonus_cards, has_minions, movement, spells = player._champion_table(state, champion.id)
        assert [(p, c, a) for p, c, a in pacts] == [(p.id, p.cost, act("pact", p.id)) for p in champion.pacts]
        assert ultimate == champion.ultimate_cost
        with_bonus = {c.id for c in champion.cards
                      if (card := content.initiative_card(champion.id, c.id)) is not None and card.bonus is not None}
        assert bonus_cards == with_bonus
        assert has_minions == bool(champion.minions)
        assert movement == champion.movement == attack.base_attributes(state, state.unit(champion.id))[0]
        every = {d.id for c in content.champions for d in c.dice} | {d.id for b in content.bosses for d in b.dice}
        assert spells == {k for k in every if content.special_die(k).timing == "spell"}
        assert spells
    assert any(player._champion_table(state, c.id)[2] for c in content.champions)
    assert any(player._champion_table(state, c.id)[3] for c in content.champions)
    with pytest.raises(StopIteration):
        player._champion_table(state, "nobody")


def _plain_offered(state: ArenaState, u: Unit) -> list[Attack]:
    """The attacks with an enemy in Range by the plain search over origins and enemies, or
    the first option when none has (issue 18 defect 2)."""
    options = attack.attack_options(state, u)
    reaching = []
    for a in options:
        r = attack.range_of(state, u, a)
        spots = attack.origins(state, u, a)
        if any(e.alive and e.hex is not None and e.hp is not None and e.side != u.side
               and any(distance(h, e.hex) <= r for h in spots) for e in state.board.units.values()):
            reaching.append(a)
    return reaching or options[:1]


def test_issue23_offered_attacks_from_minions_equal_the_plain_range_search() -> None:
    """R-ATT-6..8, R-ATT-12: a summoner's offered attacks (its own space and each kind of
    minion it attacks from, in one pass) equal the plain search over origins and enemies
    with its minions and the other figures put on random hexes, some minions destroyed or
    off the board, the rank and Range changed; the memo is emptied before each."""
    state, rng = _random_state(6, 3)
    while not (state.board.phase == "turns" and state.board.pending is None):
        seat = rng.choice(state.actors())
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    cells = sorted(state.cells)
    summoners = [u for u in state.board.units.values() if u.kind == "champion"
                 and any(a.origin != "self" for a in attack.attacks_of(state, u))]
    assert summoners
    for u in summoners:  # a minion of that kind summoned by another figure is no origin of u's
        minion = next(m for m in state.board.units.values() if m.kind == "minion" and m.summoner == u.uid)
        stray = minion.copy()
        stray.uid = f"stray_{minion.uid}"
        stray.summoner = next(o.uid for o in state.board.units.values() if o.kind == "champion" and o is not u)
        stray.side = state.unit(stray.summoner).side
        state.board.units[stray.uid] = stray
    compared = 0
    with_minions = 0
    for trial in range(300):
        for f in state.board.units.values():
            f.alive = True
            f.hex = rng.choice(cells) if rng.randbelow(8) else None
            if f.kind == "minion" and rng.randbelow(4) == 0:
                f.alive = False
        for u in summoners:
            if u.hex is None:
                u.hex = rng.choice(cells)
            u.rolled_category = ("singles", "doubles", "triples")[trial % 3]
            u.mods = {"range": rng.randbelow(3) - 1} if trial % 2 else {}
            state.board.moved()
            state.route_memo = None
            want = _plain_offered(state, u)
            assert attack.offered_attacks(state, u) == want, (trial, u.uid)
            compared += 1
            with_minions += any(a.origin != "self" for a in want)
    assert compared >= 300
    assert with_minions > 50


def test_issue23_pick_listing_from_the_hand_table_equals_the_sorted_hand() -> None:
    """R-INI (the secret pick): a seat's pick actions are `pick <card>` for every card of its
    hand in sorted order, read off a table made once per hand: the same for hands of every
    size and order, a list of the caller's own each time (changing it changes no later
    listing), and a hand changed in place is listed anew."""
    state, rng = _random_state(6, 4)
    assert state.board.phase == "pick"
    u = player.seat_unit(state, 0)
    cards = list(u.hand)
    for trial in range(40):
        hand = [c for c in cards if rng.randbelow(3)] or cards[:1]
        for i in range(len(hand) - 1, 0, -1):  # a shuffled hand: the listing sorts it
            j = rng.randbelow(i + 1)
            hand[i], hand[j] = hand[j], hand[i]
        u.hand = hand
        got = player.legal(state, 0)
        assert got == [act("pick", c) for c in sorted(hand)], trial
        got.clear()
        assert player.legal(state, 0) == [act("pick", c) for c in sorted(hand)]
    u.hand.append("zzz")
    assert player.legal(state, 0)[-1] == act("pick", "zzz")


def test_issue23_move_lists_by_end_mask_name_their_mover_and_equal_destinations() -> None:
    """R-MOV, R-MIN-5 (sixth session): `_move_actions` keeps a list per end mask, shared by
    every position with the same end cells. A list is never served to another mover with the
    same end cells (a minion's names its own id, a Champion's are `move`), the mover's own
    space is never among them, and with the table emptied or full (hits), on positions all
    through random six-seat games, every list equals `destinations` but the own space."""
    state, rng = _random_state(6, 7)
    checked = 0
    ghosts = 0
    ply = 0
    while not state.is_terminal() and ply < 700:
        ply += 1
        if ply % 7 == 0:
            for u in list(state.board.units.values()):
                if not (u.alive and u.hex is not None and u.kind in ("champion", "minion")):
                    continue
                steps = 1 + ply % 4
                want = [h for h in destinations(state, u, steps) if h != u.hex]
                verb = "minion" if u.kind == "minion" else "move"
                prefix = (u.uid,) if verb == "minion" else ()
                for empty in (True, False):
                    if empty:
                        player._BYTE_ACTIONS.clear()
                    got = player._move_actions(state, u, steps)
                    assert got == [act(verb, *prefix, hex_id(h)) for h in want], (ply, u.uid, empty)
                ghost = u.copy()  # the same end cells, another mover
                ghost.uid = f"ghost_{u.uid}"
                named = player._move_actions(state, ghost, steps)
                assert [a.args[0] for a in named] == ([ghost.uid] * len(want) if verb == "minion"
                                                      else [hex_id(h) for h in want])
                ghosts += verb == "minion"
                checked += 1
        seat = rng.choice(state.actors())
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    assert checked > 300
    assert ghosts > 20


def _record(lay: _Layout) -> tuple[object, ...]:
    return (lay.ids, lay.where, lay.occ, lay.by_side, lay.blocking, lay.crowded, lay.nohp)


def test_issue23_layout_record_made_from_the_last_equals_reading_every_figure() -> None:
    """R-MOV-2/3/5 (sixth session): after every action of random six-seat games (and a
    solo one), the searches' record of the layout (who stands where, the occupancy and side
    masks, the blocking tiles) equals the record read afresh from every figure, though most
    records are made from the one before by moving the figures that stepped
    (`Board.moved(who)`, `movement._moved_layout`); a clone that plays on keeps its own
    record right and leaves the original's unchanged, and its legal actions equal those of
    the same position rebuilt from JSON (no memo, no record)."""
    derived = 0
    compared = 0
    made = movement._moved_layout
    counted: list[int] = []

    def counting(*args: Any) -> Any:
        counted.append(1)
        return made(*args)

    movement._moved_layout = counting  # type: ignore[assignment]
    try:
        for players, seed in ((6, 11), (6, 12), (1, 13)):
            state, rng = _random_state(players, seed)
            grid = movement._grid(state.cells)
            ply = 0
            while not state.is_terminal() and ply < 500:
                ply += 1
                seat = rng.choice(state.actors())
                state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
                if state.board.phase == "pick":
                    continue
                assert _record(movement._layout(state, grid)) == _record(movement._read_layout(state, grid)), ply
                compared += 1
                if ply % 50 == 0 and not state.is_terminal():
                    twin = state.clone()
                    assert isinstance(twin, ArenaState)
                    before = _record(movement._layout(state, grid))
                    for _ in range(12):
                        if twin.is_terminal():
                            break
                        s = rng.choice(twin.actors())
                        twin.apply_unchecked(rng.choice(twin.legal_actions(s)), s)
                        assert _record(movement._layout(twin, grid)) == _record(movement._read_layout(twin, grid))
                    assert _record(movement._layout(state, grid)) == before
                    fresh = twin.game.state_from_json(twin.to_json())
                    for s in twin.actors():
                        assert twin.legal_actions(s) == fresh.legal_actions(s)
        derived = len(counted)
    finally:
        movement._moved_layout = made
    assert compared > 800
    assert derived > compared // 3


def test_issue23_layout_record_from_the_last_falls_back_when_two_share_a_hex() -> None:
    """The record made from the last one is exact or not made: a figure stepping onto
    another's hex (never in play; a scenario may) gives no record (the layout is read
    afresh, the last on the hex named there as `World.occupied` does), and neither does a
    record that had two figures on one hex."""
    state, rng = _random_state(6, 14)
    while state.board.phase != "turns":
        seat = rng.choice(state.actors())
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    grid = movement._grid(state.cells)
    base = movement._layout(state, grid)
    figures = [u for u in state.board.units.values() if u.alive and u.hex is not None]
    a, b = figures[0], figures[1]
    a.hex = b.hex
    state.board.moved(a)
    assert movement._moved_layout(state, grid, base, [a.uid]) is None
    crowded = movement._layout(state, grid)
    assert crowded.crowded
    assert _record(crowded) == _record(movement._read_layout(state, grid))
    assert b.hex is not None
    assert crowded.ids[b.hex] == max((a, b), key=lambda f: list(state.board.units).index(f.uid)).uid
    assert movement._moved_layout(state, grid, crowded, [b.uid]) is None


def test_issue23_layout_record_from_the_last_is_read_afresh_after_any_other_change() -> None:
    """R-WIN-2, R-MIN-2 (sixth session): a figure stepping says who moved
    (`effects.enter`); a fall (`effects.eliminate`: the figure, its minions, its tiles) says
    nothing, and the record after both is read afresh: it equals reading every figure, with
    the fallen gone and the stepper on its new hex."""
    state, rng = _random_state(6, 15)
    while not (state.board.phase == "turns" and state.board.pending is None):
        seat = rng.choice(state.actors())
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    grid = movement._grid(state.cells)
    movement._layout(state, grid)
    champions = [u for u in state.board.units.values() if u.kind == "champion" and u.alive and u.hex is not None]
    stepper, fallen = champions[0], champions[1]
    assert stepper.hex is not None
    free = next(n for n in neighbours(stepper.hex) if n in state.cells and state.occupant(n) is None)
    effects.enter(state, stepper, free)
    assert state.board.touched == [stepper.uid]
    effects.eliminate(state, fallen, "a test")
    lay = movement._layout(state, grid)
    assert _record(lay) == _record(movement._read_layout(state, grid))
    assert fallen.uid not in lay.where
    assert lay.where[stepper.uid] == free


def test_issue23_a_summoners_offered_attack_actions_by_masks_equal_the_plain_range_search() -> None:
    """R-ATT-6..9, R-ATT-12 (sixth session): the act stage's `attack` actions of every
    Champion, a summoner's decided by the disk of each option's Range around its space and
    each of its minions against the enemies' spaces (`movement.foes_mask`) where the masks
    can say it, equal the plain search over origins and enemies: the figures put on random
    hexes (some beyond the wall, some off the board, two on one hex now and then), a minion
    of the same kind summoned by another figure (no origin of the first), minions with no
    Hit Points left out as targets, the rank and the Range changed; layout records made
    afresh and from the last one."""
    state, rng = _random_state(6, 16)
    while not (state.board.phase == "turns" and state.board.pending is None):
        seat = rng.choice(state.actors())
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    champions = [u for u in state.board.units.values() if u.kind == "champion"]
    summoners = [u for u in champions if any(a.origin != "self" for a in attack.attacks_of(state, u))]
    assert summoners
    for u in summoners:
        minion = next(m for m in state.board.units.values() if m.kind == "minion" and m.summoner == u.uid)
        stray = minion.copy()
        stray.uid = f"stray_{minion.uid}"
        stray.summoner = next(o.uid for o in champions if o is not u)
        stray.side = state.unit(stray.summoner).side
        state.board.units[stray.uid] = stray
    cells = sorted(state.cells)
    outside = sorted({n for c in cells for n in neighbours(c)} - state.cells)
    by_masks = 0

    def mine(u: Unit) -> tuple[tuple[str, str, int], ...]:  # what `turn_actions` passes
        return player._minions_of(state, u.uid) if player._champion_table(state, u.content_id)[3] else ()

    for trial in range(200):
        for f in state.board.units.values():
            f.alive = f.kind != "minion" or rng.randbelow(5) > 0
            roll = rng.randbelow(16)
            f.hex = None if roll == 0 else rng.choice(outside) if roll == 1 and trial % 3 == 0 else rng.choice(cells)
        if trial % 5 == 0:  # two on one hex
            champions[0].hex = champions[1].hex
        state.board.moved()
        for u in champions:
            u.rolled_category = ("singles", "doubles", "triples")[(trial + len(u.uid)) % 3]
            u.mods = {"range": rng.randbelow(3) - 1} if trial % 2 else {}
            if u.hex is None:
                continue
            want = [act("attack", a.id) for a in _plain_offered(state, u)]
            assert player._offered_actions(state, u, mine(u)) == want, (trial, u.uid)
            by_masks += u in summoners and movement.foes_mask(state, u.side) is not None
            if trial % 4 == 1 and u.hex in state.cells:  # a record made from the last one
                step = next((n for n in neighbours(u.hex) if n in state.cells and state.occupant(n) is None), None)
                if step is not None:
                    effects.enter(state, u, step)
                    want = [act("attack", a.id) for a in _plain_offered(state, u)]
                    assert player._offered_actions(state, u, mine(u)) == want, (trial, u.uid, "stepped")
    assert by_masks > 150


def test_issue23_a_summoners_minions_per_roster_equal_the_plain_pass() -> None:
    """R-MIN-5, R-MIN-2 (sixth session): a summoner's minions on the board, kept per roster
    (`movement.roster`: one table while only spaces change), equal the pass over every
    figure after every action of random six-seat games; a minion stepping keeps the table,
    a minion destroyed (A47) or a figure taken off the board gives a new one."""
    compared = 0

    def plain(state: ArenaState, uid: str) -> tuple[tuple[str, str, int], ...]:
        return tuple(sorted((m.uid, "minion:" + m.uid, state.content.minion(m.content_id).movement)
                            for m in state.board.units.values()
                            if m.kind == "minion" and m.summoner == uid and m.alive and m.hex is not None))

    for seed in (21, 22):
        state, rng = _random_state(6, seed)
        summoners = [u.uid for u in state.board.units.values()
                     if any(m.kind == "minion" and m.summoner == u.uid for m in state.board.units.values())]
        assert summoners
        ply = 0
        while not state.is_terminal() and ply < 700:
            ply += 1
            seat = rng.choice(state.actors())
            state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
            if state.board.phase in ("pick", "place"):
                continue
            for uid in summoners:
                assert player._minions_of(state, uid) == plain(state, uid), (seed, ply, uid)
                compared += 1
    assert compared > 1500
    state, rng = _random_state(6, 23)
    while not (state.board.phase == "turns" and state.board.pending is None):
        seat = rng.choice(state.actors())
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    minion = next(m for m in state.board.units.values() if m.kind == "minion" and m.alive and m.hex is not None)
    assert minion.summoner is not None
    assert minion.hex is not None
    table = movement.roster(state)
    before = player._minions_of(state, minion.summoner)
    step = next(n for n in neighbours(minion.hex) if n in state.cells and state.occupant(n) is None)
    effects.enter(state, minion, step)
    assert movement.roster(state) is table
    assert player._minions_of(state, minion.summoner) == before == plain(state, minion.summoner)
    effects.eliminate(state, minion, "a test")
    assert movement.roster(state) is not table
    assert player._minions_of(state, minion.summoner) == plain(state, minion.summoner) != before
    # a figure coming onto the board by a step of its own (named, so the record is made from
    # the last one) changes which figures stand there: a new table
    minion.alive = True
    minion.hex = None
    state.board.moved()
    off = movement.roster(state)
    assert player._minions_of(state, minion.summoner) == plain(state, minion.summoner)
    effects.enter(state, minion, step)
    assert state.board.touched == [minion.uid]
    assert movement.roster(state) is not off
    assert player._minions_of(state, minion.summoner) == plain(state, minion.summoner) == before
