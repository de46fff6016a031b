"""The position's data: figures, dice pools, tiles, decks and where the round stands. No rules.

Everything is a plain class with a hand-written copy (search clones thousands of positions) and
a JSON form (`to_json` / `from_json`) that round-trips exactly.
"""

from __future__ import annotations

from itertools import count
from typing import Any

from bloodforge.core import Deck, Dice

from .content import Effect
from .hexes import Hex, hex_id, parse_hex

ATTACK = "atk"  # a core red Attack die (R-DICE-1)
TEMP = "tmp"  # a black Temporary Attack die (R-DICE-6)
BE = "be"  # a pink Blood Energy die


class Die:
    """One die in a pool: its kind, size and the face it shows this turn (None: not rolled)."""

    __slots__ = ("face", "fresh", "kind", "sides", "used")

    def __init__(self, kind: str, sides: int = 6, face: int | None = None, used: bool = False,
                 fresh: bool = False) -> None:
        self.kind = kind
        self.sides = sides
        self.face = face
        self.used = used  # gave energy / resolved as a spell this turn
        self.fresh = fresh  # gained after this turn's roll (R-TURN-3)

    @property
    def is_attack(self) -> bool:
        return self.kind in (ATTACK, TEMP)

    @property
    def is_special(self) -> bool:
        return self.kind not in (ATTACK, TEMP, BE)

    def copy(self) -> Die:
        return Die(self.kind, self.sides, self.face, self.used, self.fresh)

    def __reduce__(self) -> tuple[type[Die], tuple[str, int, int | None, bool, bool]]:
        """Pickled by its constructor's arguments (see `Board.__reduce__` for why)."""
        return (Die, (self.kind, self.sides, self.face, self.used, self.fresh))

    def to_json(self) -> list[Any]:
        return [self.kind, self.sides, self.face, self.used, self.fresh]

    @classmethod
    def from_json(cls, d: list[Any]) -> Die:
        return cls(str(d[0]), int(d[1]), None if d[2] is None else int(d[2]), bool(d[3]), bool(d[4]))


#: A figure's fields in the order of its JSON form.
UNIT_FIELDS = (
    "uid", "kind", "content_id", "name", "side", "seat", "summoner", "hex", "hp", "max_hp", "energy", "pool", "hand",
    "discard", "current", "speed", "prev_speed", "played_speed", "alive", "flying", "moved", "attacked", "invoked",
    "bonus_used", "rolled_category", "dealt_damage", "mods", "minion_damage",
)


class Unit:
    """A figure: a Champion (seat), Rival, Boss or minion. Slots and a hand-written copy:
    search clones every figure of a position (issue 23)."""

    __slots__ = UNIT_FIELDS

    def __init__(self, uid: str, kind: str, content_id: str, name: str, side: int) -> None:
        self.uid = uid
        self.kind = kind  # champion | rival | boss | minion
        self.content_id = content_id
        self.name = name
        self.side = side  # allegiance: equal sides are allies (R-MODE-2..5)
        self.seat: int | None = None
        self.summoner: str | None = None
        self.hex: Hex | None = None
        self.hp: int | None = None
        self.max_hp: int | None = None
        self.energy = 0
        self.pool: list[Die] = []
        self.hand: list[str] = []
        self.discard: list[str] = []
        self.current: str | None = None
        self.speed: int | None = None
        self.prev_speed: int | None = None  # printed Speed of last round's card (R-INI-6, A4)
        self.played_speed: int | None = None  # printed Speed of this round's card (Haste/Slow aside)
        self.alive = True
        self.flying = False
        # once per round (A2)
        self.moved = False
        self.attacked = False
        self.invoked = False
        self.bonus_used: list[str] = []
        # this turn
        self.rolled_category: str | None = None
        self.dealt_damage = False
        self.mods: dict[str, int] = {}
        self.minion_damage = 0

    @property
    def is_npc(self) -> bool:
        return self.kind in ("rival", "boss")

    @property
    def is_flying(self) -> bool:
        """KW-FLY: by nature (content, scenario) or for this turn (the `fly` effect)."""
        return self.flying or self.mods.get("flying", 0) > 0

    @property
    def is_combatant(self) -> bool:
        return self.kind != "minion"

    def copy(self) -> Unit:
        new = Unit(self.uid, self.kind, self.content_id, self.name, self.side)
        new.seat = self.seat
        new.summoner = self.summoner
        new.hex = self.hex
        new.hp = self.hp
        new.max_hp = self.max_hp
        new.energy = self.energy
        new.current = self.current
        new.speed = self.speed
        new.prev_speed = self.prev_speed
        new.played_speed = self.played_speed
        new.alive = self.alive
        new.flying = self.flying
        new.moved = self.moved
        new.attacked = self.attacked
        new.invoked = self.invoked
        new.rolled_category = self.rolled_category
        new.dealt_damage = self.dealt_damage
        new.minion_damage = self.minion_damage
        new.pool = [Die(d.kind, d.sides, d.face, d.used, d.fresh) for d in self.pool]  # Die.copy, inlined
        new.hand = list(self.hand)
        new.discard = list(self.discard)
        new.bonus_used = list(self.bonus_used)
        new.mods = dict(self.mods)
        return new

    def __reduce__(self) -> tuple[Any, tuple[tuple[Any, ...]]]:
        """Pickled as its fields in `UNIT_FIELDS` order (see `Board.__reduce__` for why)."""
        return (_unit_from_fields, (tuple([getattr(self, f) for f in UNIT_FIELDS]),))

    def to_json(self) -> dict[str, Any]:
        d = {f: getattr(self, f) for f in UNIT_FIELDS}
        d["hex"] = None if self.hex is None else hex_id(self.hex)
        d["pool"] = [x.to_json() for x in self.pool]
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Unit:
        new = cls(str(d["uid"]), str(d["kind"]), str(d["content_id"]), str(d["name"]), int(d["side"]))
        data = dict(d)
        data["hex"] = None if d["hex"] is None else parse_hex(d["hex"])
        data["pool"] = [Die.from_json(x) for x in d["pool"]]
        data["hand"] = list(d["hand"])
        data["discard"] = list(d["discard"])
        data["bonus_used"] = list(d["bonus_used"])
        data["mods"] = dict(d["mods"])
        data.setdefault("played_speed", None)  # positions saved before the field existed
        for f in UNIT_FIELDS:
            setattr(new, f, data[f])
        return new


def _unit_from_fields(values: tuple[Any, ...]) -> Unit:
    """`Unit.__reduce__`'s reader: a figure with these fields, in `UNIT_FIELDS` order."""
    new = Unit(values[0], values[1], values[2], values[3], values[4])
    for name, value in zip(UNIT_FIELDS, values, strict=True):
        setattr(new, name, value)
    return new


class Tile:
    """An Environmental component on the board (a flat tile, a column, a rotating spray)."""

    __slots__ = ("anchor", "env", "hexes", "owner", "tid", "turns")

    def __init__(self, tid: str, env: str, anchor: Hex, hexes: list[Hex], owner: str | None, turns: int = 0) -> None:
        self.tid = tid
        self.env = env
        self.anchor = anchor
        self.hexes = hexes
        self.owner = owner
        self.turns = turns  # sixths of a turn rotated so far

    def copy(self) -> Tile:
        return Tile(self.tid, self.env, self.anchor, list(self.hexes), self.owner, self.turns)

    def __reduce__(self) -> tuple[type[Tile], tuple[str, str, Hex, list[Hex], str | None, int]]:
        """Pickled by its constructor's arguments (see `Board.__reduce__` for why)."""
        return (Tile, (self.tid, self.env, self.anchor, self.hexes, self.owner, self.turns))

    def to_json(self) -> dict[str, Any]:
        return {"tid": self.tid, "env": self.env, "anchor": hex_id(self.anchor),
                "hexes": [hex_id(h) for h in self.hexes], "owner": self.owner, "turns": self.turns}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Tile:
        anchor = parse_hex(d["anchor"])
        assert anchor is not None
        return cls(str(d["tid"]), str(d["env"]), anchor, [h for t in d["hexes"] if (h := parse_hex(t))], d["owner"],
                   int(d.get("turns", 0)))


class Pending:
    """A decision the game waits for: who decides, what about, and the exact option words."""

    __slots__ = ("data", "kind", "options", "seat")

    def __init__(self, seat: int, kind: str, options: list[str], data: dict[str, Any]) -> None:
        self.seat = seat
        self.kind = kind
        self.options = options
        self.data = data

    def copy(self) -> Pending:
        return Pending(self.seat, self.kind, list(self.options), dict(self.data))

    def __reduce__(self) -> tuple[type[Pending], tuple[int, str, list[str], dict[str, Any]]]:
        """Pickled by its constructor's arguments (see `Board.__reduce__` for why)."""
        return (Pending, (self.seat, self.kind, self.options, self.data))

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "options": list(self.options), "data": dict(self.data)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Pending:
        return cls(int(d["seat"]), str(d["kind"]), list(d["options"]), dict(d["data"]))


class QItem:
    """One effect waiting to resolve: what, who caused it, who it hits, and context."""

    __slots__ = ("ctx", "effect", "src", "subj")

    def __init__(self, effect: Effect, src: str, subj: str, ctx: dict[str, Any] | None = None) -> None:
        self.effect = effect
        self.src = src
        self.subj = subj
        self.ctx = ctx or {}

    def __reduce__(self) -> tuple[type[QItem], tuple[Effect, str, str, dict[str, Any]]]:
        """Pickled by its constructor's arguments (see `Board.__reduce__` for why)."""
        return (QItem, (self.effect, self.src, self.subj, self.ctx))

    def to_json(self) -> dict[str, Any]:
        return {"effect": self.effect.model_dump(exclude_defaults=True), "src": self.src, "subj": self.subj,
                "ctx": dict(self.ctx)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> QItem:
        return cls(Effect.model_validate(d["effect"]), str(d["src"]), str(d["subj"]), dict(d["ctx"]))


_LAYOUTS = count(1)


def new_layout() -> int:
    """A layout token never handed out before in this process (see `Board.layout`)."""
    return next(_LAYOUTS)


class Board:
    """Everything of a position except the engine's fields (RNG, history, log)."""

    def __init__(self) -> None:
        #: Names the layout route searches read (who stands where and is alive, the tiles, the
        #: units on the board): `moved()` takes a fresh token at every change of it, and a
        #: clone keeps its original's token until one of them changes. *Why:* the route
        #: memo keyed by the token is exact without reading the whole board for a key
        #: (issue 23). Not part of the position (not saved; a loaded board gets a fresh one).
        self.layout = new_layout()
        #: The figures that alone changed (space or life) since the layout `layout_base`, whose
        #: record the searches made last (`movement._layout`), in order; None when something
        #: else changed or nothing was recorded yet (the next record is then read afresh).
        #: Not part of the position (not saved, copied with the token).
        self.touched: list[str] | None = None
        self.layout_base = 0
        self.units: dict[str, Unit] = {}
        self.tiles: list[Tile] = []
        self.round = 0
        self.phase = "pick"  # pick | place | immediate | turns | over
        self.order: list[str] = []  # unit ids and environmental ids ("env:<id>") this round
        self.done: list[str] = []  # who has been placed / resolved / taken a turn in this phase
        self.active: str | None = None  # whose turn (or Immediate ability) it is
        self.ranks: dict[str, int] = {}  # tie order fixed at the reveal, kept when Speeds change
        self.stage = ""  # where the current turn stands
        self.picks: dict[int, str] = {}  # seat -> committed Initiative card (hidden until reveal)
        self.pending: Pending | None = None
        self.queue: list[QItem] = []
        self.attack: dict[str, Any] | None = None  # the attack being built or resolved
        self.decks: dict[str, Deck] = {}
        self.revealed: dict[str, str] = {}  # NPC id -> this turn's behaviour card
        self.hazard_hits: set[tuple[str, str]] = set()  # (unit, tile) this turn window (A56)
        self.dice: dict[int, Dice] = {}  # rig queues per die size
        self.next_tile = 0
        self.eliminated: list[str] = []  # combatants in the order they fell
        self.winners: list[int] = []  # winning sides once over
        self.npc_plan: dict[str, Any] = {}  # the NPC turn's chosen target
        self.env_speed: dict[str, list[int]] = {}  # env uid -> [Speed this round, previous Speed or 0]
        self.tasks: list[list[str]] = []  # what is left of an Environmental's turn
        #: Some die may be marked for removal (`effects.purge` has work). Not saved: a loaded
        #: board says True, so its first purge looks.
        self.gone = False
        #: Dice in the living figures' pools by kind (`dice.supply_left`'s count, A13), or None
        #: when not counted yet: made at the first supply count, kept by the dice gained and
        #: recalled, and dropped (None) by every other change of a pool or a life (a figure
        #: falls or is raised, a die marked for removal or removed by an Ultimate, a
        #: scenario). *Why:* counting read every die of every figure at every die gained
        #: (pools grow to 10+ dice; ~2 % of a solo playout, issue 23). Not part of the
        #: position (not saved; a copy counts again when asked).
        self.in_use: dict[str, int] | None = None

    def moved(self, who: Unit | None = None) -> None:
        """Figures, their lives or the tiles changed: searches read a new layout. `who`: only
        that figure's space (or life) changed, nothing else (`effects.enter`).

        *Why say who:* the searches' record of a layout (`movement._layout`) is then made from
        the one before by moving that figure's bits (`touched`), not by reading every figure
        (issue 23: a new record after nearly every action of six-seat playouts)."""
        self.layout = next(_LAYOUTS)
        touched = self.touched
        if touched is not None:
            if who is None or len(touched) >= 12:
                self.touched = None
            elif not touched or touched[-1] != who.uid:  # a walk's steps: one entry
                touched.append(who.uid)

    def __reduce__(self) -> tuple[Any, tuple[tuple[Any, ...]]]:
        """Pickled as the fields of `BOARD_FIELDS`; the unpickled board takes a fresh layout token
        and no record of touched figures, and counts its dice in use again when asked.

        *Why a reduce:* the server pickles positions to its search workers, and in the compiled
        build (README, "Compiled build") this module's classes are compiled; a compiled class
        unpickles through its `__init__` and has no `__dict__`, so each class here pickles by
        what rebuilds it, the same in both builds. *Why a fresh token:* a token is unique in
        one process only; a worker hands out its own, and a board that kept the server's could
        meet the same number for another layout in the worker's route memo."""
        return (_board_from_fields, (tuple([getattr(self, f) for f in BOARD_FIELDS]),))

    def copy(self) -> Board:
        new = Board.__new__(Board)
        new.layout = self.layout
        new.touched = None if self.touched is None else list(self.touched)
        new.layout_base = self.layout_base
        new.units = {k: u.copy() for k, u in self.units.items()}
        new.tiles = [t.copy() for t in self.tiles]
        new.round = self.round
        new.phase = self.phase
        new.order = list(self.order)
        new.done = list(self.done)
        new.active = self.active
        new.ranks = dict(self.ranks)
        new.stage = self.stage
        new.picks = dict(self.picks)
        new.pending = None if self.pending is None else self.pending.copy()
        new.queue = [QItem(q.effect, q.src, q.subj, dict(q.ctx)) for q in self.queue]
        new.attack = None if self.attack is None else {k: (list(v) if isinstance(v, list) else v)
                                                       for k, v in self.attack.items()}
        new.decks = {k: d.copy() for k, d in self.decks.items()}
        new.revealed = dict(self.revealed)
        new.hazard_hits = set(self.hazard_hits)
        new.dice = {k: d.copy() for k, d in self.dice.items()}
        new.next_tile = self.next_tile
        new.eliminated = list(self.eliminated)
        new.winners = list(self.winners)
        new.npc_plan = dict(self.npc_plan)
        new.env_speed = {k: list(v) for k, v in self.env_speed.items()}
        new.tasks = [list(t) for t in self.tasks]
        new.gone = self.gone
        new.in_use = None  # counted again when asked (most clones never gain a die)
        return new

    def to_json(self) -> dict[str, Any]:
        return {
            "units": [u.to_json() for u in self.units.values()],
            "tiles": [t.to_json() for t in self.tiles],
            "round": self.round, "phase": self.phase, "order": list(self.order), "done": list(self.done),
            "active": self.active, "ranks": dict(self.ranks),
            "stage": self.stage, "picks": {str(k): v for k, v in sorted(self.picks.items())},
            "pending": None if self.pending is None else self.pending.to_json(),
            "queue": [q.to_json() for q in self.queue],
            "attack": None if self.attack is None else dict(self.attack),
            "decks": {k: d.to_json() for k, d in sorted(self.decks.items())},
            "revealed": dict(sorted(self.revealed.items())),
            "hazard_hits": sorted([list(x) for x in self.hazard_hits]),
            "dice": {str(k): d.to_json() for k, d in sorted(self.dice.items())},
            "next_tile": self.next_tile, "eliminated": list(self.eliminated), "winners": list(self.winners),
            "npc_plan": dict(self.npc_plan), "env_speed": {k: list(v) for k, v in sorted(self.env_speed.items())},
            "tasks": [list(t) for t in self.tasks],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Board:
        b = cls()
        b.units = {u["uid"]: Unit.from_json(u) for u in d["units"]}
        b.tiles = [Tile.from_json(t) for t in d["tiles"]]
        b.round = int(d["round"])
        b.phase = str(d["phase"])
        b.order = list(d["order"])
        b.done = list(d["done"])
        b.active = d["active"]
        b.ranks = {str(k): int(v) for k, v in d["ranks"].items()}
        b.stage = str(d["stage"])
        b.picks = {int(k): str(v) for k, v in d["picks"].items()}
        b.pending = None if d["pending"] is None else Pending.from_json(d["pending"])
        b.queue = [QItem.from_json(q) for q in d["queue"]]
        b.attack = None if d["attack"] is None else dict(d["attack"])
        b.decks = {k: Deck.from_json(v) for k, v in d["decks"].items()}
        b.revealed = dict(d["revealed"])
        b.hazard_hits = {(str(a), str(t)) for a, t in d["hazard_hits"]}
        b.dice = {int(k): Dice.from_json(v) for k, v in d["dice"].items()}
        b.next_tile = int(d["next_tile"])
        b.eliminated = list(d["eliminated"])
        b.winners = [int(x) for x in d["winners"]]
        b.npc_plan = dict(d["npc_plan"])
        b.env_speed = {str(k): [int(x) for x in v] for k, v in d.get("env_speed", {}).items()}
        b.tasks = [[str(x) for x in t] for t in d.get("tasks", [])]
        b.gone = True
        return b


#: The board's fields a pickle carries: the position (what `to_json` writes) and `gone`; the
#: layout token, the touched figures and the dice count are this process's and are made anew.
BOARD_FIELDS = (
    "units", "tiles", "round", "phase", "order", "done", "active", "ranks", "stage", "picks", "pending", "queue",
    "attack", "decks", "revealed", "hazard_hits", "dice", "next_tile", "eliminated", "winners", "npc_plan",
    "env_speed", "tasks", "gone",
)


def _board_from_fields(values: tuple[Any, ...]) -> Board:
    """`Board.__reduce__`'s reader: a board (with a fresh layout token) holding these fields."""
    new = Board()
    for name, value in zip(BOARD_FIELDS, values, strict=True):
        setattr(new, name, value)
    return new
