"""Descriptions for people: unit types and mercenary cards worded from their data (issue 18).

One renderer from the content's vocabulary (unit chart fields, the mercenary effect fields of
`CardData`) to English, so a designer who edits `data/units.json` or `data/mercenaries.json`
sees the new numbers on the page without writing any text. The browser shows these on hover,
tap and focus of anything marked with the id, and in its Cards panel (browser contract 2).
"""

from __future__ import annotations

from typing import Any

from .content import Content
from .queries.stats import CardData, UnitData

CLASS_WORDS = {"land": "Land unit", "air": "Air unit", "sea": "Sea unit", "common": "Fortification"}


def _plural(n: int, word: str) -> str:
    if n == 1 or word.endswith(("infantry", "cavalry")):
        return f"{n} {word}"
    return f"{n} dice" if word == "die" else f"{n} {word}s"


def unit_text(kind: str, u: UnitData, c: Content) -> str:
    """A unit type in words: what it costs, how it fights, how it moves, what it needs."""
    bits = [f"{CLASS_WORDS[u.cls]}. Costs {u.cost} crowns."]
    if u.cls == "common":
        what = "units" if kind == "castle" else "ships (into a sea zone next to it)"
        bits.append(f"Placed on a {'coastal ' if kind == 'port' else ''}territory you held since your turn began; "
                    f"from your next turn it produces {what}, up to the territory's value each turn.")
        bits.append(f"Defends its territory with a die hitting on {u.defence} or less; never attacks or moves.")
        bits.append(f"The map holds {u.pool} in all.")
        return " ".join(bits)
    bits.append(f"In battle it hits on {u.attack} or less when attacking and {u.defence} or less when defending "
                "(one six-sided die each round).")
    moves = f"Moves {_plural(u.move, 'space')} a turn"
    if u.cls == "air":
        moves += ", flying over friendly spaces; it must end the turn in one of your territories"
    elif u.cls == "sea":
        moves += f" between sea zones and carries up to {_plural(c.units.ship_capacity, 'land unit')}"
    else:
        moves += "; it may board a ship in a sea zone next to it"
    bits.append(moves + ".")
    bits.append(f"Uses {u.supply} supply. Each faction has {u.pool}.")
    return " ".join(bits)


def unit_stats(u: UnitData) -> list[list[str]]:
    stats = [["Cost", f"{u.cost} crowns"]]
    if u.cls != "common":
        stats += [["Attack", f"hits on {u.attack}"], ["Defence", f"hits on {u.defence}"],
                  ["Move", _plural(u.move, "space")], ["Supply", str(u.supply)]]
    else:
        stats.append(["Defence", f"hits on {u.defence}"])
    return stats


def card_text(card: CardData, units: dict[str, UnitData]) -> str:
    """A mercenary card's effect in words, from its effect fields (never from its `text`)."""
    out: list[str] = []
    if card.timing == "instant":
        out.append("Instant: it takes effect as soon as you hire it and goes back into the deck.")
    else:
        out.append("Battle card: keep it (5 extra supply while held) and play it at the start of a battle; "
                   "then it goes back into the deck.")
    if card.attacker_only:
        out.append("Only the attacker may play it.")
    for kind, n in (("infantry", card.add_infantry), ("cavalry", card.add_cavalry)):
        if n:
            u = units[kind]
            out.append(f"Adds {_plural(n, 'hired ' + kind)} (attack {u.attack}, defence {u.defence}) to your side "
                       "for this battle; they never capture and leave afterwards.")
    if card.first_round_bonus:
        out.append(f"First round only: every unit on your side hits on {card.first_round_bonus} more (at most 5).")
    if card.silence_fortifications:
        out.append("The defender's castle and port do not roll in this battle.")
    if card.ignore_first_hits:
        out.append(f"The first {_plural(card.ignore_first_hits, 'hit')} scored against you in round one "
                   "are ignored.")
    if card.mage_dice:
        out.append(f"Before the first strike roll {_plural(card.mage_dice, 'die')}, each hitting on "
                   f"{card.mage_value} or less; your opponent removes that many units at once, and they do not "
                   "strike back.")
    if card.crowns:
        out.append(f"You gain {card.crowns} crowns.")
    if card.deserters:
        out.append(f"Choose a space next to one of your units: {_plural(card.deserters, 'enemy infantry')} "
                   "there desert (back to the pool).")
    if card.spies:
        out.append("Choose a space holding enemy pieces: you see what they are.")
    return " ".join(out)


def card_stats(card: CardData, c: Content) -> list[list[str]]:
    return [["Cost", f"{c.units.mercenary_cost} crowns"],
            ["When", "at once" if card.timing == "instant" else "in a battle"],
            ["Copies", f"{card.copies} of {len(c.card_pile)}"]]


def cards(c: Content) -> dict[str, dict[str, Any]]:
    """static_info()["cards"]: every unit type, the hired units and every mercenary card."""
    units = c.units.units
    out: dict[str, dict[str, Any]] = {}
    for kind, u in units.items():
        out[kind] = {"name": u.name, "kind": "unit", "text": unit_text(kind, u, c), "stats": unit_stats(u)}
    for kind in ("infantry", "cavalry"):
        u = units[kind]
        out[f"hired_{kind}"] = {
            "name": f"Hired {u.name.lower()}", "kind": "mercenary unit",
            "text": f"A {u.name.lower()} brought by a mercenary card for one battle: it fights like "
                    f"{u.name.lower()} (attack {u.attack}, defence {u.defence}), may be taken as a casualty, "
                    "never captures and leaves after the battle.",
            "stats": [["Attack", f"hits on {u.attack}"], ["Defence", f"hits on {u.defence}"]]}
    for cid, card in c.cards.items():
        out[cid] = {"name": card.name, "kind": "mercenary card", "text": card_text(card, units),
                    "stats": card_stats(card, c)}
    return out
