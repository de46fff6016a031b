"""Terminal rendering of a Five Forts observation: the map as a grid of cells, then the table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .content import Content

CELL = 13


def _cell(c: Content, t: int, terr: Mapping[str, Any], names: list[str]) -> list[str]:
    spec = c.data.territories[t]
    mark = {"fort": "*", "great": "**"}.get(spec.fort, "")
    if spec.home is not None:
        mark = "H"
    res = ("$" * spec.currency) + ("f" * spec.food)
    owner = terr["owner"]
    who = "" if owner is None else ("ind" if owner == "independent" else names[int(owner)][:4])
    army = " ".join(p for p in (f"{terr['infantry']}i" if terr["infantry"] else "",
                                f"{terr['cavalry']}c" if terr["cavalry"] else "") if p)
    if owner is None and terr["controller"] not in (None, "independent"):
        who = names[int(terr["controller"])][:4] + "()"
    sea = "~" if spec.kind == "sea" else ""
    lines = [spec.id, f"{mark}{sea} {res}".strip(), f"{who} {army}".strip()]
    return [line[:CELL - 1].ljust(CELL - 1) for line in lines]


def render(c: Content, obs: Mapping[str, Any]) -> str:
    names = list(obs["seat_names"])
    terrs = obs["territories"]
    rows: dict[float, list[int]] = {}
    for t, spec in enumerate(c.data.territories):
        rows.setdefault(round(spec.y, 3), []).append(t)
    out: list[str] = []
    for y in sorted(rows):
        cells = [_cell(c, t, terrs[t], names) for t in sorted(rows[y], key=lambda t: c.data.territories[t].x)]
        for k in range(3):
            out.append("|".join(cell[k] for cell in cells))
        out.append("-" * ((CELL) * len(cells)))
    out.append("H home (great fort)  ** great fort  * fort  $ currency  f food  ~ sea  Name() empty home")
    turn = obs["turn"]
    out.append(f"round {turn['round']}/{turn['max_rounds']}, turn {turn['number']}: {names[turn['seat']]} "
               f"- {obs['phase']}" + (f" (clock {obs['clock']['seconds']} s)" if obs["clock"] else ""))
    if obs.get("chronicle"):
        out.append(f"chronicle: {obs['chronicle']['name']} ({obs['chronicle']['text']})")
    for s, name in enumerate(names):
        flag = " (out)" if obs["eliminated"][s] else ""
        out.append(f"  {name}{flag}: {obs['forts'][s]} forts, {obs['units'][s]}/{obs['quota'][s]} units, "
                   f"{obs['currency'][s]} currency, {obs['hand_sizes'][s]} hero cards")
    if obs["hand"]:
        out.append("your hand: " + ", ".join(card["name"] for card in obs["hand"]))
    b = obs["battle"]
    if b:
        out.append(f"battle: {names[b['attacker']]} attacks {b['to']} from {b['from']} "
                   f"({b['infantry']}i {b['cavalry']}c), stage {b['stage']}, face-down cards {b['committed_counts']}")
    if obs["bribery"]:
        out.append("bribery window: " + ", ".join(names[s] for s in obs["bribery"]))
    if obs["winners"]:
        out.append("winners: " + ", ".join(names[s] for s in obs["winners"]) + f" ({obs['end_reason']})")
    out.extend("  " + line for line in obs["log"][-5:])
    return "\n".join(out)
