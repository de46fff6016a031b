"""Issue 23 (speed): the shortcuts the legal-action list takes agree with the plain queries.

*Why:* a spell is offered when it has a target; the list now asks for one fitting target
(`spells.castable`) instead of listing them all, and unblocked patterns look the board's units
up by square instead of walking every square of the pattern. A shortcut that disagreed would
offer a spell with no target, or hide one, in a game that still looks valid. These tests compare
them with the full queries at every position of a few random games.
"""

from __future__ import annotations

from witch_helpers import new_game

from bloodforge.core import Rng
from bloodforge.games.witch import spells
from bloodforge.games.witch.board import Reach, Square
from bloodforge.games.witch.content import NoShape
from bloodforge.games.witch.game import WitchState


def walked(reach: Reach, origin: Square, at: dict[Square, str], blocked: frozenset[Square]) -> list[str]:
    """Reach.units by walking every ray, the way it worked before the shortcut."""
    out = []
    for ray in reach.rays.get(origin, ()):
        for sq, hittable in ray:
            if reach.blocked and sq in blocked:
                break
            uid = at.get(sq)
            if uid is not None:
                if hittable:
                    out.append(uid)
                if reach.blocked:
                    break
    return out


def test_castable_and_unit_lookups_agree_with_the_full_queries() -> None:
    checked = 0
    for seed in range(3):
        state = new_game(seed, setup="preset").new_initial_state()
        assert isinstance(state, WitchState)
        c = state.content
        every = [r for r in (*c.attack_reach.values(), *c.spell_reach.values()) if r is not None]
        reaches = list({id(r): r for r in every}.values())
        rng = Rng(seed)
        while not state.is_terminal() and len(state.history) < 250:
            for card in set(state.hands[state.side]):
                spell = c.spells[card]
                full = (not spells.needs_pay(spell) or bool(spells.pay_options(state, spell))) and (
                    isinstance(spell.range, NoShape) or bool(spells.target_words(state, spell)))
                assert spells.castable(state, spell) == full, (seed, len(state.history), card)
                checked += 1
            for reach in reaches:
                for uid in state.at.values():
                    sq = state.units[uid].square
                    assert sq is not None
                    assert reach.units(sq, state.at, c.darkened) == walked(reach, sq, state.at, c.darkened)
            state.apply_unchecked(rng.choice(state.legal_actions()))
    assert checked > 100
