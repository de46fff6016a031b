"""What a seat sees (spec §6 Hidden information) and hidden-information resampling.

Hidden: other seats' committed Initiative cards before the reveal, and the order of every deck
(Speed, Boss Action, Skirmish, Environmental Action). Everything else is public: the board,
pools and faces, HP, energy, discard piles in order, hand contents (all cards minus the
public discard and current card).
"""

from __future__ import annotations

from typing import Any

from bloodforge.core import Action, Rng, State

from .abilities import ability_by_ref
from .attack import attack_by_id, in_range, range_of, targets_of
from .describe import Describer, Voice, lower_first
from .hexes import distance, hex_id, parse_hex
from .initiative import card_of
from .model import ATTACK, BE, TEMP, Board, Die, Unit
from .player import legal
from .turns import actors
from .world import World

ENV = "env:"
KIND_NAMES = {"champion": "Champion", "rival": "Rival", "boss": "Boss", "minion": "Minion"}
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def observe(w: World, seat: int | None, words: bool = True) -> dict[str, Any]:
    """What `seat` sees. `words=False` leaves out what is only worded for people (status board,
    phase label, action labels, battle records: all derived from the rest), for the AI policy,
    which reads the facts and would pay twice the time for the words."""
    b = w.board
    units = []
    for u in b.units.values():
        units.append({
            "id": u.uid, "name": u.name, "kind": u.kind, "seat": u.seat, "side": u.side,
            "summoner": u.summoner, "hex": None if u.hex is None else hex_id(u.hex), "alive": u.alive,
            "hp": u.hp, "max_hp": u.max_hp, "energy": u.energy,
            "pool": [{"kind": d.kind, "sides": d.sides, "face": d.face, "used": d.used, "fresh": d.fresh}
                     for d in u.pool],
            "hand": sorted(u.hand), "discard": list(u.discard), "current": u.current,
            "speed": u.speed, "prev_speed": u.prev_speed,
            "picked": u.seat is not None and u.seat in b.picks,
            "moved": u.moved, "attacked": u.attacked, "invoked": u.invoked, "bonus_used": list(u.bonus_used),
            "mods": dict(sorted(u.mods.items())), "rolled": u.rolled_category, "flying": u.is_flying,
        })
    obs: dict[str, Any] = {
        "round": b.round, "phase": b.phase, "order": list(b.order), "done": list(b.done), "active": b.active,
        "stage": b.stage, "units": units,
        "tiles": [{"id": t.tid, "env": t.env, "hexes": [hex_id(h) for h in t.hexes], "owner": t.owner}
                  for t in b.tiles],
        "pending": None if b.pending is None else {"seat": b.pending.seat, "kind": b.pending.kind,
                                                   "options": list(b.pending.options), "data": dict(b.pending.data)},
        "attack": None if b.attack is None else dict(b.attack),
        "decks": {k: {"size": len(d), "discards": list(d.discards)} for k, d in sorted(b.decks.items())},
        "revealed": dict(sorted(b.revealed.items())),
        "env_speed": {k: list(v) for k, v in sorted(b.env_speed.items())},
        "winners": list(b.winners),
        "my_pick": None if seat is None else b.picks.get(seat),
        "seat": seat,
        "board": board_view(w, seat),
        "log": w.events.tail_for(seat, 12),
    }
    if not words:
        return obs
    obs["phase_label"] = phase_label(w)
    obs["status"] = status(w, seat)
    obs["battles"] = battles(w, seat)
    if obs["pending"] is not None:
        obs["pending"].update(pending_words(w))
    obs["labels"] = action_labels(w, seat)
    return obs


# -- words for players (issue 18): built here from the position, so they never show more than
# -- the seat may see; the page and the terminal show them as they are ---------------------------
def die_name(w: World, d: Die) -> str:
    if d.kind == ATTACK:
        return "Attack"
    if d.kind == TEMP:
        return "Temporary"
    if d.kind == BE:
        return "Blood Energy"
    try:
        return f"{w.content.special_die(d.kind).name} (d{d.sides})"
    except KeyError:
        return "Special"


def die_text(w: World, d: Die) -> str:
    """"Attack 5", "Blood Energy 6 (used)", "Bleed (d8) not rolled yet"."""
    name = die_name(w, d)
    if d.face is None or d.fresh:
        return f"{name} (not rolled yet)"
    return f"{name} {d.face}" + (" (used)" if d.used else "")


def dice_text(w: World, u: Unit) -> str:
    """The pool grouped by kind: "Attack 6, 6, 2 · Blood Energy 2 (used) · Bleed (d8) not rolled"."""
    rolled: dict[str, list[str]] = {}
    waiting: dict[str, int] = {}
    for d in u.pool:
        if not d.kind:
            continue
        if d.face is None or d.fresh:
            waiting[die_name(w, d)] = waiting.get(die_name(w, d), 0) + 1
        else:
            rolled.setdefault(die_name(w, d), []).append(f"{d.face}{' (used)' if d.used else ''}")
    parts = [f"{k} {', '.join(v)}" for k, v in rolled.items()]
    if rolled and u.rolled_category:  # the attack category the roll allows (R-ATT-3)
        parts.append(f"{u.rolled_category.capitalize()} rolled")
    if waiting:
        counted = ", ".join(f"{n} {k}" for k, n in waiting.items())
        parts.append(f"{counted} (not rolled yet)" if not rolled else f"new: {counted}")
    return " · ".join(parts) or "none"


def card_name(w: World, u: Unit, card: str | None) -> str:
    """An Initiative card's name (a Boss's Speed card is just its number)."""
    if card is None:
        return ""
    if u.kind in ("champion", "rival"):
        found = next((c for c in w.content.champion(u.content_id).cards if c.id == card), None)
        if found is not None:
            return found.name
    return f"Speed card {card}"


def ultimate_text(w: World, u: Unit) -> str:
    cost = (w.content.boss(u.content_id).ultimate_cost if u.kind == "boss"
            else w.content.champion(u.content_id).ultimate_cost)
    if u.invoked:
        return "invoked this round"
    if u.energy >= cost:
        return f"ready ({cost} Blood Energy)"
    return f"needs {cost - u.energy} more Blood Energy"


def order_names(w: World) -> list[str]:
    out = []
    for x in w.board.order:
        if x.startswith(ENV):
            out.append(w.content.environmental(x[len(ENV):]).name)
        elif x in w.board.units:
            out.append(w.board.units[x].name)
    return out


def status(w: World, seat: int | None) -> list[dict[str, Any]]:
    """The status board (issue 18 contract item 1): one entry per combatant, public facts
    worded for players; "private" (the hand) only in its owner's observation."""
    b = w.board
    out = []
    for u in sorted((x for x in b.units.values() if x.is_combatant), key=lambda x: (x.seat is None, x.seat or 0)):
        items: list[dict[str, str]] = []
        role = KIND_NAMES.get(u.kind, u.kind)
        if not u.alive:
            items.append({"label": "State", "value": "defeated"})
        if u.hp is not None and u.max_hp is not None:
            items.append({"label": "HP", "value": f"{max(u.hp, 0)}/{u.max_hp}",
                          "hint": "hit points left / at the start"})
        items.append({"label": "Blood Energy", "value": str(u.energy)})
        if u.alive:
            items.append({"label": "Dice", "value": dice_text(w, u),
                          "hint": "the dice pool: Attack and Temporary dice add up to the attack's damage"})
            played = ", ".join(card_name(w, u, c) for c in u.discard)
            hint = f"earlier cards (they break Speed ties): {played}" if played else "lower Speed acts first"
            if u.uid in b.order:
                place = b.order.index(u.uid) + 1
                # a Rival's card only gives its Speed (its text is ignored): no name to mislead
                card = f" ({card_name(w, u, u.current)})" if u.current is not None and u.kind == "champion" else ""
                items.append({"label": "Initiative", "hint": hint,
                              "value": f"{ORDINAL.get(place, f'{place}th')} of {len(b.order)}"
                              + (f", Speed {u.speed}{card}" if u.speed is not None else "")})
            elif b.phase == "pick" and u.seat is not None:
                chosen = "card chosen" if u.seat in b.picks else "choosing a card"
                items.append({"label": "Initiative", "value": chosen, "hint": hint})
            elif b.phase == "pick":
                items.append({"label": "Initiative", "value": "a random Speed card at the reveal", "hint": hint})
            behaviour = b.revealed.get(u.uid)
            if behaviour is not None:
                items.append({"label": "Card", "value": behaviour_name(w, u, behaviour)})
            items.append({"label": "Ultimate", "value": ultimate_text(w, u)})
            if b.active == u.uid:
                done = [word for word, flag in (("moved", u.moved), ("attacked", u.attacked)) if flag]
                items.append({"label": "This turn", "value": ", ".join(done) if done else "not moved or attacked yet"})
            mods = [f"{'+' if n > 0 else ''}{n} {k.capitalize()}" for k, n in sorted(u.mods.items())
                    if n and k != "flying"]  # Flying shows as its own flag
            if mods:
                items.append({"label": "Modifiers", "value": ", ".join(mods)})
        minions = [m for m in b.units.values() if m.kind == "minion" and m.summoner == u.uid and m.alive]
        if minions:
            items.append({"label": "Minions", "value": ", ".join(m.name for m in minions)})
        title = u.name if u.seat is not None else f"{u.name} ({role})"  # a seat's row already says who
        entry: dict[str, Any] = {"unit": u.uid, "seat": u.seat, "title": title, "items": items,
                                 "card": u.content_id}
        if seat is not None and u.seat == seat and u.kind == "champion":
            hand = sorted(u.hand, key=lambda c: (_speed(w, u, c), c))
            entry["private"] = [{"label": "Hand", "value": ", ".join(
                f"{card_name(w, u, c)} {_speed(w, u, c)}" for c in hand) or "empty",
                "hint": "your Initiative cards with their Speed"}]
            pick = b.picks.get(seat)
            if pick is not None:
                entry["private"].append({"label": "Chosen", "value": card_name(w, u, pick)})
        out.append(entry)
    return out


def _speed(w: World, u: Unit, card: str) -> int:
    found = next((c for c in w.content.champion(u.content_id).cards if c.id == card), None)
    return found.speed if found is not None else 0


def behaviour_name(w: World, u: Unit, card: str) -> str:
    if u.kind == "boss":
        found = next((c for c in w.content.boss(u.content_id).actions if c.id == card), None)
        return f"Boss Action: {found.name}" if found is not None else card
    found_s = next((c for c in w.content.skirmish if c.letter == card), None)
    return f"Skirmish {card}: {found_s.name}" if found_s is not None else card


def phase_label(w: World) -> str:
    """The round and phase in players' words (never a raw phase id)."""
    b = w.board
    if b.phase == "over":
        return "The match is over"
    head = f"Round {b.round}"
    if b.phase == "pick":
        return f"{head}: choose Initiative cards"
    if b.phase == "place":
        return f"{head}: champions enter the arena"
    if b.phase == "immediate":
        return f"{head}: Immediate abilities"
    if b.phase == "turns" and b.active is not None:
        if b.active.startswith(ENV):
            return f"{head}: {w.content.environmental(b.active[len(ENV):]).name} acts"
        u = w.board.units.get(b.active)
        name = u.name if u is not None else "?"
        if b.stage == "target":
            return f"{head}: {name}'s turn, choosing targets"
        return f"{head}: {name}'s turn"
    if b.phase == "turns":
        return f"{head}: turns"
    return f"{head} begins"


def _hex_words(w: World, text: str, mover: Unit | None = None) -> str:
    """A space as players read it: its coordinates, what is there, and how far the nearest
    other figure is (the board shows no coordinates, the figures are what people see)."""
    if text == "stop":
        return "stop here"
    h = parse_hex(text)
    if h is None:
        return text
    if h not in w.cells:
        return f"into the Arena wall at {text} (collision)"
    figures = [(u.hex, u) for u in w.board.units.values() if u.alive and u.hex is not None and u is not mover]
    other = next((u for at, u in figures if at == h), None)
    if other is not None:
        return f"into {other.name} at {text} (collision)"
    notes = [w.content.environmental(t.env).name for t in w.board.tiles if h in t.hexes]
    near = min(((distance(h, at), u.uid, u) for at, u in figures if u.kind != "minion"), default=None,
               key=lambda x: (x[0], x[1]))
    if near is not None:
        notes.append(f"next to {near[2].name}" if near[0] == 1 else f"{near[0]} spaces from {near[2].name}")
    return text + (f" ({', '.join(notes)})" if notes else "")


def pending_words(w: World) -> dict[str, Any]:
    """The waiting decision worded for players: what is decided ("prompt") and what each
    option means ("labels")."""

    p = w.board.pending
    assert p is not None
    units = w.board.units

    def name(uid: str) -> str:
        return units[uid].name if uid in units else uid

    data = p.data
    labels: dict[str, str] = {}
    prompt = "Choose one."
    if p.kind == "select":
        ab = ability_by_ref(w, str(data["ref"]))
        what = _ref_name(w, str(data["ref"]))
        whom = {"faster_enemy": "a faster enemy", "slower_enemy": "a slower enemy",
                "any_character": "any character"}.get(ab.select, "a character")
        prompt = f"{what}: choose {whom} it affects."
        labels = {o: f"{what} on {name(o)}" for o in p.options}
    elif p.kind == "option":
        ab = ability_by_ref(w, str(data["ref"]))
        subject = name(str(data["subject"]))
        d = Describer(w.content)
        v = Voice("you", subject)
        what = _ref_name(w, str(data["ref"]))
        prompt = f"{what} on {subject}: choose what it does."
        for o in p.options:
            effects = ab.options[int(o) - 1]
            labels[o] = d.effects(effects, v).rstrip(".")
    elif p.kind == "force":
        subject = name(str(data["subject"]))
        verb = {"push": "Push", "pull": "Pull", "throw": "Throw"}.get(str(data.get("op")), "Move")
        left = int(data.get("left", 1))
        prompt = (f"{verb} {subject}: choose the next space ({left} step{'s' if left != 1 else ''} left). "
                  "Moving into a figure or the wall is a collision (1d6 damage).")
        mover = units.get(str(data["subject"]))
        for o in p.options:
            words = _hex_words(w, o, mover)
            labels[o] = f"Stop: {subject} stays" if o == "stop" else (
                f"{verb} {subject} {words}" if words.startswith("into ") else f"{verb} {subject} to {words}")
    elif p.kind == "move":
        subject = name(str(data["unit"]))
        prompt = f"{subject} may move up to {data.get('amount', 1)} space(s) now: choose where, or stay."
        labels = {o: (f"{subject} stays" if o == "stop" else f"Move {subject} to {_hex_words(w, o)}")
                  for o in p.options}
    elif p.kind == "bonus_die":
        prompt = "You gain a bonus die: choose its kind."
        labels = {"temp": "Temporary Attack die (adds to your attack damage)",
                  "be": "Blood Energy die (gives Blood Energy when rolled)"}
    elif p.kind == "reroll":
        u = units.get(str(data["unit"]))
        prompt = "Reroll one of your dice: choose which."
        for o in p.options:
            die = u.pool[int(o)] if u is not None and int(o) < len(u.pool) else None
            labels[o] = f"Reroll the {die_text(w, die)} die" if die is not None else f"Reroll die {o}"
    elif p.kind == "minion_move":
        subject = name(str(data["unit"]))
        prompt = (f"{subject} could end on several equally good spaces; as the fastest player you choose "
                  "where it goes.")
        labels = {o: f"{subject} goes to {_hex_words(w, o)}" for o in p.options}
    elif p.kind == "tie":
        prompt = "Your team is tied on Speed: choose who acts first."
        labels = {o: f"{name(o)} acts first" for o in p.options}
    elif p.kind == "npc_target":
        subject = name(str(data["unit"]))
        prompt = f"{subject} has several equal targets; as the fastest player you choose whom it attacks."
        labels = {o: f"{subject} attacks {name(o)}" for o in p.options}
    elif p.kind in ("npc_move", "npc_approach"):
        subject = name(str(data["unit"]))
        prompt = (f"{subject} has several equally short paths; as the fastest player you choose where it "
                  "ends its move.")
        labels = {o: f"{subject} moves to {_hex_words(w, o)}" for o in p.options}
    who = next((u for u in units.values() if u.seat == p.seat and u.kind == "champion"), None)
    return {"prompt": prompt, "labels": labels, "decider": who.name if who is not None else ""}


def _ref_name(w: World, ref: str) -> str:
    """The printed name of the card or pact an ability reference points at."""
    parts = ref.split(":")
    try:
        champ = w.content.champion(parts[1])
    except StopIteration:
        return "The ability"
    if parts[0] == "card":
        card = next((c for c in champ.cards if c.id == parts[2]), None)
        return card.name if card is not None else "The card"
    pact = next((x for x in champ.pacts if x.id == parts[2]), None)
    return pact.name if pact is not None else "The Blood Pact"


def action_labels(w: World, seat: int | None) -> dict[str, str]:
    """Each legal action of `seat` worded for players, by what it does (the grammar's
    templates cannot say "gain 5 Blood Energy" for `energy 3`)."""

    if seat is None or seat not in actors(w):
        return {}
    b = w.board
    out: dict[str, str] = {}
    actions: list[Action] = w.legal_actions(seat) if isinstance(w, State) else legal(w, seat)
    words = Describer(w.content)
    active = w.board.units.get(str(b.active)) if b.active is not None else None
    for a in actions:
        text = str(a)
        k, args = a.kind, a.args
        if k == "choose" and b.pending is not None:
            continue  # the pending decision's own labels
        if k == "pick":
            u = next(x for x in b.units.values() if x.seat == seat)
            out[text] = f"Play {card_name(w, u, args[0])} (Speed {_speed(w, u, args[0])})"
        elif k == "place":
            out[text] = f"Enter the arena at {_hex_words(w, args[0])}"
        elif active is None:
            continue
        elif k == "energy":
            d = active.pool[int(args[0])]
            out[text] = f"Gain {d.face or 0} Blood Energy (from a Blood Energy die)"
        elif k == "move":
            out[text] = f"Move to {_hex_words(w, args[0], active)}"
        elif k == "attack":
            atk = attack_by_id(w, active, args[0])
            enemies = in_range(w, active, atk)
            if not enemies:
                out[text] = "Give up the attack: no enemy is in range, gain 1 bonus die instead"
            else:
                names = ", ".join(e.name for e in enemies)
                n = targets_of(w, active, atk)
                out[text] = (f"Attack with {atk.name} ({atk.category.capitalize()}, Range {range_of(w, active, atk)}"
                             f"{f', up to {n} targets' if n > 1 else ''}): can hit {names}")
        elif k == "target":
            out[text] = f"Hit {w.label(args[0])}"
        elif k == "done":
            out[text] = "Resolve the attack on the chosen targets"
        elif k == "cancel":
            out[text] = "Cancel: choose another attack"
        elif k == "bonus":
            card = card_of(w, active, active.current) if active.current is not None else None
            what = f": {lower_first(words.ability(card.bonus))}".rstrip(".") if card and card.bonus else ""
            out[text] = f"Use {card_name(w, active, active.current)}'s Bonus Action{what}"
        elif k == "spell":
            d = active.pool[int(args[0])]
            spec = w.content.special_die(d.kind)
            face = spec.faces[(d.face or 1) - 1] if spec.faces else []
            what = words.effects(face, Voice()).rstrip(".") if face else "nothing happens"
            out[text] = f"Use the {spec.name} die showing {d.face}: {lower_first(what)}"
        elif k == "pact":
            pact = next(x for x in w.content.champion(active.content_id).pacts if x.id == args[0])
            what = lower_first(words.ability(pact.ability)).rstrip(".")
            out[text] = f"Blood Pact {pact.name}, pay {pact.cost} Blood Energy: {what}"
        elif k == "invoke":
            if args:
                d = active.pool[int(args[0])]
                out[text] = f"Invoke your Ultimate, keeping the Blood Energy die showing {d.face}"
            else:
                out[text] = "Invoke your Ultimate"
        elif k == "minion":
            out[text] = f"Move {w.label(args[0])} to {_hex_words(w, args[1])}"
        elif k == "end":
            out[text] = "End your turn"
    if b.pending is not None:
        decision = pending_words(w)
        for o, label in decision["labels"].items():
            out[f"choose {o}"] = label
    return out


def board_view(w: World, seat: int | None = None) -> dict[str, Any]:
    """The browser board contract: pieces on hexes (with the key of their description),
    tile marks, and the seat's own Initiative hand."""
    pieces = []
    for u in w.board.units.values():
        if u.alive and u.hex is not None:
            label = u.name if u.hp is None else f"{u.name} {max(u.hp, 0)}/{u.max_hp} HP"
            card = f"minion:{u.content_id}" if u.kind == "minion" else u.content_id
            pieces.append({"at": hex_id(u.hex), "owner": u.seat if u.seat is not None else None,
                           "kind": u.kind, "label": label, "count": 1, "hidden": False, "id": u.uid,
                           "card": card})
    marks = []
    for t in w.board.tiles:
        name = w.content.environmental(t.env).name
        marks += [{"at": hex_id(h), "kind": t.env, "label": name, "card": f"env:{t.env}"} for h in t.hexes]
    out: dict[str, Any] = {"pieces": pieces, "marks": marks}
    me = next((u for u in w.board.units.values() if seat is not None and u.seat == seat), None)
    if me is not None and me.kind == "champion":
        out["hand"] = [{"id": c, "label": f"{card_name(w, me, c)} ({_speed(w, me, c)})", "kind": "card",
                        "count": 1, "card": c} for c in sorted(me.hand, key=lambda c: (_speed(w, me, c), c))]
    return out


def _attack_starts(w: World, keep: int = 8, window: int = 250) -> list[int]:
    """Indices of the last attacks among the log's last `window` events (the last rounds)."""
    events = w.events
    n = len(events)
    found = []
    for i in range(max(0, n - window), n):
        e = events[i]
        if e.kind == "attack" and e.data and not e.data.get("whiff") and not e.data.get("minion"):
            found.append(i)
    return found[-keep:]


def battles(w: World, seat: int | None, keep: int = 5) -> list[dict[str, Any]]:
    """The last attacks as battle records (issue 18 contract item 3), from the public log:
    the attack event's dice and modifiers, then each target's damage and what followed
    (forced movement, collisions, defeats) until the next attack or turn."""
    events = w.events
    n = len(events)
    starts = [i for i in _attack_starts(w) if events[i].readable_by(seat)][-keep:]
    if not starts:
        return []
    # the index of each event in `seat`'s log: the event's own index when the seat reads every
    # line (the arena's secret lines all have a public face), else counted back from the end
    index_of: dict[int, int] = {}
    count = events.count_for(seat)
    if count != n:
        for k in range(n - 1, starts[0] - 1, -1):
            if events[k].text_for(seat) is not None:
                count -= 1
                index_of[k] = count
    out = []
    units = w.board.units

    def name(uid: object) -> str:
        return units[str(uid)].name if str(uid) in units else str(uid)

    for start in starts:
        e = events[start]
        data = dict(e.data or {})
        attacker = str(data.get("unit"))
        results: list[str] = []
        hits: dict[str, int] = {}
        end = start
        for k in range(start + 1, min(n, start + 60)):
            ev = events[k]
            if ev.kind in ("attack", "turn", "round", "roll", "npc_card", "initiative", "move", "pact", "spell",
                           "ultimate", "npc", "ability") or (ev.kind == "energy" and "from a die" in ev.text):
                break  # the attacker's next action: the attack's consequences are over
            if not ev.readable_by(seat):
                continue
            end = k
            d = ev.data or {}
            if ev.kind == "damage" and d.get("how") == "attack" and str(d.get("source")) == attacker:
                hits[str(d["unit"])] = hits.get(str(d["unit"]), 0) + int(d["amount"])
            elif ev.kind in ("forced", "collision", "eliminated", "dice", "rot", "heal", "energy", "tile", "hazard",
                             "damage"):
                results.append(ev.text)
        attack_name = str(data.get("attack_name") or data.get("attack", "an attack"))
        rolls = [{"label": label, "face": face} for label, face in data.get("dice", [])]
        modifiers = [f"{'+' if amount >= 0 else ''}{amount} {why}" for why, amount in data.get("parts", [])]
        targets = [str(t) for t in data.get("targets", [])]
        category = str(data.get("category", "")).capitalize()
        sides = [{
            "name": f"{name(attacker)} (attacker)", "seat": units[attacker].seat if attacker in units else None,
            "rolls": rolls, "modifiers": modifiers, "total": str(data.get("damage", "")),
            "hits": str(sum(1 for t in targets if hits.get(t, 0) > 0)),
        }]
        for t in targets:
            u = units.get(t)
            left = "defeated" if u is not None and not u.alive else (
                f"{max(u.hp, 0)}/{u.max_hp} HP left" if u is not None and u.hp is not None else "")
            sides.append({"name": f"{name(t)} (target)", "seat": u.seat if u is not None else None,
                          "losses": [f"{hits.get(t, 0)} damage", *([left] if left else [])]})
        dealt = f"{category} attack {attack_name}: " + ", ".join(f"{name(t)} takes {hits.get(t, 0)}" for t in targets)
        out.append({
            "id": f"attack-{start}", "title": f"{name(attacker)} attacks {', '.join(name(t) for t in targets)} "
                                              f"with {attack_name}",
            "log_index": (end if count == n else index_of.get(end, index_of.get(start))), "sides": sides,
            "result": "; ".join([dealt, *results]) if results else dealt,
        })
    return out


def resample(board: Board, seat: int | None, rng: Rng) -> Board:
    """A board consistent with what `seat` saw: others' secret picks redrawn from their hands,
    every deck's order reshuffled, rigged dice forgotten."""
    new = board.copy()
    for s in sorted(new.picks):
        if s == seat:
            continue
        u = next(x for x in new.units.values() if x.seat == s)
        new.picks[s] = rng.choice(sorted(u.hand))
    for k in sorted(new.decks):
        new.decks[k].reshuffle_pile(rng)
    new.dice = {}
    return new
