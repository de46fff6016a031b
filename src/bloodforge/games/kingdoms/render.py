"""Terminal rendering of an observation: treasuries, the battle, then every space with pieces."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any


def render(obs: Mapping[str, Any]) -> str:
    lines = [f"Round {obs['round']} - {obs['active']} {obs['phase']}"]
    for f in obs["factions"]:
        lines.append(f"  {f['faction']:<8} seat {f['seat']} crowns {f['treasury']:>3} income {f['income']:>2} "
                     f"supply {f['supply']:>2} gems {f['gems']:>2} cards {f['cards']}" + (" (out)" if f["out"] else ""))
    b = obs.get("battle")
    if b:
        lines.append(f"BATTLE at {b['space']}: {b['attacker']} v {b['defender']}, round {b['round']}, {b['stage']}"
                     + (f", {b['hits']} hit(s) to take" if b["hits"] else ""))
    if obs.get("pending_disband"):
        lines.append(f"{obs['pending_disband']} must disband units (supply above income)")
    stacks: dict[str, Counter[str]] = {}
    for p in obs["pieces"]:
        key = f"{p['at']}"
        stacks.setdefault(key, Counter())[f"{p['faction']}:{p['kind'] or '?'}"] += 1
    owner = obs["owner"]
    for at in sorted(stacks):
        own = owner.get(at)
        mark = ""
        if at in obs["castles"]:
            mark += " [castle]"
        if at in obs["ports"]:
            mark += " [port]"
        units = ", ".join(f"{n} {k}" for k, n in sorted(stacks[at].items()))
        lines.append(f"  {at:<16}{'(' + own + ')' if own else '':<10}{mark} {units}")
    hands = obs.get("hands") or {}
    for f, cards in hands.items():
        if cards:
            lines.append(f"  {f} cards: {', '.join(cards)}")
    lines += [f"  > {t}" for t in obs.get("log", [])]
    return "\n".join(lines)
