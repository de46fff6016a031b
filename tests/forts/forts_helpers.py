"""Helpers for the Five Forts tests: scenario positions in a few lines, quick queries.

The 2-player map (seat 0 Red at redhall, top left; seat 1 Green at greenhall, bottom right):

    redhall    copperdale ashgate     frostwall oatfield  bluehall
    wheatfield ironkeep   silverbrook heathland stormkeep goldvale
    thornwall  moorland   greymere    bluemere  coinbrook stonegate
    sandgate   pennybrook goldmere    greenmere marshland fernwall
    brassdale  sunkeep    scrubland   mintbrook wolfkeep  ryefield
    goldhall   cornfield  dunewall    oakgate   tinvale   greenhall

Homes (great forts, currency, food): the corners. Great forts: ironkeep, stormkeep, wolfkeep,
sunkeep. Forts: ashgate, frostwall, stonegate, fernwall, oakgate, dunewall, sandgate,
thornwall. Currency: copperdale, silverbrook, goldvale, coinbrook, tinvale, mintbrook,
brassdale, pennybrook. Food: wheatfield, oatfield, ryefield, cornfield and the four seas
(greymere, bluemere, greenmere, goldmere). No feature: moorland, heathland, marshland, scrubland.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import bloodforge
from bloodforge.games.forts.game import FortsState
from bloodforge.games.forts.model import EMPTY, INDEPENDENT
from bloodforge.games.forts.rules import forts_of, over_quota, units_of


def army(owner: int | str, infantry: int = 0, cavalry: int = 0) -> dict[str, Any]:
    return {"owner": owner, "infantry": infantry, "cavalry": cavalry}


def scenario(
    territories: dict[str, dict[str, Any]] | None = None,
    *,
    players: int = 2,
    base: str = "empty",
    turn_seat: int = 0,
    phase: str = "planning",
    currency: list[int] | None = None,
    hands: list[list[str]] | None = None,
    dice: list[int] | None = None,
    deck: list[str] | None = None,
    rig_chronicles: list[str] | None = None,
    params: dict[str, Any] | None = None,
    seed: int = 0,
    **position: Any,
) -> FortsState:
    pos: dict[str, Any] = {"base": base, "turn_seat": turn_seat, "phase": phase,
                           "territories": territories or {}, **position}
    if currency is not None:
        pos["currency"] = currency
    if hands is not None:
        pos["hands"] = hands
    state = bloodforge.load_scenario({
        "game": "forts", "seed": seed, "params": {"players": players, **(params or {})},
        "position": pos, "rig": {"dice": dice or [], "deck": deck or [], "chronicles": rig_chronicles or []},
    })
    assert isinstance(state, FortsState)
    return state


def terr(state: FortsState, tid: str) -> dict[str, Any]:
    obs = state.observation(None)
    return next(t for t in obs["territories"] if t["id"] == tid)


def units_at(state: FortsState, tid: str) -> tuple[int, int]:
    t = terr(state, tid)
    return t["infantry"], t["cavalry"]


def legal_texts(state: FortsState, seat: int | None = None) -> list[str]:
    return [str(a) for a in state.legal_actions(seat)]


def last_event(state: FortsState, kind: str) -> Any:
    return next(e for e in reversed(list(state.events)) if e.kind == kind)


def check_invariants(state: FortsState) -> None:
    m, c = state.m, state.cfg.content
    for t in range(c.size):
        assert all(x >= 0 for x in m.units[t]), f"negative units at {c.ids[t]}"
        assert (m.owner[t] == EMPTY) == (sum(m.units[t]) == 0), f"owner and units disagree at {c.ids[t]}"
        assert m.owner[t] == EMPTY or m.owner[t] == INDEPENDENT or 0 <= m.owner[t] < m.players
    assert all(x >= 0 for x in m.currency)
    cards = Counter(m.deck.pile) + Counter(m.deck.discards)
    for hand in m.hands:
        assert len(hand) <= c.data.hand_limit
        cards += Counter(hand)
    if m.battle is not None:
        for committed in m.battle.committed.values():
            cards += Counter(committed)
    assert cards == Counter(c.deck), "hero cards are neither created nor lost"
    actors = state.actors()
    if m.battle is None and state.phase_name() != "disband":
        assert not any(over_quota(m, c, s) for s in range(m.players)), "over quota outside a disband"
    for s in range(m.players):
        if m.eliminated[s]:
            assert units_of(m, s) == 0
        elif m.battle is None and m.phase != "over":
            assert (forts_of(m, c, s) >= c.data.forts_to_win) == (m.held_since[s] is not None)
        if state.rule_clock(s) is not None:
            assert s == m.turn_seat
            assert state.phase_name() == "planning"
            assert actors == [s]
