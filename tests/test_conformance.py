"""One conformance suite over the whole registry (OpenSpiel games_sim_test, pgx api_test).

Every game, at every player count, must honour the contract the same way: seeded determinism,
clone independence, JSON round trips that continue identically, stable action texts, refusals
that leave the state untouched, observations that are JSON-safe, sane returns at the end.
"""

from __future__ import annotations

import json

import pytest

import bloodforge
from bloodforge.core import Action, ActionSyntaxError, IllegalAction, Rng, State

GAMES = [(g["id"], n) for g in bloodforge.list_games() for n in range(g["min_players"], g["max_players"] + 1)]


def random_playout(state: State, rng: Rng, check_every: int = 0, max_plies: int = 50_000) -> int:
    plies = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, f"no legal action at ply {plies} in {state}"
        assert len(set(legal)) == len(legal), "legal actions must be distinct"
        if check_every and plies % check_every == 0:
            check_state_contract(state, legal)
        useful = [a for a in legal if not a.is_cancel] or legal
        state.apply(rng.choice(useful))
        plies += 1
        assert plies < max_plies, "game did not end"
    return plies


def check_state_contract(state: State, legal: list[Action]) -> None:
    game = state.game
    # text forms round-trip through the parser
    for action in legal:
        assert game.parse_action(state, str(action)) == action
    # clone is equal and independent
    twin = state.clone()
    assert twin.digest() == state.digest()
    twin.apply(legal[0])
    assert twin.digest() != state.digest() or not legal
    # JSON round trip gives the same state and the same options
    data = json.loads(json.dumps(state.to_json()))
    again = game.state_from_json(data)
    assert again.digest() == state.digest()
    assert again.legal_actions() == legal
    # observations are JSON-safe for every seat and the spectator
    for seat in [None, *range(state.num_players)]:
        json.dumps(state.observation(seat))


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_conformance_random_playouts(game_id: str, players: int) -> None:
    for seed in range(3):
        game = bloodforge.load_game(game_id, players=players, seed=seed)
        state = game.new_initial_state()
        plies = random_playout(state, Rng(seed), check_every=37)
        assert state.is_terminal()
        assert state.current_player is None
        assert state.legal_actions() == []
        returns = state.returns()
        assert len(returns) == players
        assert abs(sum(returns) - 1.0) < 1e-9
        assert all(0.0 <= r <= 1.0 for r in returns)
        assert len(state.scores()) == players
        assert len(state.history) == plies
        with pytest.raises(IllegalAction, match="over"):
            state.apply(Action("done"))


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_conformance_replay_reproduces_digest(game_id: str, players: int) -> None:
    game = bloodforge.load_game(game_id, players=players, seed=11)
    state = game.new_initial_state()
    random_playout(state, Rng(5))
    replay = game.new_initial_state()
    for text in state.history:
        replay.apply(text)
    assert replay.digest() == state.digest()
    # a second game object with the same parameters and seed is the same game
    twin = bloodforge.load_game(game_id, players=players, seed=11).new_initial_state()
    for text in state.history:
        twin.apply_unchecked(twin.game.parse_action(twin, text))
    assert twin.digest() == state.digest()


@pytest.mark.parametrize(("game_id", "players"), GAMES[:: max(1, len(GAMES) // 6)])
def test_conformance_json_round_trip_continues_identically(game_id: str, players: int) -> None:
    game = bloodforge.load_game(game_id, players=players, seed=3)
    state = game.new_initial_state()
    rng = Rng(1)
    for _ in range(120):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    restored = game.state_from_json(json.loads(json.dumps(state.to_json())))
    a_rng, b_rng = Rng(77), Rng(77)
    random_playout(state, a_rng)
    random_playout(restored, b_rng)
    assert restored.digest() == state.digest()


@pytest.mark.parametrize("game_id", sorted({g for g, _ in GAMES}))
def test_conformance_bad_input_leaves_state_untouched(game_id: str) -> None:
    game = bloodforge.load_game(game_id, players=next(n for g, n in GAMES if g == game_id), seed=2)
    state = game.new_initial_state()
    before = state.digest()
    for text in ["", "   ", "no_such_verb", "no_such_verb 1 2 3", "\x00", "done done done done done done"]:
        with pytest.raises(ActionSyntaxError):
            state.apply(text)
        assert state.digest() == before
    # a well-formed action that is legal somewhere later in the game but not now
    legal = set(state.legal_actions())
    later = state.clone()
    rng = Rng(3)
    foreign = None
    while foreign is None and not later.is_terminal():
        later.apply(rng.choice(later.legal_actions()))
        foreign = next((a for a in later.legal_actions() if a not in legal), None)
    assert foreign is not None
    with pytest.raises(IllegalAction) as info:
        state.apply(str(foreign))
    assert str(foreign) in str(info.value)
    assert state.digest() == before
    with pytest.raises(IllegalAction):
        state.apply(foreign)
    assert state.digest() == before
    with pytest.raises(ActionSyntaxError):
        state.apply(123)  # type: ignore[arg-type]
    assert state.digest() == before


@pytest.mark.parametrize("game_id", sorted({g for g, _ in GAMES}))
def test_conformance_observation_seat_is_validated(game_id: str) -> None:
    game = bloodforge.load_game(game_id, players=next(n for g, n in GAMES if g == game_id), seed=2)
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="seat"):
        state.observation(game.num_players)
    with pytest.raises(ValueError, match="seat"):
        state.observation(-1)


@pytest.mark.parametrize("game_id", sorted({g for g, _ in GAMES}))
def test_conformance_resample_hidden_keeps_what_the_seat_sees(game_id: str) -> None:
    game = bloodforge.load_game(game_id, players=next(n for g, n in GAMES if g == game_id), seed=4)
    state = game.new_initial_state()
    rng = Rng(9)
    for step in range(400):
        if state.is_terminal():
            break
        if step % 40 == 0:
            seat = state.current_player
            sample = state.resample_hidden(seat, Rng(step))
            assert sample.observation(seat) == state.observation(seat)
            assert sample.legal_actions() == state.legal_actions()
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("game_id", sorted({g for g, _ in GAMES}))
def test_conformance_event_log_is_the_whole_readable_log(game_id: str) -> None:
    """event_log(seat) is at least as long as the public log and never shows others' private lines."""
    players = next(n for g, n in GAMES if g == game_id)
    game = bloodforge.load_game(game_id, players=players, seed=6)
    state = game.new_initial_state()
    rng = Rng(2)
    for _ in range(150):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    public = state.event_log(None)
    assert public, "a game in progress has logged something"
    for seat in range(players):
        mine = state.event_log(seat)
        assert len(mine) >= len(public)  # a private line may replace or add to a public one
        others_private = set().union(*(set(state.event_log(s)) - set(public) for s in range(players) if s != seat))
        assert not (set(mine) - set(public)) & others_private
