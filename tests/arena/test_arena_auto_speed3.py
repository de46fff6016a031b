"""Issue 23 item 1 (eighth session): the automated side's new shortcuts against the plain
computations, at every step of random games where they are used.

*Why:* each shortcut keeps or skips work the rules did before (an NPC step's answer kept for
its apply, the N9/N10 target pick in one pass over the figures); the golden-game tests catch a
changed game only when the random games happen to reach the difference, so here every use is
compared with what the plain computation says on the same position.
"""

from __future__ import annotations

from typing import Any

import pytest
from arena_helpers import game, positions_before_steps, without_memos

import bloodforge
from bloodforge.core import Rng
from bloodforge.games.arena import npc, turns
from bloodforge.games.arena.game import ArenaState

# setting name -> game parameters (solo first: the cell this work is for)
SETTINGS: dict[str, dict[str, Any]] = {
    "solo": {"players": 1},
    "solo_grevvar": {"players": 1, "champions": ["calvio"], "rivals": ["lienne"], "boss": "grevvar"},
    "ffa_3_two_bosses": {"players": 3, "bosses": ["malvarra", "grevvar"]},
}


def _positions(params: dict[str, Any], seed: int, want: str) -> list[ArenaState]:
    """Copies of the positions before every own step of a random game whose text contains
    `want` (with the setting's parameters)."""
    return list(positions_before_steps(seed, lambda _, step: want in str(step), **params))


def _same(a: ArenaState, b: ArenaState) -> None:
    assert a.board.to_json() == b.board.to_json()
    assert a.rng.state == b.rng.state
    assert [e.text for e in a.events] == [e.text for e in b.events]


def _check_kept_step(p: ArenaState) -> bool:
    """Ask `p`'s own step with the memo, compare what it kept with the plain computation,
    apply it and compare the outcome with the step applied with every memo emptied. True
    when something was kept."""
    kept = p.clone()
    step = turns.auto_step(kept)
    assert step is not None
    entry = kept.__dict__.get("_npc_step")
    if entry is not None:
        plain = without_memos(p)
        pu = plain.board.units[step.args[0]]
        atk = npc.chosen_attack(plain, pu)
        a = npc.attributes(plain, pu, atk)
        if entry[5] == "target":
            want = npc.best_tier(plain, pu, npc.reachable_foes(plain, pu, atk, a), npc.target_rule(plain, pu))
            assert [e.uid for e in entry[6]] == [e.uid for e in want]
        else:
            t = plain.board.units[str(plain.board.npc_plan["target"])]
            want_opts = npc.move_toward(plain, pu, a, t)
            assert [(h, r.path) for h, r in entry[6]] == [(h, r.path) for h, r in want_opts]
    turns.apply_auto(kept, step)
    assert "_npc_step" not in kept.__dict__  # read once
    plain = without_memos(p)
    plain_step = turns.auto_step(plain)
    assert plain_step == step
    plain.__dict__.pop("_npc_step", None)
    plain.route_memo = None
    turns.apply_auto(plain, plain_step)
    _same(kept, plain)
    return entry is not None


@pytest.mark.parametrize("setting", sorted(SETTINGS))
def test_npc_step_kept_for_its_apply_equals_the_plain_step(setting: str) -> None:
    """N10/N11 (spec §2.3): the tied tier and the move options `next_step` keeps for the
    step's apply (`ask`, `move_npc`) are what the plain computation finds on the same
    position, and applying the step with the kept answer leaves the same position, log and
    chance as applying it with every memo emptied."""
    used = 0
    for seed in (2, 5):
        for p in _positions(SETTINGS[setting], seed, "npc "):
            if p.board.stage in ("target", "move"):
                used += _check_kept_step(p)
    assert used > 0


def test_npc_target_tie_kept_for_the_question() -> None:
    """N10 / GR-3: a residual tie of two minions (random games seldom make one) goes to the
    fastest human with the kept tier as the options, the same as the plain computation."""
    params = {"players": 1, "champions": ["maere"], "boss": "grevvar", "rivals": ["vhrak"]}
    pos = {"units": [{"id": "vhrak", "hex": "0,0"}, {"id": "risen1", "hex": "1,0", "alive": True},
                     {"id": "risen2", "hex": "-1,0", "alive": True},
                     {"id": "maere", "hex": "0,-6"}, {"id": "grevvar", "hex": "6,-6"}],
           "order": ["vhrak", "maere", "grevvar"], "active": "vhrak", "tiles": []}
    st = game(**params).load_scenario({"game": "arena", "params": params, "seed": 0, "position": pos,
                                       "rig": {"d6": [6, 5, 4, 1], "decks": {"skirmish:vhrak": ["A"]}}},
                                      advance=False)
    assert isinstance(st, ArenaState)
    asked = False
    while st.board.pending is None:
        if st.board.stage == "target":
            asked = _check_kept_step(st)
        step = turns.auto_step(st)
        assert step is not None
        turns.apply_auto(st, step)
    assert asked
    assert st.board.pending.kind == "npc_target"
    assert st.board.pending.options == ["risen1", "risen2"]


def test_npc_step_kept_only_for_its_own_position() -> None:
    """The kept answer is read at most once, only on the position it was worked out on (a
    line logged since, a clone, another figure or stage read nothing), and never by a copy."""
    for p in _positions(SETTINGS["solo"], 2, "npc "):
        if p.board.stage not in ("target", "move"):
            continue
        s = p.clone()
        turns.auto_step(s)
        if "_npc_step" not in s.__dict__:
            continue
        u = s.board.units[str(s.board.active)]
        stage = s.board.stage
        assert "_npc_step" not in s.clone().__dict__
        other = next(x for x in s.board.units.values() if x.uid != u.uid)
        assert npc._recall(s, other, stage) is None  # another figure: dropped, not read
        turns.auto_step(s)
        assert npc._recall(s, u, "card") is None  # another stage
        turns.auto_step(s)
        s.events.add_public("a line", "test", None)
        assert npc._recall(s, u, stage) is None  # the position went on
        turns.auto_step(s)
        assert npc._recall(s, u, stage) is not None
        assert npc._recall(s, u, stage) is None  # read once
        return
    raise AssertionError("no kept NPC step in the game")


@pytest.mark.parametrize("setting", sorted(SETTINGS))
def test_target_tier_in_one_pass_equals_best_tier_of_reachable_foes(setting: str) -> None:
    """N9/N10 (R-TGT-1..3, R-MIN-10, TB2, TB7): the target step's tier from one pass over the
    figures equals `best_tier` of every reachable foe (the plain reading), under each
    targeting rule, at every NPC target step; and the Ultimate's reach test (N6) equals
    `bool(reachable_foes)` for the chosen and the invoked attack."""
    checked = 0
    for seed in (3, 4):
        for p in _positions(SETTINGS[setting], seed, "npc "):
            if p.board.stage not in ("target", "energy"):
                continue
            u = p.board.units[str(p.board.active)]
            for invoked in (False, True):
                for rule in ("most_hp", "least_hp", "nearest"):
                    s = without_memos(p)
                    su = s.board.units[u.uid]
                    atk = npc.chosen_attack(s, su, invoked)
                    a = npc.attributes(s, su, atk)
                    got = [e.uid for e in npc.target_tier(s, su, atk, a, rule)]
                    plain = without_memos(p)
                    pu = plain.board.units[u.uid]
                    foes = npc.reachable_foes(plain, pu, atk, a)
                    assert got == [e.uid for e in npc.best_tier(plain, pu, foes, rule)]
                    again = without_memos(p)
                    assert npc.any_reachable(again, again.board.units[u.uid], atk, a) == bool(foes)
                    checked += 1
    assert checked > 0


@pytest.mark.parametrize("setting", ["solo", "ffa_3_two_bosses"])
def test_forced_step_one_outcome_equals_the_set_of_outcomes(setting: str) -> None:
    """Spec §2.5 (R-FM-3): a forced step asks nobody when every option has one outcome; the
    test that stops at the first differing option (`effects._one_outcome`) answers as the
    set of every option's `step_outcome` did, for every Push/Pull step of random games, in
    the options' order and reversed, neutral or not."""
    from bloodforge.games.arena.effects import _one_outcome, step_outcome
    from bloodforge.games.arena.movement import step_options

    checked = 0
    for seed in (2, 3, 6):
        state = bloodforge.load_game("arena", seed=seed, **SETTINGS[setting]).new_initial_state()
        assert isinstance(state, ArenaState)
        rng = Rng(seed)
        while not state.is_terminal():
            b = state.board
            if b.queue and b.queue[0].effect.op in ("push", "pull"):
                item = b.queue[0]
                subj = b.units.get(item.subj)
                origin = item.ctx.get("origin")
                if subj is not None and subj.hex is not None and origin:
                    forcer = b.units.get(item.src)
                    h = tuple(int(x) for x in str(origin).split(","))
                    options = step_options(state, subj, (h[0], h[1]), item.effect.op)
                    for opts in (options, options[::-1]):
                        for neutral in (False, True):
                            want = len({step_outcome(state, forcer, x, k, neutral) for x, k in opts}) == 1
                            assert _one_outcome(state, forcer, opts, neutral) == want
                            checked += 1
            seat = rng.choice(state.actors())
            state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    assert checked > 0


def test_gain_dice_counts_the_supply_once_as_gain_die_does_each_time() -> None:
    """R-TURN-3, A13 (the shared supply): gaining several dice with the supply counted once
    (`dice.gain_dice`) leaves the same pools and log lines as `gain_die` asked once per die,
    for Temporary and Blood Energy dice, with the supply plenty, nearly out and out, with the
    count handed in or not, for every figure and a fallen one."""
    from bloodforge.games.arena.dice import gain_dice, gain_die, supply_left
    from bloodforge.games.arena.model import BE, TEMP, Die

    base = bloodforge.load_game("arena", players=1, seed=4).new_initial_state()
    assert isinstance(base, ArenaState)
    checked = 0
    for kind in (TEMP, BE):
        for used in (0, None, 1, 2):  # extra dice put in pools first: None = all but 2 of the supply
            start = base.clone()
            boss = start.board.units["malvarra"]
            extra = supply_left(start, kind) - 2 if used is None else used
            boss.pool.extend(Die(kind, 6, None, False, True) for _ in range(max(0, extra)))
            for uid in list(start.board.units):
                for count in (1, 3):
                    for hand_in in (False, True):
                        a, b = start.clone(), start.clone()
                        ua, ub = a.board.units[uid], b.board.units[uid]
                        if uid == "ulwazi":
                            ua.alive = ub.alive = False
                        want = sum(gain_die(a, ua, kind) for _ in range(count))
                        got = gain_dice(b, ub, kind, count, supply_left(b, kind) if hand_in else None)
                        assert got == want
                        assert [(d.kind, d.fresh) for d in ua.pool] == [(d.kind, d.fresh) for d in ub.pool]
                        assert [e.text for e in a.events] == [e.text for e in b.events]
                        checked += 1
    assert checked > 0
