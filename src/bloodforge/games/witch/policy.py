"""Greedy heuristic for Blood Stone (game id `witch`), for both the Soldiers and the Witch.

It looks one decision ahead through the public contract only: every legal action is tried on a
clone of a state resampled from the agent's own observation (so it never peeks at the real
deck order or the real dice), and the result is scored from the observation. A compound cast
(`cast`, `target`, `pay`) is followed to every commit; a chance roll is scored as the exact
pass probability (read from the card's Chance) times the value of a passing sample plus the
rest times a failing one. Acts that a spell grants (Manipulate) are played on greedily before
scoring, so the value of a Manipulate is the value of what the minion then does.

Scores are material (blood on each side, weighted by what a stone means to that unit) plus a
little geometry: threats to the Witch, soldiers closing in, minions engaging, and the option
value of spells and attacks still available this turn.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache
from typing import Any

from bloodforge.core import Action, Rng, State

from .queries import pass_probability as spell_pass_probability

SOLDIERS = 0
WITCH = 1
WIN = 1000.0


@dataclass
class Weights:
    """Evaluation weights; any of them can be passed as an option to `make_policy`."""

    witch_stone: float = 3.0
    witch_danger: float = 4.0  # extra per stone below `witch_safe`
    witch_safe: int = 7
    minion_alive: float = 4.0
    minion_stone: float = 2.0
    soldier_alive: float = 12.0
    soldier_stone: float = 5.0
    endgame_press: float = 0.5
    zombie_alive: float = 10.0
    zombie_stone: float = 1.0
    phantom: float = 3.0
    threat_on_witch: float = 3.0
    soldier_approach: float = 0.5
    minion_engage: float = 0.6
    witch_engage: float = 1.5
    witch_engage_range: int = 3
    option_attack_witch: float = 4.0
    option_attack_other: float = 1.0
    option_spell: float = 1.5


#: Option value of holding a castable spell this turn, by effect kind (times `option_spell`).
SPELL_OPTION = {
    "zombify": 6.0,
    "act": 2.0,
    "damage": 2.0,
    "drain": 1.5,
    "bind": 1.0,
    "heal": 0.5,
    "extra_acts": 1.5,
    "teleport": 0.3,
}


@cache
def _xy(square: str) -> tuple[int, int]:
    return ord(square[0]) - 97, int(square[1:]) - 1


def pass_probability(card: dict[str, Any], x: int, phantoms: int, blood_chance: str = "at_least") -> float:
    """Chance that the card passes (the rule is the game's exported query)."""
    chance = card["chance"]
    return spell_pass_probability(chance["kind"], chance.get("die"), chance.get("value"), x, phantoms,
                                  blood_chance)


class WitchPolicy:
    def __init__(self, samples: int = 6, lookahead: int = 6, plan_width: int = 5, **weights: float) -> None:
        self.lookahead = lookahead
        #: how many of its best first steps it offers a searcher as plans
        self.plan_width = max(1, int(plan_width))
        known = {f.name for f in fields(Weights)}
        unknown = sorted(set(weights) - known)
        if unknown:
            raise ValueError(f"unknown witch heuristic option(s) {unknown}; known: {sorted(known)}")
        self.w = Weights(**weights)  # type: ignore[arg-type]
        self.samples = max(2, int(samples))
        self._plan: list[Action] = []
        self._plan_at = -1

    # -- the decision -----------------------------------------------------------------------
    def choose(self, state: State, seat: int, rng: Rng) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if self._plan and self._plan_at == len(state.history) and self._plan[0] in legal:
            self._plan_at += 1
            return self._plan.pop(0)
        self._plan = []
        obs = state.policy_observation(seat)
        if obs["phase"] == "place":
            return self._place(obs, legal, rng)
        root = state.resample_hidden(seat, rng)
        if obs["grant"] is not None:
            # Acting with a spell's units: the greedy chain is the plan (no chance involved).
            _, _, chain = self._play_grant(root, seat)
            plan = chain or [Action("done")]
            self._plan = list(plan[1:])
            self._plan_at = len(state.history) + 1
            return plan[0]
        best_v = -float("inf")
        best: list[list[Action]] = []
        for v, plan in self._scored(root, legal, seat, rng, obs):
            if v > best_v + 1e-9:
                best_v, best = v, [plan]
            elif abs(v - best_v) <= 1e-9:
                best.append(plan)
        plan = best[rng.randbelow(len(best))] if len(best) > 1 else best[0]
        if plan[0].kind == "end":
            dead = self._dead_card(legal, obs)
            if dead is not None:
                return dead
        self._plan = list(plan[1:])
        self._plan_at = len(state.history) + 1
        return plan[0]

    def _scored(self, root: State, legal: list[Action], seat: int, rng: Rng,
                obs: dict[str, Any]) -> list[tuple[float, list[Action]]]:
        """Every legal first step (discards aside) with the value of its best completion."""
        scored: list[tuple[float, list[Action]]] = []
        for action in legal:
            if action.kind == "discard":
                continue
            if action.kind in {"cast", "target", "pay"}:
                v, plan = self._expand(root, action, seat, rng, obs)
            elif action.kind == "cancel":
                s = root.clone()
                s.apply_unchecked(action)
                v, plan = self._value(s, seat) - 0.5, [action]
            else:
                s = root.clone()
                s.apply_unchecked(action)
                v, plan = self._value(s, seat), [action]
            scored.append((v, plan))
        return scored

    def fork(self) -> WitchPolicy:
        fresh = WitchPolicy.__new__(WitchPolicy)
        fresh.__dict__.update(self.__dict__)
        fresh._plan, fresh._plan_at = [], -1
        return fresh

    def plans(self, state: State, seat: int, rng: Rng) -> list[list[str]] | None:
        """Its `plan_width` best first steps, each with its best completion (a whole cast:
        card, target, blood), best value first, and a dead card thrown away where it would end
        the turn. Set-up and granted Acts are left to the searcher step by step (None)."""
        legal = state.legal_actions(seat)
        obs = state.policy_observation(seat)
        if len(legal) == 1 or obs["phase"] == "place" or obs["grant"] is not None:
            return None
        root = state.resample_hidden(seat, rng)
        ranked = sorted(self._scored(root, legal, seat, rng, obs), key=lambda vp: -vp[0])
        plans = [[str(a) for a in plan] for _, plan in ranked[: self.plan_width]]
        if ranked and ranked[0][1][0].kind == "end":
            dead = self._dead_card(legal, obs)
            if dead is not None:
                plans.insert(0, [str(dead)])
        return plans

    @staticmethod
    def _dead_card(legal: list[Action], obs: dict[str, Any]) -> Action | None:
        """Before ending the turn, throw away a card that could not be cast now: the draw at
        the start of the next turn replaces it, so a hand never clogs with dead cards."""
        castable = {a.args[0] for a in legal if a.kind == "cast"}
        spells_left = obs["turn"]["spells_used"] < obs["turn"]["spell_limit"]
        for a in legal:
            if a.kind == "discard" and a.args[0] not in castable and spells_left:
                return a
        return None

    def _place(self, obs: dict[str, Any], legal: list[Action], rng: Rng) -> Action:
        """Setup: the Witch goes to the back of her zone, everyone else to the front."""
        toward_enemy = -1 if obs["side_to_move"] == "witch" else 1
        uid = legal[0].args[0]
        back = obs["units"][uid]["kind"] == "witch"

        def key(a: Action) -> float:
            row = _xy(a.args[1])[1] * toward_enemy
            center = abs(_xy(a.args[1])[0] - (int(obs["board"]["width"]) - 1) / 2)
            return (-row if back else row) * 10 - center + rng.random() * 0.5

        return max(legal, key=key)

    # -- compound casts ---------------------------------------------------------------------
    def _expand(
        self, state: State, action: Action, seat: int, rng: Rng, root_obs: dict[str, Any]
    ) -> tuple[float, list[Action]]:
        """Best value reachable by committing through `action`, and the steps to get there."""
        s = state.clone()
        s.apply_unchecked(action)
        obs = s.policy_observation(seat)
        if obs["pending"] is not None:
            best_v, best_plan = -float("inf"), [action]
            for nxt in s.legal_actions():
                if nxt.kind == "cancel":
                    continue
                v, plan = self._expand(s, nxt, seat, rng, root_obs)
                if v > best_v:
                    best_v, best_plan = v, [action, *plan]
            return best_v, best_plan
        event = _last_cast(obs)
        if event is None or event.get("roll") is None:
            return self._value(s, seat, obs), [action]
        card_id = self._pending_card(state, action)
        card = next((c for c in root_obs["hand"] or () if c["id"] == card_id), None)
        x = int(action.args[0]) if action.kind == "pay" else 0
        p = pass_probability(card, x, int(obs["phantoms"]), str(obs["blood_chance"])) if card else 0.5
        outcomes: dict[bool, list[float]] = {True: [], False: []}
        outcomes[bool(event["passed"])].append(self._value(s, seat, obs))
        tries = 1
        while tries < self.samples and not (outcomes[True] and outcomes[False]):
            if (p >= 1.0 and outcomes[True]) or (p <= 0.0 and outcomes[False]):
                break
            t = state.resample_hidden(seat, rng)
            t.apply_unchecked(action)
            o = t.policy_observation(seat)
            e = _last_cast(o)
            outcomes[bool(e and e.get("passed"))].append(self._value(t, seat, o))
            tries += 1
        if not outcomes[True]:
            return _mean(outcomes[False]), [action]
        if not outcomes[False]:
            return _mean(outcomes[True]), [action]
        return p * _mean(outcomes[True]) + (1 - p) * _mean(outcomes[False]), [action]

    @staticmethod
    def _pending_card(state: State, action: Action) -> str:
        if action.kind == "cast":
            return action.args[0]
        seat = state.current_player
        pending = state.policy_observation(seat).get("pending") if seat is not None else None
        return str(pending["card"]) if pending else ""

    # -- scoring ----------------------------------------------------------------------------
    def _value(self, s: State, seat: int, obs: dict[str, Any] | None = None) -> float:
        """Score after an action: play out granted Acts greedily, then evaluate."""
        if obs is None:
            obs = s.policy_observation(seat)
        if obs["grant"] is not None and s.current_player == seat:
            s, obs, _ = self._play_grant(s, seat)
        v = self.evaluate(obs, seat)
        if s.current_player == seat and obs["pending"] is None and obs["grant"] is None:
            v += self._options(s, obs, seat)
        return v

    def _play_grant(self, s: State, seat: int) -> tuple[State, dict[str, Any], list[Action]]:
        """Greedy chain through granted Acts: each step looks one attack beyond a move."""
        s = s.clone()
        chain: list[Action] = []
        for _ in range(12):
            if s.current_player != seat:
                break
            obs = s.policy_observation(seat)
            if obs["grant"] is None:
                return s, obs, chain
            scored: list[tuple[float, int, Action, State]] = []
            for i, a in enumerate(s.legal_actions()):
                t = s.clone()
                t.apply_unchecked(a)
                scored.append((self.evaluate(t.policy_observation(seat), seat), i, a, t))
            scored.sort(key=lambda item: (-item[0], item[1]))
            best_v, best_a = scored[0][0], scored[0][2]
            # A move may be worth more for the attack it sets up: look one attack beyond
            # the most promising moves only.
            for v, _, a, t in [x for x in scored if x[2].kind == "move"][: self.lookahead]:
                if t.current_player != seat:
                    continue
                for b in t.legal_actions():
                    if b.kind == "attack" and b.args[0] == a.args[0]:
                        u = t.clone()
                        u.apply_unchecked(b)
                        v = max(v, self.evaluate(u.policy_observation(seat), seat))
                if v > best_v:
                    best_v, best_a = v, a
            s.apply_unchecked(best_a)
            chain.append(best_a)
        return s, s.policy_observation(seat), chain

    def _options(self, s: State, obs: dict[str, Any], seat: int) -> float:
        """What the rest of this turn still offers: attacks in reach, castable spells."""
        w = self.w
        legal = s.legal_actions()
        total = 0.0
        if seat == SOLDIERS:
            left = obs["turn"]["acts_limit"] - obs["turn"]["acts_used"]
            units = obs["units"]
            gains: dict[str, float] = {}
            for a in legal:
                if a.kind == "attack" and units[a.args[1]]["side"] == "witch":
                    on_witch = units[a.args[1]]["kind"] == "witch"
                    g = w.option_attack_witch if on_witch else w.option_attack_other
                    gains[a.args[0]] = max(gains.get(a.args[0], 0.0), g)
            total += sum(sorted(gains.values(), reverse=True)[: max(0, left)])
        spells_left = obs["turn"]["spell_limit"] - obs["turn"]["spells_used"]
        if spells_left > 0 and obs["hand"]:
            kinds = {c["id"]: c["effect"]["kind"] for c in obs["hand"]}
            values = sorted(
                (SPELL_OPTION.get(kinds[a.args[0]], 0.5) for a in legal if a.kind == "cast"),
                reverse=True,
            )
            total += w.option_spell * sum(values[:spells_left])
        return total

    def evaluate(self, obs: dict[str, Any], seat: int) -> float:
        """Static value of an observation for `seat` (higher is better)."""
        winner = obs["winner"]
        if winner is not None:
            if winner == "draw":
                return 0.0
            return WIN if (winner == "witch") == (seat == WITCH) else -WIN
        w = self.w
        units = obs["units"]
        witch_sq = ""
        material = 0.0
        soldiers: list[dict[str, Any]] = []
        minions: list[dict[str, Any]] = []
        for u in units.values():
            if u["where"] != "board":
                continue
            kind = u["kind"]
            if kind == "witch":
                wb = u["blood"]
                witch_sq = u["square"]
                material += w.witch_stone * wb - w.witch_danger * max(0, w.witch_safe - wb)
            elif kind == "minion":
                material += w.minion_alive + w.minion_stone * u["blood"]
                minions.append(u)
            elif u["zombified"]:
                material += w.zombie_alive + w.zombie_stone * u["blood"]
            else:
                soldiers.append(u)
        # Every soldier down brings the Witch's win closer: the survivors' stones weigh more.
        total = sum(1 for u in units.values() if u["kind"] == "soldier")
        press = 1.0 + w.endgame_press * (total - len(soldiers))
        for u in soldiers:
            material -= press * (w.soldier_alive + w.soldier_stone * u["blood"])
        material -= w.phantom * int(obs["phantoms"])
        # the soldiers' squares as coordinates once: a distance from squares per pair was a third of this
        # function, which the Witch's rollouts call for every option they weigh (the same sums)
        threats = 0
        approach = 0
        spots: list[tuple[int, int]] = []
        if soldiers:
            wx, wy = _xy(witch_sq)
            for u in soldiers:
                sx, sy = _xy(u["square"])
                spots.append((sx, sy))
                d = abs(sx - wx) + abs(sy - wy)
                approach += d
                if d <= u["movement"] + u["reach"]:
                    threats += 1
        if seat == WITCH:
            engage = 0.0
            if soldiers:
                for m in minions:
                    mx, my = _xy(m["square"])
                    engage += min([abs(mx - sx) + abs(my - sy) for sx, sy in spots])
                nearest = min([abs(wx - sx) + abs(wy - sy) for sx, sy in spots])
                engage_witch = max(0, nearest - w.witch_engage_range)
            else:
                engage_witch = 0
            return (
                material
                - w.threat_on_witch * threats
                - w.minion_engage * engage
                - w.witch_engage * engage_witch
            )
        return -material + w.threat_on_witch * threats - w.soldier_approach * approach


def _last_cast(obs: dict[str, Any]) -> dict[str, Any] | None:
    for event in reversed(obs["log"]):
        if event["kind"] == "cast":
            return dict(event)
    return None


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def make_policy(**options: Any) -> WitchPolicy:
    return WitchPolicy(**options)
