"""The greedy policy: buy cavalry, take neutral land, attack where the exact odds are good.

It also buys a port and ships when rich land lies across water (and ferries troops there), air
units when crowns pile up, and retreats a defender when the exact odds say the battle is lost.

It reads only the seat's observation, its legal actions, `static_info()` and the exported odds
query (`odds.battle_odds`); face-down enemy pieces are assumed to be cavalry (the strongest land
defender per supply), so it never needs the hidden truth.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from bloodforge.core import Action, Rng, State

from .queries.odds import battle_odds
from .queries.stats import UnitData

ATTACK_THRESHOLD = 0.7
RETREAT_THRESHOLD = 0.25
# a defender leaves when the attacker wins at least this often from here on (the attack of
# opportunity costs about one unit per three attackers, standing to the end costs them all)
DEFENDER_RETREAT_THRESHOLD = 0.85
SEA_FROM_ROUND = 4  # the first rounds' crowns go to the land next door
MAX_SHIPS = 3  # enough to ferry six land units; more only feeds the supply track
# kingmaking defence (issue 20 item 11): a territory of a side with more gems than the three it
# starts with is worth this much more per extra gem (a gem territory; a territory without a gem
# counts a third), so greedy seats lean on the leader rather than on the weakest neighbour.
# Measured (docs/games/kingdoms.md, balance): 3 with the march on the leader (`leader_march`)
# sent 17 of 80 games to the round cap (everyone piles on whoever leads); 1 without it, 2 of 40.
LEADER_WEIGHT = 1.0
START_GEMS = 3  # the capital and the two neutral gems next door, held by everyone from round 4
# against a side one gem short of the win (or already holding it) a gem is worth a long shot
NEAR_WIN_THRESHOLD = 0.5
HOLD_THRESHOLD = 0.3
LAND = ("infantry", "cavalry")
AIR = ("griffin", "dragon")
# the search's alternatives to the policy's own combat move (issue 21): bolder and more
# cautious attack thresholds; ending the phase at once (no attack) is always offered too
PLAN_THRESHOLDS = (0.5, 0.85)
# the search's alternatives to the policy's phase 4 (where idle units march, `_march_front`)
MARCHES = ("enemy", "guard")
# and one that stops sending units to a defended target once these capture odds are reached
# (the policy sends every unit that can reach, which leaves the land behind empty)
ENOUGH = 0.9
# a plan is one phase of one faction's turn; a phase never takes more steps than this
MAX_PLAN_STEPS = 200
# the search's rush (issue 21): one gem short of the win, a combat move that sends everything at
# the gem territory with the best capture odds, at any odds above this (a capture ends the game
# at the end of the turn: seed 6006 held 8 of 9 gems for rounds and never tried), worth this
# much more than any other target
RUSH_THRESHOLD = 0.02
RUSH_BONUS = 100.0
# battle decisions the search weighs step by step (stand or retreat, press or retreat); every
# other decision inside a battle (casualties, order of battles, cards) is the policy's alone
SEARCHED_BATTLE_KINDS = frozenset({"stand", "press"})


class KingdomsPolicy:
    def __init__(self, **options: Any) -> None:
        self.attack_threshold = float(options.get("attack_threshold", ATTACK_THRESHOLD))
        # designers may switch the newer habits off to measure what each is worth
        self.use_sea = bool(options.get("sea", True))
        self.use_air = bool(options.get("air", True))
        self.defender_retreat = bool(options.get("defender_retreat", True))
        # 0 switches the kingmaking defence off (the policy before issue 20 item 11)
        self.leader_weight = float(options.get("leader", LEADER_WEIGHT))
        self.leader_march = bool(options.get("leader_march", False))
        # the search's variants (plans): targets this combat move leaves alone, and the capture
        # odds at which a defended target gets no more units (None: every unit that can reach)
        self.excluded: frozenset[str] = frozenset()
        enough = options.get("enough")
        self.enough: float | None = None if enough is None else float(enough)
        # where idle units march in phase 4: `policy` (its own habit), `enemy`, `guard`
        self.march = str(options.get("march", "policy"))
        # `finish` (the search's rollouts, off for greedy): in a battle for a gem territory that
        # decides the game (the attacker's side one gem short), the attacker presses on while a
        # capture is possible (greedy breaks off below win odds of 0.25)
        self.finish = bool(options.get("finish", False))
        # the search's variant only: one gem short, go for a gem territory at long odds
        self.rush = False
        self._options = dict(options)
        self._static: dict[str, Any] | None = None
        self._rng = Rng(0)
        self._units: dict[str, UnitData] = {}
        self._dist: dict[str, dict[str, int]] = {}
        # static facts asked at nearly every decision, made once (`_prepare`): the areas by id,
        # and each land territory's land-connected region (`t in self._dist[o]` for land `t`
        # and `o` says exactly that they share one)
        self._areas: dict[str, dict[str, Any]] = {}
        self._region: dict[str, int] = {}
        # each frontier's memo of land distances to it (space -> steps), shared by forks like
        # the odds: a fact of the map and the frontier, asked for every move of phase 4
        self._fronts: dict[tuple[str, ...], dict[str, int]] = {}
        # `_sea_targets` by the active faction and the owners (shared by forks likewise)
        self._sea: dict[tuple[Any, ...], frozenset[str]] = {}
        self._adj: dict[str, list[str]] = {}
        self._seas: set[str] = set()
        self._odds: dict[tuple[tuple[str, ...], tuple[str, ...], bool], dict[str, Any]] = {}

    # -- static knowledge ---------------------------------------------------------------------
    def _prepare(self, state: State) -> dict[str, Any]:
        if self._static is None:
            st = state.game.static_info()
            self._static = st
            self._units = {k: UnitData(**v) for k, v in st["units"].items()}
            land = {a["id"] for a in st["board"]["areas"] if a["kind"] == "land"}
            adj = st["adjacency"]
            self._adj = {k: list(v) for k, v in adj.items()}
            self._seas = {a["id"] for a in st["board"]["areas"] if a["kind"] == "sea"}
            for src in land:
                d = {src: 0}
                q = deque([src])
                while q:
                    a = q.popleft()
                    for b in adj[a]:
                        if b in land and b not in d:
                            d[b] = d[a] + 1
                            q.append(b)
                self._dist[src] = d
            self._areas = {a["id"]: a for a in st["board"]["areas"]}
            self._region = _regions(self._dist)
        return self._static

    def odds(self, att: list[str], dfn: list[str], sea: bool = False) -> dict[str, Any]:
        key = (tuple(sorted(att)), tuple(sorted(dfn)), sea)
        r = self._odds.get(key)
        if r is None:
            if len(self._odds) > 20000:
                self._odds.clear()
            r = self._odds[key] = battle_odds(self._units, att, dfn, sea=sea)
        return r

    # -- plans for the search (a PlanningPolicy) ---------------------------------------------------
    def fork(self) -> KingdomsPolicy:
        """A policy with the same options sharing the static facts and the odds cache (the
        policy keeps no memory of a game between calls, so nothing else carries over)."""
        fresh = KingdomsPolicy(**self._options)
        if self._static is not None:
            fresh._static, fresh._units, fresh._dist = self._static, self._units, self._dist
            fresh._adj, fresh._seas = self._adj, self._seas
            fresh._areas, fresh._region = self._areas, self._region
        fresh._odds = self._odds
        fresh._fronts = self._fronts
        fresh._sea = self._sea
        return fresh

    def _variant(self, **changes: Any) -> KingdomsPolicy:
        """A fork with some habits changed (the attack threshold)."""
        fresh = self.fork()
        for key, value in changes.items():
            setattr(fresh, key, value)
        return fresh

    def plans(self, state: State, seat: int, rng: Rng) -> list[list[str]] | None:
        """Candidate plans, the policy's own first, each one whole phase of the faction's turn.

        Why: a turn is dozens of single steps (a greedy 2-player game has 1,400-2,600 plies,
        590-770 decisions with a choice per seat); searching each one at a second apiece costs
        10-18 CPU-minutes a game and most of them (which unit to move next, where to place)
        hardly matter. Here the search weighs only what changes a game: the combat move (the
        policy's at its attack threshold, bolder, more cautious, one that stops sending units to
        a defended target at capture odds 0.9 (`enough`; the policy sends every unit that can
        reach and leaves the land behind empty), one that leaves the policy's first target
        alone, one gem short of the win the rush (everything at the gem territory with the best
        capture odds, at any odds: a capture wins at the end of the turn, which the rollout
        scores exactly), and no attack), phase 4 (the policy's march, which also walks towards a
        team-mate's land; a march on the other side's land only; a march to our gem territories
        with an enemy land unit next door; `march`), and in a battle whether to stand or
        retreat, press or retreat (each legal action, the policy's own first). Variants that
        make the same moves in another order are offered once (before, the thresholds mostly
        gave one move several times and the search split its samples over the copies).
        Purchases are the policy's alone: judged at the end of the turn, when the units
        bought have just been placed, no alternative (land units of one kind only, no air, no
        sea, saving the crowns) ever beat it in 128 paired searches (docs/lab.md), so they only
        cost time.
        Every other decision is the policy's own choice as the only plan, which the search
        plays without searching.

        A plan is found by playing the variant policy on a resample of the hidden state
        (`resample_hidden`), never on the real one, so a plan depends only on the seat's
        observation and `rng`.
        """
        self._prepare(state)
        legal = state.legal_actions(seat)
        if len(legal) <= 1:
            return None
        kinds = {a.kind for a in legal}
        if kinds & SEARCHED_BATTLE_KINDS:
            own = self.choose(state, seat, rng)
            return [[str(own)], *([str(a)] for a in legal if a != own)]
        obs = state.policy_observation(seat)
        phase = obs["phase"]
        if obs["battle"] is not None or kinds & {"disband", "target", "merc", "hit", "fight"} \
                or phase not in ("combat_move", "noncombat"):
            return [[str(self.choose(state, seat, rng))]]
        sample = state.resample_hidden(seat, rng)
        if phase == "noncombat":
            return self._distinct(sample, seat, rng, [self._variant(march=m) for m in MARCHES], done=False)
        variants = [self._variant(attack_threshold=t) for t in PLAN_THRESHOLDS]
        variants.append(self._variant(enough=ENOUGH))
        if self._gems_short(obs, obs["active"]) == 1:
            variants.append(self._variant(rush=True))
        return self._distinct(sample, seat, rng, variants, done=True)

    def _distinct(self, sample: State, seat: int, rng: Rng, variants: list[KingdomsPolicy],
                  done: bool) -> list[list[str]]:
        """The policy's own plan for this phase, then each variant's that does something else
        (a variant that moves the same units to the same places in another order is the same
        move: searching it again would only split the samples), then, with `done`, a variant
        that skips the own plan's first target, and ending the phase at once."""
        own = self._play_phase(sample.clone(), seat, self, rng)
        first = _first_target(own)
        if done and first is not None:
            variants = [*variants, self._variant(excluded=frozenset({first}))]
        plans = [own]
        seen = {_effect(own)}
        for variant in variants:
            plan = self._play_phase(sample.clone(), seat, variant, rng)
            if _effect(plan) not in seen:
                seen.add(_effect(plan))
                plans.append(plan)
        if done and _effect(["done"]) not in seen:
            plans.append(["done"])
        return plans

    @staticmethod
    def _play_phase(state: State, seat: int, policy: KingdomsPolicy, rng: Rng) -> list[str]:
        """The steps `policy` takes from here to the end of this phase of this faction's turn
        (`state` is played on)."""
        start = state.policy_observation(seat)
        steps: list[str] = []
        while len(steps) < MAX_PLAN_STEPS and not state.is_terminal() and state.actors() == [seat]:
            obs = state.policy_observation(seat)
            if obs["phase"] != start["phase"] or obs["active"] != start["active"] or obs["battle"] is not None:
                break
            action = policy.choose(state, seat, rng)
            steps.append(str(action))
            state.apply_unchecked(action, seat)
            if action.kind == "done":
                break
        return steps

    # -- the decision -------------------------------------------------------------------------------
    def choose(self, state: State, seat: int, rng: Rng) -> Action:
        # ties are broken by `rng`, never by names: alphabetical tie-breaks would favour the
        # factions whose territories happen to sort first
        self._rng = rng
        static = self._prepare(state)
        legal = state.legal_actions(seat)
        if len(legal) == 1 and legal[0].kind != "fight":
            # forced: every branch below returns the one action, and only the fight draws from
            # `rng` (a tenth of a rollout's decisions, whose view was a third of their cost)
            return legal[0]
        kinds = {a.kind for a in legal}
        # the observation's fields it reads (`policy_observation`, without the rest), built only
        # where a branch reads them: not for a disband, a mercenary card or the order of battles
        if "disband" in kinds:
            return min((a for a in legal if a.kind == "disband"),
                       key=lambda a: (a.args[0] != "reserve", self._cost(a.args[1]), str(a)))
        if "target" in kinds:
            return self._target(state.policy_observation(seat), legal)
        if "merc" in kinds:
            return next(a for a in legal if a.kind == "merc")
        if "hit" in kinds:
            return self._casualty(state.policy_observation(seat), legal)
        if "stand" in kinds:
            return self._stand_or_retreat(state.policy_observation(seat), legal)
        if "press" in kinds:
            return self._press(state.policy_observation(seat), legal)
        if "fight" in kinds:
            return legal[self._rng.randbelow(len(legal))]
        obs = state.policy_observation(seat)
        phase = obs["phase"]
        if phase == "purchase":
            return self._purchase(obs, legal)
        if phase == "combat_move":
            return self._attack(obs, legal, static)
        if phase == "noncombat":
            return self._regroup(obs, legal, static)
        if phase == "place":
            return self._place(obs, legal)
        return next((a for a in legal if a.kind == "done"), legal[0])

    def _mine(self, obs: dict[str, Any]) -> set[str]:
        assert self._static is not None
        return set(self._static["seat_factions"][obs["seat"]])

    def _cost(self, kind: str) -> int:
        base = kind.removeprefix("hired_")
        if kind.startswith("hired_"):
            return -1
        u = self._units.get(base)
        return u.cost if u else 0

    def _target(self, obs: dict[str, Any], legal: list[Action]) -> Action:
        mine = self._mine(obs)
        counts = {a.args[0]: sum(1 for p in obs["pieces"] if p["at"] == a.args[0] and p["faction"] not in mine)
                  for a in legal}
        return max(legal, key=lambda a: (counts[a.args[0]], str(a)))

    def _casualty(self, obs: dict[str, Any], legal: list[Action]) -> Action:
        b = obs["battle"]
        attacking = b is not None and b["attacker"] in self._mine(obs)
        words = [a.args[0] for a in legal]
        land = [w for w in words if w in ("infantry", "cavalry")]
        ranked = sorted(words, key=lambda w: (self._cost(w), w))
        if attacking and len(ranked) > 1 and land:
            mine_land = sum(1 for p in obs["pieces"] if b and p["at"] == b["space"] and p["faction"] == b["attacker"]
                            and p["kind"] in ("infantry", "cavalry") and not p["merc"])
            if mine_land == 1:
                ranked = [w for w in ranked if w not in land] + [w for w in ranked if w in land]
        return Action("hit", (ranked[0],))

    def _forces(self, obs: dict[str, Any], space: str, att_factions: set[str],
                skip: frozenset[int] = frozenset(),
                by_space: dict[str, list[dict[str, Any]]] | None = None) -> tuple[list[str], list[str]]:
        """The unit kinds of each side in `space` (`by_space`: the pieces grouped by where
        they stand, in the view's order, when the caller asks for many spaces)."""
        att: list[str] = []
        dfn: list[str] = []
        for p in obs["pieces"] if by_space is None else by_space.get(space, ()):
            if p["at"] != space or p["id"] in skip:
                continue
            kind = p["kind"] or "cavalry"
            if p["merc"]:
                kind = "hired_" + kind
            (att if p["faction"] in att_factions else dfn).append(kind)
        owner = obs["owner"].get(space)
        if owner is not None and owner not in att_factions:
            if space in obs["castles"]:
                dfn.append("castle")
            if space in obs["ports"]:
                dfn.append("port")
        return att, dfn

    def _press(self, obs: dict[str, Any], legal: list[Action]) -> Action:
        b = obs["battle"]
        att, dfn = self._forces(obs, b["space"], {b["attacker"]})
        dfn = [k for k in dfn if k not in b["silenced"]]
        retreats = [a for a in legal if a.kind in ("retreat", "withdraw")]
        if self.finish and self._decisive(obs, b["space"], b["attacker"]) \
                and any(k.removeprefix("hired_") in LAND for k in att):
            return Action("press")  # a capture wins the game: no odds are too long
        if att and dfn and retreats:
            sea = b["space"] not in obs["owner"]
            if self.odds(att, dfn, sea)["win"] < RETREAT_THRESHOLD:
                return retreats[0]
        return Action("press")

    def _stand_or_retreat(self, obs: dict[str, Any], legal: list[Action]) -> Action:
        """Leave when the exact odds of fighting on from here say the space is lost anyway."""
        b = obs["battle"]
        retreats = [a for a in legal if a.kind == "retreat"]
        # units hit this round are gone either way; counting them out errs towards leaving
        att, dfn = self._forces(obs, b["space"], {b["attacker"]}, frozenset(b["marked"]))
        dfn = [k for k in dfn if k not in b["silenced"]]
        if not retreats or not att or not any(k in LAND + AIR + ("ship",) for k in dfn):
            return Action("stand")
        r = self.odds(att, dfn, b["space"] in self._seas)
        if not self.defender_retreat or r["win"] < DEFENDER_RETREAT_THRESHOLD:
            return Action("stand")
        # standing trades crowns; leaving loses what the attack of opportunity hits (expected
        # hits taken cheapest first) and deals nothing: leave only if that is the better trade
        stand = r["expected_attacker_crowns_lost"] - r["expected_defender_crowns_lost"]
        aoo = sum(self._units[k.removeprefix("hired_")].attack for k in att) / 6
        mobile = sorted(self._cost(k) for k in dfn if k in LAND + AIR + ("ship",))
        whole = int(aoo)
        leave = -(sum(mobile[:whole]) + (aoo - whole) * (mobile[whole] if whole < len(mobile) else 0))
        if leave <= stand:
            return Action("stand")
        me = b["defender"]
        here = {a.args[0]: sum(1 for p in obs["pieces"] if p["at"] == a.args[0] and p["faction"] == me)
                for a in retreats}
        return max(retreats, key=lambda a: (here[a.args[0]], self._rng.random()))

    def _threats(self, obs: dict[str, Any]) -> tuple[dict[str, int], int]:
        """Each enemy faction's side's gems and the win line, counted as for one faction: a
        team of two starts with 6 gems and wins at 9, so both count 3 less (3 and 6, against a
        lone faction's 3 and 7).

        Why: the greedy choice by value alone takes whatever is weakest, usually a neighbour
        already losing, and never the side about to win; human players gang up on the leader.
        """
        teams = {f["faction"]: f["team"] for f in obs["factions"]}
        friends = self._mine(obs) | {obs["active"]}
        my_teams = {teams[f] for f in friends}
        side: dict[int, int] = {}
        size: dict[int, int] = {}
        for f in obs["factions"]:
            side[f["team"]] = side.get(f["team"], 0) + f["gems"]
            size[f["team"]] = size.get(f["team"], 0) + 1
        teamed = len(set(teams.values())) < len(teams)
        # in a team game a side starts with 3 gems per faction: measure it from its own start
        return ({f: side[t] - START_GEMS * (size[t] - 1) for f, t in teams.items()
                 if t not in my_teams and f not in friends},
                9 - START_GEMS if teamed else 7)

    @staticmethod
    def _gems_short(obs: dict[str, Any], faction: str) -> int | None:
        """How many more gem territories `faction`'s team needs for the win at the end of the
        turn (9 combined, L229-233); None without teams, where 7 gems must also be held for a
        round, so no single capture ends the game."""
        teams = {f["faction"]: f["team"] for f in obs["factions"]}
        if len(set(teams.values())) == len(teams):
            return None
        return 9 - sum(int(f["gems"]) for f in obs["factions"] if f["team"] == teams[faction])

    def _decisive(self, obs: dict[str, Any], space: str, attacker: str) -> bool:
        """Does the capture of `space` by `attacker` win its side the game (a gem territory of
        another side, the attacker's side one gem short)?"""
        assert self._static is not None
        gem = any(a["id"] == space and a.get("gem") for a in self._static["board"]["areas"])
        teams = {f["faction"]: f["team"] for f in obs["factions"]}
        owner = obs["owner"].get(space)
        return gem and owner is not None and teams[owner] != teams[attacker] \
            and self._gems_short(obs, attacker) == 1

    def _leader_bonus(self, gems: int, gem_here: bool) -> float:
        extra = max(0, gems - START_GEMS) * self.leader_weight
        return extra if gem_here else extra / 3

    def _threshold(self, gems: int, win: int, gem_here: bool) -> float:
        if not gem_here or self.leader_weight <= 0:
            return self.attack_threshold
        if gems >= win:
            return min(self.attack_threshold, HOLD_THRESHOLD)
        if gems == win - 1:
            return min(self.attack_threshold, NEAR_WIN_THRESHOLD)
        return self.attack_threshold

    def _own(self, obs: dict[str, Any]) -> list[str]:
        return [t for t, o in obs["owner"].items() if o == obs["active"]]

    def _sea_targets(self, obs: dict[str, Any]) -> frozenset[str]:
        """Rich land (a gem or value 3+) not ours that no land path from our territories reaches
        (a function of the owners and the active faction, asked at most decisions: cached)."""
        assert self._static is not None
        key = (obs["active"], *obs["owner"].values())
        got = self._sea.get(key)
        if got is not None:
            return got
        areas = self._areas
        reached = self._reached(obs)
        got = frozenset(t for t, o in obs["owner"].items() if o != obs["active"]
                        and (areas[t].get("gem") or areas[t].get("value", 0) >= 3)
                        and self._region.get(t) not in reached)
        if len(self._sea) > 20000:
            self._sea.clear()
        self._sea[key] = got
        return got

    def _land_targets(self, obs: dict[str, Any]) -> bool:
        """Is rich land (a gem or value 3+) not ours reachable by land from our territories?"""
        assert self._static is not None
        areas = self._areas
        reached = self._reached(obs)
        return any(o != obs["active"] and (areas[t].get("gem") or areas[t].get("value", 0) >= 3)
                   and self._region.get(t, -1) in reached for t, o in obs["owner"].items())

    def _reached(self, obs: dict[str, Any]) -> set[int]:
        """The land regions of our territories: land `t` is reachable by land from them
        exactly when its region is among these (what `t in self._dist[o]` over our `o` says,
        in one set look-up instead of one per territory of ours)."""
        region = self._region
        return {region[o] for o in self._own(obs) if o in region}

    def _sea_buy(self, obs: dict[str, Any], legal: list[Action], mine: list[dict[str, Any]],
                 treasury: int) -> Action | None:
        if not (self.use_sea and obs["round"] >= SEA_FROM_ROUND and self._sea_targets(obs)):
            return None
        ports = [t for t in obs["ports"] if obs["owner"].get(t) == obs["active"]]
        port_bought = any(p["at"] == "reserve" and p["kind"] == "port" for p in mine)
        ships = sum(1 for p in mine if p["kind"] == "ship")
        ships_bought = sum(1 for p in mine if p["kind"] == "ship" and p["at"] == "reserve")
        if not ports and not port_bought and treasury >= 23 and Action("buy", ("port",)) in legal:
            return Action("buy", ("port",))
        if ports and ships < MAX_SHIPS and ships_bought < len(ports) and Action("buy", ("ship",)) in legal:
            return Action("buy", ("ship",))
        return None

    def _purchase(self, obs: dict[str, Any], legal: list[Action]) -> Action:
        me = next(f for f in obs["factions"] if f["faction"] == obs["active"])
        mine = [p for p in obs["pieces"] if p["faction"] == obs["active"] and not p["merc"]]
        reserve = sum(1 for p in mine if p["at"] == "reserve" and p["kind"] not in ("castle", "port", "ship"))
        cap = 8 * sum(1 for c in obs["castles"] if obs["owner"].get(c) == obs["active"])
        treasury = me["treasury"]
        # across water: one port, then a few ships (a port produces its territory's value a turn);
        # first only once the rich land next door is ours, later with crowns the army cannot use
        sea = self._sea_buy(obs, legal, mine, treasury)
        if sea is not None and (not self._land_targets(obs) or reserve >= cap):
            return sea
        if reserve < cap:
            # spare crowns: an air unit for every four land units (they fly over water and walls)
            land = sum(1 for p in mine if p["kind"] in LAND)
            air = sum(1 for p in mine if p["kind"] in AIR)
            if self.use_air and treasury >= 26 and air < max(1, land // 4):
                for want in ("dragon", "griffin"):
                    if Action("buy", (want,)) in legal:
                        return Action("buy", (want,))
            for want in ("cavalry", "infantry"):
                a = Action("buy", (want,))
                if a in legal and (want == "infantry" or treasury >= 8):
                    return a
        # money the army cannot use (production or supply full): a second castle, then mercenaries
        castles = [c for c in obs["castles"] if obs["owner"].get(c) == obs["active"]]
        bought_castle = any(p["at"] == "reserve" and p["kind"] == "castle" and p["faction"] == obs["active"]
                            for p in obs["pieces"])
        if len(castles) < 3 and not bought_castle and me["treasury"] >= 40 and Action("buy", ("castle",)) in legal:
            return Action("buy", ("castle",))
        if sea is not None:
            return sea
        if me["treasury"] >= 30 and Action("hire") in legal:
            return Action("hire")
        return Action("done")

    def _attack(self, obs: dict[str, Any], legal: list[Action], static: dict[str, Any]) -> Action:
        me = obs["active"]
        areas = self._areas
        moves = [a for a in legal if a.kind == "move"]
        by_target: dict[str, list[Action]] = {}
        for a in moves:
            by_target.setdefault(a.args[1], []).append(a)
        capital = static["capitals"][me]
        mine_at: dict[str, int] = {}
        for p in obs["pieces"]:
            if p["faction"] == me and p["at"] != "reserve":
                mine_at[p["at"]] = mine_at.get(p["at"], 0) + 1
        threats, win = self._threats(obs)
        rush = self.rush and self._gems_short(obs, me) == 1
        # the pieces by space, and ours, once (every target looks at its space and our movers)
        by_space: dict[str, list[dict[str, Any]]] = {}
        for p in obs["pieces"]:
            by_space.setdefault(p["at"], []).append(p)
        ours = [p for p in obs["pieces"] if p["faction"] == me]
        best: tuple[float, str] | None = None
        for target, acts in by_target.items():
            owner = obs["owner"].get(target, "sea")
            if owner == me or target in self.excluded:
                continue
            threat = threats.get(owner or "", 0) if self.leader_weight > 0 else 0
            att, dfn = self._forces(obs, target, {me}, by_space=by_space)
            movers = [a for a in acts if not (a.args[0] == capital and mine_at.get(capital, 0) <= 1)]
            if not movers:
                continue
            pool = att + [a.args[2] for a in movers]
            area = areas[target]
            worth = area.get("value", 0) + (6 if area.get("gem") else 0) + (2 * len(dfn))
            if threat:
                worth += self._leader_bonus(threat, bool(area.get("gem")))
            rushed = rush and bool(area.get("gem")) and owner != "sea"
            if rushed:
                worth += RUSH_BONUS
            if not dfn:
                if att:
                    continue  # already taken care of
                if all(self._units[k].cls != "land" for k in pool):
                    continue
                score = float(worth)
            else:
                if len(att) + len(movers) == 0:
                    continue
                if self.enough is not None and att and any(self._units[k.removeprefix("hired_")].cls == "land"
                                                           for k in att) \
                        and self.odds(att, dfn, owner == "sea")["capture" if owner != "sea" else "win"] >= self.enough:
                    continue  # enough units there already: the rest hold what we have
                full = att + self._available(obs, movers, ours)
                if not full:
                    continue
                if not any(self._units[k.removeprefix("hired_")].cls == "land" for k in full) and owner != "sea":
                    continue
                r = self.odds(full, dfn, owner == "sea")
                p_ok = r["capture"] if owner != "sea" else r["win"]
                if p_ok < (RUSH_THRESHOLD if rushed else self._threshold(threat, win, bool(area.get("gem")))):
                    continue
                score = worth * p_ok - r["expected_attacker_crowns_lost"] / 8
            score += self._rng.random() * 1e-3
            if best is None or score > best[0]:
                best = (score, target)
        if best is not None:
            target = best[1]
            acts = [a for a in by_target[target] if not (a.args[0] == capital and mine_at.get(capital, 0) <= 1)]
            _, dfn = self._forces(obs, target, {me}, by_space=by_space)
            if not dfn:
                lands = [a for a in acts if a.args[2] in ("infantry", "cavalry")]
                return min(lands or acts, key=lambda a: (self._cost(a.args[2]), self._rng.random()))
            return acts[self._rng.randbelow(len(acts))]
        return self._sail(obs, moves) or Action("done")

    def _sail(self, obs: dict[str, Any], moves: list[Action]) -> Action | None:
        """A loaded ship sails next to land it wants across water (the cargo lands on the next call)."""
        me = obs["active"]
        targets = self._sea_targets(obs)
        if not targets:
            return None
        loaded = {p["aboard"] for p in obs["pieces"] if p["faction"] == me and p["aboard"] >= 0}
        at = {p["at"] for p in obs["pieces"] if p["faction"] == me and p["kind"] == "ship" and p["id"] in loaded}
        options = []
        for a in moves:
            frm, to = a.args[0], a.args[1]
            if a.args[2] != "ship" or frm not in at or to not in self._seas:
                continue
            if any(n in targets for n in self._adj[frm]):
                continue  # already there
            if any(p["at"] == to and p["faction"] != me for p in obs["pieces"]):
                continue
            near = sum(1 for n in self._adj[to] if n in targets)
            if near:
                options.append((near + self._rng.random() * 1e-3, a))
        return max(options, key=lambda x: x[0])[1] if options else None

    def _available(self, obs: dict[str, Any], movers: list[Action],
                   ours: list[dict[str, Any]] | None = None) -> list[str]:
        """The kinds of our units that may still join an attack from the movers' spaces
        (`ours`: the active faction's pieces in the view's order, if the caller has them)."""
        me = obs["active"]
        out = []
        sources = {(a.args[0], a.args[2]) for a in movers}
        for p in obs["pieces"] if ours is None else ours:
            if (p["faction"] == me and (p["at"], p["kind"]) in sources and not p.get("fought")
                    and (not p.get("moved") or p["aboard"] >= 0
                         or p["moved"] < self._units[p["kind"]].move)):
                out.append(p["kind"])
        return out

    def _regroup(self, obs: dict[str, Any], legal: list[Action], static: dict[str, Any]) -> Action:
        me = obs["active"]
        moves = [a for a in legal if a.kind == "move"]
        # one pass over our pieces: air units that fought (where, by kind), our pieces per
        # space, and our land units per space (for boarding)
        fought: set[tuple[str, str]] = set()
        count: dict[str, int] = {}
        land: dict[str, int] = {}
        for p in obs["pieces"]:
            if p["faction"] == me:
                at, kind = p["at"], p["kind"]
                count[at] = count.get(at, 0) + 1
                if kind in LAND:
                    land[at] = land.get(at, 0) + 1
                elif kind in AIR and p.get("combat_move"):
                    fought.add((at, kind))
        # air units that fought land first (or they are lost)
        if fought:
            for a in moves:
                if (a.args[0], a.args[2]) in fought:
                    return a
        capital = static["capitals"][me]
        areas = self._areas
        board = self._board_ship(obs, moves, capital, land)
        if board is not None:
            return board
        frontier = [t for t, o in obs["owner"].items() if o != me]
        rich = [t for t in frontier if areas[t]["gem"] or areas[t]["value"] >= 3]
        frontier = self._leader_front(obs, areas) or rich or frontier
        if self.march != "policy":
            frontier = self._march_front(obs, areas) or frontier
        best: tuple[float, Action] | None = None
        dist = self._dist
        near = self._front(frontier)
        random = self._rng.random
        for a in moves:
            frm, to, kind = a.args
            if kind not in LAND or frm not in dist or to not in dist:
                continue
            if frm == capital and count.get(frm, 0) <= 2:
                continue
            df = near.get(frm)
            if df is None:
                df = self._distance(near, frontier, frm)
            dt = near.get(to)
            if dt is None:
                dt = self._distance(near, frontier, to)
            gain = df - dt + random() * 1e-3
            if gain > 0.5 and (best is None or gain > best[0]):
                best = (gain, a)  # the moves are distinct: the action itself, not its text
        if best is not None:
            return best[1]
        return Action("done")

    def _front(self, frontier: list[str]) -> dict[str, int]:
        """The memo of land distances to `frontier` (`_distance` fills it): the frontier stays
        the same over most of a phase, and many moves share their ends."""
        key = tuple(frontier)
        memo = self._fronts.get(key)
        if memo is None:
            if len(self._fronts) > 2000:
                self._fronts.clear()
            memo = self._fronts[key] = {}
        return memo

    def _distance(self, memo: dict[str, int], frontier: list[str], space: str) -> int:
        """The fewest land steps from `space` to a territory of `frontier` (99: none), kept in
        `memo` (`_front(frontier)`)."""
        d = memo.get(space)
        if d is None:
            row = self._dist.get(space, {})
            d = memo[space] = min((row.get(t, 99) for t in frontier), default=99)
        return d

    def _march_front(self, obs: dict[str, Any], areas: dict[str, Any]) -> list[str]:
        """Where idle units march in the search's phase-4 variants: `enemy`, the rich land of
        the other sides only (the policy also walks towards a team-mate's land); `guard`, our
        side's gem territories with an enemy land unit next door, else as `enemy`."""
        team = {f["faction"]: f["team"] for f in obs["factions"]}
        ours = team[obs["active"]]
        if self.march == "guard":
            enemy_at = {p["at"] for p in obs["pieces"] if team[p["faction"]] != ours
                        and p["kind"] in (*LAND, None) and p["aboard"] < 0}
            guard = [t for t, o in obs["owner"].items() if o is not None and team[o] == ours
                     and areas[t].get("gem") and any(n in enemy_at for n in self._adj.get(t, []))]
            if guard:
                return guard
        other = [t for t, o in obs["owner"].items() if o is None or team[o] != ours]
        return [t for t in other if areas[t].get("gem") or areas[t].get("value", 0) >= 3] or other

    def _leader_front(self, obs: dict[str, Any], areas: dict[str, Any]) -> list[str]:
        """The gem territories of a side two gems or less from the win, if we can walk there:
        idle units march on the leader rather than on the nearest land."""
        if not (self.leader_march and self.leader_weight > 0):
            return []
        threats, win = self._threats(obs)
        if not threats:
            return []
        top = max(threats.values())
        if top < win - 2:
            return []
        own = self._own(obs)
        return [t for t, o in obs["owner"].items() if o is not None and threats.get(o) == top and areas[t]["gem"]
                and any(t in self._dist.get(o2, {}) for o2 in own)]

    def _board_ship(self, obs: dict[str, Any], moves: list[Action], capital: str,
                    count: dict[str, int]) -> Action | None:
        """With land across water to take, idle land units board our ships (sailing next turn);
        `count`: our land units per space."""
        if not self._sea_targets(obs):
            return None
        boards = [a for a in moves if a.args[2] in LAND and a.args[1] in self._seas
                  and count.get(a.args[0], 0) > (2 if a.args[0] == capital else 1)]
        if not boards:
            return None
        return max(boards, key=lambda a: (a.args[2] == "cavalry", self._rng.random()))

    def _place(self, obs: dict[str, Any], legal: list[Action]) -> Action:
        places = [a for a in legal if a.kind == "place" and a.args[0] not in ("ship", "castle", "port")]
        me = obs["active"]
        if places:
            # the castle nearest the front (the first castle by name favoured some factions)
            kind = places[0].args[0]
            front = [t for t, o in obs["owner"].items() if o != me]
            near = self._front(front)
            return min((a for a in places if a.args[0] == kind),
                       key=lambda a: (self._distance(near, front, a.args[1]), self._rng.random()))
        near_land = {}
        for a in legal:
            if a.kind == "place" and a.args[0] in ("ship", "port"):
                spot = a.args[1]
                near_land[spot] = sum(1 for p in obs["pieces"] if p["faction"] == me and p["kind"] in LAND
                                      and (p["at"] == spot or p["at"] in self._adj.get(spot, [])))
        for kind in ("ship", "port"):
            # where most of our land units stand, so they can go aboard
            spots = [a for a in legal if a.kind == "place" and a.args[0] == kind]
            if spots:
                return max(spots, key=lambda a: (near_land[a.args[1]], self._rng.random()))
        castles = [a for a in legal if a.kind == "place" and a.args[0] == "castle"]
        if castles:
            # the castle goes to the richest territory, the nearest to the front on ties
            areas = self._areas
            front = [t for t, o in obs["owner"].items() if o != obs["active"]]
            return max(castles, key=lambda a: (areas[a.args[1]]["value"],
                                               -min((self._dist[a.args[1]].get(t, 99) for t in front), default=99),
                                               self._rng.random()))
        return Action("done")


def _regions(dist: dict[str, dict[str, int]]) -> dict[str, int]:
    """Each land territory's land-connected region, numbered in the order of `dist` (whose
    rows are the territories each one reaches over land)."""
    region: dict[str, int] = {}
    for src, row in dist.items():
        if src not in region:
            n = len(set(region.values()))
            for b in row:
                region[b] = n
    return region


def _effect(plan: list[str]) -> tuple[str, ...]:
    """What a combat move does, whatever the order of its steps: the moves made (a unit of a
    kind from one space to another; units of one kind are alike)."""
    return tuple(sorted(step for step in plan if step != "done"))


def _first_target(plan: list[str]) -> str | None:
    """Where the plan's first move goes (the target the policy liked best)."""
    for step in plan:
        words = step.split()
        if words[0] == "move" and len(words) == 4:
            return words[2]
    return None
