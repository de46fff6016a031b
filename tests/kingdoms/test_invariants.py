
"""Invariants checked after every action of long random playouts (all player counts, teams)."""

from __future__ import annotations

import json

import pytest

import bloodforge
from bloodforge.core import Rng
from bloodforge.games.kingdoms import KingdomsState
from bloodforge.games.kingdoms.board import allied, cargo, cls, gems, income, supply

from .helpers import fresh


def check(s: KingdomsState) -> None:
    c = s.content
    units = c.units.units
    assert sum(gems(s, f) for f in range(4)) <= 15
    for f in range(4):
        assert s.treasury[f] >= 0
        for kind, u in units.items():
            if u.cls != "common":
                assert sum(1 for p in s.pieces.values() if p.faction == f and p.kind == kind and not p.merc) <= u.pool
        if s.pending < 0 and not s.out[f] and any(p.faction == f for p in s.pieces.values()):
            assert supply(s, f) <= max(income(s, f), c.units.mercenary_supply * len(s.hands[f])), "K108"
    for t in range(len(c.ids)):
        if c.is_sea[t]:
            assert s.owner[t] == -1
            assert not s.castle[t]
            assert not s.port[t]
    for cap in c.capital:
        assert s.castle[cap], "K23: a printed capital is never destroyed"
    for p in s.pieces.values():
        k = cls(s, p.kind)
        assert k != "common" or p.at == -1, "castles and ports are pieces only while set aside"
        if p.merc:
            assert s.battle is not None
            assert p.at == s.battle.space
        if p.aboard >= 0:
            ship = s.pieces[p.aboard]
            assert ship.kind == "ship"
            assert ship.at == p.at
            assert k == "land"
        if p.kind == "ship" and p.at >= 0:
            assert c.is_sea[p.at]
            assert len(cargo(s, p)) <= c.units.ship_capacity
        if p.at >= 0 and not c.is_sea[p.at]:
            assert k in ("land", "air")
        if p.at >= 0 and c.is_sea[p.at] and p.aboard < 0:
            assert p.kind == "ship" or (k == "air" and p.faction == s.active), "air units at sea only in its turn"
    # outside the active faction's combat, different non-allied factions never share a space
    if s.phase in ("purchase",) and s.battle is None:
        at: dict[int, set[int]] = {}
        for p in s.pieces.values():
            if p.at >= 0:
                at.setdefault(p.at, set()).add(p.faction)
        for fs in at.values():
            assert len(fs) == 1 or all(allied(s, a, b) for a in fs for b in fs)
        for p in s.pieces.values():
            if p.at >= 0 and not c.is_sea[p.at]:
                assert s.owner[p.at] == p.faction, "between turns units stand in their own territories"
    if s.over:
        assert s.winners
    # the rules take "the lowest-numbered piece" by iterating the dict: it must stay in id order
    assert list(s.pieces) == sorted(s.pieces)
    # K58-K60, A36: every stack face up now is known. The rules skip the fog-of-war update after
    # actions that cannot reveal anything (speed, issue 23); this recomputes it from scratch
    assert face_up(s) <= s.known, "a stack facing an enemy is not recorded as seen"


def face_up(s: KingdomsState) -> set[int]:
    """Pieces in a space where another team stands in that space or next to it (plain rules text)."""
    if not s.game.params.fog:
        return set(s.pieces)
    teams_at: dict[int, set[int]] = {}
    for p in s.pieces.values():
        if p.at >= 0:
            teams_at.setdefault(p.at, set()).add(s.teams[p.faction])
    out = set()
    for p in s.pieces.values():
        if p.at < 0:
            continue
        near = set(teams_at[p.at])
        for n in s.content.adj[p.at]:
            near |= teams_at.get(n, set())
        if near - {s.teams[p.faction]}:
            out.add(p.id)
    return out


@pytest.mark.parametrize(("players", "teams", "seed"), [(4, False, 1), (4, True, 2), (3, False, 3), (2, False, 4)])
def test_invariants_hold_after_every_action_of_random_playouts(players: int, teams: bool, seed: int) -> None:
    game = bloodforge.load_game("kingdoms", players=players, teams=teams, seed=seed, max_rounds=20)
    s = game.new_initial_state()
    assert isinstance(s, KingdomsState)
    rng = Rng(seed)
    plies = 0
    battles = 0
    while not s.is_terminal():
        check(s)
        seat = s.actors()[0]
        legal = s.legal_actions(seat)
        assert legal
        assert len(set(legal)) == len(legal)
        # lean towards ending phases less often, so armies grow and fight
        a = rng.choice(legal)
        battles += a.kind == "fight"
        s.apply(a, seat)
        plies += 1
        if plies % 211 == 0:
            again = game.state_from_json(json.loads(json.dumps(s.to_json())))
            assert again.position_digest() == s.position_digest()
    check(s)
    assert battles > 0


def test_random_playouts_end_with_sane_returns_in_every_seating() -> None:
    for players in (2, 3, 4):
        s = fresh(players=players, seed=players, max_rounds=5)
        rng = Rng(players)
        while not s.is_terminal():
            seat = s.actors()[0]
            s.apply(rng.choice(s.legal_actions(seat)), seat)
        assert abs(sum(s.returns()) - 1) < 1e-9
        assert len(s.scores()) == players
