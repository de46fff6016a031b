"""Issue 23: the fast paths of the Bloodstones engine agree with the plain ones.

*Why:* the main-action listings are built in text order instead of sorted, movement searches
are shared between positions with the same units, and a `cancel` gives back the listing of the
position it restores. Each of these must offer exactly what the plain rules offer; a state
rebuilt from JSON must share nothing with the state it came from.
"""

from __future__ import annotations

import json

import bloodforge
from bloodforge.core import Rng
from bloodforge.games.bloodstones import rules
from bloodforge.games.bloodstones.game import BloodstonesState

from .helpers import make, start_battle


def _random_states(players: int, seed: int, every: int) -> list[BloodstonesState]:
    """Every `every`-th position of one uniformly random game, cloned."""
    state = bloodforge.load_game("bloodstones", players=players, seed=seed).new_initial_state()
    assert isinstance(state, BloodstonesState)
    rng = Rng(seed)
    out = []
    ply = 0
    while not state.is_terminal():
        if ply % every == 0:
            out.append(state.clone())
        state.apply_unchecked(rng.choice(state.legal_actions()))
        ply += 1
    return out


def test_issue23_main_action_listings_built_in_order_equal_the_sorted_plain_listing() -> None:
    seen = set()
    for players, seed in ((2, 3), (5, 4)):
        for st in _random_states(players, seed, 3):
            st.legal_memo = None
            st.reach_cache = {}
            fast = rules.legal_actions(st)
            plain = rules._sorted_unique(rules._legal(st))
            assert [str(a) for a in fast] == [str(a) for a in plain]
            p = st.pending
            seen.add("main" if p is None else p.kind + (" group" if p.group else ""))
    assert {"main", "move", "move group"} <= seen


def test_issue23_cancel_restores_the_listing_of_the_position_it_returns_to() -> None:
    for st in _random_states(3, 5, 2):
        if st.pending is not None or st.battle is not None or not st.legal_actions():
            continue
        before = [str(a) for a in st.legal_actions()]
        moves = [a for a in st.legal_actions() if a.kind == "move"]
        if not moves:
            continue
        st.apply(moves[-1])
        tos = [a for a in st.legal_actions() if a.kind == "to"]
        if tos:
            st.apply(tos[0])
        st.apply("cancel")
        assert [str(a) for a in st.legal_actions()] == before
        st.legal_memo = None
        assert [str(a) for a in st.legal_actions()] == before  # and it is what the rules say


def test_issue23_state_rebuilt_from_json_shares_no_battle_with_the_original() -> None:
    """A rebuilt state took the original's battle lists (tiles, decisions) as its own: playing
    it on changed the original's battle."""
    st = make(["dragon_riders", "horse_lords"], units=[(22, 0, {"swords": 1}), (22, 1, {"swords": 1})],
              hands=[{"skirmishers": 1, "resources": 1}, {"skirmishers": 1, "resources": 1}],
              attacker_tiles=[2, 2, 3], defender_tiles=[5, 4, 4])
    start_battle(st, 22, 1)
    assert st.battle is not None
    assert st.battle.step == "substitute"
    before = json.dumps(st.to_json(), sort_keys=True)
    fresh = st.game.state_from_json(st.to_json())
    fresh.apply("substitute resources")
    assert json.dumps(st.to_json(), sort_keys=True) == before


def test_issue23_desert_losses_logged_in_area_order_live_and_restored() -> None:
    """Draw Tiles, desert attrition: a live game logged its desert losses in the order its
    stacks were placed, a restored one in area order (seen as a different log after a JSON
    round trip); both now log them by area."""
    st = make(["horse_lords", "hill_folk"], hands=[{}, {}], phase="construct_villages",
              units=[(73, 0, {"swords": 1}), (71, 0, {"shields": 1}), (60, 1, {"citadel": 1})])
    fresh = st.game.state_from_json(st.to_json())
    for s in (st, fresh):
        s.apply("done")
    lost = [line for line in st.event_log(None) if "in the desert" in line]
    assert [line.rsplit(" ", 1)[1] for line in lost] == ["71", "73"]
    assert fresh.event_log(None) == st.event_log(None)
