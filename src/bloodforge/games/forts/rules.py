"""Rule queries on the position: who controls what, quotas, bonuses, bribes, retreats.

Everything here is a pure function of the model and the content. The number-only queries the
heuristic policy may call (`battle_odds`, `casualty_options`) live in `queries.py`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .content import Content
from .model import EMPTY, NOT_ASKED, Model, Tally, army_strength
from .queries import defence_bonus_value


@dataclass(frozen=True)
class Config:
    """What the rules need besides the position: content and the table's parameters.

    `names`: each seat's name (`seat_names_for`), kept as a field because every log line
    names seats."""

    content: Content
    players: int
    planning_seconds: int
    max_rounds: int
    chronicles: bool = False
    names: tuple[str, ...] = ()

    @property
    def seat_names(self) -> list[str]:
        """Each seat is named after its home slot (2 players: Red and Green, opposite corners)."""
        return list(self.names or seat_names_for(self.content, self.players))

    def __reduce__(self) -> tuple[type[Config], tuple[Content, int, int, int, bool, tuple[str, ...]]]:
        """Pickled by its constructor's arguments: the server pickles each table's game, which
        holds its config, for the search workers, and in the compiled build (README, "Compiled
        build") a compiled frozen dataclass does not unpickle by filling in its fields; both
        builds write and read the same thing."""
        return (Config, (self.content, self.players, self.planning_seconds, self.max_rounds, self.chronicles,
                         self.names))

    @property
    def seat_colours(self) -> list[str]:
        colours = self.content.data.seat_colours
        return [colours[slot] for slot in self.content.home_slots(self.players)]


def seat_names_for(content: Content, players: int) -> tuple[str, ...]:
    """Each seat is named after its home slot (2 players: Red and Green, opposite corners)."""
    by_slot = content.data.seat_names
    return tuple(by_slot[slot] for slot in content.home_slots(players))


# -- control (F2, F3, A9, A10) ----------------------------------------------------------------
def controller(m: Model, t: int) -> int:
    """The seat controlling `t`, INDEPENDENT, or EMPTY: units decide; an empty home belongs to
    its owner while that player is in the game (F3)."""
    o = m.owner[t]
    if o != EMPTY:
        return o
    h = m.home_of[t]
    if h != EMPTY and not m.eliminated[h]:
        return h
    return EMPTY


def is_empty(m: Model, t: int) -> bool:
    """No units and nobody's home (A9): a territory anyone may move into."""
    return controller(m, t) == EMPTY


def tally(m: Model, c: Content) -> Tally:
    """The map's counts (`Tally`), computed once per position and kept on the model until the
    rules change it (`Model.touch`): who acts, the legal actions and settling all ask."""
    counts = m.tally_cache
    if counts is None:
        counts = m.tally_cache = _count(m, c)
    return counts


def _count(m: Model, c: Content) -> Tally:
    n = m.players
    forts, food, income, units = [0] * n, [0] * n, [0] * n, [0] * n
    owner, home_of, out, armies = m.owner, m.home_of, m.eliminated, m.units
    c_fort, c_food, c_currency = c.fort, c.food, c.currency
    ctl = [EMPTY] * len(owner)
    where: list[list[int]] = [[] for _ in range(n)]
    for t, o in enumerate(owner):
        if o != EMPTY:
            if o >= 0:
                u = armies[t]
                units[o] += u[0] + u[1] + u[2] + u[3] + u[4] + u[5]
                where[o].append(t)
        else:
            h = home_of[t]
            if h == EMPTY or out[h]:
                continue
            o = h
        ctl[t] = o
        if o >= 0:
            if c_fort[t]:
                forts[o] += 1
            food[o] += c_food[t]
            income[o] += c_currency[t]
    return Tally(ctl, forts, food, income, units, where)


def forts_of(m: Model, c: Content, seat: int) -> int:
    return sum(1 for t in range(c.size) if c.fort[t] and controller(m, t) == seat)


def food_of(m: Model, c: Content, seat: int) -> int:
    return sum(c.food[t] for t in range(c.size) if c.food[t] and controller(m, t) == seat)


def income_of(m: Model, c: Content, seat: int) -> int:
    return sum(c.currency[t] for t in range(c.size) if c.currency[t] and controller(m, t) == seat)


def quota_of(m: Model, c: Content, seat: int) -> int:
    """F24 (house formula): food_per_resource units per food resource controlled."""
    return quota_for(m, c, food_of(m, c, seat))


def quota_for(m: Model, c: Content, food: int) -> int:
    """The quota for `food` resources, with the round's chronicle (if any) applied."""
    delta = c.chronicles[m.chronicle].quota_delta if m.chronicle else 0
    return max(0, c.data.food_per_resource * food + delta)


def hero_price(m: Model, c: Content) -> int:
    if m.chronicle:
        price = c.chronicles[m.chronicle].hero_price
        if price is not None:
            return price
    return c.data.hero_price


def forced_march(m: Model, c: Content) -> bool:
    return bool(m.chronicle) and c.chronicles[str(m.chronicle)].extra_action


def units_of(m: Model, seat: int) -> int:
    return sum(sum(m.units[t]) for t in range(len(m.owner)) if m.owner[t] == seat)


def strength_of(m: Model, seat: int) -> int:
    return sum(army_strength(m.units[t]) for t in range(len(m.owner)) if m.owner[t] == seat)


def over_quota(m: Model, c: Content, seat: int) -> bool:
    return not m.eliminated[seat] and units_of(m, seat) > quota_of(m, c, seat)


def live_seats(m: Model) -> list[int]:
    return [s for s in range(m.players) if not m.eliminated[s]]


def turn_order_from(m: Model, seat: int) -> list[int]:
    """Every seat in turn order starting with `seat` (seat order is clockwise)."""
    return [(seat + k) % m.players for k in range(m.players)]


def first_over_quota(m: Model, c: Content) -> int | None:
    """The seat that must disband now (A34), the active player first, then in turn order.

    Asked on every step (it decides who acts), so it is answered once per position (`tally`).
    """
    counts = tally(m, c)
    over = counts.over
    if over != NOT_ASKED:
        return over
    units, food, out = counts.units, counts.food, m.eliminated
    n = m.players
    over = None
    per_food = c.data.food_per_resource
    delta = c.chronicles[m.chronicle].quota_delta if m.chronicle else 0
    for k in range(n):
        s = (m.turn_seat + k) % n
        if not out[s] and units[s] > max(0, per_food * food[s] + delta):  # quota_for, inlined
            over = s
            break
    counts.over = over
    return over


# -- battle numbers (F29-F33, F48-F51, A15, A16) --------------------------------------------
def defence_bonus(m: Model, c: Content, t: int, defender: int) -> int:
    """F48-F51, A15: the defender's bonus in `t` (one's own home, great fort, any territory)."""
    b = c.data.defence_bonus
    return defence_bonus_value(c.fort[t], home_of_defender=defender >= 0 and m.home_of[t] == defender,
                               territory=b.territory, great_fort=b.great_fort, home=b.home)


def bribe_cost(m: Model, t: int) -> int:
    """F46: the total strength of the bribed army (no defensive bonus, A27)."""
    return army_strength(m.units[t])


def bribe_targets(m: Model, c: Content, briber: int) -> list[int]:
    """Territories of the late player `briber` can pay for (A26): units there, not the home."""
    late = m.turn_seat
    out = []
    for t in range(c.size):
        if m.owner[t] == late and m.home[late] != t and 0 < bribe_cost(m, t) <= m.currency[briber]:
            out.append(t)
    return out


def retreat_destinations(m: Model, c: Content, target: int, origin: int, defender: int) -> list[int]:
    """A18: territories next to the battle the defender controls or that are empty, never the
    attacker's origin."""
    return [
        n for n in c.neighbours[target]
        if n != origin and (controller(m, n) == defender or is_empty(m, n))
    ]


def counts_text(inf: int, cav: int) -> str:
    parts = []
    if inf:
        parts.append(f"{inf} infantry")
    if cav:
        parts.append(f"{cav} cavalry")
    return ", ".join(parts) or "no units"


def can_draw_hero(m: Model) -> bool:
    return bool(m.deck.pile or m.deck.discards)

