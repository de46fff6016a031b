"""What the page shows people (browser contract, issue 18): the status board, the phase in words
and the battle records.

Everything here is built from what `observe` already gives the seat (the public tracks, the
seat's own hands) or from log events the seat may read, so it can never show more than the
seat may see. Words only: faction and space names, never ids.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .board import fname, seat_of
from .content import FACTION_NAMES, FACTIONS
from .model import KBase

PHASE_WORDS = {
    "purchase": "buy units",
    "combat_move": "combat move",
    "combat": "battles",
    "noncombat": "noncombat move",
    "place": "place new units",
}
STAGE_WORDS = {
    "merc_att": "the attacker decides about mercenaries",
    "merc_def": "the defender decides about mercenaries",
    "reveal": "mercenaries are revealed",
    "mage": "the battle mage strikes",
    "mage_def": "the defender takes the battle mage's hits",
    "mage_att": "the attacker takes the battle mage's hits",
    "def_hits": "the defender chooses casualties",
    "def_choice": "the defender stands or retreats",
    "att_hits": "the attacker chooses casualties",
    "att_choice": "the attacker presses on or retreats",
    "aoo_hits": "the retreating defender chooses casualties",
}
MAX_BATTLES = 5
SCAN_LIMIT = 600  # log events read backwards for battle records (an observation stays cheap)
BATTLE_KINDS = frozenset({"battle", "dice", "casualty", "merc", "retreat", "capture"})


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def faction_words(faction: str) -> str:
    return FACTION_NAMES[faction]


def phase_label(s: KBase) -> str:
    """Say "Round 3 · Dwarves: combat move" or the battle step; never a raw phase id."""
    who = fname(s.active)
    head = f"Round {s.round} · {who}"
    if s.over:
        return "Game over"
    if s.pending >= 0:
        return f"{head}: {fname(s.pending)} must disband units (supply above income)"
    if s.instant:
        return f"{head}: choose where the {s.content.cards[s.instant].name} go"
    b = s.battle
    if b is not None:
        space = s.content.map.spaces[b.space].name
        return f"{head}: battle at {space}, round {b.round} — {STAGE_WORDS.get(b.stage, 'battle')}"
    return f"{head}: {PHASE_WORDS.get(s.phase, s.phase.replace('_', ' '))}"


def status(s: KBase, obs: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    """One entry per seat: crowns, income, supply, gems and cards of every faction it plays;
    the owner also reads its mercenary cards (private) and, with two factions, a reminder."""
    ffa = s.teams == [0, 1, 2, 3]
    target = "7 held for a whole round wins" if ffa else "9 for the team wins"
    team_gems: Counter[int] = Counter()
    for row in obs["factions"]:
        team_gems[row["team"]] += row["gems"]
    cards = s.content.cards
    out = []
    for st, fs in enumerate(s.seat_factions):
        rows = [obs["factions"][f] for f in fs]
        many = len(fs) > 1
        items: list[dict[str, Any]] = []
        for row in rows:
            fac = faction_words(row["faction"])
            if row["out"]:
                items.append({"label": fac, "value": "wiped out"})
            elif many:
                # a seat with two factions: one line per faction keeps the board short
                items.append({"label": fac, "value": f"{row['treasury']} crowns · income {row['income']} · "
                              f"supply {row['supply']} of {row['income']} · {_count(row['gems'], 'gem')} · "
                              f"{_count(row['cards'], 'card')}", "hint": f"victory gems: {target}"})
            else:
                items += [
                    {"label": "Crowns", "value": f"{row['treasury']}",
                     "hint": "crowns in the treasury to buy units and mercenaries"},
                    {"label": "Income", "value": f"{row['income']} a turn",
                     "hint": "the value of the territories held; collected at the end of the turn, minus supply"},
                    {"label": "Supply", "value": f"{row['supply']} of {row['income']}",
                     "hint": "one per unit, five per mercenary card held; it may never exceed income"},
                    {"label": "Gems", "value": f"{row['gems']}", "hint": f"victory gems held ({target})"},
                    {"label": "Cards", "value": str(row["cards"]), "hint": "mercenary cards held"},
                ]
        if not ffa:
            team = s.teams[fs[0]]
            items.append({"label": "Team gems", "value": f"{team_gems[team]} of 9"})
        title = " and ".join(faction_words(FACTIONS[f]) for f in fs)
        entry: dict[str, Any] = {"seat": st, "title": title, "items": items}
        if seat == st:
            private: list[dict[str, Any]] = []
            if many:
                private.append({"label": "You command", "value": f"{title}: each takes its own turn with its own "
                                "crowns, units and cards"})
            for f in fs:
                for cid in s.hands[f]:
                    private.append({"label": f"{fname(f)} card" if many else "Card", "value": cards[cid].name,
                                    "card": cid})
            if private:
                entry["private"] = private
        out.append(entry)
    return out


def _space(s: KBase, sid: str | None) -> str:
    if sid is None:
        return "?"
    i = s.content.index.get(sid)
    return s.content.map.spaces[i].name if i is not None else sid


def battles(s: KBase, seat: int | None) -> list[dict[str, Any]]:
    """The last few battles fought with dice, from log events the seat may read (most recent
    last): both sides' dice (face, the value it needed, hit), hits, losses, cards and the result."""
    events = s.events
    total = events.count_for(seat)
    seen = 0  # readable events after the one looked at
    open_events: list[tuple[int, dict[str, Any]]] = []  # (log index, view), newest first
    out: list[dict[str, Any]] = []
    n = len(events)
    for k in range(n - 1, max(-1, n - 1 - SCAN_LIMIT), -1):
        event = events[k]
        text = event.text_for(seat)
        if text is None:
            continue
        log_index = total - 1 - seen
        seen += 1
        if event.kind not in BATTLE_KINDS:
            continue
        data = dict(event.data) if event.data is not None and event.readable_by(seat) else {}
        view = {"text": text, "kind": event.kind, "data": data}
        if event.kind == "battle" and "outcome" not in data and "attacker" in data:
            # the start of a battle: everything after it (until its end) belongs to it
            record = _record(s, k, data, list(reversed(open_events)))
            open_events = []
            if record is not None:
                out.append(record)
                if len(out) == MAX_BATTLES:
                    break
            continue
        open_events.append((log_index, view))
    out.reverse()
    return out


def _record(s: KBase, start: int, head: dict[str, Any], after: list[tuple[int, dict[str, Any]]]
            ) -> dict[str, Any] | None:
    att, dfn = head.get("attacker"), head.get("defender")
    space = _space(s, head.get("space"))
    rolls: dict[str, list[dict[str, Any]]] = {"attacker": [], "defender": []}
    hits: dict[str, list[int]] = {"attacker": [], "defender": []}
    losses: dict[str, Counter[str]] = {"attacker": Counter(), "defender": Counter()}
    mods: dict[str, list[str]] = {"attacker": [], "defender": []}
    result = None
    end_index = None
    for log_index, view in after:
        data = view.get("data") or {}
        kind = view.get("kind")
        side = data.get("side")
        if kind == "dice" and side in rolls and "faces" in data:
            for face, value in zip(data["faces"], data["values"], strict=False):
                when = ("battle mage" if data.get("mage") else "retreat" if data.get("opportunity")
                        else f"round {data.get('round', 1)}")
                # `need`: what the dice must show to hit, in words beside them (not only the
                # dice's colour and a tooltip: colour-blind players read it too)
                need = f"{when[0].upper()}{when[1:]}: hits on {value} or less"
                rolls[side].append({"label": f"{when}: hits on {value} or less", "face": face,
                                    "hit": face <= value, "need": need})
            hits[side].append(int(data["hits"]))
        elif kind == "casualty" and side in losses:
            losses[side][str(data.get("unit", "unit")).replace("_", " ")] += 1
        elif kind == "merc" and data.get("merc") == "play":
            who = data.get("side")
            if who in mods:
                mods[who].append(f"mercenaries: {s.content.cards[data['card']].name}")
        elif kind == "retreat" and data.get("side") == "defender":
            mods["defender"].append(f"retreated to {_space(s, data.get('to'))}")
        if "outcome" in data:
            result = view["text"]
            end_index = log_index
            break
        if data.get("unopposed"):
            return None  # taken without dice: no battle to show
    strikes = len(hits["attacker"]) + len(hits["defender"])
    if result is None and (s.battle is None or not strikes):
        return None  # nothing rolled yet (or a start with nothing after it that we can read)
    sides = []
    for side, fac in (("attacker", att), ("defender", dfn)):
        name = faction_words(fac) if fac else "Nobody"
        lost = [f"{n} {u}" for u, n in sorted(losses[side].items())]
        sides.append({
            "name": f"{name} ({side})", "seat": seat_of(s, FACTIONS.index(fac)) if fac else None,
            "rolls": rolls[side], "modifiers": mods[side],
            "hits": str(sum(hits[side])), "losses": lost or ["none"],
        })
    title = f"{faction_words(att) if att else 'Nobody'} attack {space}"
    if dfn:
        title += f" held by {faction_words(dfn)}"
    # a battle still going gets a new id after every strike, so the page shows the dice a side
    # must decide on (stand or retreat, press on); the finished battle keeps `battle-<start>`
    bid = f"battle-{start}" if result is not None else f"battle-{start}-strike-{strikes}"
    return {"id": bid, "title": title, "log_index": end_index, "sides": sides,
            "result": result if result is not None else "The battle goes on."}
