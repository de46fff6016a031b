"""Issue 23 item 1 (fifth session): the automated side's shortcuts give what the plain
computations gave.

*Why:* an NPC's N9 reach test now reads the end hexes as a bit mask against each foe's disk,
a forced step reads who stands where only when it must, the round's reveal takes each
entrant's Speeds as it reveals, and an Environmental's turn reads its card's lines from a
table; a mask off by one cell, a Speed read before it changed or a table keyed by too little
would still play a plausible game. Each is compared here with the computation it replaced
(kept below word for word), on positions of random solo and six-seat games played as
`bench_playouts.py` plays them. The golden-game tests check that whole games stay the same.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from arena_helpers import positions_before_own_steps, put_spike_traps

import bloodforge
from bloodforge.core import Action, Rng
from bloodforge.games.arena import environment, initiative, npc, turns
from bloodforge.games.arena.content import Content
from bloodforge.games.arena.game import ArenaState
from bloodforge.games.arena.hexes import Hex, distance, neighbours
from bloodforge.games.arena.initiative import ENV, card_of, initiative_order, recycle
from bloodforge.games.arena.model import Tile, Unit
from bloodforge.games.arena.movement import (
    _grid,
    destinations,
    end_mask,
    explore,
    safe_routes,
    shared_destinations,
    step_options,
)
from bloodforge.games.arena.world import World


def own_steps(players: int, seed: int, kinds: tuple[str, ...]) -> Iterator[ArenaState]:
    """A copy of the position before every own step of a random game whose text starts with
    one of `kinds` (the route memo cleared, so nothing is read from an earlier answer)."""
    for copy in positions_before_own_steps(players, seed, lambda text: text.startswith(kinds)):
        copy.route_memo = None
        yield copy


# -- N9: some end hex within Range, by masks ------------------------------------------------------
def plain_reachable(w: World, u: Unit, a: npc.Attrs) -> list[str]:
    """N9 as `_reachable_by_walking` read it before the masks: every end hex's distance."""
    assert u.hex is not None
    spots = destinations(w, u, a.movement)
    return [e.uid for e in npc.foes(w, u) if e.hex is not None and any(distance(h, e.hex) <= a.range for h in spots)]


@pytest.mark.parametrize(("players", "seed"), [(1, 11), (6, 12)])
def test_issue23_n9_reach_by_end_mask_equals_every_end_hex_read(players: int, seed: int) -> None:
    """N9 (R-TGT-1, A35): the foes some end hex puts in Range, found by the end hexes' mask
    `&` each foe's disk, equal the foes found by reading every end hex, for every figure on
    the board at Movements 0-5 and Ranges 0-4; the mask holds exactly the end hexes."""
    checked = 0
    for state in own_steps(players, seed, ("npc",)):
        if len(state.history) % 4:
            continue
        for u in state.board.units.values():
            if not u.alive or u.hex is None:
                continue
            for movement in range(6):
                got = end_mask(state, u, movement)
                assert got is not None
                grid, mask = got
                assert grid.hexes_of(mask) == list(shared_destinations(state, u, movement))
                for reach in range(5):
                    a = npc.Attrs(movement, reach, 1, False)
                    assert npc._reachable_by_walking(state, u, a) == plain_reachable(state, u, a)
                    checked += 1
    assert checked > 1000


def test_issue23_n9_reach_by_end_mask_from_beyond_the_wall_and_to_foes_far_off() -> None:
    """The same with a figure put on a hex just beyond the wall (a scenario's start: the
    start is an end hex that is no cell) and a foe beyond the grid's box (read hex by hex)."""
    state = next(own_steps(1, 5, ("npc",)))
    cells = state.cells
    outside = sorted({n for h in cells for n in neighbours(h) if n not in cells})
    mover = next(u for u in state.board.units.values() if u.kind == "boss")
    foe = next(u for u in state.board.units.values() if u.kind == "champion")
    far = (max(q for q, _ in cells) + 9, 0)
    checked = 0
    for spot in outside[::3]:
        for foe_at in (far, *sorted(cells)[::7]):
            probe = state.clone()
            probe.route_memo = None
            probe.board.units[mover.uid].hex = spot
            probe.board.units[foe.uid].hex = foe_at
            probe.board.moved()
            u = probe.board.units[mover.uid]
            for movement, reach in ((1, 1), (2, 3), (4, 0)):
                a = npc.Attrs(movement, reach, 1, False)
                assert npc._reachable_by_walking(probe, u, a) == plain_reachable(probe, u, a), (spot, foe_at)
                checked += 1
    assert _grid(cells).pos(far) is None
    assert checked > 100


# -- a forced step -------------------------------------------------------------------------------
def plain_step_options(w: World, subject: Unit, origin: Hex, kind: str) -> list[tuple[Hex, str]]:
    """`step_options` as it read before (every neighbour's distance, the figures and solid
    tiles read first)."""
    assert subject.hex is not None
    now = distance(subject.hex, origin)
    want = now + 1 if kind in ("push", "throw") else now - 1
    if want < 0:
        return []
    occupied = w.occupied()
    solid = w.solid_tiles()
    out: list[tuple[Hex, str]] = []
    for n in neighbours(subject.hex):
        if distance(n, origin) != want:
            continue
        if n not in w.cells:
            out.append((n, "wall"))
        elif n in occupied and occupied[n].uid != subject.uid:
            out.append((n, "figure"))
        elif n in solid:
            out.append((n, "solid"))
        else:
            out.append((n, "free"))
    return sorted(out)


def test_issue23_forced_step_options_equal_the_plain_reading() -> None:
    """KW-PUSH/PULL, R-FM-6: the hexes of one forced step and what each holds (free, wall,
    figure, solid) equal the plain reading, for every figure pushed and pulled from every hex
    within 3 of it, with solid columns put beside figures and next to the wall."""
    checked = 0
    for players, seed in ((1, 7), (6, 8)):
        for i, state in enumerate(own_steps(players, seed, ("npc", "env"))):
            if i % 9:
                continue
            cells = sorted(state.cells)
            state.board.tiles.append(Tile("probe1", "bloodshard_columns", cells[i % len(cells)],
                                          [cells[i % len(cells)]], None))
            state.board.tiles.append(Tile("probe2", "bloodshard_columns", cells[0], [cells[0]], None))
            for u in state.board.units.values():
                if not u.alive or u.hex is None:
                    continue
                for origin in [h for h in cells if distance(h, u.hex) <= 3]:
                    for kind in ("push", "pull", "throw"):
                        assert step_options(state, u, origin, kind) == plain_step_options(state, u, origin, kind)
                        checked += 1
    assert checked > 5000


# -- the round's reveal ------------------------------------------------------------------------
def plain_reveal(w: World) -> None:
    """`initiative.reveal` as it read before (each entrant's Speeds read after every reveal)."""
    b = w.board
    for seat, card in sorted(b.picks.items()):
        u = next(x for x in b.units.values() if x.seat == seat)
        u.hand.remove(card)
        u.current = card
        named = card_of(w, u, card)
        assert named is not None
        u.speed = u.played_speed = named.speed
        w.log(f"{u.name} reveals {named.name if named else card} (Speed {u.speed})", kind="reveal")
    b.picks = {}
    entrants: list[str] = []
    for u in w.combatants():
        if u.kind == "rival":
            if not u.hand:
                recycle(u)
            card = w.rng.choice(sorted(u.hand))
            u.hand.remove(card)
            u.current = card
            found = card_of(w, u, card)
            assert found is not None
            u.speed = u.played_speed = found.speed
            w.log(f"{u.name} reveals a random card: Speed {u.speed} (text ignored)", kind="reveal")
        elif u.kind == "boss":
            deck = b.decks[f"speed:{u.uid}"]
            drawn = deck.draw(w.rng)
            assert drawn is not None
            if not deck.discards:
                u.prev_speed = None
            u.current = drawn
            u.speed = u.played_speed = int(drawn)
            w.log(f"{u.name} reveals Speed card {drawn}", kind="reveal")
        entrants.append(u.uid)
    for key in sorted(b.env_speed):
        env_deck = b.decks[f"speed:{key}"]
        env_card = env_deck.draw(w.rng)
        assert env_card is not None
        prev = b.env_speed[key][0] if env_deck.discards else 0
        b.env_speed[key] = [int(env_card), prev]
        w.log(f"{w.content.environmental(key[len(ENV):]).name} reveals Speed card {env_card}", kind="reveal")
        entrants.append(key)
    order = initiative_order(w, entrants)
    b.order = order
    b.ranks = {x: i for i, x in enumerate(order)}
    b.done = []
    b.phase = "place" if b.round == 1 else "immediate"
    initiative.ask_ally_ties(w)
    if b.pending is None:
        w.log("Initiative order: " + ", ".join(initiative._name(w, x) for x in b.order), kind="initiative")


SETTINGS = [{"players": 1}, {"players": 6}, {"players": 4, "mode": "team", "boss": None},
            {"players": 3, "bosses": ["malvarra", "grevvar"]}]


@pytest.mark.parametrize("params", SETTINGS, ids=["solo", "six", "team", "two_bosses"])
def test_issue23_reveal_with_speeds_taken_as_revealed_equals_the_plain_reveal(params: dict[str, object]) -> None:
    """R-INI-1..12, R-NPC-3, TB-INI: every round's reveal of random games (solo, six seats, a
    team match with ally ties, two Bosses) leaves the same position, RNG and log as the plain
    reveal; also with the discard piles emptied (no previous Speed: roll-offs) and with every
    entrant's Speed made equal (every tie-break at once)."""
    checked = 0
    for seed in (1, 2):
        game = bloodforge.load_game("arena", seed=seed, **params)
        played = game.new_initial_state()
        rng = Rng(seed)
        while not played.is_terminal():
            seat = rng.choice(played.actors())
            played.apply_unchecked(rng.choice(played.legal_actions(seat)), seat)
        replay = game.new_initial_state(advance=False)
        for who, text in played.moves():
            if who is None and text == "reveal":
                for change in ("none", "no_discards", "one_speed"):
                    fast, plain = replay.clone(), replay.clone()
                    assert isinstance(fast, ArenaState)
                    assert isinstance(plain, ArenaState)
                    for probe in (fast, plain):
                        for u in probe.board.units.values():
                            if change == "no_discards":
                                u.hand += u.discard
                                u.discard = []
                            elif change == "one_speed" and u.kind != "minion":
                                u.prev_speed = 3
                    initiative.reveal(fast)
                    plain_reveal(plain)
                    assert fast.to_json() == plain.to_json(), (seed, len(replay.history), change)
                    checked += 1
            replay.step_entry(who, text)
    assert checked > 20


# -- an Environmental's turn ---------------------------------------------------------------------
def test_issue23_environmental_turn_by_card_table_equals_the_card_read_anew() -> None:
    """R-EACT-2..4, E1, EX-10: the log line and the Guide lines of an Environmental's turn,
    read from the table made once per content, Environmental and card, equal those read off
    the card anew (its icons sorted, a line once per icon the card shows), for every
    Environmental with lines and every action card; another content with the same ids is
    not served the first one's answer; an unknown card fails as the search did."""
    state = bloodforge.load_game("arena", players=1, seed=3).new_initial_state()
    assert isinstance(state, ArenaState)
    content = state.content
    checked = 0
    for env in content.environmentals:
        for card in content.env_cards:
            icons = sorted(card.icons)
            text = environment.card_words(env.name, icons)
            tasks = tuple((line.op, str(line.amount)) for line in env.lines for icon in line.icons if icon in icons)
            assert environment._card_turn(content, env.id, card.id) == (text, tasks)
            checked += 1
    data = content.model_dump()
    data["environmentals"][0]["name"] = "Renamed"
    other = Content.model_validate(data)
    environment._card_turn(content, other.environmentals[0].id, other.env_cards[0].id)  # the first content's, kept
    got = environment._card_turn(other, other.environmentals[0].id, other.env_cards[0].id)
    assert got[0].startswith("Renamed acts")
    with pytest.raises(StopIteration):
        environment._card_turn(content, content.environmentals[0].id, "no such card")
    assert checked > 4


# -- the log's public lines ----------------------------------------------------------------------
def test_issue23_public_log_line_by_the_positional_call_equals_add() -> None:
    """A public line logged by `World.log` (through `EventLog.add_public`) is the event `add`
    makes, with the same counts for every reader, also on a log shared with a copy (the copy
    does not see it) and after it was read; a private and a masked line still go through
    `add`."""
    state = bloodforge.load_game("arena", players=2, seed=4).new_initial_state()
    assert isinstance(state, ArenaState)
    twin = state.clone()
    assert isinstance(twin, ArenaState)
    copy = state.events.copy()
    list(state.events)  # read once: the rows before are events now
    lines: list[tuple[str, int | None, str | None, dict[str, object]]] = [
        ("A hits B", None, None, {"unit": "a", "amount": 3}), ("no facts", None, None, {}),
        ("secret", 1, None, {}), ("to one", 0, "something happened", {})]
    for text, to, masked, facts in lines:
        state.log(text, kind="probe", to=to, masked=masked, **facts)
        twin.events.add(text, to=to, masked=masked, kind="probe", data=facts or None)
    assert state.events.to_json() == twin.events.to_json()
    assert list(state.events) == list(twin.events)
    for seat in (None, 0, 1):
        assert state.events.count_for(seat) == twin.events.count_for(seat)
        assert state.events.texts_for(seat) == twin.events.texts_for(seat)
    assert len(copy) == len(state.events) - len(lines)
    assert state.events[-4].data == {"unit": "a", "amount": 3}
    assert state.events[-3].data is None


# -- N14: an idle NPC's approach from the safe routes ------------------------------------------
@pytest.mark.parametrize(("players", "seed", "traps"), [(1, 13, False), (1, 14, True), (6, 15, True)])
def test_issue23_n14_approach_from_the_safe_routes_equals_the_pareto_choice(players: int, seed: int,
                                                                            traps: bool) -> None:
    """N14 (TB3): where an idle NPC approaches its goal, read off the safe routes alone
    (`npc.approach_safe`, the plain walk with the harmful tiles' cells as stops) whenever it
    answers, equals `approach_options` over the full Pareto table, for every figure on the
    board at Movements 0-5, in positions of random games (the Boss's own tiles; with Spike
    Traps put on a quarter of the free hexes, some already hit this turn). The safe routes are
    the table's tile-free routes, hex for hex."""
    answered = undecided = 0
    for i, state in enumerate(own_steps(players, seed, ("npc",))):
        if i % 5:
            continue
        if traps:
            put_spike_traps(state, 4, i, 3)
        for u in state.board.units.values():
            if not u.alive or u.hex is None:
                continue
            for movement in range(6):
                table = explore(state, u, movement)
                safe = safe_routes(state, u, movement)
                assert safe == {h: next(r for r in rs if not r.tiles) for h, rs in table.items()
                                if any(not r.tiles for r in rs)}
                state.route_memo = None
                got = npc.approach_safe(state, u, movement)
                want = npc.approach_options(state, u, explore(state, u, movement))
                if got is None:
                    undecided += 1
                else:
                    assert got == want, (i, u.uid, movement)
                    answered += 1
    assert answered > 200
    assert undecided > 0 or not traps


# -- the game's own step words -------------------------------------------------------------------
@pytest.mark.parametrize("players", [1, 6])
def test_issue23_npc_plain_step_by_figure_and_stage_equals_the_action_made_anew(players: int) -> None:
    """An NPC's plain step (card, roll, energy, invoke, end), taken from the table by figure
    and stage, is the action made anew (`npc <unit> <stage>`) at every such step of a random
    game, also after the table was emptied midway and with another figure's row in it."""
    checked = 0
    for i, state in enumerate(own_steps(players, 21, ("npc",))):
        if i == 40:
            turns._NPC_PLAIN.clear()
        b = state.board
        u = b.units.get(str(b.active))
        if u is None or b.stage not in turns._PLAIN_STAGES:
            continue
        turns._NPC_PLAIN.setdefault("someone else", {})[b.stage] = Action("npc", ("someone else", b.stage))
        step = turns.auto_step(state)
        assert step == Action("npc", (u.uid, b.stage))
        assert str(step) == f"npc {u.uid} {b.stage}"
        checked += 1
    assert checked > 50


# -- sixth session: N9 read lazily, the bonus die's effect, direct log lines -------------------------
def plain_tier(w: World, u: Unit, a: npc.Attrs, rule: str) -> list[Unit]:
    """The target step before the lazy read: every foe's N9 reach by every end hex, then N10."""
    units = w.board.units
    return npc.best_tier(w, u, [units[x] for x in plain_reachable(w, u, a)], rule)


@pytest.mark.parametrize(("players", "seed"), [(1, 31), (6, 32)])
def test_issue23_n9_target_tier_read_lazily_equals_the_best_tier_of_every_reachable_foe(players: int,
                                                                                       seed: int) -> None:
    """N9 + N10 (R-TGT-1..3, R-TGT-8, TB2, TB7): the target step's tier, with the end hexes
    read only for the foes that can still be in it, equals `best_tier` over the foes every
    end hex puts in Range, for every figure on the board, every targeting rule and Movements
    0-4 / Ranges 0-3; the Ultimate's test (`any_reachable`) equals "some foe is reachable";
    and with `reachable_foes` answered first on the layout (the memo read) the same again."""
    checked = several = lazy = tied = 0
    for i, state in enumerate(own_steps(players, seed, ("npc",))):
        if i % 5:
            continue
        if i % 2:  # ties made on purpose: equal HP and nobody in the order (equal N10 keys)
            state.board.order = []
            for e in state.board.units.values():
                if e.hp is not None:
                    e.hp = 5
        for u in list(state.board.units.values()):
            if not u.alive or u.hex is None or u.hp is None:
                continue
            atk = npc.chosen_attack(state, u) if u.kind in ("boss", "rival", "champion") else None
            if atk is None or atk.origin != "self":
                continue
            for movement, range_ in ((0, 0), (1, 1), (2, 1), (3, 2), (4, 3), (2, 0)):
                a = npc.Attrs(movement, range_, 1, False)
                want_any = bool(plain_reachable(state, u, a))
                state.route_memo = None
                assert npc.any_reachable(state, u, atk, a) == want_any
                for rule in ("most_hp", "least_hp", "nearest"):
                    want = plain_tier(state, u, a, rule)
                    state.route_memo = None
                    got = npc.target_tier(state, u, atk, a, rule)
                    assert [e.uid for e in got] == [e.uid for e in want]
                    npc.reachable_foes(state, u, atk, a)  # the memo's answer first, then read
                    assert [e.uid for e in npc.target_tier(state, u, atk, a, rule)] == [e.uid for e in want]
                    checked += 1
                    several += len(plain_reachable(state, u, a)) > 1
                    lazy += len(want) == 1
                    tied += len(want) > 1
        if checked > 2500:
            break
    assert checked > 500
    assert lazy > 50
    assert several > 50  # the order of preference decided, not a lone candidate
    assert tied > 20  # a tie left for the fastest human, sorted by id


def test_issue23_whiff_bonus_die_effect_is_one_frozen_model_equal_to_a_fresh_one() -> None:
    """R-ATT-9: the given-up attack's bonus die is one effect made at import; it equals the one
    made anew, and it cannot be changed (the content's models are frozen), so sharing it
    between every queue item and every game is safe."""
    from pydantic import ValidationError

    from bloodforge.games.arena import attack
    from bloodforge.games.arena.content import Effect

    shared = attack._bonus_die_effect()
    assert shared is attack._bonus_die_effect()
    assert shared == Effect(op="gain_die", amount=1, die="bonus", who="self")
    with pytest.raises(ValidationError):
        shared.amount = 2  # type: ignore[misc]


@pytest.mark.parametrize("players", [1, 6])
def test_issue23_direct_public_log_lines_keep_world_log_contract(players: int,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules' hot log lines go to `EventLog.add_public` directly (no `World.log` frame):
    as `World.log` passes it, data is None or a non-empty mapping (`facts or None`), never an
    empty one, and every line's text is a non-empty string; the games played are the golden
    tests' concern (kinds, visibility, data). Since the seventh session a line may come as
    its parts (`EventLog.add_public`'s lazy text `(template, *values)` and data `(keys,
    *values)`): the same holds for what they make, one value per placeholder and per key."""
    from bloodforge.core.log import EventLog

    seen: list[tuple[str, str, object]] = []
    plain = EventLog.add_public

    def checked(self: EventLog, text: object, kind: str, data: object) -> None:
        made: object = text
        if isinstance(text, tuple):
            assert isinstance(text[0], str)
            assert text[0].count("{}") == len(text) - 1
            made = text[0].format(*text[1:])
        assert isinstance(made, str)
        assert made
        assert isinstance(kind, str)
        assert kind
        if isinstance(data, tuple):
            assert isinstance(data[0], tuple)
            assert len(data[0]) == len(data) - 1
            data = dict(zip(data[0], data[1:], strict=True))
        assert data is None or (isinstance(data, dict) and len(data) > 0)
        seen.append((made, kind, data))
        plain(self, text, kind, data)  # type: ignore[arg-type]  # the parts or the whole line, as given

    monkeypatch.setattr(EventLog, "add_public", checked)
    state = bloodforge.load_game("arena", players=players, seed=41).new_initial_state()
    rng = Rng(41)
    while not state.is_terminal() and len(state.history) < 600:
        seat = rng.choice(state.actors())
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    kinds = {k for _, k, _ in seen}
    assert {"damage", "roll", "turn", "reveal", "attack"} <= kinds


def plain_start_turn(w: World, u: Unit) -> None:
    """`turns.start_turn` before it skipped empty containers and zero tallies (word for word)."""
    b = w.board
    b.active = u.uid
    b.hazard_hits = set()
    b.npc_plan = {}
    u.dealt_damage = False
    for m in b.units.values():
        m.minion_damage = 0


def plain_end_turn(w: World, u: Unit) -> None:
    """`turns.end_turn` before it skipped empty containers, zero tallies and the cleanup call
    that cannot recall anything (word for word, its log line by `World.log`)."""
    from bloodforge.games.arena.dice import cleanup_dice

    b = w.board
    n = cleanup_dice(u)
    if n:
        w.log(f"{u.name} recalls {n} Temporary Attack {'die' if n == 1 else 'dice'}", kind="cleanup")
    if u.current is not None:
        if u.kind == "boss":
            b.decks[f"speed:{u.uid}"].discard(u.current)
        else:
            u.discard.append(u.current)
        u.current = None
    card = b.revealed.pop(u.uid, None)
    if card is not None:
        b.decks[npc.deck_key(u)].discard(card)
    u.mods = {}
    u.rolled_category = None
    u.dealt_damage = False
    for d in u.pool:
        d.face = None if d.fresh else d.face
    b.done.append(u.uid)
    b.active = None
    b.stage = ""
    b.attack = None
    b.npc_plan = {}
    b.hazard_hits = set()
    for m in b.units.values():
        m.minion_damage = 0
    if u.alive:
        w.log(f"{u.name} ends the turn", kind="turn")


@pytest.mark.parametrize("players", [1, 6])
def test_issue23_turn_start_and_cleanup_equal_the_plain_ones(players: int) -> None:
    """R-CLN-1..5, N15, R-HAZ-4, R-MIN-7: a turn's start and its cleanup, with empty containers
    kept and zero tallies left alone, leave the same position, log and deck piles as the plain
    ones, on a copy of every position before an own step of a random game, for the figure
    whose turn it is (or the first on the board), with hazard hits, a plan, turn modifiers,
    minion tallies and Doubles that dealt damage put in on purpose at every other position."""
    checked = recalled = 0
    for i, state in enumerate(own_steps(players, 51, ("npc", "roll", "env"))):
        if i % 3:
            continue
        b = state.board
        u = b.units.get(str(b.active)) or next(iter(b.units.values()))
        if i % 2:
            b.hazard_hits.add((u.uid, "t1"))
            b.npc_plan = {"target": u.uid}
            u.mods["range"] = 1
            for m in b.units.values():
                m.minion_damage = 2
            u.rolled_category, u.dealt_damage = "doubles", True
            for d in u.pool:
                if d.kind == "temp":
                    d.face, d.fresh = 3, False
        for fast, plain in ((turns.start_turn, plain_start_turn), (turns.end_turn, plain_end_turn)):
            a, c = state.clone(), state.clone()
            fast(a, a.board.units[u.uid])
            plain(c, c.board.units[u.uid])
            assert a._position_json() == c._position_json()
            assert [(e.text, e.kind, e.data) for e in a.events] == \
                [(e.text, e.kind, e.data) for e in c.events]
            assert a.board.hazard_hits == c.board.hazard_hits
            assert a.board.npc_plan == c.board.npc_plan
            tallies = [x.minion_damage for x in a.board.units.values()]
            assert tallies == [x.minion_damage for x in c.board.units.values()]
            checked += 1
            recalled += len(a.board.units[u.uid].pool) < len(state.board.units[u.uid].pool)
        if checked > 300:
            break
    assert checked > 60
    assert recalled > 0
