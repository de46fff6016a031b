"""One conformance suite over the whole registry (OpenSpiel games_sim_test, pgx api_test).

Every game, at every player count, must honour the contract the same way: seeded determinism,
clone independence, JSON round trips that continue identically, stable action texts, refusals
that leave the state untouched, observations that are JSON-safe, sane returns at the end; who
may act (`actors()`), the game's own steps (recorded with seat None) and the host's timeouts
behave the same in every game. The test game Sealed Bids (tests/toy_bids.py) joins the registry
here so that simultaneous commitments, automatic steps and rules clocks are covered even before
a built-in game uses each of them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

import bloodforge
from bloodforge.core import Action, ActionSyntaxError, IllegalAction, Rng, State, register_game, unregister_game
from bloodforge.match import Record
from tests.toy_bids import BidsGame

GAMES = [(g["id"], n) for g in bloodforge.list_games() for n in range(g["min_players"], g["max_players"] + 1)]
GAMES += [("toy_bids", n) for n in range(2, 5)]
#: Games where a side without a seat (a boss) may win, so every seat can lose (returns all 0).
NPC_CAN_WIN = {"arena"}


@pytest.fixture(autouse=True, scope="module")
def _toy_game_registered() -> Iterator[None]:
    register_game(BidsGame)
    yield
    unregister_game(BidsGame.info.id)


def random_step(state: State, rng: Rng, timeout_rate: float = 0.1) -> int | None:
    """One random decision by a random actor (or, sometimes, the host's timeout of a seat whose
    rules clock runs); returns the seat that acted, None for the host."""
    actors = state.actors()
    assert actors, f"nobody may act in a running game: {state}"
    assert actors == sorted(set(actors)), "actors are distinct seats in seat order"
    assert all(0 <= s < state.num_players for s in actors)
    seat = rng.choice(actors)
    if state.rule_clock(seat) is not None and rng.random() < timeout_rate:
        state.apply_timeout(seat)
        return None
    legal = state.legal_actions(seat)
    assert legal, f"seat {seat} may act but has no legal action in {state}"
    assert len(set(legal)) == len(legal), "legal actions must be distinct"
    useful = [a for a in legal if not a.is_cancel] or legal
    state.apply(rng.choice(useful), seat)
    return seat


#: Contract checks between two that serialise the event log too (`check_state_contract`'s
#: `with_log`): the log only grows, so every event is still written, read back and digested at
#: a later check and at the end, while doing it at every check made long games quadratic
#: (Kingdoms at four players was the suite's slowest test; issue 23 item 5).
LOG_CHECK_EVERY = 4


def random_playout(state: State, rng: Rng, check_every: int = 0, max_plies: int = 50_000) -> int:
    plies = 0
    checks = 0
    while not state.is_terminal():
        if check_every and plies % check_every == 0:
            check_state_contract(state, with_log=checks % LOG_CHECK_EVERY == 0)
            checks += 1
        random_step(state, rng)
        plies += 1
        assert plies < max_plies, "game did not end"
    if check_every:  # the whole log, every event of the game, through JSON and back
        again = state.game.state_from_json(json.loads(json.dumps(state.to_json())))
        assert again.position_digest() == state.position_digest()
        assert again.digest() == state.digest()
    return plies


def without_log(state: State) -> str:
    """`to_json` but the event log, as canonical JSON: a clone's position, RNG and history.

    *Why:* `position_digest` serialises the whole event log, which grows with the game (half
    of the suite's slowest test went to recomputing it for every clone, issue 23 item 5). A
    clone is compared as this plus its log by value (`EventLog.__eq__`: the same events, field
    by field), which is what the digest compares; the original is still digested whole before
    and after its clones played, so a clone that changed an event object they share is seen."""
    data = state.game.record()
    data.update(rng=state.rng.state, history=list(state.history), history_seats=list(state.history_seats),
                position=state._position_json(), scenario=state.scenario)
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def check_state_contract(state: State, *, with_log: bool = True) -> None:
    """The contract at one position. `with_log` False: the event log is left out of the JSON
    round trip and of the whole-state digest; clones still compare it by value
    (`LOG_CHECK_EVERY`)."""
    game = state.game
    actors = state.actors()
    assert state.current_player == actors[0]
    for seat in range(state.num_players):
        if seat not in actors:
            assert state.legal_actions(seat) == [], "a seat that may not act has no legal actions"
    position = state.position_digest() if with_log else None
    chain, bare = state.digest(), without_log(state)
    for seat in actors:
        legal = state.legal_actions(seat)
        # text forms round-trip through the parser
        for action in legal:
            assert game.parse_action(state, str(action), seat) == action
        # clone is equal and independent
        twin = state.clone()
        assert without_log(twin) == bare
        assert twin.events == state.events
        assert twin.digest() == chain
        twin.apply(legal[0], seat)
        assert without_log(twin) != bare
        assert twin.digest() != chain
        assert without_log(state) == bare, "applying to a clone changed the original"
    if position is not None:
        assert state.position_digest() == position, "applying to a clone changed the original"
    # JSON round trip gives the same state and the same options
    # without the log, `state_from_json` starts an empty one: the log goes through JSON at the
    # next `with_log` check and at the end of the playout
    text = json.dumps(state.to_json()) if position is not None else without_log(state)
    again = game.state_from_json(json.loads(text))
    if position is None:
        assert without_log(again) == bare
    else:
        assert again.position_digest() == position
    assert again.digest() == chain
    assert again.actors() == actors
    for seat in actors:
        assert again.legal_actions(seat) == state.legal_actions(seat)
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
        # the winners share 1; all 0 only where the game's own side (a boss) can win
        assert abs(sum(returns) - 1.0) < 1e-9 or (sum(returns) == 0 and game_id in NPC_CAN_WIN)
        assert all(0.0 <= r <= 1.0 for r in returns)
        assert len(state.scores()) == players
        assert len(state.history) == len(state.history_seats) >= plies
        with pytest.raises(IllegalAction, match="over"):
            state.apply(Action("done"))
        outcome = state.outcome()
        assert outcome is not None
        assert outcome.returns == returns
        assert outcome.winners == [s for s, r in enumerate(returns) if r == max(returns) and r > 0]


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_conformance_record_replays_every_entry_to_the_same_digest(game_id: str, players: int) -> None:
    game = bloodforge.load_game(game_id, players=players, seed=11)
    state = game.new_initial_state()
    random_playout(state, Rng(5))
    record = Record.from_json(json.loads(json.dumps(Record.of(state).to_json())))
    assert record.moves == state.moves()
    replayed = record.replay()
    assert replayed.position_digest() == state.position_digest()
    assert record.digest_kind == "chain"
    assert replayed.digest() == state.digest() == record.digest
    # step by step: one state per entry, the game's own steps included
    steps = sum(1 for _ in record.states())
    assert steps == len(record.moves) + 1
    # replaying only the seats' actions, the game's own steps happen by themselves
    twin = bloodforge.load_game(game_id, players=players, seed=11).new_initial_state()
    for seat, text in state.moves():
        if seat is not None:
            twin.apply_unchecked(twin.game.parse_action(twin, text, seat), seat)
        elif text.startswith("timeout "):
            twin.apply_timeout(int(text.split()[1]))
    assert twin.position_digest() == state.position_digest()


@pytest.mark.parametrize(("game_id", "players"), GAMES[:: max(1, len(GAMES) // 8)])
def test_conformance_a_tampered_record_is_refused(game_id: str, players: int) -> None:
    game = bloodforge.load_game(game_id, players=players, seed=12)
    state = game.new_initial_state()
    rng = Rng(4)
    for _ in range(30):
        if state.is_terminal():
            break
        random_step(state, rng, timeout_rate=0.0)
    record = Record.of(state)
    last = max(i for i, (seat, _) in enumerate(record.moves) if seat is not None)
    seat, _ = record.moves[last]
    bad = record.model_copy(update={"moves": [*record.moves[:last], (seat, "no_such_verb 1")]})
    with pytest.raises(bloodforge.match.ReplayError, match="entry"):
        bad.replay()
    wrong_digest = record.model_copy(update={"digest": "0" * 64})
    with pytest.raises(bloodforge.match.ReplayError, match="digest"):
        wrong_digest.replay()


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_conformance_actors_and_refusals_for_seats_that_may_not_act(game_id: str, players: int) -> None:
    """Only seats in actors() may act; the host's timeout only for a seat whose clock runs;
    every refusal leaves the state exactly as it was."""
    state = bloodforge.load_game(game_id, players=players, seed=8).new_initial_state()
    rng = Rng(8)
    for _ in range(60):
        if state.is_terminal():
            break
        actors = state.actors()
        before = state.position_digest()
        idle = [s for s in range(players) if s not in actors]
        some_action = state.legal_actions(actors[0])[0]
        for seat in idle:
            with pytest.raises(IllegalAction, match="may not act"):
                state.apply(some_action, seat)
            with pytest.raises(IllegalAction, match="timeout"):
                state.apply_timeout(seat)
        with pytest.raises(IllegalAction, match="host"):
            state.apply(f"timeout {actors[0]}", actors[0])
        with pytest.raises(ValueError, match="seat"):
            state.legal_actions(players)
        assert state.position_digest() == before
        random_step(state, rng)


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_conformance_timeouts_are_recorded_host_entries(game_id: str, players: int) -> None:
    state = bloodforge.load_game(game_id, players=players, seed=9).new_initial_state()
    rng = Rng(9)
    timed_out = 0
    for _ in range(400):
        if state.is_terminal():
            break
        seat = state.actors()[0]
        if state.rule_clock(seat) is not None and rng.random() < 0.5:
            n = len(state.history)
            state.apply_timeout(seat)
            assert state.moves()[n] == (None, f"timeout {seat}")
            timed_out += 1
        else:
            random_step(state, rng, timeout_rate=0.0)
    if game_id == "toy_bids":
        assert timed_out > 0


def test_conformance_automatic_steps_and_simultaneous_commitments() -> None:
    """Sealed Bids: the game turns up prizes and reveals bids itself (seat None entries); all
    players bid at once, each bid hidden from the others until the reveal."""
    state = bloodforge.load_game("toy_bids", players=3, seed=1).new_initial_state()
    assert state.moves()[0] == (None, "reveal")
    assert state.actors() == [0, 1, 2]
    state.apply("bid 2", 1)
    assert state.actors() == [0, 2]
    assert state.observation(0)["committed"] == [False, True, False]
    assert state.observation(0)["my_bid"] is None
    assert "you bid 2" in state.event_log(1)
    assert "you bid 2" not in state.event_log(0)
    assert "seat 1 bids" in state.event_log(0)
    state.apply("bid 5", 2)
    state.apply_timeout(0)
    kinds = [text for seat, text in state.moves() if seat is None]
    assert kinds[:4] == ["reveal", "timeout 0", "resolve", "reveal"]
    assert state.events[-3].text.startswith("bids: seat 0 1, seat 1 2, seat 2 5")


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
    assert restored.position_digest() == state.position_digest()


@pytest.mark.parametrize("game_id", sorted({g for g, _ in GAMES}))
def test_conformance_bad_input_leaves_state_untouched(game_id: str) -> None:
    game = bloodforge.load_game(game_id, players=next(n for g, n in GAMES if g == game_id), seed=2)
    state = game.new_initial_state()
    before = state.position_digest()
    for text in ["", "   ", "no_such_verb", "no_such_verb 1 2 3", "\x00", "done done done done done done"]:
        with pytest.raises(ActionSyntaxError):
            state.apply(text)
        assert state.position_digest() == before
    # a well-formed action that is legal at one point of the game but not at another
    first = set(state.legal_actions())
    later = state.clone()
    rng = Rng(3)
    target, foreign = state, None
    while foreign is None and not later.is_terminal():
        random_step(later, rng, timeout_rate=0.0)
        if later.is_terminal():
            break
        now = set(later.legal_actions())
        foreign = next((a for a in sorted(now) if a not in first), None)
        if foreign is None:
            spent = next((a for a in sorted(first) if a not in now), None)
            if spent is not None:
                target, foreign = later, spent
    assert foreign is not None
    before = target.position_digest()
    with pytest.raises(IllegalAction) as info:
        target.apply(str(foreign))
    assert str(foreign) in str(info.value)
    assert target.position_digest() == before
    with pytest.raises(IllegalAction):
        target.apply(foreign)
    assert target.position_digest() == before
    before = state.position_digest()
    with pytest.raises(ActionSyntaxError):
        state.apply(123)  # type: ignore[arg-type]
    assert state.position_digest() == before


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
    """event_log(seat) is exactly what the core log's visibility sets give that seat: every
    public line, its own private lines, the masked face of others' secrets, nothing else."""
    players = next(n for g, n in GAMES if g == game_id)
    game = bloodforge.load_game(game_id, players=players, seed=6)
    state = game.new_initial_state()
    rng = Rng(2)
    for _ in range(150):
        if state.is_terminal():
            break
        random_step(state, rng)
    public = state.event_log(None)
    assert public, "a game in progress has logged something"
    assert public == [e.text if e.visible is None else e.masked for e in state.events
                      if e.visible is None or e.masked is not None]
    for seat in range(players):
        mine = state.event_log(seat)
        assert mine == [t for e in state.events if (t := e.text_for(seat)) is not None]
        for e in state.events:
            if e.visible is not None and seat not in e.visible:
                view = e.view_for(seat)
                assert view is None if e.masked is None else view is not None and view["text"] == e.masked
