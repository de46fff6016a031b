"""Terminal rendering of a Bloodstones observation (plain text, one screen per decision)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .ruleset import Ruleset


def _units(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {u}" if n > 1 else u for u, n in sorted(counts.items()))


def render(ruleset: Ruleset, obs: Mapping[str, Any]) -> str:
    board = ruleset.board
    players = obs["players"]
    # players by their faction's name (or "Player 2" before factions are chosen), never "P1"
    tag = {p["seat"]: p["faction_name"] or f"Player {p['seat'] + 1}" for p in players}
    width = max(len(t) for t in tag.values())
    lines = [
        f"== Bloodstones on {obs['map']} == phase {obs['phase']}  active {tag.get(obs['active'], '-')}"
        f"  to act {tag.get(obs['current_player'], '-')}  turns {obs['turns_taken']}",
        f"{'player':<{width}}  VP  regroups  hand  bag  villages(map/left)  captured  discard",
    ]
    for p in players:
        lines.append(
            f"{tag[p['seat']]:<{width}} {p['vp']:>3}  "
            f"{p['regroups']}/{obs['regroup_target']:<7} {p['hand_count']:>4}  {p['bag_count']:>3}  "
            f"{p['villages_on_map']:>8}/{p['village_supply']:<10} {p['captured_villages']}v {p['captured_citadels']}c"
            f"   {sum(p['discard'].values())}"
            + ("  ELIMINATED" if p["eliminated"] else "")
        )
    lines.append("-- map: areas with pieces (type map for every area and its neighbours) --")
    for area in obs["areas"]:
        a = area["id"]
        parts = [f"{tag[int(s)]} [{_units(c)}]" for s, c in area["units"].items()]
        v = area["village"]
        if v:
            parts.append(f"{v['count']} village{'s' if v['count'] > 1 else ''} of {tag[v['seat']]}")
        lines.append(f"  {a:>3} {board.terrain[a]:<9} " + "; ".join(parts))
    b = obs.get("battle")
    if b:
        lines.append(f"-- battle in area {b['area']}: {tag[b['attacker']]} attacks {tag[b['defender']]}, "
                     f"step {b['step']} (fight {b['fights'] + 1}) --")
        for side, name in zip(b["sides"], ("attacker", "defender"), strict=True):
            tiles = side["tiles"] if side["tiles"] is not None else f"{side['tile_count']} hidden tiles"
            sub = side["substitute"] or ("yes" if side["substituted"] else "no" if side["decided"] else "?")
            total = f" total {side['total']}" if side["total"] is not None else ""
            lines.append(f"  {name}: {tiles} substitute: {sub}{total}")
    pending = obs.get("pending")
    if pending:
        lines.append(f"-- choosing: {pending['kind']} " + ", ".join(
            f"{k}={v}" for k, v in pending.items() if k != "kind" and v not in (None, [], {})))
    if obs.get("build_points"):
        lines.append(f"-- build points left: {obs['build_points']} (home area {obs['setup_home']})")
    if obs.get("hand") is not None:
        kinds = ruleset.faction_rules(players[obs["seat"]]["faction"]).kinds if players[obs["seat"]]["faction"] else {}
        def tile(t: str, n: int) -> str:
            cost = f", cost {kinds[t].build_cost}" if kinds and kinds[t].buildable else ""
            return f"{n}x {t}({kinds[t].pips}p{cost})"

        hand = ", ".join(tile(t, n) for t, n in obs["hand"].items())
        lines.append(f"-- your hand: {hand or 'empty'}")
    if obs.get("game_over"):
        lines.append("-- game over --")
    return "\n".join(lines)
