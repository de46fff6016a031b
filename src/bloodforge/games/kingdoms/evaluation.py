"""Each seat's share of the win, judged from its own observation (the search's cut-off).

Why: a Kingdoms game lasts 15-45 rounds, so the search's rollouts stop at the end of a turn or
two and need a judgement of the position there. It reads the same fields as the greedy policy
(`State.policy_observation`, so only what the seat may see) and weighs, per side, what the
policy chases: victory gems (the win is 9 gems combined in the team game), income (the value of
the territories held), the army in crowns (a face-down enemy piece counts as the average of
infantry and cavalry, as nobody can tell them apart) and the treasury.
"""

from __future__ import annotations

from typing import Any

from bloodforge.core import State
from bloodforge.core.policy import shares_from_values

from .policy import START_GEMS

#: crowns a victory gem is worth beyond its territory's income (a gem is a third of the way
#: from the start's 6 to the win's 9 in the team game)
GEM_WORTH = 25.0
#: and each gem from one short of the win on (8 of a team's 9, 6 of a lone faction's 7) as much
#: again: the side there wins unless the other takes a gem back at once
NEAR_WIN_WORTH = 25.0
#: turns of income a territory is worth (it pays every turn, and supply lives on it)
INCOME_TURNS = 3.0
#: crowns not yet spent are worth a little less than the units they will buy
TREASURY_WORTH = 0.8
#: a castle or port is worth this share of its price (it fights and produces, but never moves)
WORKS_WORTH = 0.5
#: a face-down enemy unit: the average of infantry (4) and cavalry (8)
HIDDEN_UNIT_COST = 6.0
#: a lead of this many crowns makes a side a 2.7:1 favourite (logistic scale)
SCALE = 40.0


class KingdomsJudge:
    """The static facts the judgement needs (territory values, gems, unit costs, seats), read
    once from `static_info()`."""

    def __init__(self, static: dict[str, Any]) -> None:
        areas = static["board"]["areas"]
        self.value = {a["id"]: a.get("value", 0) for a in areas if a["kind"] == "land"}
        self.gem = {a["id"]: bool(a.get("gem")) for a in areas if a["kind"] == "land"}
        self.cost = {k: float(v["cost"]) for k, v in static["units"].items()}
        self.seat_factions: list[list[str]] = static["seat_factions"]

    def side_values(self, obs: dict[str, Any]) -> dict[int, float]:
        """Each team's worth in crowns, as the observing seat sees the board."""
        team = {f["faction"]: f["team"] for f in obs["factions"]}
        worth: dict[int, float] = dict.fromkeys(team.values(), 0.0)
        gems: dict[int, int] = dict.fromkeys(team.values(), 0)
        for f in obs["factions"]:
            worth[f["team"]] += TREASURY_WORTH * f["treasury"]
            gems[f["team"]] += f["gems"]
        for space, owner in obs["owner"].items():
            if owner is not None:
                worth[team[owner]] += INCOME_TURNS * self.value[space]
        for p in obs["pieces"]:
            kind = p["kind"]
            if kind is None:
                price = HIDDEN_UNIT_COST
            elif kind in ("castle", "port"):
                price = WORKS_WORTH * self.cost[kind]
            else:
                price = self.cost.get(kind, HIDDEN_UNIT_COST)
            worth[team[p["faction"]]] += price
        sizes: dict[int, int] = {}
        for t in team.values():
            sizes[t] = sizes.get(t, 0) + 1
        for t, g in gems.items():
            # a side's gems beyond its start; a team of two starts with 6 and wins at 9
            extra = g - START_GEMS * sizes[t]
            worth[t] += GEM_WORTH * extra + NEAR_WIN_WORTH * max(0, extra - (1 if sizes[t] > 1 else 2))
        return worth

    def seat_value(self, obs: dict[str, Any], seat: int) -> float:
        """The seat's side's worth minus the strongest other side's, from the seat's view."""
        team = {f["faction"]: f["team"] for f in obs["factions"]}
        mine = team[self.seat_factions[seat][0]]
        worth = self.side_values(obs)
        others = [v for t, v in worth.items() if t != mine]
        return worth[mine] - (max(others) if others else 0.0)


def evaluate(state: State, judge: KingdomsJudge) -> list[float]:
    """Each seat's estimated share of the win: its own view of its side's lead, as logistic
    shares (`shares_from_values`); a finished game gives its returns."""
    if state.is_terminal():
        return state.returns()
    values = [judge.seat_value(state.policy_observation(s), s) for s in range(state.num_players)]
    return shares_from_values(values, SCALE)
