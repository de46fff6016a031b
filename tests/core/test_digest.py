"""Issue 23 item 2: the state digest is a hash chain, O(1) per recorded entry.

`State.digest()` chains SHA-256 over what defines the game (`game.record()` and the scenario)
and then every history entry (seat, action text): the game's own steps and the host's
timeouts included. `State.position_digest()` keeps the whole-state hash for the checks that
need a position. Records and lab results say which kind they carry; files written before the
chain carry position digests and must keep verifying. Most checks use Sealed Bids (the
conformance suite's test game: hidden simultaneous bids, timeouts, the game's own steps), which
is tiny, so the whole module runs in well under a second or two.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from tests.toy_bids import BidsGame
from typer.testing import CliRunner

import bloodforge
import bloodforge.core.game as core_game
from bloodforge.cli.main import app
from bloodforge.core import Rng, State, register_game, unregister_game
from bloodforge.core.game import CHAIN_TAG
from bloodforge.lab.jobs import AgentSpec, GameResult, Job, play_job
from bloodforge.match import Record, ReplayError

WITCH_SCENARIO = Path(bloodforge.__file__).parent / "games" / "witch" / "scenarios" / "worked_example.yaml"


@pytest.fixture(autouse=True, scope="module")
def _toy_game_registered() -> Iterator[None]:
    register_game(BidsGame)
    yield
    unregister_game(BidsGame.info.id)


def bids_game(seed: int = 3, players: int = 3) -> State:
    """A whole Sealed Bids game with a timeout in it (a host entry), played at random."""
    state = bloodforge.load_game("toy_bids", players=players, seed=seed).new_initial_state()
    rng = Rng(seed)
    timed_out = False
    while not state.is_terminal():
        seat = state.actors()[0]
        if not timed_out:
            state.apply_timeout(seat)
            timed_out = True
        else:
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    return state


def chain_by_hand(state: State) -> str:
    """The chain exactly as docs/architecture.md and `State.digest` define it."""
    head = {"record": state.game.record(), "scenario": state.scenario}
    h = hashlib.sha256(CHAIN_TAG + json.dumps(head, sort_keys=True, separators=(",", ":")).encode()).digest()
    for seat, text in state.moves():
        who = "-" if seat is None else str(seat)
        h = hashlib.sha256(h + who.encode() + b"\x1f" + text.encode()).digest()
    return h.hex()


def test_digest_is_the_documented_chain_over_header_and_every_entry() -> None:
    state = bids_game()
    kinds = {seat is None for seat, _ in state.moves()}
    assert kinds == {True, False}, "the game's own steps and the host's timeout are entries too"
    assert any(text.startswith("timeout ") for _, text in state.moves())
    assert state.digest() == chain_by_hand(state)
    assert state.digest() != state.position_digest()


def test_digest_hashes_each_entry_once_so_a_call_costs_o1_per_new_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    """The measurable claim: after a digest, k more entries cost exactly k hashes, however
    long the game already is; a clone continues from its source's chain."""
    state = bids_game(players=2)
    calls = 0
    real = hashlib.sha256

    def counting(data: bytes = b"") -> Any:
        nonlocal calls
        calls += 1
        return real(data)

    monkeypatch.setattr(core_game, "hashlib", SimpleNamespace(sha256=counting))
    fresh = bloodforge.load_game("toy_bids", players=2, seed=3).new_initial_state()
    fresh.digest()
    first = calls
    assert first == 1 + len(fresh.history)  # h_0 and the game's first own step
    fresh.apply(fresh.legal_actions(0)[0], 0)
    added = len(fresh.history) - first + 1
    calls = 0
    fresh.digest()
    assert calls == added
    calls = 0
    fresh.digest()
    assert calls == 0, "nothing new: the cached chain is returned"
    twin = fresh.clone()
    twin.apply(twin.legal_actions(1)[0], 1)
    calls = 0
    twin.digest()
    assert calls == len(twin.history) - len(fresh.history), "the clone hashes only its own new entries"
    assert state.digest() == chain_by_hand(state)


def test_clone_and_json_round_trip_keep_the_digest_and_diverge_on_new_entries() -> None:
    state = bloodforge.load_game("toy_bids", players=3, seed=5).new_initial_state()
    state.apply("bid 2", 0)
    before = state.digest()
    twin = state.clone()
    assert twin.digest() == before
    twin.apply("bid 3", 1)
    assert twin.digest() != before
    assert state.digest() == before, "the clone's entries do not touch its source"
    undigested = bloodforge.load_game("toy_bids", players=3, seed=5).new_initial_state()
    undigested.apply("bid 2", 0)
    assert undigested.clone().digest() == before, "a clone made before any digest computes the same chain"
    for s in (state, twin, bids_game()):
        again = bloodforge.state_from_json(json.loads(json.dumps(s.to_json())))
        assert again.digest() == s.digest()
        assert again.position_digest() == s.position_digest()
        assert "chain" not in json.dumps(s.to_json()), "to_json is unchanged: old position digests still hold"


def test_digest_covers_seed_parameters_and_every_seat_and_text() -> None:
    base = bids_game(seed=3).digest()
    assert bids_game(seed=4).digest() != base
    other = bloodforge.load_game("toy_bids", players=3, seed=3, prizes=4).new_initial_state()
    assert other.digest() != bloodforge.load_game("toy_bids", players=3, seed=3).new_initial_state().digest()
    a = bloodforge.load_game("toy_bids", players=3, seed=3).new_initial_state()
    b = a.clone()
    a.apply("bid 1", 0)
    a.apply("bid 2", 1)
    b.apply("bid 2", 1)
    b.apply("bid 1", 0)
    assert a.position_digest() != b.position_digest()
    assert a.digest() != b.digest(), "the same bids in another order are another game"


def test_scenario_started_states_chain_from_the_scenario_and_survive_json() -> None:
    state = bloodforge.load_scenario(WITCH_SCENARIO, advance=False)
    assert state.scenario is not None
    plain = bloodforge.load_game("witch", seed=state.game.seed, **state.game.params_dict())
    assert plain.new_initial_state(advance=False).digest() != state.digest()
    assert state.digest() == chain_by_hand(state)
    state._advance()
    again = bloodforge.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again.digest() == state.digest()
    record = Record.from_json(json.loads(json.dumps(Record.of(state).to_json())))
    assert record.digest_kind == "chain"
    assert record.replay().digest() == state.digest()


def swapped_bids(record: Record) -> Record:
    """The same record with seat 0's first two bids swapped: every entry stays legal."""
    moves = list(record.moves)
    i, j = [k for k, (seat, text) in enumerate(moves) if seat == 0 and text.startswith("bid ")][:2]
    moves[i], moves[j] = moves[j], moves[i]
    assert moves != record.moves
    return record.model_copy(update={"moves": moves})


def test_a_tampered_record_is_refused_with_the_chain_digest() -> None:
    state = bids_game()
    record = Record.of(state)
    assert record.digest == state.digest()
    assert record.digest_kind == "chain"
    assert record.replay().digest() == state.digest()
    with pytest.raises(ReplayError, match="chain digest"):
        swapped_bids(record).replay()
    with pytest.raises(ReplayError, match="chain digest"):
        record.model_copy(update={"seed": record.seed + 1}).replay()
    with pytest.raises(ReplayError, match="chain digest"):
        record.model_copy(update={"digest": "0" * 64}).replay()


def test_records_written_before_the_chain_verify_with_the_position_digest() -> None:
    """An old record has no `digest_kind` and holds the position digest; it must still
    verify, and still catch tampering."""
    state = bids_game()
    old = Record.of(state).to_json()
    del old["digest_kind"]
    old["digest"] = state.position_digest()
    record = Record.from_json(json.loads(json.dumps(old)))
    assert record.digest_kind is None
    assert record.kind_of_digest == "position"
    assert record.replay().position_digest() == state.position_digest()
    with pytest.raises(ReplayError, match="position digest"):
        swapped_bids(record).replay()
    with pytest.raises(ReplayError, match="position digest"):
        record.model_copy(update={"seed": record.seed + 1}).replay()
    with pytest.raises(ReplayError, match="position digest"):
        record.model_copy(update={"digest": state.digest()}).replay()  # a chain read as a position


def test_cli_replay_checks_each_kind_of_record(tmp_path: Path) -> None:
    state = bids_game()
    new = Record.of(state).to_json()
    old = {k: v for k, v in new.items() if k != "digest_kind"} | {"digest": state.position_digest()}
    runner = CliRunner()
    for name, data, kind in (("new.json", new, "chain"), ("old.json", old, "position")):
        path = tmp_path / name
        path.write_text(json.dumps(data))
        result = runner.invoke(app, ["replay", str(path)])
        assert result.exit_code == 0, result.output
        assert f"digest matches ({kind})" in result.output
        path.write_text(json.dumps(swapped_bids(Record.from_json(data)).to_json()))
        result = runner.invoke(app, ["replay", str(path)])
        assert result.exit_code == 2, result.output
        assert "mismatch" in result.output


def test_lab_results_carry_their_digest_kind_and_old_documents_read_as_position() -> None:
    job = Job(index=0, game="toy_bids", params={"players": 2}, seed=7, agents=[AgentSpec(name="random")] * 2)
    result = play_job(job, keep_record=True)
    assert result.digest_kind == "chain"
    assert result.record is not None
    replayed = Record.from_json(result.record).replay()
    assert result.digest_of(replayed) == result.digest == replayed.digest()
    row = result.model_dump(mode="json", exclude={"record", "digest_kind"})
    row["digest"] = replayed.position_digest()  # a document row written before the chain
    old = GameResult.model_validate(row)
    assert old.digest_kind == "position"
    assert old.digest_of(replayed) == old.digest


def test_digest_of_names_the_known_kinds_only() -> None:
    state = bloodforge.load_game("toy_bids", players=2, seed=1).new_initial_state()
    assert state.digest_of("chain") == state.digest()
    assert state.digest_of("position") == state.position_digest()
    with pytest.raises(ValueError, match="chain, position"):
        state.digest_of("zobrist")


def test_no_seat_is_shown_a_digest_while_hidden_bids_are_open() -> None:
    """The chain covers hidden commitments; a seat that saw it could try each possible bid
    until the hash matches. Observations carry none of it (the server sends only those)."""
    state = bloodforge.load_game("toy_bids", players=3, seed=2).new_initial_state()
    state.apply("bid 4", 1)
    for seat in [None, 0, 1, 2]:
        shown = json.dumps(state.observation(seat)) + "\n".join(state.event_log(seat))
        assert state.digest() not in shown
        assert state.digest()[:16] not in shown
        assert state.position_digest()[:16] not in shown
