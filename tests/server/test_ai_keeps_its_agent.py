"""An AI seat's agent lives from one decision to the next (server/aiwork.py).

A greedy move in Bloodstones is several actions (select, destination or target, pay); the
agent plans the whole move and plays it one action per decision. Made afresh for every decision,
it met its own half-built move, cancelled it, planned the same move again and so on forever: a
Bloodstones table against the AI hung in the village phase (seed 5 below: 293 of 600 plies
were the AI's cancels). These tests play the server's decision loop on that game."""

from __future__ import annotations

import time
from collections.abc import Callable

import bloodforge
from bloodforge.agents import Agent
from bloodforge.agents.mcts import MctsAgent
from bloodforge.core import Action, Rng, State
from bloodforge.core.rng import mix_seed
from bloodforge.server.aiwork import decide, decide_packed, pack

Decider = Callable[[State, int, "Agent | bytes | None"], "tuple[Action, Agent | bytes]"]


def ai_cancels(decider: Decider, plies: int = 600) -> tuple[int, int]:
    """Seat 0 plays random moves, seat 1 is the AI as the server runs it: (AI cancels, plies)."""
    state = bloodforge.load_game("bloodstones", players=2, seed=5).new_initial_state()
    rng = Rng(0)
    kept: Agent | bytes | None = None
    cancels = 0
    played = 0
    while not state.is_terminal() and played < plies:
        seat = state.current_player
        assert seat is not None
        if seat == 0:
            legal = [a for a in state.legal_actions() if not a.is_cancel] or state.legal_actions()
            action = rng.choice(legal)
        else:
            action, kept = decider(state, seat, kept)
            cancels += action.is_cancel
        state.apply(action, seat)
        played += 1
    return cancels, played


def seed_of(state: State, seat: int) -> int:
    return mix_seed(state.game.seed, "ai", seat, len(state.history))


def in_a_thread(state: State, seat: int, kept: Agent | bytes | None) -> tuple[Action, Agent | bytes]:
    assert not isinstance(kept, bytes)
    return decide(state, seat, "greedy", seed_of(state, seat), None, kept)


def in_a_worker(state: State, seat: int, kept: Agent | bytes | None) -> tuple[Action, Agent | bytes]:
    assert not isinstance(kept, Agent)
    return decide_packed(*pack(state), seat, "greedy", seed_of(state, seat), None, kept)


def test_an_ai_seat_finishes_the_moves_it_begins_when_deciding_in_a_thread() -> None:
    cancels, plies = ai_cancels(in_a_thread)
    assert plies == 600 or cancels == 0
    assert cancels <= 3, f"the AI cancelled its own half-built moves {cancels} times in {plies} plies"


def test_an_ai_seat_finishes_the_moves_it_begins_when_its_agent_travels_to_a_worker() -> None:
    # 150 plies: an agent made afresh cancels 68 times in them (23 in the first 60), and each
    # decision here pickles the whole position, which grows with the game (300 plies took 20 s)
    cancels, plies = ai_cancels(in_a_worker, plies=150)
    assert cancels <= 3, f"the AI cancelled its own half-built moves {cancels} times in {plies} plies"


def test_an_agent_made_afresh_for_every_decision_would_loop() -> None:
    """The failure the two tests above guard against, shown on the same game: if this ever stops
    looping, the game or the policy changed and the seed no longer exercises the bug."""

    def fresh(state: State, seat: int, kept: Agent | bytes | None) -> tuple[Action, Agent | bytes]:
        del kept
        return decide(state, seat, "greedy", seed_of(state, seat), None, None)

    cancels, _ = ai_cancels(fresh)
    assert cancels > 50


def test_a_tables_search_counts_cpu_time_as_the_levels_were_measured() -> None:
    """Issue 21 item 3: the lobby's Elo for a search level was measured with `clock=cpu`; a
    table's search on wall time would play below it on a busy server."""
    state = bloodforge.load_game("witch", seed=3).new_initial_state()
    seat = state.current_player
    assert seat is not None
    _, player = decide(state, seat, "mcts", seed=1, strength=1)
    assert isinstance(player, MctsAgent)
    assert player.clock is time.process_time
    _, greedy = decide(state, seat, "greedy", seed=1, strength=None)
    assert not hasattr(greedy, "clock")
