"""What each unit *is*, compiled once per game from the data files for fast rule lookups."""

from __future__ import annotations

from dataclasses import dataclass

from .content import Faction, FactionsFile, Modifier, tile_index

CITADEL = "citadel"
CUTIECORN = "cutiecorn"
UNDEAD = "undead"


@dataclass(frozen=True, slots=True)
class UnitKind:
    name: str
    base: str
    build_cost: int | None
    pips: int
    modifier: Modifier | None
    may_stay_in_desert: bool
    buildable: bool

    @property
    def is_leader(self) -> bool:
        return self.base == "leader"

    @property
    def is_dragon(self) -> bool:
        return self.base == "dragon"

    @property
    def is_ship(self) -> bool:
        return self.base == "ship"

    @property
    def is_cavalry(self) -> bool:
        return self.base == "cavalry"

    @property
    def is_fortification(self) -> bool:
        """Castles and citadels: cannot move, withdraw or retreat, and pin their defenders."""
        return self.base in ("castle", "citadel")

    @property
    def is_undead(self) -> bool:
        return self.base == "undead"

    @property
    def is_giant(self) -> bool:
        return self.base == "giant"

    @property
    def is_necromancer(self) -> bool:
        return self.base == "necromancer"

    @property
    def wins_ties_when_defending(self) -> bool:
        return bool(self.modifier and self.modifier.wins_ties_when_defending)

    @property
    def moves_in_main_actions(self) -> bool:
        return not (self.is_fortification or self.is_undead)


@dataclass(frozen=True)
class FactionRules:
    """A faction's data plus derived tables (unit kinds, terrain costs, powers)."""

    faction: Faction
    kinds: dict[str, UnitKind]
    move_cost: dict[str, int | None]
    bag_mix: dict[str, int]

    @property
    def id(self) -> str:
        return self.faction.id

    def has(self, power: str) -> bool:
        return self.faction.has(power)

    @property
    def is_horde(self) -> bool:
        """No villages or citadel: builds where it stands and captures as a main action."""
        return self.faction.citadels == 0


def compile_faction(factions: FactionsFile, faction_id: str, base_move_cost: dict[str, int | None]) -> FactionRules:
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
    return FactionRules(faction, kinds, move_cost, bag_mix)
