"""Starting The Game: player order, factions, citadels, Build Points, the Chaos Horde, hands."""

from __future__ import annotations

import itertools
import re

import pytest

import bloodforge
from bloodforge.games.bloodstones.content import Board
from bloodforge.games.bloodstones.game import BloodstonesState
from bloodforge.games.bloodstones.model import Phase

from .helpers import check_invariants, legal, legal_of, run, set_hand


def _new(players: int, seed: int = 1, **params: object) -> BloodstonesState:
    st = bloodforge.load_game(
        "bloodstones", players=players, seed=seed, **params
    ).new_initial_state()
    assert isinstance(st, BloodstonesState)
    return st


@pytest.mark.parametrize("seed", range(12))
def test_setup_player_order_highest_two_battle_tile_total_goes_first(seed: int) -> None:
    st = _new(4, seed, factions=["horse_lords", "hill_folk", "dragon_riders", "necromancers"])
    draws = [line for line in st.event_log(None) if line.startswith("Player order draw")]
    assert draws
    totals = [{int(s): int(t) for s, t in re.findall(r"P(\d) (\d+)", line)} for line in draws]
    for t in totals:
        assert all(4 <= v <= 10 for v in t.values())  # two tiles of 2..5
    # each redraw is among exactly the players tied for the best total
    for before, after in itertools.pairwise(totals):
        best = max(before.values())
        assert set(after) == {s for s, v in before.items() if v == best}
        assert len(set(after)) > 1
    last = totals[-1]
    first = max(last, key=lambda s: last[s])
    assert list(last.values()).count(last[first]) == 1
    assert st.order[0] == first
    # clockwise from the first player
    assert st.order == [(first + i) % 4 for i in range(4)]


def test_setup_faction_choice_in_turn_order_from_first_player() -> None:
    st = _new(3, 5, choose_factions=True)
    assert st.phase is Phase.CHOOSE_FACTION
    chosen = []
    for expected in st.order:
        assert st.current_player == expected
        action = sorted(legal(st))[0]
        chosen.append(action.split()[1])
        run(st, action)
        assert chosen[-1] not in {a.split()[1] for a in legal_of(st, "faction")}
    assert st.factions == [chosen[st.order.index(s)] for s in range(3)]
    assert st.phase is Phase.PLACE_CITADEL


@pytest.mark.parametrize(
    ("players", "allowed"),
    [
        (2, {"dragon_riders", "horse_lords", "hill_folk", "necromancers"}),
        (3, {"dragon_riders", "horse_lords", "hill_folk", "necromancers", "corsairs"}),
        (
            4,
            {
                "dragon_riders",
                "horse_lords",
                "hill_folk",
                "necromancers",
                "corsairs",
                "chaos_horde",
            },
        ),
    ],
)
def test_setup_recommended_factions_by_player_count(players: int, allowed: set[str]) -> None:
    st = _new(players, 2, choose_factions=True)
    assert {a.split()[1] for a in legal_of(st, "faction")} == allowed
    for seed in range(8):  # factions drawn by the seed stay within the recommendations
        drawn = _new(players, seed)
        assert {f for f in drawn.factions if f} <= allowed
        assert len(set(drawn.factions)) == players


def test_setup_unrecommended_factions_allowed_on_request() -> None:
    st = _new(2, 2, choose_factions=True, allow_unrecommended=True)
    assert {"faction corsairs", "faction chaos_horde"} <= legal_of(st, "faction")


def test_setup_nine_tile_opening_hands_from_bags_undead_kept_aside() -> None:
    st = _new(2, 4, factions=["necromancers", "horse_lords"])
    for seat in range(2):
        assert st.hand_size(seat) == 9
        assert len(st.bags[seat]) == 27
        assert "undead" not in st.hands[seat]
    assert st.undead_pool == [4, 0]
    assert st.vp == [0, 0]
    assert st.village_supply == [20, 20]


def test_setup_citadels_placed_in_reverse_player_order_then_chaos_horde_last() -> None:
    st = _new(4, 5, factions=["chaos_horde", "horse_lords", "hill_folk", "corsairs"])
    normal = [s for s in reversed(st.order) if s != 0]
    placed = []
    while (
        st.phase is not Phase.CAPTURE
        and st.phase is not Phase.MAIN
        and st.phase is not Phase.UNDEAD
    ):
        seat = st.current_player
        assert seat is not None
        if st.phase is Phase.PLACE_CITADEL:
            placed.append(seat)
            assert 0 not in placed  # the Horde has no citadel
        if st.phase is Phase.PLACE_HORDE:
            assert seat == 0
            assert placed == normal  # every citadel is down before the Horde chooses
            placed.append(seat)
        run(st, sorted(legal(st))[0] if st.phase is not Phase.SETUP_BUILD else "done")
    assert placed == [*normal, 0]
    assert st.active == st.order[0]


def test_setup_citadel_at_least_three_borders_from_other_citadels(map1: Board) -> None:
    st = _new(2, 1, factions=["horse_lords", "hill_folk"])
    first = st.current_player
    assert first == st.order[-1]
    options = {int(a.split()[1]) for a in legal_of(st, "citadel")}
    assert options == {a for a, t in map1.terrain.items() if t in ("plains", "forest", "hills")}
    run(st, "citadel 27", "done")
    assert st.current_player == st.order[0]
    options = {int(a.split()[1]) for a in legal_of(st, "citadel")}
    dist = map1.graph.distances_from(27)
    assert options == {
        a for a, t in map1.terrain.items() if t in ("plains", "forest", "hills") and dist[a] >= 3
    }
    # 29 is two borders away by land (27-28-29), 36 by sea (27-35-36): seas count (ruling 1)
    assert 37 in options
    assert 29 not in options
    assert 36 not in options


def test_setup_five_build_points_cost_per_block_and_free_units() -> None:
    st = _new(2, 1, factions=["hill_folk", "horse_lords"])
    seat = st.current_player
    assert seat is not None
    assert st.factions[seat] == "horse_lords"
    set_hand(st, seat, {"leader": 2, "cavalry": 1, "skirmishers": 3, "ship": 1, "resources": 2})
    run(st, "citadel 27")
    assert st.build_points == 5
    options = legal_of(st, "build")
    assert "build resources 27" not in options  # no unit on the tile
    assert {"build ship 8", "build ship 25", "build ship 35"} <= options  # ships in adjacent seas
    assert "build ship 27" not in options
    run(st, "build leader 27", "build leader 27")
    assert st.build_points == 1
    assert "build cavalry 27" not in legal(st)  # two blocks, one point left
    run(st, "build ship 35", "build skirmishers 27", "build skirmishers 27", "build skirmishers 27")
    assert st.build_points == 0
    assert st.units_at(27, seat) == {"citadel": 1, "leader": 2, "skirmishers": 3}
    assert st.units_at(35, seat) == {"ship": 1}
    assert st.discards[seat] == {}  # Build Points, not discards, pay at set-up
    run(st, "done")
    # refill to hand size (seven for the Horse Lords): three tiles left, four drawn
    assert st.hand_size(seat) == 7
    check_invariants(st)


def test_setup_hand_of_more_than_hand_size_is_kept() -> None:
    st = _new(2, 1, factions=["dragon_riders", "hill_folk"])
    seat = st.current_player
    assert seat is not None
    run(st, "citadel 27", "done")
    assert st.hand_size(seat) == 9  # nothing built: all nine kept, none drawn


def test_setup_chaos_horde_start_area_not_within_two_of_a_citadel(map1: Board) -> None:
    st = _new(4, 5, factions=["chaos_horde", "horse_lords", "hill_folk", "corsairs"])
    citadels = []
    while st.phase is Phase.PLACE_CITADEL or st.phase is Phase.SETUP_BUILD:
        if st.phase is Phase.PLACE_CITADEL:
            action = sorted(legal(st))[0]
            citadels.append(int(action.split()[1]))
            run(st, action)
        else:
            run(st, "done")
    assert st.phase is Phase.PLACE_HORDE
    options = {int(a.split()[1]) for a in legal_of(st, "start")}
    expected = {
        a
        for a, t in map1.terrain.items()
        if t in ("plains", "forest", "hills")
        and all(
            map1.graph.distance(a, c) is not None and map1.graph.distance(a, c) >= 3
            for c in citadels
        )  # type: ignore[operator]
    }
    assert options == expected
    area = min(options)
    coast = [s for s in map1.neighbours[area] if map1.is_sea(s)]
    set_hand(st, 0, {"hordes": 3, "cavalry": 2, "leader": 1, "ship": 1, "resources": 2})
    run(st, f"start {area}")
    assert st.build_points == 5
    assert {f"build ship {s}" for s in coast} <= legal_of(st, "build")
    run(st, f"build cavalry {area}", f"build leader {area}", f"build hordes {area}")
    assert st.build_points == 2  # Horde cavalry cost one block
    assert st.units_at(area, 0) == {"cavalry": 1, "leader": 1, "hordes": 1}
    assert st.citadel_area(0) is None
    assert st.vp[0] == 10  # the Chaos Horde start with 10 VP
    run(st, "done")
    assert st.phase in (Phase.CAPTURE, Phase.MAIN, Phase.UNDEAD)
    assert st.active == st.order[0]
