"""What each seat may know: observations, and states resampled from that knowledge.

Public: the board, every unit card with its blood, the supply, hand sizes, deck sizes and the
face-up discard piles, what was cast and rolled. Private to a seat: the cards in its own hand,
its own draws, and the spell it is in the middle of casting. Nobody sees a deck's order or the
RNG, so `resample` reshuffles every pile a seat cannot see into, deals the opponent a fresh hand
from its hand plus pile, reseeds the RNG and forgets rigged dice.
"""

from __future__ import annotations

from typing import Any

from bloodforge.core import Dice, Rng

from .content import Chance, Content, SpellCard, shape_reach, shape_text
from .model import OVER, SIDE_NAMES, SOLDIER_ACTS, SOLDIERS, WITCH, Position
from .queries import pass_probability

#: How many of the latest visible log lines an observation carries.
LOG_WINDOW = 30


def _card_template(spell: SpellCard, deck: str) -> dict[str, Any]:
    ch = spell.chance
    eff = spell.effect
    return {
        "id": spell.id,
        "name": spell.name,
        "deck": deck,
        "chance": {"kind": ch.kind, "die": ch.die, "value": ch.value, "text": ch.text()},
        "range": shape_text(spell.range),
        "targets": list(spell.targets),
        "effect": {
            "kind": eff.kind,
            "amount": eff.amount,
            "units": eff.units,
            "max_target_blood": eff.max_target_blood,
            "text": eff.text(),
        },
        "on_fail": None if spell.on_fail is None else spell.on_fail.text(),
        "text": spell.card_text(),
    }


def _statics(c: Content) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """What never changes within a content file, formatted once per file."""
    memo = c.memo.get("observation")
    if memo is None:
        units = {}
        for uid in c.roster:
            card = c.units[uid]
            units[uid] = {
                "name": card.name,
                "kind": card.kind,
                "side": "soldiers" if card.kind == "soldier" else "witch",
                "glyph": card.glyph,
                "max_blood": card.blood_cap,
                "movement": card.movement,
                "attack": None if card.attack is None else shape_text(card.attack),
                "reach": 0 if card.attack is None else shape_reach(card.attack),
            }
        cards = {sid: _card_template(s, c.deck_of(sid)) for sid, s in c.spells.items()}
        memo = c.memo["observation"] = (units, cards)
    result: tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]] = memo
    return result


def observe(state: Position, seat: int | None, lean: bool = False) -> dict[str, Any]:
    """`seat`'s observation (None: a spectator's). `lean` is what the policy reads
    (`WitchState.policy_observation`): the same values, without the status board, the phase's
    words and the board's pieces, and with a log of at most the latest cast among the log's
    window (the one line the policy reads). *Why:* the policy scores every action by the
    observation after it, and the log and the status board were 40% of a greedy decision."""
    c = state.content
    names = c.square_names
    static_units, static_cards = _statics(c)
    units: dict[str, Any] = {}
    for uid in c.roster:
        u = state.units[uid]
        units[uid] = {
            **static_units[uid],
            "where": u.where,
            "square": None if u.square is None else names[u.square],
            "blood": u.blood,
            "zombified": u.zombified,
            "bound": u.bound,
        }
    board = c.data.board
    decks = {}
    for s, label in ((SOLDIERS, "phantom"), (WITCH, "blood")):
        deck = state.decks[s]
        decks[label] = {"pile": len(deck.pile), "discards": list(deck.discards)}
    over = state.phase == OVER
    obs: dict[str, Any] = {
        "game": "witch",
        "seat": seat,
        "you": "spectator" if seat is None else SIDE_NAMES[seat].lower(),
        "phase": state.phase,
        "turn_number": state.turn_number,
        "max_turns": state.params.max_turns,
        "current_player": None if over else state.side,
        "side_to_move": None if over else SIDE_NAMES[state.side].lower(),
        "board": {
            "width": board.width,
            "height": board.height,
            "darkened": list(board.darkened),
            "witch_start": list(board.witch_start),
            "soldier_start": list(board.soldier_start),
        },
        "units": units,
        "supply": state.supply,
        "phantoms": state.phantoms(),
        "hand_sizes": {"soldiers": len(state.hands[SOLDIERS]), "witch": len(state.hands[WITCH])},
        "hand": None,
        "decks": decks,
        "turn": {
            "acts_used": state.rec.acts_used,
            "extra_acts": state.rec.extra_acts,
            "acts_limit": SOLDIER_ACTS + state.rec.extra_acts if state.side == SOLDIERS else 0,
            "moved": sorted(state.rec.moved),
            "attacked": sorted(state.rec.attacked),
            "spells_used": state.rec.spells_used,
            "spell_limit": 1 if state.side == SOLDIERS else state.params.blood_spells_per_turn,
        },
        # how blood-paid chances compare (a lab variant; public, like every rule)
        "blood_chance": state.params.blood_chance,
        "pending": None,
        # while this seat casts: the chance the spell passes, by X paid (browser help)
        "pass_chance": None,
        "grant": None if state.grant is None else state.grant.to_json(),
        "winner": _winner(state),
        "log": _latest_cast(state, seat) if lean else _log(state, seat),
    }
    if seat is not None:
        obs["hand"] = [_copy_card(static_cards[card]) for card in state.hands[seat]]
        if state.pending is not None and state.side == seat:
            obs["pending"] = state.pending.to_json()
            obs["pass_chance"] = _pass_chances(
                state.content.spells[state.pending.card].chance, state.phantoms(), state.params.blood_chance)
    if lean:
        return obs
    obs["board"].update(_board_view(obs))
    obs["status"] = _status(obs)
    obs["phase_label"] = phase_label(obs)
    return obs


WHERE_WORDS = {"realm": "dead: a Phantom in the Realm", "removed": "dead", "unplaced": "not placed"}


def phase_label(obs: dict[str, Any]) -> str:
    """The phase as players name it (the page's prompt header)."""
    if obs["phase"] == OVER:
        return "Game over"
    if obs["phase"] == "place":
        return "Placing the pieces"
    side = "the Soldiers'" if obs["side_to_move"] == "soldiers" else "the Witch's"
    return f"Turn {obs['turn_number']} of {obs['max_turns']}: {side} turn"


def _status(obs: dict[str, Any]) -> list[dict[str, Any]]:
    """Each side's blood and spells in words (the status board): every unit's blood stones
    (zombified Soldiers listed with the Witch, whose side they fight for), the spells in hand
    counted for both and named only to their holder, each side's deck (cards left, discarded),
    the supply and the Phantoms."""
    out = []
    for seat, side in ((SOLDIERS, "soldiers"), (WITCH, "witch")):
        items = []
        for u in obs["units"].values():
            mine = (u["side"] == side and not u["zombified"]) or (side == "witch" and u["zombified"])
            if not mine:
                continue
            name = f"{u['name']} (zombified)" if u["zombified"] else u["name"]
            if u["where"] == "board":
                value = f"{u['blood']} of {u['max_blood']} blood" + (", bound" if u["bound"] else "")
            else:
                value = WHERE_WORDS[u["where"]]
            items.append({"label": name, "value": value})
        items.append({"label": "Spells in hand", "value": str(obs["hand_sizes"][side])})
        # the side's draw pile and face-up discards: public numbers the table shows (UI audit)
        deck = obs["decks"]["phantom" if side == "soldiers" else "blood"]
        items.append({"label": "Phantom deck" if side == "soldiers" else "Blood spell deck",
                      "value": f"{deck['pile']} left, {len(deck['discards'])} discarded",
                      "hint": "cards still to draw, and cards on the face-up discard pile"})
        if side == "soldiers":
            items.append({"label": "Phantoms", "value": str(obs["phantoms"]),
                          "hint": "dead Soldiers and minions in the Realm: they help the phantom spells"})
        else:
            items.append({"label": "Blood supply", "value": f"{obs['supply']} stones"})
        entry: dict[str, Any] = {"seat": seat, "title": "Soldiers" if side == "soldiers" else "Witch",
                                 "items": items}
        if obs["seat"] == seat:
            names = ", ".join(card["name"] for card in obs["hand"] or ()) or "none"
            entry["private"] = [{"label": "Your spells", "value": names}]
        out.append(entry)
    return out


def pass_chance(chance: Chance, x: int, phantoms: int, blood_chance: str = "at_least") -> float:
    """The probability that the card's Chance passes (the rules' own query: "N > dD" passes
    when N >= the roll, Ruling 2, or N > roll for blood under the lab variant)."""
    return pass_probability(chance.kind, chance.die, chance.value, x, phantoms, blood_chance)


def _pass_chances(chance: Chance, phantoms: int, blood_chance: str) -> dict[str, float]:
    """For the player choosing X: the chance the spell passes for each X ("0".."die"; more
    blood than the die's faces passes surely), or the one chance as "any" when X does not
    matter."""
    if chance.kind != "blood" or chance.die is None:
        return {"any": pass_chance(chance, 0, phantoms, blood_chance)}
    return {str(x): pass_chance(chance, x, phantoms, blood_chance) for x in range(chance.die + 1)}


def _board_view(obs: dict[str, Any]) -> dict[str, Any]:
    """What is on the grid now in the browser's board contract (docs/browser.md), built from
    this very observation: the units on the board (`id` is the word actions use) and the seat's
    own spell cards."""
    pieces = [
        # a zombified Soldier fights for the Witch: its piece says so in words, not only colour
        {"at": u["square"], "id": uid, "owner": SOLDIERS if u["side"] == "soldiers" else WITCH,
         "kind": "zombified" if u["zombified"] else u["kind"],
         "label": f"{u['name']} (zombified)" if u["zombified"] else u["name"], "card": uid}
        for uid, u in obs["units"].items()
        if u["where"] == "board" and u["square"] is not None
    ]
    hand = [{"id": c["id"], "label": c["name"], "kind": "card", "card": c["id"]} for c in obs["hand"] or ()]
    return {"pieces": pieces, "marks": [], "hand": hand}


def static_board(c: Content) -> dict[str, Any]:
    """The grid in the browser's board contract: squares named as actions name them (`c5`,
    row 1 at the Soldiers' edge, drawn at the bottom), darkened squares and start zones as
    kinds, and people's names for unit and spell words."""
    b = c.data.board
    kind = {**dict.fromkeys(b.soldier_start, "soldier_start"), **dict.fromkeys(b.witch_start, "witch_start"),
            **dict.fromkeys(b.darkened, "darkened")}
    cells = []
    for row in range(b.height):
        for col in range(b.width):
            name = f"{chr(97 + col)}{b.height - row}"
            cells.append({"id": name, "col": col, "row": row, "kind": kind.get(name, "plain")})
    static_units, static_cards = _statics(c)
    return {
        "geometry": "squares",
        "width": b.width,
        "height": b.height,
        "cells": cells,
        "col_labels": [chr(97 + col) for col in range(b.width)],
        "row_labels": [str(b.height - row) for row in range(b.height)],
        "kinds": {"plain": {"label": "open"}, "darkened": {"label": "darkened (impassable)"},
                  "soldier_start": {"label": "Soldiers' start"}, "witch_start": {"label": "Witch's start"}},
        "seats": [{"seat": SOLDIERS, "name": "Soldiers"}, {"seat": WITCH, "name": "Witch"}],
        "names": {**{u: v["name"] for u, v in static_units.items()},
                  **{sid: v["name"] for sid, v in static_cards.items()}},
    }


def _copy_card(t: dict[str, Any]) -> dict[str, Any]:
    return {
        **t,
        "chance": dict(t["chance"]),
        "targets": list(t["targets"]),
        "effect": dict(t["effect"]),
    }


def _winner(state: Position) -> str | None:
    if state.phase != OVER:
        return None
    return "draw" if state.winner is None else SIDE_NAMES[state.winner].lower()


def _log(state: Position, seat: int | None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for event in reversed(state.events):
        text = event.text_for(seat)
        if text is not None:
            view: dict[str, Any] = {**(event.data or {}), "kind": event.kind, "text": text}
            out.append(view)
            if len(out) == LOG_WINDOW:
                break
    out.reverse()
    return out


def _latest_cast(state: Position, seat: int | None) -> list[dict[str, Any]]:
    """The latest cast `seat` may read among the log's last `LOG_WINDOW` lines it may read, as
    `_log` words it (a list of it, or an empty list): what the policy reads of the log."""
    seen = 0
    for event in reversed(state.events):
        text = event.text_for(seat)
        if text is None:
            continue
        if event.kind == "cast":
            return [{**(event.data or {}), "kind": event.kind, "text": text}]
        seen += 1
        if seen == LOG_WINDOW:
            break
    return []


def resample(new: Position, seat: int | None, rng: Rng) -> None:
    """Make `new` (a fresh clone) a state `seat` cannot tell apart from the original, with
    every hidden thing redrawn."""
    new.rng = Rng(rng.next_u64())
    new.dice = Dice()
    for s in (SOLDIERS, WITCH):
        deck = new.decks[s]
        if s == seat:
            deck.reshuffle_pile(rng)
            continue
        if new.pending is not None and new.side == s:
            # An uncommitted choice the seat never saw: the position before it is as consistent.
            new.pending = None
        hand = new.hands[s]
        pool = sorted(hand + deck.pile)
        rng.shuffle(pool)
        new.hands[s] = pool[: len(hand)]
        deck.pile = pool[len(hand) :]
