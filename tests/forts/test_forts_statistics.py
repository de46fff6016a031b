"""The lab's statistics of Five Forts (`FortsState.statistics`): whole greedy games, checked
against the final position, the opening position and the recorded history, so a count that
drifts from the rules (a lost log event, a unit counted twice) fails here."""

from __future__ import annotations

from collections import Counter

import pytest

import bloodforge
from bloodforge.games.forts.game import FortsState
from bloodforge.games.forts.model import INDEPENDENT, army_counts
from bloodforge.games.forts.rules import forts_of, units_of
from bloodforge.lab.selfplay import play_game


def _play(players: int, seed: int, timeout_rate: float = 0.0, **params: object) -> tuple[FortsState, FortsState]:
    """The opening position and the finished game of greedy self-play."""
    game = bloodforge.load_game("forts", players=players, seed=seed, **params)
    start = game.new_initial_state()
    _, state = play_game(game, ["greedy"], timeout_rate=timeout_rate)
    assert isinstance(start, FortsState)
    assert isinstance(state, FortsState)
    assert state.is_terminal()
    return start, state


def _per_seat(stats: dict[str, float], key: str) -> float:
    return sum(v for k, v in stats.items() if k.startswith(f"{key}."))


def _independent_units(state: FortsState) -> int:
    return sum(sum(army_counts(state.m.units[t])) for t, o in enumerate(state.m.owner) if o == INDEPENDENT)


# (2, 3): no timeouts; (4, 5): timeouts at 30% of planning decisions, bribes, disbanding and an
# elimination in this seed
CASES = [(2, 3, 0.0), (4, 5, 0.3)]


@pytest.mark.parametrize(("players", "seed", "timeout_rate"), CASES)
def test_statistics_count_what_the_recorded_history_did(players: int, seed: int, timeout_rate: float) -> None:
    """Every battle is one `roll`, every hero bought one `buy` and every card played one
    `hero` commitment (all are revealed), every bribe, declined offer, timeout and disbanded
    unit one recorded action."""
    _, state = _play(players, seed, timeout_rate)
    stats = state.statistics()
    verbs = Counter(text.split()[0] for text in state.history)
    assert stats["battles"] == verbs["roll"] > 0
    assert stats["heroes_bought"] == verbs["buy"] > 0
    assert stats["heroes_played"] == verbs["hero"] == _per_seat(stats, "heroes_played")
    assert stats["bribes"] == verbs["bribe"]
    assert stats["bribes_declined"] == verbs["pass"]
    assert stats["timeouts"] == verbs["timeout"]
    assert stats["units_disbanded"] == verbs["disband"]
    if timeout_rate:
        assert stats["timeouts"] > 0
        assert stats["bribes"] > 0
    assert stats["attacker_wins"] + stats["draws"] <= stats["battles"]
    assert stats["independents_beaten"] <= stats["battles_vs_independents"] <= stats["battles"]
    # every battle has a winner but a draw; a beaten independent army wins nothing for a seat
    defended_by_independents = stats["battles_vs_independents"] - stats["independents_beaten"]
    assert (stats["battles"] - stats["draws"] - defended_by_independents
            <= _per_seat(stats, "battles_won") <= stats["battles"] - stats["draws"])


@pytest.mark.parametrize(("players", "seed", "timeout_rate"), CASES)
def test_statistics_account_for_every_unit_and_every_coin(players: int, seed: int, timeout_rate: float) -> None:
    """The seats' units at the end are their starting units plus recruits, minus battle losses
    and disbanded units (bribes only move units between seats); independent armies only lose
    units; the currency at the end is the start plus income and the +1 per attacker's victory,
    minus hero cards bought and bribes paid."""
    start, state = _play(players, seed, timeout_rate)
    stats = state.statistics()
    m, c = state.m, state.cfg.content
    assert stats["units_recruited"] == stats["infantry_recruited"] + stats["cavalry_recruited"] > 0
    assert stats["units_recruited"] == _per_seat(stats, "units_recruited")
    units_at_start = sum(units_of(start.m, s) for s in range(players))
    units_at_end = sum(units_of(m, s) for s in range(players))
    assert units_at_end == (units_at_start + stats["units_recruited"] - stats["units_lost"]
                            - stats["units_disbanded"])
    assert _independent_units(state) == _independent_units(start) - stats["independent_units_destroyed"]
    # the opening state has already taken the first `begin` (with its income): count from the content
    opening = c.data.start.currency * players + sum(c.data.start.currency_by_turn_position[:players])
    assert sum(m.currency) == (opening + _per_seat(stats, "income") + stats["attacker_wins"]
                               - stats["heroes_bought"] * c.data.hero_price - stats["bribe_currency"])


@pytest.mark.parametrize(("players", "seed", "timeout_rate"), CASES)
def test_statistics_report_the_end_forts_held_and_turns_of_the_final_state(
    players: int, seed: int, timeout_rate: float
) -> None:
    _, state = _play(players, seed, timeout_rate)
    stats = state.statistics()
    m = state.m
    names = [n.lower() for n in state.seat_roles()]
    for s in range(players):
        assert stats[f"forts.{names[s]}"] == forts_of(m, state.cfg.content, s)
    ends = {k: v for k, v in stats.items() if k.startswith("end_")}
    assert sorted(ends.values()) == [0.0, 0.0, 1.0]
    assert m.end_reason.startswith("held") == (stats["end_forts"] == 1)
    assert stats["eliminations"] == sum(m.eliminated)
    holding = sum(1 for h in m.held_since if h is not None)
    assert stats["five_fort_holds"] - stats["five_fort_holds_broken"] == holding >= 1
    # a game won by 5 forts ends at the start of a turn that is not played
    assert stats["turns"] == m.turn_number - 1
    assert stats["rounds"] in (m.round, m.round - 1)


def test_a_game_stopped_by_the_round_cap_counts_every_round_and_turn() -> None:
    _, state = _play(3, 1, 0.3, max_rounds=3)
    stats = state.statistics()
    assert stats["end_cap"] == 1
    assert stats["end_forts"] == stats["end_last_standing"] == 0
    assert stats["rounds"] == 3
    assert stats["turns"] == 3 * 3 == state.m.turn_number - 1
    assert [stats[f"income.{n}"] > 0 for n in ("red", "blue", "green")] == [True, True, True]


@pytest.mark.parametrize(("players", "seed", "timeout_rate"), CASES)
def test_event_data_seen_by_other_seats_names_no_hidden_hero_card(
    players: int, seed: int, timeout_rate: float
) -> None:
    """Log data has the visibility of the text, and a private line's masked face shows its data
    too: purchases and commitments must not carry the card there."""
    _, state = _play(players, seed, timeout_rate)
    heroes = set(state.cfg.content.heroes)
    masked = [e for e in state.events if e.visible is not None and e.masked is not None]
    assert {e.kind for e in masked} >= {"buy", "hero"}
    for event in masked:
        for seat in range(players):
            view = event.view_for(seat)
            if not event.readable_by(seat) and view is not None:
                assert not heroes & {str(v) for v in view.get("data", {}).values()}, view
