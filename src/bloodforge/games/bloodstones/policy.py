"""A greedy Bloodstones player: plans one compound action at a time and judges it by a static
evaluation (VP, villages, army strength, battle odds and threats).

It reads only the public contract: `policy_observation(seat)` (the observation without what
only a page reads), `static_info()`, legal actions and cloned states, plus the game's exported
rule queries (`queries.py`: battle modifiers, tiles drawn, exact battle odds), which the rules
use too, so it never re-implements a rule; everything else is a weighted sum tuned by
self-play against the random agent. Plans are lists of action texts executed over the next calls; if the state
diverges (a legal list without the next step), the plan is dropped and rethought.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from bloodforge.core import CANCEL, Action, Rng, State

from .queries import (
    attack_win_probability,
    battle_modifier,
    end_of_game_bonus,
    fighting_values,
    moves_in_main_actions,
    unit_base,
)

Obs = Mapping[str, Any]


# ----------------------------------------------------------------------------------------------
# the knowledge a player has: the static game facts
# ----------------------------------------------------------------------------------------------
class Model:
    def __init__(self, static: Mapping[str, Any]) -> None:
        self.static = static
        areas = static["map"]["areas"]
        self.terrain: dict[int, str] = {a["id"]: a["terrain"] for a in areas}
        self.adj: dict[int, list[int]] = {a["id"]: list(a["adjacent"]) for a in areas}
        self.factions: Mapping[str, Any] = static["factions"]
        self.values = tuple(static["battle_tiles"])
        self.count_top = int(static["count_top"])
        self.village_cost: Mapping[str, int] = static["terrain_rules"]["village_cost"]
        self.village_capacity: Mapping[str, int] = static["terrain_rules"]["village_capacity"]
        self._dist: dict[int, dict[int, int]] = {}

    def unit(self, faction: str, name: str) -> Mapping[str, Any]:
        unit: Mapping[str, Any] = self.factions[faction]["units"][name]
        return unit

    def is_sea(self, area: int) -> bool:
        return self.terrain[area] == "sea"

    def distances(self, src: int) -> dict[int, int]:
        d = self._dist.get(src)
        if d is None:
            d = {src: 0}
            frontier = [src]
            while frontier:
                nxt = []
                for a in frontier:
                    for b in self.adj[a]:
                        if b not in d:
                            d[b] = d[a] + 1
                            nxt.append(b)
                frontier = nxt
            self._dist[src] = d
        return d

    def unit_value(self, faction: str, name: str) -> float:
        """Rough worth of a unit on the map (one unit counts one VP to whoever beats it)."""
        u = self.unit(faction, name)
        m = u["modifier"]
        base = 1.0
        if m:
            weight = 1.0 if m["when"] == "always" and not m["terrain"] and not m["against"] else 0.5
            base += m["value"] * weight
        if u["base"] in ("leader",):
            base += 0.5
        return base

    def modifiers(self, faction: str, units: Mapping[str, int], area: int, attacking: bool,
                  enemy_faction: str | None, enemy_units: Mapping[str, int]) -> int:
        return battle_modifier(self.static, faction, units, self.terrain[area], attacking, enemy_faction, enemy_units)

    def attack_odds(self, att_f: str, att: Mapping[str, int], def_f: str, dfn: Mapping[str, int], area: int) -> float:
        return attack_win_probability(self.static, att_f, att, def_f, dfn, self.terrain[area])


# ----------------------------------------------------------------------------------------------
# reading an observation
# ----------------------------------------------------------------------------------------------
class View:
    """Convenient lookups over one observation."""

    def __init__(self, obs: Obs, model: Model, seat: int) -> None:
        self.obs = obs
        self.model = model
        self.seat = seat
        self.faction: dict[int, str] = {p["seat"]: p["faction"] for p in obs["players"]}
        self.units: dict[int, dict[int, dict[str, int]]] = {}
        self.villages: dict[int, tuple[int, int]] = {}
        for a in obs["areas"]:
            self.units[a["id"]] = {int(s): dict(c) for s, c in a["units"].items()}
            if a["village"]:
                self.villages[a["id"]] = (a["village"]["seat"], a["village"]["count"])
        self.hand: dict[str, int] = dict(obs["hand"] or {})
        self._pips: dict[str, int] = {}
        #: best payment per cost, for this view's hand (asked once per destination otherwise)
        self.payments: dict[int, list[str] | None] = {}
        self._enemies: dict[int, dict[int, dict[str, int]]] = {}
        #: a group's readiness to attack from an area next door, per (group, area)
        self.readiness: dict[tuple[tuple[tuple[str, int], ...], int], float] = {}
        #: per area without enemies, what it offers any group (`peaceful_parts`)
        self.peaceful: dict[int, tuple[float, float, float]] = {}

    @property
    def me(self) -> str:
        return self.faction[self.seat]

    def mine(self, area: int) -> dict[str, int]:
        return self.units.get(area, {}).get(self.seat, {})

    def enemies_in(self, area: int) -> dict[int, dict[str, int]]:
        found = self._enemies.get(area)
        if found is None:
            found = self._enemies[area] = {s: c for s, c in self.units.get(area, {}).items() if s != self.seat}
        return found

    def my_areas(self) -> list[int]:
        return sorted(a for a, by in self.units.items() if self.seat in by)

    def pips(self, tile: str) -> int:
        pips = self._pips.get(tile)
        if pips is None:
            pips = self._pips[tile] = int(self.model.unit(self.me, tile)["pips"])
        return pips

    def threat(self, area: int, seat: int | None = None) -> float:
        """Strength of other players' units next to (or in) an area."""
        who = self.seat if seat is None else seat
        total = 0.0
        for b in [area, *self.model.adj[area]]:
            for s, c in self.units.get(b, {}).items():
                if s != who:
                    total += sum(self.model.unit_value(self.faction[s], u) * n for u, n in c.items()
                                 if self.model.unit(self.faction[s], u)["base"] not in ("castle", "citadel"))
        return total

    def strength(self, seat: int) -> float:
        f = self.faction[seat]
        return sum(self.model.unit_value(f, u) * n for by in self.units.values() for s, c in by.items()
                   if s == seat for u, n in c.items())


def evaluate(obs: Obs, model: Model, seat: int) -> float:
    """Static value of a position for `seat`: own prospects minus the best opponent's."""
    view = View(obs, model, seat)
    remaining = max(0, obs["regroup_target"] - obs["players"][seat]["regroups"])

    def prospects(s: int) -> float:
        p = obs["players"][s]
        f = view.faction[s]
        bonus = end_of_game_bonus(model.static, f, p["captured_villages"], p["captured_citadels"])
        value: float = float(p["vp"] + bonus)
        value += float(p["villages_on_map"]) * (1.0 + 0.6 * remaining)
        value += 0.45 * view.strength(s)
        exposed = 0.0
        for a, (owner, n) in view.villages.items():
            if owner == s and not view.units.get(a, {}).get(s):
                t = view.threat(a, s)
                if t:
                    exposed += n * min(1.0, t / 3)
        value -= 0.6 * exposed
        return value

    mine = prospects(seat)
    others = [prospects(s) for s in range(len(obs["players"])) if s != seat and view.faction[s]]
    return mine - (max(others) if others else 0.0)


# ----------------------------------------------------------------------------------------------
# the policy
# ----------------------------------------------------------------------------------------------
#: A build or move is worth a main action only above this score (else the actions end).
MAIN_ACTION_THRESHOLD = 0.6

FACTION_PREFERENCE = ("dragon_riders", "horse_lords", "hill_folk", "corsairs", "necromancers", "chaos_horde")


class BloodstonesPolicy:
    def __init__(self, **options: Any) -> None:
        self.attack_threshold = float(options.get("attack_threshold", 0.62))
        #: how many of its best builds and moves it offers a searcher as plans
        self.plan_width = int(options.get("plan_width", 3))
        self.plan: list[str] = []
        self.plan_at = -1
        self.model: Model | None = None
        self.model_key: str | None = None
        self.moves_this_turn = 0
        self.turn_marker: tuple[int, int] = (-1, -1)
        #: where this turn's entries of the seat begin in the history (see `origins`)
        self.turn_from = 0

    # -- entry --------------------------------------------------------------------------------
    def choose(self, state: State, seat: int, rng: Rng) -> Action:
        legal = state.legal_actions()
        by_text = {str(a): a for a in legal}
        if self.plan and self.plan_at == len(state.history) and self.plan[0] in by_text:
            text = self.plan.pop(0)
            self.plan_at += 1
            return by_text[text]
        self.plan = []
        self.know(state)
        obs = state.policy_observation(seat)
        if self.new_turn(state, obs, seat):
            self.moves_this_turn = 0
        texts = self.decide(state, obs, seat, legal, rng)
        if not texts or texts[0] not in by_text:
            return self.fallback(legal, rng)
        self.plan = texts[1:]
        self.plan_at = len(state.history) + 1
        return by_text[texts[0]]

    def new_turn(self, state: State, obs: Obs, seat: int) -> bool:
        """Note the turn (True when it is a new one): where the seat's entries of this turn
        begin in the history. Seen first in the middle of a turn (a searcher's fresh copy), the
        turn is taken to begin after the last entry of another seat."""
        marker = (obs["turns_taken"], obs["active"])
        if marker == self.turn_marker:
            return False
        self.turn_marker = marker
        i = len(state.history)
        while i > 0 and state.history_seats[i - 1] in (seat, None):
            i -= 1
        self.turn_from = i
        return True

    def origins(self, state: State, seat: int) -> dict[int, set[int]]:
        """Per area, where the seat's units that moved there this turn started it (the seat's
        own `move A u` ... `to D` entries since the turn began; the seat knows its own moves).

        *Why:* a move judged only by where it ends can be judged good both ways: greedy moved
        its dragon 27 -> 26 -> 27 -> 26 in one turn, paying tiles each time (issue 21)."""
        found: dict[int, set[int]] = {}
        picked: int | None = None
        for text, who in zip(state.history[self.turn_from:], state.history_seats[self.turn_from:], strict=True):
            if who != seat:
                continue
            words = str(text).split()
            if len(words) >= 2 and words[0] == "move" and words[1].isdigit():
                picked = int(words[1])
            elif len(words) >= 2 and words[0] == "to" and words[1].isdigit() and picked is not None:
                dest = int(words[1])
                found.setdefault(dest, set()).update(found.get(picked, {picked}))
                picked = None
            elif words and words[0] == CANCEL:
                picked = None
        return found

    def know(self, state: State) -> Model:
        """The static facts of this game (rebuilt only when the game or its parameters change)."""
        key = state.game.id + repr(sorted(state.game.params_dict().items()))
        if self.model is None or self.model_key != key:
            self.model = Model(state.game.static_info())
            self.model_key = key
        return self.model

    def fork(self) -> BloodstonesPolicy:
        fresh = BloodstonesPolicy(attack_threshold=self.attack_threshold, plan_width=self.plan_width)
        fresh.model, fresh.model_key = self.model, self.model_key
        return fresh

    def plans(self, state: State, seat: int, rng: Rng) -> list[list[str]] | None:
        """The compound actions this policy weighs at the start of a step, its own choice first:
        in the main actions its best `plan_width` builds and moves by its score, and ending the
        actions; captures and villages as planned or none. Battles, set-up and single steps are
        left to the searcher (None)."""
        del rng  # the candidates are ranked by score; ties keep the order they were found in
        legal = state.legal_actions(seat)
        model = self.know(state)
        obs = state.policy_observation(seat)
        if obs["battle"] is not None or obs["pending"] is not None:
            return None
        view = View(obs, model, seat)
        kinds = {a.kind for a in legal}
        phase = obs["phase"]
        self.new_turn(state, obs, seat)
        plans: list[list[str]] = []
        if phase == "main_actions" and "battle" not in kinds:
            if "capture" in kinds:
                capture = self.capture_plan(view, legal, "")
                if capture and capture[0]:
                    plans.append(capture)
            ranked = self.main_candidates(state, view, legal)
            if ranked and ranked[0][0] > MAIN_ACTION_THRESHOLD:
                plans.append(ranked[0][1])
            plans.append(["done"])
            plans.extend(plan for _, plan in ranked[: self.plan_width])
        elif phase == "capture_villages":
            plans = [self.capture_plan(view, legal, "done"), ["done"]]
        elif phase == "construct_villages":
            plans = [self.village_plan(view, legal), ["done"]]
        else:
            return None
        unique: list[list[str]] = []
        for plan in plans:
            if plan and plan not in unique:
                unique.append(plan)
        return unique

    def fallback(self, legal: Sequence[Action], rng: Rng) -> Action:
        for kind in ("done", "keep", "stay"):
            for a in legal:
                if a.kind == kind:
                    return a
        useful = [a for a in legal if a.kind != CANCEL] or list(legal)
        return rng.choice(useful)

    def decide(self, state: State, obs: Obs, seat: int, legal: Sequence[Action], rng: Rng) -> list[str]:
        assert self.model is not None
        view = View(obs, self.model, seat)
        kinds = {a.kind for a in legal}
        battle = obs["battle"]
        if battle is not None:
            return self.battle_decision(view, battle, legal)
        if obs["pending"] is not None and CANCEL in kinds:
            return [CANCEL]
        phase = obs["phase"]
        if phase == "choose_faction":
            options = [str(a.args[0]) for a in legal]
            best = min(options, key=lambda f: FACTION_PREFERENCE.index(f) if f in FACTION_PREFERENCE else 99)
            return [f"faction {best}"]
        if phase == "place_citadel":
            return [f"citadel {self.pick_home(view, [int(a.args[0]) for a in legal], rng)}"]
        if phase == "place_horde":
            return [f"start {self.pick_home(view, [int(a.args[0]) for a in legal], rng)}"]
        if phase == "setup_build":
            return [self.setup_build(view, legal)]
        if phase == "capture_villages":
            return self.capture_plan(view, legal, "done")
        if phase == "move_undead":
            return [self.undead_step(view, legal)]
        if phase == "main_actions":
            return self.main_plan(state, view, legal)
        if phase == "construct_villages":
            return self.village_plan(view, legal)
        if phase == "final_battles":
            return [self.pick_battle(view, legal)]
        if phase == "horde_recovery":
            places = [a for a in legal if a.kind == "place"]
            if not places:
                return ["done"]
            best_place = max(places, key=lambda a: (-self.cost_of_build(view, str(a.args[0])),
                                               self.capture_potential(view, int(a.args[1]))))
            unit = str(best_place.args[0])
            return [str(best_place), *self.pay_build_texts(view, unit, self.cost_of_build(view, unit))]
        return []

    # -- set-up -------------------------------------------------------------------------------
    def pick_home(self, view: View, options: list[int], rng: Rng) -> int:
        model = view.model

        def score(a: int) -> float:
            d = model.distances(a)
            s = 0.0
            for b, dist in d.items():
                if dist == 0 or dist > 2:
                    continue
                t = model.terrain[b]
                w = 1.0 if dist == 1 else 0.5
                s += w * {"plains": 2.0, "forest": 1.0, "hills": 1.2, "sea": 0.4}.get(t, -0.5)
            if model.terrain[a] == "hills":
                s += 1.0
            others = [p["citadel_area"] for p in view.obs["players"] if p["citadel_area"] is not None]
            if others:
                s += 0.4 * min(min(d.get(o, 9), 6) for o in others)
            return s + 0.01 * rng.random()

        return max(options, key=score)

    def setup_build(self, view: View, legal: Sequence[Action]) -> str:
        builds = [a for a in legal if a.kind == "build"]
        if not builds:
            return "done"
        model = view.model

        def score(a: Action) -> tuple[float, float]:
            unit = str(a.args[0])
            info = model.unit(view.me, unit)
            value = model.unit_value(view.me, unit)
            cost = float(info["build_cost"] or 0)
            if info["base"] == "ship" and view.me != "corsairs":
                value -= 0.5
            if info["base"] == "castle":
                cost -= 1.5  # immobile: one castle guards the citadel, armies win games
            return (cost, value)

        return str(max(builds, key=score))

    # -- captures and villages ----------------------------------------------------------------
    def capture_plan(self, view: View, legal: Sequence[Action], skip: str) -> list[str]:
        options = sorted({int(a.args[0]) for a in legal if a.kind == "capture"})
        if not options:
            return [skip]
        best_tile = max(view.hand, key=view.pips)
        budget = view.pips(best_tile)
        chosen: list[int] = []
        spent = 0
        counts = {a: view.villages[a][1] for a in options}
        for a in sorted(options, key=lambda x: view.model.village_cost[view.model.terrain[x]]):
            c = view.model.village_cost[view.model.terrain[a]]
            for _ in range(counts[a]):
                if spent + c <= budget:
                    chosen.append(a)
                    spent += c
        if not chosen:
            return [skip]
        tile = self.cheapest_tile(view, spent)
        return [*(f"capture {a}" for a in chosen), f"pay {tile}"]

    def village_plan(self, view: View, legal: Sequence[Action]) -> list[str]:
        options = [int(a.args[0]) for a in legal if a.kind == "village"]
        if not options or not view.hand:
            return ["done"]
        model = view.model
        budget = max(view.pips(t) for t in view.hand)

        def score(a: int) -> float:
            return -model.village_cost[model.terrain[a]] * 2 - view.threat(a) + (0.5 if view.mine(a) else 0)

        chosen: list[int] = []
        spent = 0
        taken: Counter[int] = Counter()
        # villages placed now extend what is allowed next; ask the engine only once and be modest
        for a in sorted(options, key=score, reverse=True):
            cost = model.village_cost[model.terrain[a]]
            cap = model.village_capacity[model.terrain[a]] - (view.villages.get(a, (0, 0))[1])
            supply = view.obs["players"][view.seat]["village_supply"]
            while spent + cost <= budget and taken[a] < cap and len(chosen) < supply:
                chosen.append(a)
                taken[a] += 1
                spent += cost
        if not chosen:
            return ["done"]
        return [*(f"village {a}" for a in chosen), f"pay {self.cheapest_tile(view, spent)}"]

    def cheapest_tile(self, view: View, need: int) -> str:
        ok = [t for t in view.hand if view.pips(t) >= need]
        return min(ok, key=lambda t: (view.pips(t), self.keep_value(view, t)))

    def keep_value(self, view: View, tile: str) -> float:
        info = view.model.unit(view.me, tile)
        v = view.pips(tile) * 0.3
        if info["buildable"]:
            v += view.model.unit_value(view.me, tile) * 0.4
        return v

    # -- undead -------------------------------------------------------------------------------
    def undead_step(self, view: View, legal: Sequence[Action]) -> str:
        best, best_score = "done", 0.0
        for a in legal:
            if a.kind != "undead":
                continue
            dst = int(a.args[1])
            score = 0.0
            v = view.villages.get(dst)
            if v and v[0] != view.seat and not view.enemies_in(dst):
                score += 1.5 * v[1]
            if view.enemies_in(dst):
                score -= 2.0
            if score > best_score:
                best, best_score = str(a), score
        return best

    # -- battles ------------------------------------------------------------------------------
    def battle_decision(self, view: View, battle: Mapping[str, Any], legal: Sequence[Action]) -> list[str]:
        model = view.model
        step = battle["step"]
        area = battle["area"]
        att, dfn = battle["attacker"], battle["defender"]
        att_units = view.units.get(area, {}).get(att, {})
        def_units = view.units.get(area, {}).get(dfn, {})
        if step == "withdraw":
            p_att = model.attack_odds(view.faction[att], att_units, view.faction[dfn], def_units, area)
            if p_att > 0.6:
                dests = [int(a.args[0]) for a in legal if a.kind == "withdraw"]
                if dests:
                    return [f"withdraw {self.safest(view, dests)}"]
            return ["stay"]
        if step == "substitute":
            return [self.substitution(view, battle, legal)]
        if step == "casualty":
            units = [str(a.args[0]) for a in legal]
            return [f"casualty {min(units, key=lambda u: model.unit_value(view.me, u))}"]
        if step == "retreat":
            dests = [int(a.args[0]) for a in legal]
            return [f"retreat {self.safest(view, dests)}"]
        if step == "raise":
            return [str(max(legal, key=lambda a: int(a.args[0])))]
        return []

    def substitution(self, view: View, battle: Mapping[str, Any], legal: Sequence[Action]) -> str:
        me = battle["sides"][0] if battle["attacker"] == view.seat else battle["sides"][1]
        other = battle["sides"][1] if battle["attacker"] == view.seat else battle["sides"][0]
        tiles = sorted(me["tiles"] or [], reverse=True)
        if not tiles or not view.hand:
            return "keep"
        top = view.model.count_top
        base = sum(tiles[:top])
        options = []
        for a in legal:
            if a.kind != "substitute":
                continue
            t = str(a.args[0])
            new = fighting_values(tiles, view.pips(t))
            options.append((sum(new[:top]) - base, -self.keep_value(view, t), str(a)))
        if not options:
            return "keep"
        gain, _, best = max(options)
        if other["tiles"] is not None:
            # a Corsair sees the other side's tiles: substitute only when it changes the outcome
            area = battle["area"]
            attacking = battle["attacker"] == view.seat
            foe = battle["defender"] if attacking else battle["attacker"]
            my_units = view.units.get(area, {}).get(view.seat, {})
            foe_units = view.units.get(area, {}).get(foe, {})
            mine = view.model.modifiers(view.me, my_units, area, attacking, view.faction[foe], foe_units)
            theirs_mod = view.model.modifiers(view.faction[foe], foe_units, area, not attacking, view.me, my_units)
            sub = other["substitute"]
            theirs_tiles = fighting_values(
                other["tiles"], int(view.model.unit(view.faction[foe], sub)["pips"]) if sub else None
            )
            theirs = sum(theirs_tiles[:top]) + theirs_mod
            now = base + mine
            if now > theirs:
                return "keep"
            return best if now + gain > theirs or (now + gain == theirs and not attacking) else "keep"
        return best if gain >= 2 else "keep"

    def safest(self, view: View, dests: list[int]) -> int:
        def score(a: int) -> float:
            s = -view.threat(a)
            if view.mine(a):
                s += 2
            v = view.villages.get(a)
            if v and v[0] == view.seat:
                s += 1
            return s

        return max(dests, key=score)

    def pick_battle(self, view: View, legal: Sequence[Action]) -> str:
        battles = [a for a in legal if a.kind == "battle"]
        if not battles:
            return "done"
        model = view.model

        def odds(a: Action) -> float:
            area, foe = int(a.args[0]), int(a.args[1])
            foes = view.enemies_in(area).get(foe, {})
            return model.attack_odds(view.me, view.mine(area), view.faction[foe], foes, area)

        return str(max(battles, key=odds))

    # -- main actions -------------------------------------------------------------------------
    def main_plan(self, state: State, view: View, legal: Sequence[Action]) -> list[str]:
        kinds = {a.kind for a in legal}
        if "battle" in kinds:
            return [self.pick_battle(view, legal)]
        if "capture" in kinds:  # the Chaos Horde's main-action capture
            plan = self.capture_plan(view, legal, "")
            if plan and plan[0]:
                return plan
        if self.moves_this_turn >= 6:
            return ["done"]
        ranked = self.main_candidates(state, view, legal)
        if ranked and ranked[0][0] > MAIN_ACTION_THRESHOLD:
            self.moves_this_turn += 1
            return ranked[0][1]
        return ["done"]

    def main_candidates(self, state: State, view: View, legal: Sequence[Action]) -> list[tuple[float, list[str]]]:
        """Every build and move this policy considers, best score first (builds before moves
        on equal scores, as the greedy choice always took them)."""
        candidates = [*self.build_candidates(view, legal), *self.move_candidates(state, view, legal)]
        order = sorted(range(len(candidates)), key=lambda i: (-candidates[i][0], i))
        return [candidates[i] for i in order]

    def reserve(self, view: View) -> int:
        """Pips kept back for constructing villages at the end of the turn."""
        if view.me == "chaos_horde" or view.obs["players"][view.seat]["village_supply"] == 0 or not view.hand:
            return 0
        return max(view.pips(t) for t in view.hand)

    def cost_of_build(self, view: View, unit: str) -> int:
        return int(view.model.unit(view.me, unit)["build_cost"] or 0)

    def pay_build_texts(self, view: View, unit: str, cost: int) -> list[str]:
        hand = Counter(view.hand)
        if unit in hand:
            hand[unit] -= 1
        tiles = sorted((t for t, n in hand.items() for _ in range(n)), key=lambda t: self.keep_value(view, t))
        return [f"pay {t}" for t in tiles[:cost]]

    def build_candidates(self, view: View, legal: Sequence[Action]) -> list[tuple[float, list[str]]]:
        out = []
        hand_n = sum(view.hand.values())
        model = view.model
        for a in legal:
            if a.kind != "build":
                continue
            unit, area = str(a.args[0]), int(a.args[1])
            if unit == "cutiecorn":
                cost = 2
                value = 2.5
            else:
                cost = self.cost_of_build(view, unit)
                value = model.unit_value(view.me, unit)
            if hand_n - 1 - cost < 2:
                continue
            info = model.unit(view.me, unit)
            threat = view.threat(area)
            score = value * (0.55 + 0.25 * min(threat, 4)) - 0.55 * cost - 0.35
            if info["base"] == "ship" and view.me not in ("corsairs",):
                score -= 0.6
            if info["base"] in ("castle",) and threat < 1:
                score -= 1.0
            if info["pips"] >= 5 and info["base"] in ("resources",):
                continue
            plan = [str(a), *self.pay_build_texts(view, unit, cost)]
            out.append((score, plan))
        return out

    def capture_potential(self, view: View, area: int) -> float:
        v = view.villages.get(area)
        s = 0.0
        if v and v[0] != view.seat:
            s += v[1]
        for b in view.model.adj[area]:
            vb = view.villages.get(b)
            if vb and vb[0] != view.seat:
                s += 0.3 * vb[1]
        return s

    def move_candidates(self, state: State, view: View, legal: Sequence[Action]) -> list[tuple[float, list[str]]]:
        model = view.model
        starts: dict[int, list[str]] = {}
        for a in legal:
            if a.kind == "move":
                starts.setdefault(int(a.args[0]), []).append(str(a.args[1]))
        budget = sum(view.pips(t) * n for t, n in view.hand.items()) - self.reserve(view)
        if budget <= 0:
            return []
        out: list[tuple[float, list[str]]] = []
        came_from = self.origins(state, view.seat)
        for area, _ in starts.items():
            here = view.mine(area)
            movable = {u: n for u, n in here.items() if moves_in_main_actions(unit_base(model.static, view.me, u))}
            groups = [movable]
            if sum(movable.values()) >= 2:
                weakest = min(movable, key=lambda u: model.unit_value(view.me, u))
                rest = dict(movable)
                rest[weakest] -= 1
                if not rest[weakest]:
                    del rest[weakest]
                groups.append(rest)
                strongest_one = {max(movable, key=lambda u: model.unit_value(view.me, u)): 1}
                groups.append(strongest_one)
            back = came_from.get(area, set())
            for group in groups:
                out.extend(self.evaluate_group(state, view, area, group, budget, back))
        return out

    def evaluate_group(self, state: State, view: View, area: int, group: Mapping[str, int],
                       budget: int, back: set[int] | frozenset[int] = frozenset()) -> list[tuple[float, list[str]]]:
        """Each destination worth moving `group` from `area` to, with its plan; never back to
        an area its units started this turn from (`back`) unless that gains something there (a
        battle, an enemy village): else two ends of a shuttle each look good and are paid twice."""
        model = view.model
        sel = [f"move {area} {u}" for u, n in sorted(group.items()) for _ in range(n)]
        probe = state.clone()
        # every movable unit of the area may join the group (the legal `move` actions say so),
        # so the selection is applied unchecked and verified once on the observation after it
        for u, n in sorted(group.items()):
            for _ in range(n):
                probe.apply_unchecked(Action.of("move", area, u))
        pending = probe.policy_observation(view.seat)["pending"]
        if pending is None or pending.get("group") != dict(group) or pending.get("group_area") != area:
            return []
        # every destination with its cost, as the observation states it for the selected group
        # (in the order of the legal `to` actions, by the destination's text, as before)
        reach = {int(d): int(c) for d, c in sorted((pending or {}).get("reach", {}).items()) if int(c) <= budget}
        my_value = sum(model.unit_value(view.me, u) * n for u, n in group.items())
        leaving_exposed = 0.0
        v_here = view.villages.get(area)
        remaining = {u: n - group.get(u, 0) for u, n in view.mine(area).items() if n - group.get(u, 0) > 0}
        if ((v_here and v_here[0] == view.seat) or "citadel" in view.mine(area)) and not remaining:
            leaving_exposed = view.threat(area) * 0.4 * (v_here[1] if v_here else 2)
        out = []
        for dest, cost in reach.items():
            if dest in back and not self.gains_there(view, dest):
                continue
            score = self.destination_value(view, dest, group, my_value)
            if score <= 0.3:
                continue
            pay = self.payment(view, cost)
            if pay is None:
                continue
            score -= 0.12 * cost + leaving_exposed
            out.append((score, [*sel, f"to {dest}", *(f"pay {t}" for t in pay)]))
        return out

    @staticmethod
    def gains_there(view: View, dest: int) -> bool:
        """A move into `dest` gains something beyond where it stands: a battle, or an enemy
        village to take."""
        village = view.villages.get(dest)
        return bool(view.enemies_in(dest)) or (village is not None and village[0] != view.seat)

    def destination_value(self, view: View, dest: int, group: Mapping[str, int], my_value: float) -> float:
        model = view.model
        enemies = view.enemies_in(dest)
        if enemies:
            foe, foe_units = max(enemies.items(), key=lambda kv: sum(kv[1].values()))
            mine = Counter(view.mine(dest))
            mine.update(group)
            p = model.attack_odds(view.me, mine, view.faction[foe], foe_units, dest)
            if p < self.attack_threshold:
                return -1.0
            prize = sum(foe_units.values()) + self.capture_potential(view, dest) * 0.6
            if view.me == "corsairs":
                prize += 1
            dragons = sum(n for u, n in group.items() if model.unit(view.me, u)["base"] == "dragon")
            loss = 1.2 + 0.3 * my_value
            return p * (prize - dragons * 2.5) - (1 - p) * loss
        if model.terrain[dest] == "desert" and not all(
                model.unit(view.me, u)["may_stay_in_desert"] for u in group):
            return -5.0
        parts = view.peaceful.get(dest)
        if parts is None:
            parts = view.peaceful[dest] = self.peaceful_parts(view, dest)
        village, room, defence = parts
        score = 0.0 + village
        # readiness to attack next turn: weak enemy stacks next door
        key = tuple(sorted(group.items()))
        for b in model.adj[dest]:
            ready = view.readiness.get((key, b))
            if ready is None:
                ready = 0.0
                for s, c in view.enemies_in(b).items():
                    p = model.attack_odds(view.me, group, view.faction[s], c, b)
                    if p >= self.attack_threshold:
                        ready += 0.35 * sum(c.values())
                view.readiness[(key, b)] = ready
            score += ready
        score += room
        score += defence
        return score - 0.35

    def peaceful_parts(self, view: View, dest: int) -> tuple[float, float, float]:
        """What an area without enemies offers any group (asked once per area and view): an
        enemy village to take, room for new villages around it, an own village to guard."""
        model = view.model
        village = 0.0
        v = view.villages.get(dest)
        if v and v[0] != view.seat:
            village = 1.1 * v[1] * (2 if view.me == "chaos_horde" else 1) - 0.3 * view.threat(dest)
        room = 0.0
        if view.me != "chaos_horde" and not model.is_sea(dest):
            free = [b for b in model.adj[dest] if model.village_capacity.get(model.terrain[b], 0)
                    and b not in view.villages and not view.units.get(b)]
            room = 0.12 * len(free)
        defence = 0.0
        vd = view.villages.get(dest)
        if vd and vd[0] == view.seat and not view.mine(dest):
            defence = 0.5 * min(view.threat(dest), 3)
        return village, room, defence

    def payment(self, view: View, cost: int) -> list[str] | None:
        if cost not in view.payments:
            view.payments[cost] = self._payment(view, cost)
        return view.payments[cost]

    def _payment(self, view: View, cost: int) -> list[str] | None:
        tiles = [t for t, n in sorted(view.hand.items()) for _ in range(n)]
        best: tuple[float, list[str]] | None = None
        for r in range(1, len(tiles) + 1):
            for combo in itertools.combinations(tiles, r):
                pips = sum(view.pips(t) for t in combo)
                if pips < cost:
                    continue
                waste = pips - cost
                keep = sum(self.keep_value(view, t) for t in combo)
                key = waste * 1.0 + keep
                if best is None or key < best[0]:
                    best = (key, list(combo))
            if best is not None and r >= 2:
                break
        return None if best is None else best[1]


def make_policy(**options: Any) -> BloodstonesPolicy:
    return BloodstonesPolicy(**options)
