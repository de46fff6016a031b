"""The opening position: homes, starting armies and currency, independent armies, the deck."""

from __future__ import annotations

from bloodforge.core import Deck, Rng

from .model import CAV_FRESH, INDEPENDENT, INF_FRESH, Model
from .rules import Config


def setup(cfg: Config, rng: Rng) -> Model:
    """Seats take the home slots listed for their player count; homes left unused are great
    forts held by an independent army (house content); the first player is drawn from the RNG."""
    c = cfg.content
    m = Model(cfg.players, c.size)
    slots = c.home_slots(cfg.players)
    slot_territory = {s: t for t, s in enumerate(c.home_slot) if s is not None}
    m.set_homes([slot_territory[s] for s in slots])
    start = c.data.start
    overrides = c.data.independent_by_players.get(str(cfg.players), {})
    for t, spec in enumerate(c.data.territories):
        army = spec.independent
        if spec.home is not None and spec.home not in slots:
            army = c.data.unused_home_army
        army = overrides.get(spec.id, army)
        if army is not None and (army.infantry or army.cavalry):
            m.owner[t] = INDEPENDENT
            m.units[t][INF_FRESH] = army.infantry
            m.units[t][CAV_FRESH] = army.cavalry
    for seat, t in enumerate(m.home):
        m.currency[seat] = start.currency
        if start.infantry or start.cavalry:
            m.owner[t] = seat
            m.units[t][INF_FRESH] = start.infantry
            m.units[t][CAV_FRESH] = start.cavalry
    m.deck = Deck.shuffled(c.deck, rng)
    m.first_seat = rng.randbelow(cfg.players)
    if cfg.chronicles:
        m.chronicle_deck = Deck.shuffled(c.chronicle_deck, rng)
    extra = start.currency_by_turn_position
    for k in range(min(len(extra), cfg.players)):
        m.currency[(m.first_seat + k) % cfg.players] += extra[k]
    return m
