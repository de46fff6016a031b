"""Terminal rendering of an observation: the round, every combatant's status board, the tiles,
the waiting decision and what each legal action means, all in the words the browser shows
(observation["status"], ["phase_label"], ["labels"], the decision's "prompt")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def render(obs: Mapping[str, Any]) -> str:
    phase = obs.get("phase_label") or f"round {obs['round']}"
    lines = [f"BLOODSTONE arena - {phase}"]
    for entry in obs.get("status", []):
        where = next((u["hex"] for u in obs["units"] if u["id"] == entry.get("unit")), None)
        head = f"  {entry['title']}" + (f" at {where}" if where else "")
        items = "; ".join(f"{i['label']} {i['value']}" for i in entry["items"])
        lines.append(f"{head}: {items}")
        for i in entry.get("private", []):
            lines.append(f"      your {i['label'].lower()}: {i['value']}")
    tiles: dict[str, list[str]] = {}
    names = {m["kind"]: m["label"] for m in obs.get("board", {}).get("marks", [])}
    for t in obs.get("tiles", []):
        tiles.setdefault(names.get(t["env"], "a tile"), []).extend(t["hexes"])
    if tiles:
        lines.append("tiles: " + "; ".join(f"{name} on {' '.join(hexes)}" for name, hexes in tiles.items()))
    p = obs.get("pending")
    if p and p.get("prompt"):
        lines.append(f"decision: {p['prompt']}")
    for entry in obs.get("log", [])[-6:]:
        text = entry["text"] if isinstance(entry, dict) else str(entry)
        lines.append(f"  > {text}")
    labels = obs.get("labels") or {}
    if labels:
        lines.append("your actions mean:")
        lines += [f"  {action}: {words}" for action, words in labels.items()]
    return "\n".join(lines)
