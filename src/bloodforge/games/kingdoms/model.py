"""The position of a Kingdoms of Blood game: plain data, copied by hand, no rules.

Spaces are ints (indices into `Content.ids`); pieces have stable ids so that fog of war can say
which piece a seat has seen (A36). Castles and ports are flags on territories, not pieces: they
never move and change owner with the territory (K12).
"""

from __future__ import annotations

from typing import Any, Self

from bloodforge.core import Game, Rng, State

from .content import Content

RESERVE = -1  # `at` of a bought piece set aside until phase 5 (K35)


class Piece:
    """One unit piece. Flags are per turn of its faction and reset when that turn starts."""

    __slots__ = (
        "aboard",
        "at",
        "attacked",
        "boarded",
        "came",
        "cm",
        "faction",
        "fought",
        "id",
        "kind",
        "landed",
        "merc",
        "moved",
        "walked",
    )

    def __init__(self, pid: int, faction: int, kind: str, at: int, *, merc: bool = False) -> None:
        self.id = pid
        self.faction = faction
        self.kind = kind
        self.at = at
        self.aboard = -1  # id of the ship carrying it
        self.moved = 0  # spaces moved this turn
        self.cm = False  # made a combat move this turn
        self.fought = False
        self.attacked = -1  # the space it attacked (air units may not land there, K53)
        self.walked = False  # moved over land this turn (may not then ride a ship, A13)
        self.boarded = False
        self.landed = False
        self.merc = merc  # a mercenary card's unit, gone after the battle
        # the spaces next to `at` it may have entered `at` from this turn (K81: an attacker
        # retreats only to a space from which an attacking unit moved)
        self.came: list[int] = []

    def copy(self) -> Piece:
        p = Piece.__new__(Piece)
        p.id, p.faction, p.kind, p.at = self.id, self.faction, self.kind, self.at
        p.aboard, p.moved = self.aboard, self.moved
        p.cm, p.fought, p.attacked, p.walked, p.boarded, p.landed = (
            self.cm, self.fought, self.attacked, self.walked, self.boarded, self.landed)
        p.merc = self.merc
        p.came = self.came[:] if self.came else []
        return p

    def reset(self) -> None:
        self.moved = 0
        self.cm = self.fought = self.walked = self.boarded = self.landed = False
        self.attacked = -1
        self.came = []

    def to_json(self) -> list[Any]:
        return [self.id, self.faction, self.kind, self.at, self.aboard, self.moved, int(self.cm), int(self.fought),
                self.attacked, int(self.walked), int(self.boarded), int(self.landed), int(self.merc), list(self.came)]

    @staticmethod
    def from_json(row: list[Any]) -> Piece:
        p = Piece(int(row[0]), int(row[1]), str(row[2]), int(row[3]), merc=bool(row[12]))
        p.aboard, p.moved = int(row[4]), int(row[5])
        p.cm, p.fought, p.attacked = bool(row[6]), bool(row[7]), int(row[8])
        p.walked, p.boarded, p.landed = bool(row[9]), bool(row[10]), bool(row[11])
        p.came = [int(x) for x in row[13]] if len(row) > 13 else []
        return p


class Battle:
    """One battle in progress (K67). Sides: 0 attacker, 1 defender."""

    __slots__ = ("att", "bonus", "card", "decided", "dfn", "hits", "mage", "marked", "retreat_to", "round",
                 "shield", "silenced", "space", "stage")

    def __init__(self, space: int, att: int, dfn: int) -> None:
        self.space = space
        self.att = att
        self.dfn = dfn
        self.stage = "merc_att"
        self.round = 1
        self.hits = 0  # hits the deciding side still has to assign
        self.marked: list[int] = []  # defender casualties chosen this round, still striking back (K71)
        self.card: list[str | None] = [None, None]  # committed mercenary cards, hidden until revealed
        self.decided = [False, False]
        self.bonus = [0, 0]  # first-round hit bonus per side (Master Archers)
        self.shield = [0, 0]  # first-round hits ignored per side (Shieldbearers)
        self.mage = [0, 0]  # Battle Mage dice per side, rolled before the first strike
        self.silenced: list[str] = []  # defender castle/port taken as casualties (A23) or silenced
        self.retreat_to = -1

    def copy(self) -> Battle:
        b = Battle.__new__(Battle)
        b.space, b.att, b.dfn = self.space, self.att, self.dfn
        b.stage, b.round, b.hits = self.stage, self.round, self.hits
        b.marked, b.card, b.decided = list(self.marked), list(self.card), list(self.decided)
        b.bonus, b.shield, b.mage = list(self.bonus), list(self.shield), list(self.mage)
        b.silenced = list(self.silenced)
        b.retreat_to = self.retreat_to
        return b

    def to_json(self) -> dict[str, Any]:
        return {s: (list(v) if isinstance(v := getattr(self, s), list) else v) for s in self.__slots__}

    @staticmethod
    def from_json(d: dict[str, Any]) -> Battle:
        b = Battle(int(d["space"]), int(d["att"]), int(d["dfn"]))
        for s in Battle.__slots__:
            v = d[s]
            setattr(b, s, list(v) if isinstance(v, list) else v)
        return b


class KBase(State):
    """The data of a position; the rules (rules*.py) are functions of it."""

    game: Any
    content: Content
    #: derived, never saved: the moving faction's view of the map (a terrain.Terrain, None until
    #: asked). Typed `object` here: the position is the lowest layer and must not know the
    #: layers built on it; terrain.py and movement.py read these slots through typed accessors.
    terrain: object | None
    #: derived, never saved, never cloned: the moving faction's move list (a movement.MoveMemo)
    move_memo: object | None
    faction_seat: list[int]  # derived from seat_factions (_derive_seats)
    team_seats: list[list[int]]  # derived from seat_factions and teams (_derive_seats)

    # fields copied by value
    _SCALARS = ("active", "turn_idx", "round", "phase", "next_id", "pending", "instant", "over")

    def _init_position(
        self, game: Game, rng: Rng, content: Content, factions_of: list[list[int]], teams: list[int]
    ) -> None:
        self._init_core(game, rng)
        self.content = content
        n = len(content.ids)
        self.seat_factions = factions_of  # seat -> factions it plays
        self.teams = teams  # faction -> team index (FFA: its own index)
        self._derive_seats()
        self.order: list[int] = [0, 1, 2, 3]  # turn order of factions
        self.turn_idx = 0
        self.active = 0
        self.round = 1
        self.phase = "purchase"
        self.owner: list[int] = [-1] * n
        self.castle: list[bool] = [False] * n
        self.port: list[bool] = [False] * n
        # id -> piece, always in id order: ids only grow and the dict keeps insertion order, so
        # the rules iterate it directly where the lowest id must come first (A29)
        self.pieces: dict[int, Piece] = {}
        self.next_id = 1
        self.treasury = [0, 0, 0, 0]
        self.hands: list[list[str]] = [[], [], [], []]
        self.pile: list[str] = []
        self.start_owned: list[int] = []  # territories the active faction held when its turn began
        self.start_seas: list[int] = []  # sea zones friendly to the active faction when its turn began (K81)
        self.new_works: list[int] = []  # castles/ports captured or built this turn: no production (K88)
        self.produced: dict[int, int] = {}  # units placed per producing territory this turn (K98)
        self.fought: list[int] = []  # spaces whose battle this turn is over
        self.battle: Battle | None = None
        self.pending = -1  # faction that must disband units for supply (K108), or -1
        self.instant = ""  # an instant card waiting for its target (spies, deserters)
        self.hold = [False, False, False, False]  # held 7+ gems since the end of its last turn (A37)
        self.out = [False, False, False, False]
        self.over = False
        self.winners: list[int] = []  # winning factions
        self.known: set[int] = set()  # piece ids every seat has seen face up (K58, A36)
        # the longest single move each piece was seen making over land: only a type with at least
        # that movement can be the piece (2+: an air unit, 4: a dragon; spec 4.3)
        self.flown: dict[int, int] = {}
        self.spied: list[set[int]] = [set() for _ in factions_of]  # per seat, seen by Spies
        self.dice: list[int] = []  # rigged die results, used first (scenarios)
        self.draws: list[str] = []  # rigged mercenary draws
        self.terrain = None
        self.move_memo = None

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (to the server's search workers) without the derived views: the terrain and
        the move list are made again where they are asked. *Why:* they are never part of the
        position, and leaving them out lets their classes be compiled in the compiled build
        (a compiled class unpickles through its `__init__`, which needs the position)."""
        state = dict(self.__dict__)
        state["terrain"] = None
        state["move_memo"] = None
        return state

    def _derive_seats(self) -> None:
        """Faction -> its seat, and faction -> the seats of its team (sorted): asked at every
        decision and every logged move, fixed for the whole game (shared by clones)."""
        seat = [-1, -1, -1, -1]
        for i, fs in enumerate(self.seat_factions):
            for f in fs:
                if seat[f] < 0:
                    seat[f] = i
        self.faction_seat = seat
        self.team_seats = [sorted({seat[g] for g in range(4) if self.teams[g] == self.teams[f] and seat[g] >= 0})
                           for f in range(4)]

    def clone(self) -> Self:
        new = object.__new__(type(self))
        self._clone_core(new)
        new.content = self.content
        new.terrain = self.terrain  # a fact of the position both copies are in (terrain.py)
        new.move_memo = None
        new.seat_factions = self.seat_factions
        new.teams = self.teams
        new.faction_seat = self.faction_seat
        new.team_seats = self.team_seats
        new.order = self.order
        # the _SCALARS, one by one (no getattr/setattr by name: clone runs once per search node)
        new.active, new.turn_idx, new.round, new.phase = self.active, self.turn_idx, self.round, self.phase
        new.next_id, new.pending, new.instant, new.over = self.next_id, self.pending, self.instant, self.over
        new.owner = list(self.owner)
        new.castle = list(self.castle)
        new.port = list(self.port)
        copy = Piece.copy
        new.pieces = {i: copy(p) for i, p in self.pieces.items()}
        new.treasury = list(self.treasury)
        new.hands = [list(h) for h in self.hands]
        new.pile = list(self.pile)
        new.start_owned = list(self.start_owned)
        new.start_seas = list(self.start_seas)
        new.new_works = list(self.new_works)
        new.produced = dict(self.produced)
        new.fought = list(self.fought)
        new.battle = None if self.battle is None else self.battle.copy()
        new.hold = list(self.hold)
        new.out = list(self.out)
        new.winners = list(self.winners)
        new.known = set(self.known)
        new.flown = dict(self.flown)
        new.spied = [set(s) for s in self.spied]
        new.dice = list(self.dice)
        new.draws = list(self.draws)
        return new

    def _position_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {k: getattr(self, k) for k in self._SCALARS}
        d.update(
            seat_factions=self.seat_factions, teams=list(self.teams), order=self.order, owner=list(self.owner),
            castle=[i for i, c in enumerate(self.castle) if c], port=[i for i, c in enumerate(self.port) if c],
            pieces=[p.to_json() for _, p in sorted(self.pieces.items())], treasury=list(self.treasury),
            hands=[list(h) for h in self.hands], pile=list(self.pile), start_owned=list(self.start_owned),
            start_seas=list(self.start_seas),
            new_works=list(self.new_works), produced=[[k, v] for k, v in sorted(self.produced.items())],
            fought=list(self.fought), battle=None if self.battle is None else self.battle.to_json(),
            hold=list(self.hold), out=list(self.out), winners=list(self.winners), known=sorted(self.known),
            flown=[[k, v] for k, v in sorted(self.flown.items())], spied=[sorted(s) for s in self.spied],
            dice=list(self.dice),
            draws=list(self.draws),
        )
        return d

    def _load_position(self, d: dict[str, Any]) -> None:
        self.terrain = None
        self.move_memo = None
        for k in self._SCALARS:
            setattr(self, k, d[k])
        n = len(self.content.ids)
        self.seat_factions = [list(x) for x in d["seat_factions"]]
        self.teams = [int(x) for x in d["teams"]]
        self._derive_seats()
        self.order = [int(x) for x in d["order"]]
        self.owner = [int(x) for x in d["owner"]]
        self.castle = [False] * n
        self.port = [False] * n
        for i in d["castle"]:
            self.castle[int(i)] = True
        for i in d["port"]:
            self.port[int(i)] = True
        # in id order, as play keeps it (rules iterate pieces in that order: lowest id first)
        self.pieces = {int(r[0]): Piece.from_json(r) for r in sorted(d["pieces"], key=lambda r: int(r[0]))}
        self.treasury = [int(x) for x in d["treasury"]]
        self.hands = [[str(c) for c in h] for h in d["hands"]]
        self.pile = [str(c) for c in d["pile"]]
        self.start_owned = [int(x) for x in d["start_owned"]]
        self.start_seas = [int(x) for x in d.get("start_seas", [])]
        self.new_works = [int(x) for x in d["new_works"]]
        self.produced = {int(k): int(v) for k, v in d["produced"]}
        self.fought = [int(x) for x in d["fought"]]
        self.battle = None if d["battle"] is None else Battle.from_json(d["battle"])
        self.hold = [bool(x) for x in d["hold"]]
        self.out = [bool(x) for x in d["out"]]
        self.winners = [int(x) for x in d["winners"]]
        self.known = {int(x) for x in d["known"]}
        self.flown = {int(k): int(v) for k, v in d["flown"]}
        self.spied = [{int(x) for x in s} for s in d["spied"]]
        self.dice = [int(x) for x in d["dice"]]
        self.draws = [str(x) for x in d["draws"]]
