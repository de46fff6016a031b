"""Descriptions of Five Forts' hero cards, chronicle cards, units and forts for people (issue 18,
the UI contract's item 2).

One renderer words the content file's numbers (strength, wins_draws, shield, pathfinder; the
chronicles' quota and price changes; the defence bonuses), so a designer's change to the
content shows on the cards at once and the cards can never disagree with the rules.
"""

from __future__ import annotations

from typing import Any

from .content import ChronicleSpec, ContentFile, HeroSpec


def hero_card(h: HeroSpec) -> dict[str, Any]:
    effects: list[str] = []
    if h.strength:
        effects.append(f"adds {h.strength} to your battle total")
    if h.wins_draws:
        effects.append("you win the battle on a draw (if both sides play one, the draw stands)")
    if h.shield:
        effects.append(f"if you lose, the margin your losses must cover is {h.shield} smaller")
    if h.pathfinder:
        effects.append("if you win as attacker, your victorious units may act once more this round")
    text = "Play face down in a battle, revealed with the other side's: " + "; ".join(effects or ["no effect"]) + "."
    stats = [["Strength", f"+{h.strength}"]] if h.strength else []
    if h.shield:
        stats.append(["Shield", f"-{h.shield} to your losses"])
    stats.append(["Copies in the deck", str(h.copies)])
    return {"name": h.name, "kind": "hero card", "text": text, "stats": stats}


def chronicle_card(k: ChronicleSpec) -> dict[str, Any]:
    effects: list[str] = []
    if k.extra_action:
        effects.append("units that move with their ordinary action may act once more")
    if k.quota_delta:
        way = "higher" if k.quota_delta > 0 else "lower"
        effects.append(f"every player's unit quota is {abs(k.quota_delta)} {way}")
    if k.hero_price is not None:
        effects.append(f"hero cards cost {k.hero_price} currency")
    text = "A round event (optional chronicle module), for the round it is drawn in: " + (
        "; ".join(effects) if effects else "nothing happens") + "."
    return {"name": k.name, "kind": "chronicle", "text": text, "stats": [["Copies in the deck", str(k.copies)]]}


def cards(d: ContentFile, chronicles: bool) -> dict[str, dict[str, Any]]:
    """Every card and unit the table can show, keyed by the word actions and pieces use."""
    bonus = d.defence_bonus
    out: dict[str, dict[str, Any]] = {
        "infantry": {"name": "Infantry", "kind": "unit",
                     "text": "Foot soldiers: strength 1 in battle and as a bribe; recruited at any fort.",
                     "stats": [["Strength", "1"], ["Moves", "1 territory per action, one action a turn"],
                               ["Recruited", "1 at a fort, 2 at a great fort or home"]]},
        "cavalry": {"name": "Cavalry", "kind": "unit",
                    "text": "Horsemen: strength 2 in battle and as a bribe; recruited only at great forts and homes.",
                    "stats": [["Strength", "2"], ["Moves", "1 territory per action, one action a turn"],
                              ["Recruited", "1 at a great fort or home (instead of 2 infantry)"]]},
        "fort": {"name": "Fort", "kind": "territory",
                 "text": f"Recruits 1 infantry a turn for its controller; defenders add {bonus.territory}, as in "
                         f"any territory. Hold {d.forts_to_win} forts (homes count) for a whole round to win.",
                 "stats": [["Defence", f"+{bonus.territory}"]]},
        "great_fort": {"name": "Great fort", "kind": "territory",
                       "text": f"Recruits 2 infantry or 1 cavalry a turn; defenders add {bonus.great_fort}.",
                       "stats": [["Defence", f"+{bonus.great_fort}"]]},
        "home": {"name": "Home", "kind": "territory",
                 "text": f"A player's home: a great fort that stays theirs while empty; its owner defends with "
                         f"+{bonus.home}; it cannot be bribed.",
                 "stats": [["Defence", f"+{bonus.home} for its owner"]]},
    }
    for h in d.heroes:
        out[h.id] = hero_card(h)
    if chronicles:
        for k in d.chronicles:
            out[k.id] = chronicle_card(k)
    return out
