"""Exact battle odds: a Markov chain over the numbers of survivors (spec section 6).

With a fixed loss order per side, the position of a battle between rounds is (i, j): the first i
attackers and the first j defenders of their keep orders still fight. A round's attacker hits are
Poisson-binomial over the i attack values, the defender's over the j defence values (the units
just hit strike back too, K71/K75), independent; the self-loop (no hits) is divided out and states
are processed from the largest down. Mercenary effects enter as extra units, first-round value
bonuses and ignored hits, silenced fortifications and pre-battle hits (Battle Mage).

This module is an exported rule query: pure functions of unit stats, usable by the policy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from bloodforge.core.errors import ParameterError

from .stats import CardData, UnitData

ALIASES = {
    "inf": "infantry", "infantry": "infantry", "cav": "cavalry", "cavalry": "cavalry", "knight": "cavalry",
    "knights": "cavalry", "griffin": "griffin", "griffan": "griffin", "griffins": "griffin", "dragon": "dragon",
    "dragons": "dragon", "ship": "ship", "ships": "ship", "castle": "castle", "port": "port",
    "hired_infantry": "hired_infantry", "hired_cavalry": "hired_cavalry",
}
LAND_KINDS = {"infantry", "cavalry", "hired_infantry", "hired_cavalry"}


def parse_force(text: str) -> list[str]:
    """'3 infantry, 2 cavalry, castle' -> unit kinds; a clear error names the bad word."""
    out: list[str] = []
    for part in text.split(","):
        words = part.split()
        if not words:
            continue
        n = 1
        if words[0].isdigit():
            n = int(words[0])
            words = words[1:]
        key = "_".join(words).lower()
        kind = ALIASES.get(key) or ALIASES.get(key.rstrip("s"))
        if kind is None or len(words) == 0:
            known = sorted(set(ALIASES.values()))
            raise ParameterError(f"force {text!r}: unknown unit {' '.join(words)!r}; known: {known}")
        if n > 60:
            raise ParameterError(f"force {text!r}: at most 60 units of a kind")
        out += [kind] * n
    return out


def stat(units: Mapping[str, UnitData], kind: str, side: int) -> tuple[int, int]:
    """(combat value, cost) of a kind for a side; hired units are free."""
    base = kind.removeprefix("hired_")
    u = units[base]
    return (u.attack if side == 0 else u.defence), (0 if kind.startswith("hired_") else u.cost)


def loss_order(units: Mapping[str, UnitData], force: list[str], side: int, keep_land: bool) -> list[str]:
    """The order in which a side takes casualties: hired units first, then cheapest (then weakest);
    an attacker keeps one land unit to the last so it can capture (spec section 6)."""
    order = sorted(force, key=lambda k: (stat(units, k, side)[1], stat(units, k, side)[0], k))
    if keep_land:
        lands = [k for k in order if k in LAND_KINDS and not k.startswith("hired_")]
        if lands:
            keeper = max(lands, key=lambda k: (stat(units, k, side)[0], k))
            order.remove(keeper)
            order.append(keeper)
    return order


def _pb_table(probs: list[float]) -> list[NDArray[np.float64]]:
    table = [np.ones(1)]
    for p in probs:
        prev = table[-1]
        nxt = np.zeros(len(prev) + 1)
        nxt[:-1] += prev * (1 - p)
        nxt[1:] += prev * p
        table.append(nxt)
    return table


def _cap(dist: NDArray[np.float64], k: int) -> NDArray[np.float64]:
    """Hits beyond the k units present are wasted (A42)."""
    if len(dist) <= k + 1:
        return dist
    out = dist[: k + 1].copy()
    out[k] += dist[k + 1:].sum()
    return out


def _shield(dist: NDArray[np.float64], n: int) -> NDArray[np.float64]:
    if n <= 0:
        return dist
    out = np.zeros(len(dist))
    out[0] = dist[: n + 1].sum()
    out[1: len(dist) - n] = dist[n + 1:]
    return out


def exact(
    att_values: list[int], def_values: list[int], *, att_bonus: int = 0, def_bonus: int = 0,
    att_shield: int = 0, def_shield: int = 0, att_mage: int = 0, def_mage: int = 0,
) -> NDArray[np.float64]:
    """Final distribution F[i, j] over survivors, values given in keep order (first = kept longest)."""
    a, d = len(att_values), len(def_values)
    pa = _pb_table([min(v, 6) / 6 for v in att_values])
    pd = _pb_table([min(v, 6) / 6 for v in def_values])
    start = np.zeros((a + 1, d + 1))
    # Battle Mage: hits before the first strike (attacker's mage first), victims do not strike
    mage_a = _pb_table([0.5] * att_mage)[-1]
    mage_d = _pb_table([0.5] * def_mage)[-1]
    for ma, qa in enumerate(mage_a):
        for md, qd in enumerate(mage_d):
            start[max(a - md, 0), max(d - ma, 0)] += qa * qd
    mass = np.zeros((a + 1, d + 1))
    # round 1 (bonuses and shields) from each starting state
    if att_bonus or def_bonus or att_shield or def_shield:
        pa1 = _pb_table([min(v + att_bonus if v > 0 else 0, 5 if att_bonus else 6) / 6 for v in att_values])
        pd1 = _pb_table([min(v + def_bonus if v > 0 else 0, 5 if def_bonus else 6) / 6 for v in def_values])
        for i in range(a + 1):
            for j in range(d + 1):
                m = start[i, j]
                if m == 0:
                    continue
                if i == 0 or j == 0:
                    mass[i, j] += m
                    continue
                ha = _cap(_shield(pa1[i], def_shield), j)
                hd = _cap(_shield(pd1[j], att_shield), i)
                block = m * np.outer(hd, ha)
                mass[i - len(hd) + 1: i + 1, j - len(ha) + 1: j + 1] += block[::-1, ::-1]
    else:
        mass = start
    final = np.zeros((a + 1, d + 1))
    for i in range(a, -1, -1):
        for j in range(d, -1, -1):
            m = mass[i, j]
            if m == 0:
                continue
            if i == 0 or j == 0:
                final[i, j] += m
                continue
            ha = _cap(pa[i], j)
            hd = _cap(pd[j], i)
            block = np.outer(hd, ha)
            stay = block[0, 0]
            if stay >= 1.0:
                raise ParameterError("neither side can ever score a hit: the battle never ends")
            block[0, 0] = 0.0
            block *= m / (1.0 - stay)
            mass[i - len(hd) + 1: i + 1, j - len(ha) + 1: j + 1] += block[::-1, ::-1]
    return final


def battle_odds(
    units: Mapping[str, UnitData], attacker: list[str], defender: list[str], *, sea: bool = False,
    att_card: CardData | None = None, def_card: CardData | None = None,
) -> dict[str, Any]:
    """Win/lose/draw/capture probabilities and survivor distributions of a battle."""
    attacker = list(attacker)
    defender = list(defender)
    for card, force in ((att_card, attacker), (def_card, defender)):
        if card is not None:
            force += ["hired_infantry"] * card.add_infantry + ["hired_cavalry"] * card.add_cavalry
    if att_card is not None and att_card.silence_fortifications:
        defender = [k for k in defender if k not in ("castle", "port")]
    if not attacker:
        raise ParameterError("the attacker needs at least one unit")
    if not defender and not (att_card is not None and att_card.silence_fortifications):
        raise ParameterError("the defender needs at least one unit")
    for k in attacker:
        if stat(units, k, 0)[0] <= 0:
            raise ParameterError(f"attacker: a {k} has no attack value and cannot attack")
    a_loss = loss_order(units, attacker, 0, keep_land=not sea)
    d_loss = loss_order(units, defender, 1, keep_land=False)
    a_keep, d_keep = a_loss[::-1], d_loss[::-1]
    kw = {}
    for side, card in ((0, att_card), (1, def_card)):
        if card is not None:
            pre = "att_" if side == 0 else "def_"
            kw[pre + "bonus"] = card.first_round_bonus
            kw[pre + "shield"] = card.ignore_first_hits
            kw[pre + "mage"] = card.mage_dice
    final = exact([stat(units, k, 0)[0] for k in a_keep], [stat(units, k, 1)[0] for k in d_keep], **kw)
    a, d = len(a_keep), len(d_keep)
    att_surv = final.sum(axis=1)
    def_surv = final.sum(axis=0)
    win = float(final[1:, 0].sum())
    lose = float(final[0, 1:].sum())
    draw = float(final[0, 0])
    capture = 0.0 if sea else float(sum(final[i, 0] for i in range(1, a + 1)
                                        if any(k in LAND_KINDS and not k.startswith("hired_") for k in a_keep[:i])))
    a_cost = [sum(stat(units, k, 0)[1] for k in a_keep[i:]) for i in range(a + 1)]
    d_cost = [sum(stat(units, k, 1)[1] for k in d_keep[j:] if k not in ("castle", "port")) for j in range(d + 1)]
    return {
        "attacker": a_keep[::-1], "defender": d_keep[::-1],
        "attacker_loss_order": a_loss, "defender_loss_order": d_loss,
        "win": win, "lose": lose, "draw": draw, "capture": capture,
        "attacker_survivors": [float(x) for x in att_surv], "defender_survivors": [float(x) for x in def_surv],
        "expected_attacker_survivors": float(np.dot(np.arange(a + 1), att_surv)),
        "expected_defender_survivors": float(np.dot(np.arange(d + 1), def_surv)),
        "expected_attacker_crowns_lost": float(np.dot(a_cost, att_surv)),
        "expected_defender_crowns_lost": float(np.dot(d_cost, def_surv)),
    }


def odds_from_text(
    units: Mapping[str, UnitData], cards: Mapping[str, CardData], attacker: str, defender: str,
    options: Mapping[str, str],
) -> dict[str, Any]:
    """`bloodforge odds kingdoms --attacker "3 infantry,2 cavalry" --defender "2 infantry,castle"`.

    Options: sea=1 (a sea battle: no capture, no land unit kept), attacker_card=ID, defender_card=ID.
    """
    known = {"sea", "attacker_card", "defender_card"}
    bad = sorted(set(options) - known)
    if bad:
        raise ParameterError(f"unknown odds option(s) {bad}; known: {sorted(known)}")
    picked: list[CardData | None] = []
    for key in ("attacker_card", "defender_card"):
        cid = options.get(key)
        if cid is None:
            picked.append(None)
        elif cid not in cards or cards[cid].timing != "battle":
            battle_cards = sorted(c for c in cards if cards[c].timing == "battle")
            raise ParameterError(f"{key}={cid!r}: not a battle card; known: {battle_cards}")
        else:
            picked.append(cards[cid])
    sea = options.get("sea", "0").lower() in ("1", "true", "yes")
    return battle_odds(units, parse_force(attacker), parse_force(defender), sea=sea,
                       att_card=picked[0], def_card=picked[1])


def render(r: Mapping[str, Any]) -> str:
    lines = [
        f"attacker: {', '.join(r['attacker'])}",
        f"defender: {', '.join(r['defender'])}",
        f"attacker wins {r['win']:.4f}  (captures {r['capture']:.4f})",
        f"defender wins {r['lose']:.4f}",
        f"both destroyed {r['draw']:.4f}",
        f"expected survivors: attacker {r['expected_attacker_survivors']:.3f}, "
        f"defender {r['expected_defender_survivors']:.3f}",
        f"expected crowns lost: attacker {r['expected_attacker_crowns_lost']:.2f}, "
        f"defender {r['expected_defender_crowns_lost']:.2f}",
        "survivors  attacker   defender",
    ]
    a, d = r["attacker_survivors"], r["defender_survivors"]
    for n in range(max(len(a), len(d))):
        x = f"{a[n]:.4f}" if n < len(a) else ""
        y = f"{d[n]:.4f}" if n < len(d) else ""
        lines.append(f"{n:>9}  {x:>8}   {y:>8}")
    return "\n".join(lines)
