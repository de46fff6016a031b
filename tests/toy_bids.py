"""Sealed Bids: a tiny game that exercises every part of the engine contract.

Each round the game itself turns up a prize card (its own step), then every player secretly
commits a bid card from hand at the same time (`actors()` lists all who have not bid), then the
game reveals the bids together and the highest unique bid takes the prize (another own step).
A seat whose bidding clock runs out (`timeout <seat>`, applied by the host) bids its lowest
card. It is registered by the conformance suite only; no user ever sees it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Self

from pydantic import Field

from bloodforge.core import Action, ActionSpec, Deck, Game, GameInfo, GameParams, Rng, State, winners_share

BID_SECONDS = 30.0


class BidsParams(GameParams):
    players: int = Field(default=3, ge=2, le=4)
    prizes: int = Field(default=5, ge=1, le=9)
    bid_seconds: float = Field(default=BID_SECONDS, gt=0, description="the rules' clock for each bid")


class BidsState(State):
    game: BidsGame

    def __init__(self, game: BidsGame, rng: Rng) -> None:
        self._init_core(game, rng)
        n = game.num_players
        self.hands: list[list[int]] = [list(range(1, game.params.prizes + 1)) for _ in range(n)]
        self.deck = Deck()
        self.prize: int | None = None
        self.bids: list[int | None] = [None] * n
        self.points = [0] * n
        self.over = False

    # -- contract hooks ------------------------------------------------------------------------
    def _actors(self) -> list[int]:
        if self.over or self.prize is None:
            return []
        return [s for s, b in enumerate(self.bids) if b is None]

    def _is_terminal(self) -> bool:
        return self.over

    def _automatic_action(self) -> Action | None:
        if self.over:
            return None
        if self.prize is None:
            return Action("reveal")
        if all(b is not None for b in self.bids):
            return Action("resolve")
        return None

    def _legal_actions(self, seat: int) -> list[Action]:
        return [Action("bid", (str(c),)) for c in self.hands[seat]]

    def _apply(self, action: Action, seat: int | None) -> None:
        if action.kind == "reveal":
            card = self.deck.draw(self.rng)
            assert card is not None
            self.prize = int(card)
            self.events.add(f"prize {self.prize} is up", kind="prize")
        elif action.kind == "bid":
            assert seat is not None
            self._bid(seat, int(action.args[0]))
        elif action.kind == "resolve":
            self._resolve()
        else:
            raise ValueError(f"unexpected {action}")

    def _bid(self, seat: int, card: int) -> None:
        self.bids[seat] = card
        self.events.add(f"you bid {card}", to=seat, masked=f"seat {seat} bids", kind="bid")

    def _apply_timeout(self, seat: int) -> None:
        self.events.add(f"seat {seat} ran out of time and bids its lowest card", kind="timeout")
        self._bid(seat, min(self.hands[seat]))

    def _resolve(self) -> None:
        bids = [b for b in self.bids if b is not None]
        self.events.add("bids: " + ", ".join(f"seat {s} {b}" for s, b in enumerate(self.bids)), kind="reveal")
        top = max(bids)
        if bids.count(top) == 1:
            winner = bids.index(top)
            assert self.prize is not None
            self.points[winner] += self.prize
            self.events.add(f"seat {winner} takes prize {self.prize}")
        for s, b in enumerate(bids):
            self.hands[s].remove(b)
        self.bids = [None] * self.num_players
        self.prize = None
        if not len(self.deck):
            self.over = True

    def rule_clock(self, seat: int) -> float | None:
        return self.game.params.bid_seconds if seat in self._actors() else None

    def scores(self) -> list[float]:
        return [float(p) for p in self.points]

    def returns(self) -> list[float]:
        return winners_share(self.scores())

    def seat_roles(self) -> list[str]:
        return [f"bidder {s + 1}" for s in range(self.num_players)]

    def _observation(self, seat: int | None) -> dict[str, Any]:
        return {
            "prize": self.prize,
            "points": list(self.points),
            "hands": [list(h) for h in self.hands],
            "committed": [b is not None for b in self.bids],
            "my_bid": None if seat is None else self.bids[seat],
            "prizes_left": len(self.deck),
            "log": self.events.tail_for(seat, 5),
        }

    def resample_hidden(self, seat: int | None, rng: Rng) -> Self:
        new = self.clone()
        new.rng = Rng(rng.next_u64())
        new.deck.reshuffle_pile(rng)
        for s, b in enumerate(new.bids):
            if b is not None and s != seat:
                new.bids[s] = rng.choice(new.hands[s])
        return new

    def clone(self) -> Self:
        new = object.__new__(type(self))
        self._clone_core(new)
        new.hands = [list(h) for h in self.hands]
        new.deck = self.deck.copy()
        new.prize = self.prize
        new.bids = list(self.bids)
        new.points = list(self.points)
        new.over = self.over
        return new

    def _position_json(self) -> dict[str, Any]:
        return {
            "hands": self.hands, "deck": self.deck.to_json(), "prize": self.prize, "bids": self.bids,
            "points": self.points, "over": self.over,
        }


class BidsGame(Game):
    info = GameInfo(
        id="toy_bids", name="Sealed Bids (test game)", summary="secret simultaneous bids for prizes",
        min_players=2, max_players=4, params_model=BidsParams,
    )
    params: BidsParams

    def _new_initial_state(self) -> BidsState:
        st = BidsState(self, self.initial_rng())
        st.deck = Deck.shuffled([str(p) for p in range(1, self.params.prizes + 1)], st.rng)
        return st

    def action_grammar(self) -> Sequence[ActionSpec]:
        return (
            ActionSpec("bid", ("card",), "bid a card from your hand"),
            ActionSpec("reveal", (), "the game: turn up the next prize"),
            ActionSpec("resolve", (), "the game: reveal the bids and award the prize"),
        )

    def _state_from_position(self, position: Mapping[str, Any], rng: Rng) -> BidsState:
        st = BidsState(self, rng)
        st.hands = [list(h) for h in position["hands"]]
        st.deck = Deck.from_json(position["deck"])
        st.prize = position["prize"]
        st.bids = list(position["bids"])
        st.points = list(position["points"])
        st.over = bool(position["over"])
        return st
