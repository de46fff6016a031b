"""What each unit *is*, compiled once per game from the data files for fast rule lookups."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .content import Board, Faction, FactionsFile, Modifier, tile_index
from .queries import moves_in_main_actions

CITADEL = "citadel"
CUTIECORN = "cutiecorn"
UNDEAD = "undead"


@dataclass(frozen=True, slots=True)
class UnitKind:
    """A unit's stats; the `is_*` flags are computed once because the rules test them in their
    hottest loops (movement, legal actions)."""

    name: str
    base: str
    build_cost: int | None
    pips: int
    modifier: Modifier | None
    may_stay_in_desert: bool
    buildable: bool
    is_leader: bool = field(init=False)
    is_dragon: bool = field(init=False)
    is_ship: bool = field(init=False)
    is_cavalry: bool = field(init=False)
    #: Castles and citadels: cannot move, withdraw or retreat, and pin their defenders.
    is_fortification: bool = field(init=False)
    is_undead: bool = field(init=False)
    is_giant: bool = field(init=False)
    is_necromancer: bool = field(init=False)
    wins_ties_when_defending: bool = field(init=False)
    moves_in_main_actions: bool = field(init=False)

    def __post_init__(self) -> None:
        base = self.base
        flags = {
            "is_leader": base == "leader",
            "is_dragon": base == "dragon",
            "is_ship": base == "ship",
            "is_cavalry": base == "cavalry",
            "is_fortification": base in ("castle", "citadel"),
            "is_undead": base == "undead",
            "is_giant": base == "giant",
            "is_necromancer": base == "necromancer",
            "wins_ties_when_defending": bool(self.modifier and self.modifier.wins_ties_when_defending),
        }
        flags["moves_in_main_actions"] = moves_in_main_actions(base)
        for name, value in flags.items():
            object.__setattr__(self, name, value)


@dataclass(frozen=True)
class FactionRules:
    """A faction's data plus derived tables (unit kinds, terrain costs, powers)."""

    faction: Faction
    kinds: dict[str, UnitKind]
    move_cost: dict[str, int | None]
    bag_mix: dict[str, int]
    #: move cost of entering each area of the map (None: may not enter), by area id
    area_cost: dict[int, int | None]
    #: the same as a list indexed by area id (None also for ids the map does not use)
    area_cost_list: list[int | None]

    @property
    def id(self) -> str:
        return self.faction.id

    def has(self, power: str) -> bool:
        return self.faction.has(power)

    @property
    def is_horde(self) -> bool:
        """No villages or citadel: builds where it stands and captures as a main action."""
        return self.faction.citadels == 0


def compile_faction(
    factions: FactionsFile, faction_id: str, base_move_cost: dict[str, int | None], board: Board
) -> FactionRules:
    faction = factions.faction(faction_id)
    kinds: dict[str, UnitKind] = {}
    for name, t in tile_index(faction).items():
        kinds[name] = UnitKind(
            name=name,
            base=t.base_type,
            build_cost=t.build_cost,
            pips=t.pips or 0,
            modifier=t.battle_modifier,
            may_stay_in_desert=t.may_stay_in_desert,
            buildable=t.buildable,
        )
    kinds[CITADEL] = UnitKind(CITADEL, "citadel", None, 0, faction.citadel_modifier, False, False)
    cc = factions.cutiecorn
    kinds[CUTIECORN] = UnitKind(CUTIECORN, cc.base_type, cc.build_cost_build_points, cc.pips or 0,
                                cc.battle_modifier, False, True)
    move_cost = dict(base_move_cost)
    move_cost.update({str(t): c for t, c in faction.move_cost_overrides.items()})
    bag_mix = {t.unit: t.count for t in faction.tiles if t.count}
    area_cost = {a: move_cost.get(t) for a, t in board.terrain.items()}
    area_cost_list: list[int | None] = [None] * (max(board.terrain) + 1)
    for a, c in area_cost.items():
        area_cost_list[a] = c
    return FactionRules(faction, kinds, move_cost, bag_mix, area_cost, area_cost_list)


def unit_facts(fr: FactionRules) -> dict[str, Any]:
    """A faction's stats as JSON (static information): what agents and exported queries read."""
    fac = fr.faction
    units = {}
    for name, k in fr.kinds.items():
        m = k.modifier
        units[name] = {
            "base": k.base,
            "pips": k.pips,
            "build_cost": k.build_cost,
            "buildable": k.buildable,
            "may_stay_in_desert": k.may_stay_in_desert,
            "modifier": None if m is None else {
                "value": m.value, "when": m.when, "terrain": m.terrain, "against": list(m.against),
                "wins_ties_when_defending": m.wins_ties_when_defending,
            },
        }
    return {
        "name": fac.name,
        "hand_size": fac.hand_size,
        "villages": fac.villages,
        "captured_village_vp": fac.captured_village_vp,
        "move_cost": fr.move_cost,
        "powers": list(fac.powers),
        "battle_bonuses": [
            {"value": b.value, "terrain": b.terrain, "when": b.when, "against": list(b.against)}
            for b in fac.battle_bonuses
        ],
        "units": units,
    }
