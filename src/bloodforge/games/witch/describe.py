"""Descriptions of Blood Stone's spells and units for people (issue 18, the UI contract's item 2).

One renderer words the content file: a spell's chance, range, targets and effect come from the
same objects the rules cast with (`Chance.text`, `shape_text`, `Effect.text`), a unit's blood,
movement and attack from its card, so a designer's change shows on the cards at once.
"""

from __future__ import annotations

from typing import Any

from .content import AllShape, Content, SpellCard, UnitCard, shape_text

TARGET_WORDS = {"witch": "the Witch", "minion": "minions", "soldier": "Soldiers", "zombified": "zombified Soldiers"}
KIND_TEXT = {
    "witch": "The Blood Witch: her blood pays for her spells; the Soldiers win when she dies.",
    "minion": "A forest minion of the Witch: it moves and attacks when her spells command it.",
    "soldier": "A spirit-medium Soldier: it acts (move or attack) on the Soldiers' turn; when it dies it "
               "enters the Realm as a Phantom that helps the phantom spells. A zombified Soldier fights "
               "for the Witch.",
}


def spell_card(spell: SpellCard, deck: str) -> dict[str, Any]:
    targets = ", ".join(TARGET_WORDS.get(t, t) for t in spell.targets) or "none"
    many = " or ".join(TARGET_WORDS.get(t, t) for t in spell.targets) or "units"
    subject = "the target" if spell.chooses_target else f"the {many} in range"
    if isinstance(spell.range, AllShape):
        subject = f"all {many}"
    text = spell.effect.text(subject)
    text = text[0].upper() + text[1:] + "."
    if spell.on_fail is not None:
        text += f" If it fails: {spell.on_fail.text()}."
    stats = [["Chance", spell.chance.text()], ["Range", shape_text(spell.range)], ["Targets", targets],
             ["Deck", "blood spells (the Witch)" if deck == "blood" else "phantom spells (the Soldiers)"]]
    return {"name": spell.name, "kind": "spell", "text": text, "stats": stats}


def unit_card(card: UnitCard, attack: str | None) -> dict[str, Any]:
    stats = [["Blood", f"{card.blood_cap} at most"], ["Movement", f"{card.movement} squares"],
             ["Attack", attack or "none: she casts spells"]]
    return {"name": card.name, "kind": card.kind, "text": KIND_TEXT.get(card.kind, ""), "stats": stats}


def cards(c: Content) -> dict[str, dict[str, Any]]:
    """Every spell and unit, keyed by the word actions and pieces use."""
    out: dict[str, dict[str, Any]] = {}
    for uid in c.roster:
        card = c.units[uid]
        out[uid] = unit_card(card, None if card.attack is None else shape_text(card.attack))
    for sid, spell in c.spells.items():
        out[sid] = spell_card(spell, c.deck_of(sid))
    return out
