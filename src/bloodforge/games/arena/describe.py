"""Player-facing descriptions of BLOODSTONE arena content (issue 18's description contract).

ONE renderer from the arena's effect vocabulary (`content.Effect.op`, `EnvLine.op`) to English,
used for every Champion, attack, Ultimate, Blood Pact, Initiative card, Special die, minion,
Boss, Boss Action card, Rot card, Skirmish card and Environmental. Designers change numbers and
combinations in JSON and the texts follow; nothing here is written per card, so a text can never
drift from what the rules do. The wording follows the rulebook's keywords (Push, Pull, Throw,
Recall, Reroll, Flying, bonus die) so a newcomer can look them up.

`cards(content)` is `static_info()["cards"]`: `{key: {"name", "kind", "text", "stats"}}`. Keys are
the ids actions use (attacks, Initiative cards, Blood Pacts), so the page links buttons to their
description; other content gets a prefixed key (`die:`, `minion:`, `env:`, `boss_action:`, ...).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .content import Ability, Attack, Boss, Champion, Content, Effect, Environmental, MinionDef, SpecialDie

FLYING = "Flying: it moves through occupied spaces (but cannot end on one) and is immune to hazards."
CATEGORY = {"singles": "Singles", "doubles": "Doubles", "triples": "Triples (Ultimate)"}
DIE_NAMES = {"temp": "Temporary Attack die", "be": "Blood Energy die", "bonus": "bonus die"}
SELECT = {
    "self": "you",
    "target": "the target",
    "faster_enemy": "a faster enemy",
    "slower_enemy": "a slower enemy",
    "next_fastest": "the next fastest character",
    "next_slowest": "the next slowest character",
    "any_character": "any character",
}
BOSS_TARGET = {
    "most_hp": "",
    "least_hp": "This turn it hunts the enemy with the least HP instead of the most.",
    "nearest": "This turn it hunts the nearest enemy instead of the one with the most HP.",
}


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if abs(n) == 1 else (many or word + 's')}"


def amount_text(e: Effect) -> str:
    """An effect's number: "3", "1d20", "1d6+2"."""
    if e.dice is None:
        return str(e.amount)
    return f"1{e.dice}" + (f"+{e.amount}" if e.amount > 0 else f"-{-e.amount}" if e.amount < 0 else "")


class Voice:
    """Who an effect speaks about: `me` for `who: self`, `them` for `who: target`, each with
    its verb form ("you take" / "Mal'varra takes")."""

    def __init__(self, me: str = "you", them: str = "the target", me_possessive: str | None = None) -> None:
        self.me = me
        self.them = them
        self.me_possessive = me_possessive or ("your" if me == "you" else f"{me}'s")

    def subject(self, e: Effect) -> str:
        return self.me if e.who == "self" else self.them

    def possessive(self, e: Effect) -> str:
        """A name's possessive ("the victim's", "your", "its")."""
        if e.who == "self":
            return self.me_possessive
        return "its" if self.them == "it" or self.them.startswith(("a ", "any ", "whoever")) else f"{self.them}'s"

    def pronoun(self, e: Effect) -> str:
        """The possessive pronoun of the subject ("your", "its")."""
        return "your" if self.subject(e) == "you" else "its"

    def verb(self, e: Effect, base: str, third: str) -> str:
        s = self.subject(e)
        return f"{s} {base if s == 'you' else third}"


def effect_text(e: Effect, v: Voice, dice_names: dict[str, str] | None = None,
                tile_names: dict[str, str] | None = None) -> str:
    """One effect of the vocabulary as an English clause (no final full stop)."""
    n = amount_text(e)
    op = e.op
    if op == "damage":
        return f"{v.verb(e, 'take', 'takes')} {n} damage"
    if op == "attack_damage":
        return f"{v.me_possessive} attack this turn deals {n} more damage"
    if op == "heal":
        return f"{v.verb(e, 'heal', 'heals')} {n} HP (never above the starting HP)"
    if op == "energy":
        if e.amount < 0 and e.dice is None:
            return f"{v.verb(e, 'lose', 'loses')} {-e.amount} Blood Energy"
        return f"{v.verb(e, 'gain', 'gains')} {n} Blood Energy"
    if op == "drain":
        return f"{v.verb(e, 'lose', 'loses')} all {v.pronoun(e)} Blood Energy"
    if op == "gain_die":
        die = DIE_NAMES.get(e.die or "temp", "bonus die")
        count = max(1, e.amount)
        word = die if count == 1 else die.replace(" die", " dice")
        extra = " (Temporary Attack or Blood Energy)" if e.die == "bonus" else ""
        return f"{v.verb(e, 'gain', 'gains')} {'a' if count == 1 else count} {word}{extra}"
    if op == "add_die":
        name = (dice_names or {}).get(e.die or "", (e.die or "special").replace("_", " ").title())
        article = "an" if name[:1].lower() in "aeiou" else "a"
        return f"{v.verb(e, 'gain', 'gains')} {article} {name} Special die in {v.pronoun(e)} pool " \
            "(rolled from the next turn)"
    if op == "recall":
        return "this die is recalled (it returns to the supply)"
    if op == "steal_temp":
        return f"steal a Temporary Attack die from {v.subject(e)}"
    if op in ("push", "pull", "throw"):
        word = {"push": "Push", "pull": "Pull", "throw": "Throw"}[op]
        whom = v.subject(e)
        if e.per == "target_special_dice":
            how = f"{word} {whom} 1 space for each Special die in its pool" if e.amount == 1 else \
                f"{word} {whom} {e.amount} spaces for each Special die in its pool"
        else:
            how = f"{word} {n}: move {whom} up to {_plural(e.amount, 'space')} " + \
                (f"towards {v.me}" if op == "pull" else f"away from {v.me}")
        if op == "throw":
            how += " (Flying on the way: it collides with nothing but the Arena wall)"
        return how
    if op == "move":
        return f"{v.verb(e, 'move', 'moves')} up to {_plural(e.amount, 'space')} now"
    if op in ("range", "targets", "movement"):
        word = {"range": "Range", "targets": "Targets", "movement": "Movement"}[op]
        sign = "+" if e.amount >= 0 else ""
        return f"{v.verb(e, 'get', 'gets')} {sign}{n} {word} this turn"
    if op == "speed":
        return f"{v.possessive(e)} Speed becomes {n} this round"
    if op == "discard":
        return f"{v.verb(e, 'discard', 'discards')} an Initiative card (the slowest in hand)"
    if op == "place_tile":
        name = (tile_names or {}).get(e.tile or "", (e.tile or "a tile").replace("_", " ").title())
        where = "your space" if e.who == "self" and v.me == "you" else f"{v.possessive(e)} space"
        return f"lay {name} on {where}"
    if op == "reroll":
        return f"{v.verb(e, 'reroll', 'rerolls')} one of {v.pronoun(e)} dice rolled this turn and not yet used"
    if op == "fly":
        return f"{v.verb(e, 'gain', 'gains')} Flying until the end of {v.pronoun(e)} own turn " \
            "(through occupied spaces, immune to hazards)"
    raise ValueError(f"no wording for effect {op!r}")  # a new op needs its words here


def _role(owner: Champion | Boss) -> str:
    return "Boss" if isinstance(owner, Boss) else "Champion"


def line_text(op: str, n: int) -> str:
    """One line of an Environmental's Guide card (`EnvLine.op`)."""
    if op == "rotate":
        return (f"it turns {_plural(abs(n), 'sixth')} of a circle {'clockwise' if n > 0 else 'anticlockwise'}, "
                "hitting whoever it sweeps onto")
    return {
        "discard_on": "every character on it discards an Initiative card",
        "hazard_on": "its hazard strikes every character on it",
        "spawn": "its Boss raises a fallen minion on a free space of it",
        "minions_act": "its Boss's minions move and attack",
    }[op]


def lower_first(text: str) -> str:
    """A sentence continued after "Then": common words lose their capital, names keep theirs."""
    first = text.split(" ", 1)[0]
    return text[:1].lower() + text[1:] if first in ("Each", "You", "This", "Lay", "Steal", "It", "Its") else text


def sentence(parts: Iterable[str]) -> str:
    """Clauses joined into one sentence, capitalised, with a full stop."""
    items = [p for p in parts if p]
    if not items:
        return ""
    text = items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
    return text[0].upper() + text[1:] + "."


class Describer:
    """The renderer, bound to one content set (names of dice and tiles come from it)."""

    def __init__(self, content: Content) -> None:
        self.c = content
        self.dice = {d.id: d.name for ch in content.champions for d in ch.dice}
        self.dice.update({d.id: d.name for b in content.bosses for d in b.dice})
        self.tiles = {e.id: e.name for e in content.environmentals}

    def effects(self, effects: Iterable[Effect], v: Voice) -> str:
        return sentence(effect_text(e, v, self.dice, self.tiles) for e in effects)

    # -- abilities -------------------------------------------------------------------------
    def ability(self, ab: Ability, me: str = "you") -> str:
        whom = SELECT[ab.select]
        chosen = ab.select not in ("self", "target")
        v = Voice(me, "it" if chosen else whom if ab.select != "self" else "you")
        lead = f"Choose {whom}. " if chosen else ""
        if len(ab.options) == 1:
            text = self.effects(ab.options[0], v)
        else:
            text = "Either " + "; or ".join(lower_first(self.effects(o, v).rstrip(".")) for o in ab.options) + "."
        return lead + (text if lead else text[:1].upper() + text[1:])

    # -- attacks ---------------------------------------------------------------------------
    def attack(self, a: Attack, owner: Champion | Boss) -> dict[str, Any]:
        is_boss = isinstance(owner, Boss)
        me = owner.name if is_boss else "you"
        v = Voice(me, "each target")
        rng = owner.range + a.range_bonus
        tgt = owner.targets + a.targets_bonus
        dice = "the attack dice (red and black)"
        damage = f"{dice} + {a.damage}" if a.damage else dice
        extra = [e for e in a.effects if e.op == "attack_damage"]
        for e in extra:
            damage += f" + {amount_text(e)}"
        side = f", {a.side} side" if a.side else ""
        text = f"{CATEGORY[a.category]} attack{side}. Each target takes the sum of {damage} as damage."
        rest = [e for e in a.effects if e.op != "attack_damage"]
        if rest:
            text += " Then " + lower_first(self.effects(rest, v))
        if a.origin != "self":
            name = self.c.minion(a.origin).name
            text += f" It originates from {name}: Range is counted from {name}'s space."
        if a.category == "triples":
            text += " Usable after rolling three equal attack dice, or after Invoking the Ultimate."
        elif a.category == "doubles":
            text += " Usable after rolling two equal attack dice (or better)."
        stats = [[_role(owner), owner.name], ["Category", CATEGORY[a.category]],
                 ["Damage", f"dice + {a.damage}" if a.damage else "dice"], ["Range", str(rng)], ["Targets", str(tgt)]]
        return {"name": a.name, "kind": "Attack", "text": text, "stats": stats}

    # -- pieces ----------------------------------------------------------------------------
    def special_die(self, d: SpecialDie) -> dict[str, Any]:
        if d.timing == "attack":
            text = f"A d{d.sides} Special die: when rolled, its face is added to its holder's attack damage."
            return {"name": f"{d.name} die", "kind": "Special die", "text": text, "stats": [["Die", f"d{d.sides}"]]}
        when = ("it resolves at once when its holder rolls (step 2 of the turn)" if d.timing == "immediate"
                else "its holder may resolve it as a Bonus Action after rolling (a Spell die)")
        v = Voice("its holder", "its holder")
        groups: list[tuple[list[int], str]] = []
        for i, face in enumerate(d.faces, start=1):
            words = self.effects(face, v).rstrip(".") if face else "Nothing happens"
            if groups and groups[-1][1] == words and groups[-1][0][-1] == i - 1:
                groups[-1][0].append(i)
            else:
                groups.append(([i], words))
        faces = "; ".join(f"{nums[0] if len(nums) == 1 else f'{nums[0]}-{nums[-1]}'}: {words}"
                          for nums, words in groups)
        text = f"A d{d.sides} Special die: {when}. {faces}."
        stats = [["Die", f"d{d.sides}"], ["Supply", str(d.supply)]]
        return {"name": f"{d.name} die", "kind": "Special die", "text": text, "stats": stats}

    def minion(self, m: MinionDef, owner: str) -> dict[str, Any]:
        parts = [f"A minion of {owner}."]
        if m.hp is None:
            parts.append("It cannot be damaged or destroyed.")
        else:
            parts.append(f"It is destroyed by {m.hp} or more damage in a single turn.")
        if m.flying:
            parts.append(FLYING)
        if m.movement:
            parts.append(f"Its summoner may move it up to {_plural(m.movement, 'space')} as a Bonus Action."
                         if m.damage == 0 else f"It moves up to {_plural(m.movement, 'space')} when its Boss's "
                         "Environmental Action card says so.")
        if m.damage:
            parts.append(f"It attacks for {m.damage} damage within Range {m.range}.")
        parts.append("Minions are immune to hazards and are removed if their summoner is defeated.")
        stats = [["HP", "none" if m.hp is None else str(m.hp)], ["Movement", str(m.movement)],
                 ["Range", str(m.range)]]
        if m.count > 1:
            stats.append(["Figures", str(m.count)])
        return {"name": m.name, "kind": "Minion", "text": " ".join(parts), "stats": stats}

    def environmental(self, e: Environmental, owner: str | None) -> dict[str, Any]:
        parts = [("A solid Environmental" if e.kind == "solid" else "A flat tile")
                 + (f" of {owner}" if owner else "") + "."]
        if e.blocks_movement:
            parts.append("Nobody can move through or onto its spaces; pushing someone into it is a collision.")
        elif e.kind == "flat":
            parts.append("It does not occupy its spaces: characters move onto and through it.")
        if e.hazard:
            who = "an enemy of its owner" if e.harms == "enemies_of_owner" else "a character"
            v = Voice("the tile", "that character")
            parts.append(f"Hazard: the first time each turn {who} moves onto it (or it moves onto them), "
                         + self.effects(e.hazard, v)[:1].lower() + self.effects(e.hazard, v)[1:])
            parts.append("Minions and Flying characters are immune.")
        if e.lines:
            lines = [f"{', '.join(i.upper() for i in ln.icons)}: {line_text(ln.op, ln.amount)}" for ln in e.lines]
            parts.append("On its turn (it draws a Speed card like a Boss) it reveals an Environmental Action card "
                         "and, for each icon shown: " + "; ".join(lines) + ".")
        if e.collision_damage is not None:
            parts.append(f"Collisions on it deal {e.collision_damage} damage instead of 1d6.")
        stats = [["Type", "solid" if e.kind == "solid" else "flat tile"], ["Spaces", str(len(e.shape))]]
        if e.hazard:
            stats.append(["Hazard", "yes"])
        return {"name": e.name, "kind": "Environmental", "text": " ".join(parts), "stats": stats}

    # -- whole content ---------------------------------------------------------------------
    def champion(self, ch: Champion) -> dict[str, Any]:
        text = (f"A Champion with {ch.hp} HP, Movement {ch.movement}, Range {ch.range} and "
                f"{_plural(ch.targets, 'target')}. Attacks: " + ", ".join(a.name for a in ch.attacks)
                + f". Blood Pacts: {', '.join(p.name for p in ch.pacts)}; the Ultimate costs "
                f"{ch.ultimate_cost} Blood Energy.")
        if ch.dice:
            text += " Special dice: " + ", ".join(d.name for d in ch.dice) + "."
        if ch.minions:
            text += " Minions: " + ", ".join(m.name for m in ch.minions) + "."
        if ch.flying:
            text += " " + FLYING
        if ch.setup:
            text += " At setup: " + self.effects(ch.setup, Voice())
        stats = [["HP", str(ch.hp)], ["Movement", str(ch.movement)], ["Range", str(ch.range)],
                 ["Targets", str(ch.targets)], ["Ultimate", f"{ch.ultimate_cost} Blood Energy"]]
        return {"name": ch.name, "kind": "Champion", "text": text, "stats": stats}

    def ultimate(self, ch: Champion | Boss) -> dict[str, Any]:
        triples = next(a for a in ch.attacks if a.category == "triples")
        text = (f"A Blood Pact: pay {ch.ultimate_cost} Blood Energy, return all but one of your Blood Energy "
                f"dice to the supply (you choose the one you keep), and this turn you may choose your "
                f"Triples attack, {triples.name}, as though you had rolled Triples. It is not an extra attack: "
                "invoke it before attacking.")
        return {"name": "Invoke Ultimate", "kind": "Blood Pact", "text": text,
                "stats": [[_role(ch), ch.name], ["Cost", f"{ch.ultimate_cost} Blood Energy"]]}

    def boss(self, b: Boss) -> dict[str, Any]:
        env = self.tiles.get(b.environmental or "", "")
        text = (f"A Boss, played by the game: {b.hp_base} HP plus {b.hp_per_champion} for each Champion, "
                f"Movement {b.movement}, Range {b.range}, {_plural(b.targets, 'target')}. It hunts the enemy it "
                "can reach with the most HP (ties: the slower one), moves only to bring its target into range, "
                "avoids hazards when it can, and invokes its Ultimate whenever it can afford it "
                f"({b.ultimate_cost} Blood Energy). Each turn begins with a Boss Action card.")
        if b.flying:
            text += " " + FLYING
        if env:
            text += f" Signature Environmental: {env}."
        if b.rot:
            text += " Every Champion or Rival its attack damages receives a Rot card."
        stats = [["HP", f"{b.hp_base} + {b.hp_per_champion} per Champion"], ["Movement", str(b.movement)],
                 ["Range", str(b.range)], ["Targets", str(b.targets)]]
        return {"name": b.name, "kind": "Boss", "text": text, "stats": stats}

    def all(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}

        def put(key: str, fallback: str, card: dict[str, Any]) -> None:
            out[fallback if key in out else key] = card

        for ch in self.c.champions:
            put(ch.id, f"champion:{ch.id}", self.champion(ch))
            for a in ch.attacks:
                put(a.id, f"{ch.id}:{a.id}", self.attack(a, ch))
            out[f"{ch.id}:ultimate"] = self.ultimate(ch)
            for p in ch.pacts:
                put(p.id, f"{ch.id}:{p.id}", {
                    "name": p.name, "kind": "Blood Pact",
                    "text": f"Bonus Action, once a round: pay {p.cost} Blood Energy. " + self.ability(p.ability),
                    "stats": [["Champion", ch.name], ["Cost", f"{p.cost} Blood Energy"]]})
            for k in ch.cards:
                parts = [f"Speed {k.speed} (lower acts first)."]
                if k.immediate is not None:
                    parts.append("Immediate (before anyone's turn): " + self.ability(k.immediate))
                if k.bonus is not None:
                    parts.append("Bonus Action (on your turn): " + self.ability(k.bonus))
                if k.immediate is None and k.bonus is None:
                    parts.append("No ability.")
                put(k.id, f"{ch.id}:{k.id}", {"name": k.name, "kind": "Initiative card", "text": " ".join(parts),
                                              "stats": [["Champion", ch.name], ["Speed", str(k.speed)]]})
            for d in ch.dice:
                out[f"die:{d.id}"] = self.special_die(d)
            for m in ch.minions:
                out[f"minion:{m.id}"] = self.minion(m, ch.name)
            if ch.rival.special:
                out[f"rival:{ch.id}"] = {
                    "name": f"{ch.name} as a Rival", "kind": "Rival",
                    "text": f"{ch.name} played by the game, driven by Skirmish cards. Special icon: "
                    + self.effects(ch.rival.special, Voice(ch.name, ch.name))
                    + (f" {FLYING}" if ch.rival.flying and not ch.flying else ""),
                    "stats": [["HP", str(ch.hp)]]}
        for b in self.c.bosses:
            put(b.id, f"boss:{b.id}", self.boss(b))
            for a in b.attacks:
                put(a.id, f"{b.id}:{a.id}", self.attack(a, b))
            for bc in b.actions:
                parts = [self.effects(bc.effects, Voice(b.name, "the target", f"{b.name}'s")), BOSS_TARGET[bc.target]]
                out[f"boss_action:{b.id}:{bc.id}"] = {
                    "name": bc.name, "kind": "Boss Action card",
                    "text": " ".join(p for p in parts if p) or "No effect.", "stats": [["Boss", b.name]]}
            for r in b.rot:
                out[f"rot:{b.id}:{r.id}"] = {
                    "name": r.name, "kind": "Rot card",
                    "text": "Dealt to a Champion or Rival the Boss's attack damaged: "
                    + self.effects(r.effects, Voice(b.name, "the victim", f"{b.name}'s")), "stats": [["Boss", b.name]]}
            for d in b.dice:
                out[f"die:{d.id}"] = self.special_die(d)
            for m in b.minions:
                out[f"minion:{m.id}"] = self.minion(m, b.name)
        owners = {b.environmental: b.name for b in self.c.bosses if b.environmental}
        for e in self.c.environmentals:
            out[f"env:{e.id}"] = self.environmental(e, owners.get(e.id))
        for s in self.c.skirmish:
            bonus = self.effects(s.bonus, Voice("the Rival", "the Rival", "the Rival's")) if s.bonus else \
                "No bonus."
            pref = {"temp": "a Temporary Attack die", "be": "a Blood Energy die", "none": "no die"}[s.die_pref]
            text = (f"Skirmish card {s.letter}, revealed at the start of a Rival's turn. Bonus: {bonus} "
                    f"When it gains a bonus die it takes {pref}. It uses the {s.side} side Singles or Doubles "
                    "attack.")
            if s.special:
                text += " Special icon: the Rival's own special (see the Rival's description)."
            out[f"skirmish:{s.letter}"] = {"name": f"{s.letter}: {s.name}", "kind": "Skirmish card",
                                           "text": text, "stats": [["Letter", s.letter]]}
        return out


def cards(content: Content) -> dict[str, dict[str, Any]]:
    return Describer(content).all()
