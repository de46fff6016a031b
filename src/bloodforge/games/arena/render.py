"""Terminal rendering of an observation: the order, every figure and the waiting decision."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def render(obs: Mapping[str, Any]) -> str:
    lines = [f"BLOODSTONE arena - round {obs['round']}, {obs['phase']}"
             + (f", {obs['active']} acting ({obs['stage']})" if obs.get("active") else "")]
    if obs.get("order"):
        lines.append("order: " + " > ".join(obs["order"]))
    for u in obs["units"]:
        if not u["alive"] and u["kind"] == "minion":
            continue
        who = f"seat {u['seat']}" if u["seat"] is not None else u["kind"]
        hp = "-" if u["hp"] is None else f"{u['hp']}/{u['max_hp']}"
        pool = " ".join(f"{d['kind']}{'' if d['face'] is None else ':' + str(d['face'])}" for d in u["pool"])
        state = "" if u["alive"] else " (defeated)"
        lines.append(f"  {u['name']:<20} {who:<8} at {u['hex'] or '-':<6} HP {hp:<8} BE {u['energy']:<3} "
                     f"speed {u['speed'] if u['speed'] is not None else '-'}  [{pool}]{state}")
    if obs.get("tiles"):
        lines.append("tiles: " + "; ".join(f"{t['env']} {' '.join(t['hexes'])}" for t in obs["tiles"]))
    p = obs.get("pending")
    if p:
        lines.append(f"waiting: seat {p['seat']} decides {p['kind']} among {', '.join(p['options'])}")
    for entry in obs.get("log", [])[-6:]:
        text = entry["text"] if isinstance(entry, dict) else str(entry)
        lines.append(f"  > {text}")
    return "\n".join(lines)
