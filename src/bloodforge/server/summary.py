"""The end-of-game summary a finished table sends with its state: winners, each seat's score
with the game's word for it, the game's own statistics worded for people, and why it ended.

*Why here and not in each game:* every game already has `outcome()` and `statistics()`
(the lab's numbers); the page needs them in words, and one generic wording keeps all five
games consistent. A game may name its score (`static_info()["score_label"]`, e.g. "VP") and
its statistics (`static_info()["statistic_labels"]`: a key or key prefix -> words); anything
unnamed is worded from its key, with item ids named by the game's cards, board names or
roles. Statistics are read only once the game is over, when nothing is hidden any more.
"""

from __future__ import annotations

import re
from typing import Any

from bloodforge.core import State

#: Log lines that say how a game ended ("The Soldiers win.", "game over: Red wins (...)").
_ENDING = re.compile(r"\b(wins?|won|winners?|game over|is over|final scores?|draw)\b", re.IGNORECASE)


def _number(value: float) -> str:
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _words(key: str) -> str:
    """`x_at_die` -> "X at die"; `attacks_singles` -> "Attacks singles"."""
    text = re.sub(r"[_\s]+", " ", key).strip()
    return text[:1].upper() + text[1:]


def _names(static: dict[str, Any], roles: list[str]) -> dict[str, str]:
    """People's names of the ids statistics use: cards, the board's names, the seats' roles."""
    out: dict[str, str] = {}
    for role in roles:
        out[re.sub(r"\W+", "_", role.lower()).strip("_")] = role
    board = static.get("board")
    if isinstance(board, dict):
        for seat in board.get("seats") or []:
            if isinstance(seat, dict) and isinstance(seat.get("name"), str):
                out[re.sub(r"\W+", "_", seat["name"].lower()).strip("_")] = seat["name"]
        names = board.get("names")
        if isinstance(names, dict):
            out.update({str(k): str(v) for k, v in names.items()})
    cards = static.get("cards")
    if isinstance(cards, dict):
        for key, card in cards.items():
            if isinstance(card, dict) and isinstance(card.get("name"), str):
                out[str(key)] = card["name"]
    return out


def statistic_label(key: str, labels: dict[str, str], names: dict[str, str]) -> str:
    """The words of one statistic: `casts.blood_feast` -> "Casts: Blood Feast"."""
    if key in labels:
        return labels[key]
    head, _, item = key.partition(".")
    what = labels.get(head, _words(head))
    if not item:
        return what
    named = names.get(item) or " ".join(w[:1].upper() + w[1:] for w in re.split(r"[_\s]+", item) if w)
    return f"{what}: {named}"


def end_reason(state: State) -> str:
    """The public log line that says how the game ended, else the game's own `end_reason`."""
    for line in reversed(state.event_log(None)[-12:]):
        if _ENDING.search(str(line)):
            return str(line)
    obs = state.observation(None)
    reason = obs.get("end_reason") if isinstance(obs, dict) else None
    return str(reason) if reason else ""


def summary_of(state: State, static: dict[str, Any]) -> dict[str, Any] | None:
    """The summary of a finished game (None while it runs): what the end dialog shows."""
    outcome = state.outcome()
    if outcome is None:
        return None
    score_label = str(static.get("score_label") or "points")
    raw_labels = static.get("statistic_labels")
    labels = {str(k): str(v) for k, v in raw_labels.items()} if isinstance(raw_labels, dict) else {}
    names = _names(static, list(outcome.roles))
    try:
        stats = state.statistics()
    except Exception:  # a game's statistics must never break its end screen
        stats = {}
    return {
        "winners": list(outcome.winners),
        "scores": [
            {"seat": seat, "role": outcome.roles[seat] if seat < len(outcome.roles) else "",
             "score": score, "value": _number(score), "label": score_label}
            for seat, score in enumerate(outcome.scores)
        ],
        "statistics": [
            {"key": key, "label": statistic_label(key, labels, names), "value": _number(value)}
            for key, value in stats.items()
        ],
        "reason": end_reason(state),
    }
