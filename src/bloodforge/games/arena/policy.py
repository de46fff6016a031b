"""The greedy Champion policy (`Game.policy()`): observation, legal actions and static info only.

It plays like an eager brawler: take all energy, invoke when it unlocks Triples, use every
free bonus, close in on the weakest reachable enemy, hit it with the strongest attack, push
foes into walls and each other, and answer NPC questions against the NPC's interest.

It is also a `PlanningPolicy` for the search agent (`plans`): its few best-scored actions
as one-step plans, its own choice first, and only its own choice where the choice is
clear-cut (taking Blood Energy), so the search spends its time on the decisions that matter.

Option `shy` (a way of playing for the search's `portfolio` and a model of such an opponent
for its `opponent_policy_options`): while an enemy Boss or Rival stands, `choose` moves only
to put more room between us and the nearest of them, never toward them; everything else is
the greedy policy's (it still hits whatever is in Range). *Why:* the greedy policy always
closes in on the Boss, so a search that knows only it can neither stay out of a fight it
should leave to another Champion nor expect an opponent to do so, as OpenSpiel's IS-MCTS bot
did in the arena games `mcts` lost (docs/lab.md, "The arena, read").
"""

from __future__ import annotations

from typing import Any

from bloodforge.core import Action, Rng, State

from .queries import Hex, distance, parse_hex

RANK = {"singles": 1, "doubles": 2, "triples": 3}


#: Actions the search does not weigh: the policy's choice is clear-cut (a rolled Blood Energy
#: die is always worth taking: Energy pays for pacts and the Ultimate and the die stays).
CLEAR_CUT = frozenset({"energy"})

#: How many of the policy's best actions the search weighs at a decision (option `plan_width`).
PLAN_WIDTH = 4


class ArenaPolicy:
    def __init__(self, **options: Any) -> None:
        self.options = options
        self.plan_width = int(options.get("plan_width", PLAN_WIDTH))
        self.shy = bool(options.get("shy", False))
        self._info: tuple[object, dict[str, Any]] | None = None

    def _view(self, state: State, seat: int) -> _View:
        # the observation's facts without the words for people (observe(words=False))
        facts = getattr(state, "observation_facts", None)  # the arena's state; else the contract's
        obs: dict[str, Any] = facts(seat) if facts is not None else state.observation(seat)
        if self._info is None or self._info[0] is not state.game:
            self._info = (state.game, state.game.static_info())
        return _View(obs, self._info[1], seat, shy=self.shy)

    def choose(self, state: State, seat: int, rng: Rng) -> Action:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        view = self._view(state, seat)
        best = max(legal, key=lambda a: (view.score(a), -legal.index(a)))
        del rng
        return best

    def plans(self, state: State, seat: int, rng: Rng) -> list[list[str]] | None:
        """The search's options here: the `plan_width` best-scored legal actions, each a
        one-step plan, the policy's own choice (what `choose` plays) first; only that choice
        when it is clear-cut (`CLEAR_CUT`). None when there is nothing to choose."""
        del rng
        legal = state.legal_actions(seat)
        if len(legal) < 2:
            return None
        view = self._view(state, seat)
        ranked = sorted(range(len(legal)), key=lambda i: (-view.score(legal[i]), i))
        best = legal[ranked[0]]
        if best.kind in CLEAR_CUT:
            return [[str(best)]]
        return [[str(legal[i])] for i in ranked[: max(1, self.plan_width)]]

    def fork(self) -> ArenaPolicy:
        """A fresh policy for one rollout (this one keeps no game memory; the static facts
        are shared)."""
        new = ArenaPolicy(**self.options)
        new._info = self._info
        return new


class _View:
    def __init__(self, obs: dict[str, Any], info: dict[str, Any], seat: int, shy: bool = False) -> None:
        self.shy = shy
        self._threats: list[tuple[Hex, int]] | None = None
        self.obs = obs
        self.info = info
        self.units = {u["id"]: u for u in obs["units"]}
        self.me = next(u for u in obs["units"] if u["seat"] == seat)
        self.cells = {h["id"] for h in info["board"]["hexes"]}
        self.champ = next(c for c in info["champions"] if c["id"] == self.me["id"])

    # -- helpers ----------------------------------------------------------------------------------
    def threats(self) -> list[tuple[Hex, int]]:
        """Every enemy Boss or Rival on the board with how far it can strike this turn
        (Movement + Range, with its turn modifiers); worked out once per view (a view scores
        every legal move)."""
        if self._threats is not None:
            return self._threats
        stats = {c["id"]: c for c in (*self.info["bosses"], *self.info["champions"])}
        found = []
        for u in self.enemies():
            if u["seat"] is None and u["kind"] in ("boss", "rival") and u["id"] in stats:
                base, mods = stats[u["id"]], u["mods"]
                reach = base["movement"] + mods.get("movement", 0) + base["range"] + mods.get("range", 0)
                found.append((self.hexof(u), max(0, int(reach))))
        self._threats = found
        return found

    def enemies(self) -> list[dict[str, Any]]:
        return [u for u in self.obs["units"] if u["alive"] and u["hex"] and u["side"] != self.me["side"]
                and u["hp"] is not None]

    def hexof(self, u: dict[str, Any]) -> Hex:
        h = parse_hex(u["hex"])
        assert h is not None
        return h

    def reach(self) -> int:
        """The Range every attack of ours has (the board's, with this turn's modifiers)."""
        return max(0, int(self.champ["range"] + self.me["mods"].get("range", 0)))

    def hits_something(self, atk: dict[str, Any]) -> bool:
        """Would this attack find an enemy in Range now (from us or from its minions)?"""
        r = self.reach() + atk["range_bonus"]
        if atk["origin"] == "self":
            spots = [self.hexof(self.me)]
        else:
            spots = [self.hexof(u) for u in self.obs["units"] if u["alive"] and u["hex"]
                     and u["summoner"] == self.me["id"] and u["id"].rstrip("0123456789") == atk["origin"]]
        return any(distance(s, self.hexof(e)) <= r for s in spots for e in self.enemies())

    def nearest_enemy_distance(self, h: Hex) -> int:
        foes = self.enemies()
        return min((distance(h, self.hexof(e)) for e in foes), default=0)

    def prey(self) -> dict[str, Any] | None:
        """Whom to hunt: an enemy Boss while one stands (it wins if the Champions wear each
        other down), else the weakest enemy."""
        foes = self.enemies()
        if not foes:
            return None
        return min(foes, key=lambda e: (e["kind"] != "boss", e["hp"], e["id"]))

    def weakest_distance(self, h: Hex) -> int:
        prey = self.prey()
        return 0 if prey is None else distance(h, self.hexof(prey))

    # -- scoring ----------------------------------------------------------------------------------
    def score(self, a: Action) -> float:
        k = a.kind
        if k == "choose":
            return self.score_choice(a.args[0])
        if k == "pick":
            card = next(c for c in self.champ["cards"] if c["id"] == a.args[0])
            return float(10 - card["speed"] + (3 if card.get("immediate") else 0))
        if k == "place":
            h = parse_hex(a.args[0])
            assert h is not None
            return -self.nearest_enemy_distance(h) if self.enemies() else -distance(h, (0, 0))
        if k == "energy":
            return 100
        if k == "invoke":
            return 90 if self.me["rolled"] != "triples" and not self.me["attacked"] else -1
        if k in ("bonus", "spell"):
            return 80
        if k == "pact":
            pact = next(p for p in self.champ["pacts"] if p["id"] == a.args[0])
            heals = any(e["op"] == "heal" for o in pact["ability"]["options"] for e in o)
            if heals:
                return 70 if self.me["hp"] < 0.7 * self.me["max_hp"] else -5
            spare = self.me["energy"] - pact["cost"] >= self.champ["ultimate_cost"] or self.me["invoked"]
            return 60 if spare else -5
        if k == "target":
            t = self.units[a.args[0]]
            return 50 + 1000 - (t["hp"] or 0) + (2000 if t["kind"] == "boss" else 0)
        if k == "done":
            return 40
        if k == "attack":
            atk = next(x for x in self.champ["attacks"] if x["id"] == a.args[0])
            if not self.hits_something(atk):
                # nobody to hit: after moving, the empty swing still earns a bonus die (R-ATT-9)
                return -2 if not self.me["moved"] else 0.5 - RANK[atk["category"]] * 0.1
            value = 30 + 5 * RANK[atk["category"]] + atk["damage"] + atk["targets_bonus"] * 3 + len(atk["effects"])
            return float(value)
        if k == "move":
            h = parse_hex(a.args[0])
            assert h is not None
            here = self.hexof(self.me)
            r = self.reach()
            threats = self.threats() if self.shy else []
            if threats:
                room = min(distance(h, at) - reach for at, reach in threats)
                now = min(distance(here, at) - reach for at, reach in threats)
                return 20 + room if room > now else -3
            if self.me["attacked"]:  # step back out of reach after the blow
                gain = self.nearest_enemy_distance(h) - self.nearest_enemy_distance(here)
                return 0.5 * gain if gain > 0 else -3
            if self.nearest_enemy_distance(here) <= r:
                return -3
            d = self.weakest_distance(h)
            return 20 - max(0, d - r) + 0.1 * min(d, r)  # in range, as far away as range allows
        if k == "minion":
            h = parse_hex(a.args[1])
            assert h is not None
            return 5 - 0.5 * self.nearest_enemy_distance(h)
        if k == "end":
            return 0
        if k == "cancel":
            return -10
        return -1

    def score_choice(self, option: str) -> float:
        p = self.obs["pending"] or {}
        kind = p.get("kind")
        if kind == "bonus_die":
            return 1 if option == "temp" else 0
        if option == "stop":
            return -0.5
        h = parse_hex(option)
        if h is not None:
            if kind == "force":
                subject = self.units[p["data"]["subject"]]
                mine = subject["side"] == self.me["side"]
                hit = self._occupant(h)
                if h not in {parse_hex(c) for c in self.cells}:
                    return -10 if mine else 10
                if hit is not None:
                    return -10 if mine else (10 if hit["side"] != self.me["side"] else 4)
                return 0
            if kind in ("npc_move", "npc_approach"):
                return distance(h, self.hexof(self.me))  # keep the NPC far from us
            if kind == "move":
                return -self.weakest_distance(h)
            return 0
        if kind == "npc_target":
            t = self.units.get(option)
            return 0 if t is None else (-10 if t["side"] == self.me["side"] else 0)
        if kind == "select":
            t = self.units.get(option)
            if t is None:
                return 0
            hostile = self._ability_hostility(str(p["data"].get("ref", "")))
            friend = t["side"] == self.me["side"]
            return (10 if friend != hostile else -10) + (t["hp"] or 0) / 1000
        if kind == "option":
            subject = self.units.get(str(p["data"].get("subject")))
            effects = self._ability_options(str(p["data"].get("ref", "")))
            idx = int(option) - 1
            if subject is None or not 0 <= idx < len(effects):
                return 0
            enemy = subject["side"] != self.me["side"]
            return sum(_effect_value(e, enemy) for e in effects[idx])
        return 0

    def _ability_options(self, ref: str) -> list[list[dict[str, Any]]]:
        """The options of an ability named by a pending decision's `ref` (static info)."""
        parts = ref.split(":")
        champ = next((c for c in self.info["champions"] if len(parts) > 2 and c["id"] == parts[1]), None)
        if champ is None:
            return []
        if parts[0] == "card":
            card = next((k for k in champ["cards"] if k["id"] == parts[2]), None)
            ability = card.get(parts[3]) if card is not None and len(parts) > 3 else None
        else:
            pact = next((k for k in champ["pacts"] if k["id"] == parts[2]), None)
            ability = pact["ability"] if pact is not None else None
        return list(ability["options"]) if ability else []

    def _ability_hostility(self, ref: str) -> bool:
        """Is this ability meant for enemies (its best option hurts them more than it helps)?"""
        options = self._ability_options(ref)
        return bool(options) and max(sum(_effect_value(e, True) for e in o) for o in options) > 0

    def _occupant(self, h: Hex) -> dict[str, Any] | None:
        for u in self.obs["units"]:
            if u["alive"] and u["hex"] and parse_hex(u["hex"]) == h:
                found: dict[str, Any] = u
                return found
        return None


def _effect_value(e: dict[str, Any], on_enemy: bool) -> float:
    """How good one effect is for us when it lands on an enemy (or, negated, on a friend)."""
    op = e["op"]
    amount = float(e.get("amount", 0))
    value = {
        "damage": 1.0 * max(amount, 3.0), "drain": 4.0, "steal_temp": 4.0, "energy": -amount,
        "heal": -amount, "speed": amount - 4.0, "discard": 2.0, "add_die": 1.0,
    }.get(op, 0.0)
    return value if on_enemy else -value
