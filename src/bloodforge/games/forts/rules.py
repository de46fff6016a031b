"""Rule queries on the position: who controls what, quotas, bonuses, bribes, retreats.

Everything here is a pure function of the model and the content. The number-only queries the
heuristic policy may call (`battle_odds`, `casualty_options`) live in `queries.py`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .content import Content
from .model import EMPTY, Model, army_strength
from .queries import defence_bonus_value


@dataclass(frozen=True)
class Config:
    """What the rules need besides the position: content and the table's parameters."""

    content: Content
    players: int
    planning_seconds: int
    max_rounds: int
    chronicles: bool = False

    @property
    def seat_names(self) -> list[str]:
        """Each seat is named after its home slot (2 players: Red and Green, opposite corners)."""
        names = self.content.data.seat_names
        return [names[slot] for slot in self.content.home_slots(self.players)]

    @property
    def seat_colours(self) -> list[str]:
        colours = self.content.data.seat_colours
        return [colours[slot] for slot in self.content.home_slots(self.players)]


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


@dataclass(frozen=True)
class Tally:
    """Per-seat counts from one pass over the map (observations and settling need them all)."""

    controllers: list[int]
    forts: list[int]
    food: list[int]
    income: list[int]
    units: list[int]


def tally(m: Model, c: Content) -> Tally:
    n = m.players
    ctl = [controller(m, t) for t in range(c.size)]
    forts, food, income, units = [0] * n, [0] * n, [0] * n, [0] * n
    for t, o in enumerate(ctl):
        if o >= 0:
            if c.fort[t]:
                forts[o] += 1
            food[o] += c.food[t]
            income[o] += c.currency[t]
        if m.owner[t] >= 0:
            units[m.owner[t]] += sum(m.units[t])
    return Tally(ctl, forts, food, income, units)


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

    Asked on every step (it decides who acts), so it counts units and food in one pass.
    """
    n = m.players
    units = [0] * n
    food = [0] * n
    owner, home_of, out = m.owner, m.home_of, m.eliminated
    for t in range(c.size):
        o = owner[t]
        if o >= 0:
            units[o] += sum(m.units[t])
        if c.food[t]:
            if o == EMPTY:
                h = home_of[t]
                o = h if h != EMPTY and not out[h] else EMPTY
            if o >= 0:
                food[o] += c.food[t]
    for s in turn_order_from(m, m.turn_seat):
        if not out[s] and units[s] > quota_for(m, c, food[s]):
            return s
    return None


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

