"""The greedy policy: one-step scores from what the seat observes.

It reads only `policy_observation(seat)` (the observation without what only a page reads),
`legal_actions(seat)`, `static_info()` and the exported
rule queries (`queries.py`: battle odds, the defence bonus): values for territories
(forts most, food when the quota binds, currency), exact battle odds for attacks, and progress
towards the nearest fort it does not hold. Hero cards are mixed (sometimes held back) because
their play is a simultaneous guessing game.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from bloodforge.core import Action, Game, Rng, State

from .queries import battle_odds, defence_bonus_value

FORT_VALUE = 9.0
GREAT_FORT_VALUE = 11.0
HOME_VALUE = 4.0
FOOD_VALUE = 4.0
CURRENCY_VALUE = 2.0


class _Map:
    """What the policy precomputes from static_info once per game."""

    def __init__(self, static: dict[str, Any]) -> None:
        board = static["board"]
        self.ids: list[str] = [a["id"] for a in board["areas"]]
        self.index = {t: i for i, t in enumerate(self.ids)}
        self.fort = [{"none": 0, "fort": 1, "great": 2}[a["fort"]] for a in board["areas"]]
        self.food = [int(a["food"]) for a in board["areas"]]
        self.currency = [int(a["currency"]) for a in board["areas"]]
        self.nbrs = [[self.index[n] for n in a["neighbours"]] for a in board["areas"]]
        self.dist = [self._bfs(i) for i in range(len(self.ids))]
        self.sides = int(static["die_sides"])
        self.bonus = static["defence_bonus"]
        self.forts_to_win = int(static["forts_to_win"])
        self.hero_price = int(static["hero_price"])
        self.hand_limit = int(static["hand_limit"])
        self.heroes = {h["id"]: h for h in static["heroes"]}
        self.food_per = int(static["food_per_resource"])

    def _bfs(self, src: int) -> list[int]:
        d = [10**6] * len(self.ids)
        d[src] = 0
        q = deque([src])
        while q:
            x = q.popleft()
            for y in self.nbrs[x]:
                if d[y] > d[x] + 1:
                    d[y] = d[x] + 1
                    q.append(y)
        return d


class FortsPolicy:
    """Greedy one-step play, and (as a `PlanningPolicy`) its best candidate actions for a search.

    Options: `hero_mix` (how often it holds its cards back in a battle), `plan_width` (how many
    candidate actions it offers a searcher, its own choice first)."""

    def __init__(self, hero_mix: float = 0.25, plan_width: int = 4, **options: Any) -> None:
        del options
        self.hero_mix = hero_mix
        self.plan_width = plan_width
        self._maps: dict[int, tuple[Game, _Map]] = {}

    def fork(self) -> FortsPolicy:
        """A copy for one rollout. The policy keeps no memory of a game (each decision reads the
        observation afresh), so the copy only shares the per-game map it precomputed."""
        new = FortsPolicy(self.hero_mix, self.plan_width)
        new._maps = self._maps
        return new

    def plans(self, state: State, seat: int, rng: Rng) -> list[list[str]] | None:
        """Its own choice first, then the next best actions by its own scores, `plan_width` in
        all, each a one-step plan. *Why one step:* every Five Forts action is whole (a unit
        action names its units, origin and target), so a searcher needs no compound plans,
        only the few actions worth comparing: of 10-25 legal moves and attacks most split an
        army in ways the heuristic rightly never plays, and a second of search spread over all
        of them sees each on a handful of samples. In a battle or a disbanding (few options,
        all sensible) every legal action is offered."""
        legal = state.legal_actions(seat)
        if len(legal) <= 1:
            return None
        own = self.choose(state, seat, rng)
        kinds = {a.kind for a in legal}
        if kinds & {"commit", "lose", "retreat", "advance", "disband", "pass"}:
            ranked = [a for a in legal if a != own]
        else:
            obs = state.policy_observation(seat)
            mp = self._map(state)
            goals = self._goals(obs, mp, seat)
            scored = [(self._turn_score(obs, mp, seat, a, goals), i, a) for i, a in enumerate(legal) if a != own]
            ranked = [a for _, _, a in sorted(scored, key=lambda x: (-x[0], x[1]))]
        return [[str(a)] for a in [own, *ranked][: max(1, self.plan_width)]]

    def _turn_score(self, obs: dict[str, Any], mp: _Map, seat: int, a: Action, goals: list[int]) -> float:
        """How the turn's choice ranks an action (without its tie-breaking noise): recruits
        first, then a hero purchase, then moves and attacks by score, `end` at the threshold a
        move must beat; `act` (ending planning unused) last."""
        if a.kind == "recruit":
            t = mp.index[a.args[0]]
            return 1000.0 + 10.0 * (a.args[1] == "cavalry") + mp.fort[t]
        if a.kind == "buy":
            return 500.0
        if a.kind == "move":
            return self._move_score(obs, mp, seat, a, goals)
        if a.kind == "attack":
            return self._attack_score(obs, mp, seat, a)
        if a.kind == "end":
            return 0.3
        return -100.0

    def _map(self, state: State) -> _Map:
        """The game's map tables, made once per game. Kept with the game itself: an id names
        an object only while it lives, and a policy outlives the games it played."""
        game = state.game
        key = id(game)
        entry = self._maps.get(key)
        if entry is None or entry[0] is not game:
            entry = self._maps[key] = (game, _Map(game.static_info()))
        return entry[1]

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (to the server's search workers) without the map tables: they hold the
        games they were made for, and the worker's games are other objects."""
        state = dict(self.__dict__)
        state["_maps"] = {}
        return state

    def choose(self, state: State, seat: int, rng: Rng) -> Action:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        obs = state.policy_observation(seat)
        mp = self._map(state)
        kinds = {a.kind for a in legal}
        if "commit" in kinds:
            return self._heroes(obs, mp, seat, legal, rng)
        if "lose" in kinds:
            return max(legal, key=lambda a: (int(a.args[0]), -int(a.args[1])))
        if "retreat" in kinds:
            return max(legal, key=lambda a: self._hold_value(obs, mp, seat, mp.index[a.args[1]], mine=True))
        if "advance" in kinds:
            return self._advance(obs, mp, seat, legal)
        if "disband" in kinds:
            return max(legal, key=lambda a: self._disband_score(obs, mp, seat, a))
        if "pass" in kinds:
            return self._bribe(obs, mp, legal)
        return self._turn(obs, mp, seat, legal, rng)

    # -- values -------------------------------------------------------------------------------
    def _hold_value(self, obs: dict[str, Any], mp: _Map, seat: int, t: int, mine: bool) -> float:
        """What controlling `t` is worth to `seat` (mine: it already controls it)."""
        v = 0.0
        if mp.fort[t]:
            v += GREAT_FORT_VALUE if mp.fort[t] == 2 else FORT_VALUE
            forts = obs["forts"][seat] - (1 if mine else 0)
            if forts + 1 >= mp.forts_to_win:
                v += 6.0
        if obs["homes"][seat] == mp.ids[t]:
            v += HOME_VALUE
        if mp.food[t]:
            tight = obs["units"][seat] >= obs["quota"][seat] - 1
            v += FOOD_VALUE * mp.food[t] * (1.5 if tight else 0.6)
            if mine and obs["units"][seat] > obs["quota"][seat] - mp.food_per * mp.food[t]:
                v += 4.0  # losing it would force disbanding
        v += CURRENCY_VALUE * mp.currency[t]
        return v + 0.5

    def _defence(self, obs: dict[str, Any], mp: _Map, t: int) -> int:
        return defence_of(obs, mp, t)

    # -- decisions ----------------------------------------------------------------------------
    def _heroes(self, obs: dict[str, Any], mp: _Map, seat: int, legal: list[Action], rng: Rng) -> Action:
        b = obs["battle"]
        if b["my_committed"] or rng.random() < self.hero_mix:
            return Action("commit")
        t = mp.index[b["to"]]
        attack = b["infantry"] + 2 * b["cavalry"]
        defence = self._defence(obs, mp, t)
        win, _, _ = battle_odds(attack, defence, mp.sides)
        mine = win if b["attacker"] == seat else 1.0 - win
        important = mp.fort[t] > 0 or mp.food[t] > 0 or mp.ids[t] in obs["homes"]
        cards = [a for a in legal if a.kind == "hero"]
        full = len(obs["hand"]) >= mp.hand_limit  # cycle the hand so buying stays possible
        if not full and (not important or mine > 0.85 or mine < 0.05):
            return Action("commit")
        _, draw, _ = battle_odds(attack, defence, mp.sides)

        def worth(a: Action) -> float:
            h = mp.heroes[a.args[0]]
            value = float(h["strength"])
            if h["wins_draws"]:
                value += 8.0 * draw
            if h["shield"]:
                value += 0.5 * (1.0 - mine) * float(h["shield"])
            if h["pathfinder"] and b["attacker"] == seat:
                value += 0.6
            return value

        return max(cards, key=worth)

    def _advance(self, obs: dict[str, Any], mp: _Map, seat: int, legal: list[Action]) -> Action:
        b = obs["battle"]
        origin = mp.index[b["from"]]
        terr = obs["territories"][origin]
        others = terr["infantry"] + terr["cavalry"] - b["infantry"] - b["cavalry"]
        if others <= 0 and obs["homes"][seat] != b["from"] and self._hold_value(obs, mp, seat, origin, True) > 2:
            for kind in ("infantry", "cavalry"):
                a = Action("stay", (kind,))
                if a in legal:
                    return a
        return Action("advance")

    def _disband_score(self, obs: dict[str, Any], mp: _Map, seat: int, a: Action) -> float:
        t = mp.index[a.args[0]]
        terr = obs["territories"][t]
        n = int(terr["infantry"]) + int(terr["cavalry"])
        keep = self._hold_value(obs, mp, seat, t, True) if n == 1 else 0.0
        return (1.0 if a.args[1] == "infantry" else 0.0) + n * 0.1 - keep

    def _bribe(self, obs: dict[str, Any], mp: _Map, legal: list[Action]) -> Action:
        best, score = Action("pass"), 0.0
        for a in legal:
            if a.kind != "bribe":
                continue
            t = mp.index[a.args[0]]
            terr = obs["territories"][t]
            cost = terr["infantry"] + 2 * terr["cavalry"]
            value = (GREAT_FORT_VALUE if mp.fort[t] == 2 else FORT_VALUE if mp.fort[t] else 0.0) + cost * 1.5
            value += FOOD_VALUE * mp.food[t] + CURRENCY_VALUE * mp.currency[t]
            s = value - cost
            if s > score:
                best, score = a, s
        return best

    def _turn(self, obs: dict[str, Any], mp: _Map, seat: int, legal: list[Action], rng: Rng) -> Action:
        goals = self._goals(obs, mp, seat)
        recruits = [a for a in legal if a.kind == "recruit"]
        if recruits:
            # cavalry first (strength per quota slot), then at the fort nearest the front
            def recruit_key(a: Action) -> tuple[bool, int, int]:
                t = mp.index[a.args[0]]
                return (a.args[1] == "cavalry", mp.fort[t], -min((mp.dist[t][g] for g in goals), default=0))

            return max(recruits, key=recruit_key)
        buy = Action("buy")
        if buy in legal:
            return buy
        best: Action | None = None
        best_score = 0.3
        for a in legal:
            if a.kind == "move":
                s = self._move_score(obs, mp, seat, a, goals)
            elif a.kind == "attack":
                s = self._attack_score(obs, mp, seat, a)
            else:
                continue
            s += rng.random() * 1e-3
            if s > best_score:
                best, best_score = a, s
        if best is not None:
            return best
        return Action("end")

    def _goals(self, obs: dict[str, Any], mp: _Map, seat: int) -> list[int]:
        """Where units should head: free food first when the quota binds (growth), else forts
        it does not hold and free resources."""
        free_food = [t for t in range(len(mp.ids)) if mp.food[t] and obs["territories"][t]["controller"] is None]
        if free_food and obs["units"][seat] >= obs["quota"][seat]:
            return free_food
        out = [t for t in range(len(mp.ids)) if mp.fort[t] and obs["territories"][t]["controller"] != seat]
        out += [t for t in range(len(mp.ids))
                if (mp.food[t] or mp.currency[t]) and obs["territories"][t]["controller"] is None]
        return out

    def _leaving_loss(self, obs: dict[str, Any], mp: _Map, seat: int, t: int, moved: int) -> float:
        terr = obs["territories"][t]
        if terr["infantry"] + terr["cavalry"] > moved or obs["homes"][seat] == mp.ids[t]:
            return 0.0
        value = self._hold_value(obs, mp, seat, t, True)
        if not mp.fort[t] and not mp.food[t] and obs["units"][seat] >= obs["quota"][seat]:
            value *= 0.3  # at the quota, a coin a turn is worth less than room to grow
        return value

    def _move_score(self, obs: dict[str, Any], mp: _Map, seat: int, a: Action, goals: list[int]) -> float:
        t, n = mp.index[a.args[0]], mp.index[a.args[1]]
        inf, cav = int(a.args[2]), int(a.args[3])
        moved = inf + cav
        score = -self._leaving_loss(obs, mp, seat, t, moved)
        if obs["territories"][n]["controller"] != seat:
            score += self._hold_value(obs, mp, seat, n, False) * (0.6 if moved == 1 else 0.5)
        if goals:
            before = min(mp.dist[t][g] for g in goals)
            after = min(mp.dist[n][g] for g in goals)
            score += (before - after) * (0.4 + 0.15 * (inf + 2 * cav))
        if obs["territories"][t]["controller"] == seat and mp.fort[t] and moved > 0:
            terr = obs["territories"][t]
            score -= 0.2 * (moved / max(1, terr["infantry"] + terr["cavalry"]))
        return score

    def _attack_score(self, obs: dict[str, Any], mp: _Map, seat: int, a: Action) -> float:
        t, n = mp.index[a.args[0]], mp.index[a.args[1]]
        inf, cav = int(a.args[2]), int(a.args[3])
        attack = inf + 2 * cav
        defence = self._defence(obs, mp, n)
        hand_bonus = max((int(mp.heroes[h]["strength"]) for h in hand_ids(obs)), default=0)
        win, _, lose = battle_odds(attack + hand_bonus, defence, mp.sides)
        if win < 0.45:
            return -1.0
        value = self._hold_value(obs, mp, seat, n, False) + 1.0
        terr = obs["territories"][n]
        ctrl = terr["controller"]
        if isinstance(ctrl, int) and ctrl != seat:
            value += 1.5 + (terr["infantry"] + 2 * terr["cavalry"]) * 0.5
        expected_loss = lose * min(attack, 3)
        return win * value - expected_loss - self._leaving_loss(obs, mp, seat, t, inf + cav) * lose + attack * 0.05


def defence_of(obs: dict[str, Any], mp: _Map, t: int) -> int:
    """What an attacker of territory `t` must beat before the dice: its army's strength plus
    the best defence bonus of whoever holds it (an empty home counts for its owner)."""
    terr = obs["territories"][t]
    ctrl = terr["controller"]
    strength = int(terr["infantry"]) + 2 * int(terr["cavalry"])
    home_owner = obs["homes"].index(mp.ids[t]) if mp.ids[t] in obs["homes"] else -1
    defender = ctrl if isinstance(ctrl, int) else -2
    b = mp.bonus
    bonus = defence_bonus_value(mp.fort[t], home_of_defender=home_owner == defender and defender >= 0,
                                territory=int(b["territory"]), great_fort=int(b["great_fort"]),
                                home=int(b["home"]))
    return strength + bonus


def hand_ids(obs: dict[str, Any]) -> list[str]:
    return [str(card["id"]) for card in obs["hand"]]


#: The static facts of a map the policy reads (distances, forts, the battle numbers), made once
#: per game; the evaluation (evaluation.py) reads the same.
MapFacts = _Map

__all__ = ["FortsPolicy", "MapFacts", "defence_of"]
