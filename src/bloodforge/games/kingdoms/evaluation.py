"""Each seat's share of the win, judged from its own observation (the search's cut-off).

Why: a Kingdoms game lasts 15-45 rounds, so the search's rollouts stop at the end of a turn or
two and need a judgement of the position there. It reads the same fields as the greedy policy
(`State.policy_observation`, so only what the seat may see). A seat's value is its side's
prospects minus the strongest other side's, in logits of the win: a logistic of it is its
winning chance in a two-player game (`core.policy.shares_from_values` with scale 1).

*Where the weights come from* (issue 21): a logistic regression of the winner on the
differences of these features, at every turn start of 300 greedy two-player games (seeds
1000-1299, 50,638 positions, each seat's own view; fitted on three quarters of the games,
log-loss on the held-out quarter 0.456, 76% of winners called right). The hand-set weights
before it (25 crowns a gem, three turns of income, the army at its price, logistic scale 40)
scored 0.562 on the same positions (0.514 at its best scale), and on 40 fresh games (seeds
2000-2039) 0.463 against 0.396: they valued a gem at three cavalry and a territory at three
turns of its income, so the search traded armies for land. Rounded weights:

| feature | weight | why it matters |
| --- | --- | --- |
| army (every unit at its price; face-down enemy: 6) | 0.030 a crown | the bigger army takes the gems in the end |
| of it, at the front (next to land not ours) | 0.009 more a crown | it can attack next turn |
| income (values of the territories held) | 0.055 a point | crowns every turn, supply lives on it |
| treasury | 0.013 a crown | crowns not yet turned into units |
| gem threat (below) | 0.21 | gems are taken from next door |
| land threat (below) | 0.073 a point of value | so is income |
| the side whose faction's turn begins | 0.43 | it moves first |

Threat: for each gem territory of another side, the capture odds (the rules' exact odds,
`queries.odds`) of this side's land and air units next door attacking together (the ten
dearest; face-down defenders counted as cavalry, as the policy does); land threat sums the
same odds times the value over the other territories. A side's threat is the other side's
exposure, so a move that leaves a gem open next to an enemy army is seen at the cut-off.

Victory gems have no weight of their own: fitted with the others their weight came out
-0.01 a gem (the income of a gem territory and the threats carry it; 0.055 without the front
term), and a win within a rollout is scored exactly (9 gems combined at the end of a turn).
A separate weight for air units came out near zero (greedy buys them with spare crowns),
which would have let the search throw dragons away, so all units count by price; castles
and ports (rare; the weight came out unstable) and a bonus one gem short of the win
(negative, within noise) add nothing to the held-out log-loss.

*The gem race* (`race="max"`): at the cut-off the side whose turn begins,
one gem short, wins this turn with one capture (L229-233: 9 gems combined, checked at the end
of every turn), so its chance is at least its best capture odds q on a gem territory next door
(capped at 0.9): its share becomes q + (1 - q) times the linear one, the other side's (1 - q)
times. The linear sum cannot say "one capture ends it". On 300 greedy games (seeds 2000-2299,
52,118 seat views of turn starts, none used in the fit) it does not improve the log-loss:
0.4786 without, 0.4788 with (0.0979 against 0.1058 in the 1,050 views where the side to move
is one short; uncapped 0.2075): a greedy side one gem short wins nearly all its games anyway,
which the linear judgement already says, and greedy attacks a gem at odds 0.7 or more only
(two positions with q = 1 that greedy did not take cost the uncapped term most). It is there
for the search's choices, not for the fit: with the rollouts ending at the end of the
searcher's turn, the side to move at the cut-off is the opponent, and one gem short it makes
every plan that leaves a gem territory open next to its army worth (1 - q) of what the linear
sum says, which a weight per gem cannot. Screened as the second side (docs/lab.md, tuning
history): 10/12 with it, 9/12 without, on the same seeds.
"""

from __future__ import annotations

import math
from typing import Any

from bloodforge.core import State
from bloodforge.core.policy import shares_from_values

from .queries.odds import battle_odds
from .queries.stats import UnitData

#: logits of the win per crown of army (units at their price)
ARMY = 0.030
#: and per crown of it standing next to land of another side or nobody's (at the front)
FRONT = 0.009
#: per point of territory value held
INCOME = 0.055
#: per crown in the treasury
TREASURY = 0.013
#: per gem territory of another side, times the capture odds of this side's units next door
GEM_THREAT = 0.21
#: per point of value of another side's territory without a gem, times those odds
LAND_THREAT = 0.073
#: the side whose faction's turn begins
TO_MOVE = 0.43
#: a face-down enemy unit: the average of infantry (4) and cavalry (8)
HIDDEN_UNIT_COST = 6.0
#: gem territories a team needs combined (2 and 3 players, or 4 in teams)
WIN_GEMS = 9
#: the attackers counted in a threat (the dearest first): bounds the odds' cost
THREAT_UNITS = 10
#: units that may attack a territory next door (ships only carry)
ATTACKERS = ("infantry", "cavalry", "griffin", "dragon")
LAND = ("infantry", "cavalry")
#: the gem race (below; `none` switches it off): `max`: the side whose turn begins, one gem
#: territory short of the win, takes one this turn with its best capture odds next door (at
#: most RACE_CAP)
RACE = "max"
RACE_CAP = 0.9


class KingdomsJudge:
    """The static facts the judgement needs (territory values, gems, unit costs, adjacency,
    seats), read once from `static_info()`, and a cache of battle odds."""

    def __init__(self, static: dict[str, Any]) -> None:
        areas = static["board"]["areas"]
        self.value = {a["id"]: a.get("value", 0) for a in areas if a["kind"] == "land"}
        self.gem = {a["id"]: bool(a.get("gem")) for a in areas if a["kind"] == "land"}
        self.cost = {k: float(v["cost"]) for k, v in static["units"].items()}
        self.units = {k: UnitData(**v) for k, v in static["units"].items()}
        self.adjacency: dict[str, list[str]] = {k: list(v) for k, v in static["adjacency"].items()}
        self.seat_factions: list[list[str]] = static["seat_factions"]
        self._odds: dict[tuple[tuple[str, ...], tuple[str, ...]], float] = {}
        self.race = RACE
        #: each side's capture odds on the gem territories of the other sides (`side_values`)
        self.gem_odds: dict[int, list[float]] = {}

    def capture(self, attackers: list[str], defenders: list[str]) -> float:
        """The chance that `attackers` take a land territory held by `defenders` (exact odds)."""
        if not defenders:
            return 1.0
        key = (tuple(sorted(attackers)), tuple(sorted(defenders)))
        p = self._odds.get(key)
        if p is None:
            if len(self._odds) > 20000:
                self._odds.clear()
            p = self._odds[key] = float(battle_odds(self.units, list(key[0]), list(key[1]))["capture"])
        return p

    def side_values(self, obs: dict[str, Any]) -> dict[int, float]:
        """Each team's prospects in logits of the win, as the observing seat sees the board."""
        team = {f["faction"]: f["team"] for f in obs["factions"]}
        worth: dict[int, float] = dict.fromkeys(team.values(), 0.0)
        sizes: dict[int, int] = dict.fromkeys(team.values(), 0)
        for f in obs["factions"]:
            t = f["team"]
            sizes[t] += 1
            worth[t] += TREASURY * f["treasury"]
        worth[team[obs["active"]]] += TO_MOVE
        for space, owner in obs["owner"].items():
            if owner is not None:
                worth[team[owner]] += INCOME * self.value[space]
        stacks: dict[tuple[int, str], list[str]] = {}
        for p in obs["pieces"]:
            kind = p["kind"]
            t = team[p["faction"]]
            if kind in ("castle", "port"):
                continue
            worth[t] += ARMY * (HIDDEN_UNIT_COST if kind is None else self.cost.get(kind, HIDDEN_UNIT_COST))
            kind = kind or "cavalry"
            if p["at"] != "reserve" and p["aboard"] < 0 and kind in ATTACKERS:
                stacks.setdefault((t, p["at"]), []).append(("hired_" + kind) if p["merc"] else kind)
        held = {space: (None if owner is None else team[owner]) for space, owner in obs["owner"].items()}
        for (t, at), kinds in stacks.items():
            if any(n in held and held[n] != t for n in self.adjacency.get(at, ())):
                worth[t] += FRONT * sum(self.cost[k.removeprefix("hired_")] for k in kinds)
        castles, ports = set(obs["castles"]), set(obs["ports"])
        self.gem_odds = {t: [] for t in worth}
        # the spaces next to a stack of each side (adjacency is symmetric, content.py): only
        # these can be threatened by it; the loop below keeps its order, so every sum adds the
        # same terms in the same order
        reach: dict[int, set[str]] = {t: set() for t in worth}
        adjacency = self.adjacency
        for t, at in stacks:
            reach[t].update(adjacency.get(at, ()))
        for space, owner in obs["owner"].items():
            if owner is None:
                continue
            held_by = team[owner]
            for t in worth:
                if t == held_by or space not in reach[t]:
                    continue
                att = [k for n in adjacency[space] for k in stacks.get((t, n), ())]
                if not any(k.removeprefix("hired_") in LAND for k in att):
                    continue  # only land units take a territory
                att.sort(key=lambda k: -self.cost[k.removeprefix("hired_")])
                dfn = list(stacks.get((held_by, space), ()))[:THREAT_UNITS]
                dfn += ["castle"] * (space in castles) + ["port"] * (space in ports)
                p = self.capture(att[:THREAT_UNITS], dfn)
                worth[t] += GEM_THREAT * p if self.gem[space] else LAND_THREAT * p * self.value[space]
                if self.gem[space]:
                    self.gem_odds[t].append(p)
        return worth

    def seat_value(self, obs: dict[str, Any], seat: int, worth: dict[int, float] | None = None) -> float:
        """The seat's side's prospects minus the strongest other side's, from the seat's view
        (`worth`: `side_values(obs)`, if the caller has just computed it for an equal view)."""
        team = {f["faction"]: f["team"] for f in obs["factions"]}
        mine = team[self.seat_factions[seat][0]]
        if worth is None:
            worth = self.side_values(obs)
        others = [v for t, v in worth.items() if t != mine]
        lead = worth[mine] - (max(others) if others else 0.0)
        mover = team[obs["active"]]
        teamed = len(set(team.values())) < len(team)
        if self.race == "none" or not teamed or len(worth) != 2:
            return lead
        gems = sum(int(f["gems"]) for f in obs["factions"] if f["team"] == mover)
        odds = self.gem_odds.get(mover, [])
        if gems != WIN_GEMS - 1 or not odds:
            return lead
        # the side to move wins at the end of this turn with one capture (9 gems combined,
        # L229-233, checked at the end of every turn); otherwise the linear judgement stands
        q = min(max(odds), RACE_CAP)
        p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, lead))))
        p = q + (1.0 - q) * p if mover == mine else (1.0 - q) * p
        p = min(max(p, 1e-9), 1.0 - 1e-9)
        return math.log(p / (1.0 - p))


def evaluate(state: State, judge: KingdomsJudge) -> list[float]:
    """Each seat's estimated share of the win: its own view of its side's lead in logits, as
    logistic shares (`shares_from_values`, scale 1); a finished game gives its returns."""
    if state.is_terminal():
        return state.returns()
    values = []
    seen: list[str | None] | None = None
    worth: dict[int, float] | None = None
    for seat in range(state.num_players):
        obs = state.policy_observation(seat)
        # two views of one position differ only in which units are face down (and in the
        # seat's own move flags, which `side_values` does not read): where they show the same
        # kinds, the sides' values (and `judge.gem_odds`) are the same, computed once. In a
        # search's rollouts every unit has usually been seen by then.
        kinds = [p["kind"] for p in obs["pieces"]]
        if kinds != seen:
            seen, worth = kinds, judge.side_values(obs)
        values.append(judge.seat_value(obs, seat, worth))
    return shares_from_values(values, 1.0)
