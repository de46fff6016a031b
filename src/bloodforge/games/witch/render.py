"""Terminal rendering of a Blood Stone observation (what the CLI shows a player).

It reads only the observation, so a player never sees more on screen than the rules allow.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

LEGEND = "## darkened   .. Witch start   :: Soldier start   z zombified   b bound"


def render(obs: Mapping[str, Any], log_lines: int = 8) -> str:
    out: list[str] = [_header(obs), ""]
    out.extend(_board(obs))
    out.append(LEGEND)
    out.append("")
    out.extend(_units(obs))
    out.append("")
    out.extend(_cards(obs))
    out.extend(_turn(obs))
    log = list(obs.get("log", ()))[-log_lines:]
    if log:
        out.append("")
        out.append("Recent log:")
        out.extend(f"  [{e['turn']}] {e['text']}" for e in log)
    return "\n".join(out)


def _header(obs: Mapping[str, Any]) -> str:
    title = f"Blood Stone - turn {obs['turn_number']} of {obs['max_turns']}"
    if obs["winner"] is not None:
        state = (
            "draw (turn limit)"
            if obs["winner"] == "draw"
            else f"the {obs['winner'].capitalize()} won"
        )
    elif obs["phase"] == "place":
        state = f"setup: the {obs['side_to_move'].capitalize()} place their pieces"
    else:
        state = f"the {obs['side_to_move'].capitalize()} to move"
        if obs["grant"] is not None:
            state += f" (Acting with {obs['grant']['spell']}: {', '.join(obs['grant']['units'])})"
        elif obs["pending"] is not None:
            p = obs["pending"]
            state += f" (casting {p['card']}" + (f" on {p['target']})" if p["target"] else ")")
    return f"{title} - {state} - you: {obs['you']}"


def _board(obs: Mapping[str, Any]) -> list[str]:
    b = obs["board"]
    width, height = b["width"], b["height"]
    cells: dict[str, str] = dict.fromkeys(b["darkened"], "##")
    for sq in b["witch_start"]:
        cells[sq] = ".."
    for sq in b["soldier_start"]:
        cells[sq] = "::"
    for u in obs["units"].values():
        if u["square"] is not None:
            mark = "z" if u["zombified"] else "b" if u["bound"] else " "
            cells[u["square"]] = u["glyph"] + mark
    cols = "    " + " ".join(f"{chr(97 + c)} " for c in range(width))
    lines = [cols]
    for r in range(height, 0, -1):
        row = " ".join(cells.get(f"{chr(97 + c)}{r}", ". ") for c in range(width))
        lines.append(f"{r:>2}  {row}  {r}")
    lines.append(cols)
    return lines


def _units(obs: Mapping[str, Any]) -> list[str]:
    lines = []
    bar = max(u["max_blood"] for u in obs["units"].values())
    for uid, u in obs["units"].items():
        where = u["square"] if u["where"] == "board" else u["where"].upper()
        flags = " ZOMBIFIED" if u["zombified"] else ""
        flags += " bound" if u["bound"] else ""
        blood = "o" * u["blood"] + "." * max(0, u["max_blood"] - u["blood"])
        attack = u["attack"] or "no attack"
        lines.append(
            f"  {u['glyph']} {uid:<10} {where:<8} "
            f"blood {u['blood']:>2}/{u['max_blood']:<2} {blood:<{bar}} "
            f"move {u['movement']}  {attack}{flags}"
        )
    lines.append(
        f"  Supply: {obs['supply']} blood stones   Phantoms in the Realm: {obs['phantoms']}"
    )
    return lines


def _cards(obs: Mapping[str, Any]) -> list[str]:
    d = obs["decks"]
    lines = [
        f"Phantom Spells: {d['phantom']['pile']} in the deck, "
        f"{len(d['phantom']['discards'])} discarded; "
        f"Soldiers hold {obs['hand_sizes']['soldiers']}",
        f"Blood Spells:   {d['blood']['pile']} in the deck, "
        f"{len(d['blood']['discards'])} discarded; "
        f"Witch holds {obs['hand_sizes']['witch']}",
    ]
    hand = obs.get("hand")
    if hand is not None:
        lines.append("Your hand:" if hand else "Your hand: (empty)")
        lines.extend(f"  - [{c['id']}] {c['text']}" for c in hand)
    return lines


def _turn(obs: Mapping[str, Any]) -> list[str]:
    if obs["phase"] != "turn" or obs["winner"] is not None:
        return []
    t = obs["turn"]
    spells = f"spells {t['spells_used']}/{t['spell_limit']}"
    if obs["side_to_move"] == "soldiers":
        acts = f"Acts {t['acts_used']}/{t['acts_limit']}"
        moved = ", ".join(t["moved"]) or "-"
        attacked = ", ".join(t["attacked"]) or "-"
        return [f"This turn: {acts}; moved: {moved}; attacked: {attacked}; {spells}"]
    moved = "yes" if t["moved"] else "no"
    return [f"This turn: the Witch has moved: {moved}; {spells}"]
