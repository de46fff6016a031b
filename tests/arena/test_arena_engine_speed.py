"""Issue 23 item 1, the seat side of solo playouts (seventh session): the arena's own copies
of the engine's hot path (`ArenaState.is_terminal`, `actors`, `legal_actions`, `_commit`,
`_advance`) and the other shortcuts of the seat side, each against the plain computation.

*Why:* the copies leave out frames and the history's text joins; a copy that drifted from
`State`'s methods (a seat check dropped, a cached list handed out to be changed, a wrong
text in the history) would still play plausible games. These checks fail when it does.
"""

from __future__ import annotations

import bloodforge
from bloodforge.core import Action, Rng, State
from bloodforge.games.arena import game as arena_game
from bloodforge.games.arena.game import ArenaState
from bloodforge.games.arena.turns import act


class _PlainState(ArenaState):
    """An arena state that steps through `State`'s own methods (the reference)."""

    is_terminal = State.is_terminal
    actors = State.actors
    legal_actions = State.legal_actions
    _commit = State._commit
    _advance = State._advance


def _plain_twin(players: int, seed: int) -> ArenaState:
    state = bloodforge.load_game("arena", players=players, seed=seed).new_initial_state(advance=False)
    assert isinstance(state, ArenaState)
    state.__class__ = _PlainState
    State._advance(state)
    return state


def _fused(players: int, seed: int) -> ArenaState:
    state = bloodforge.load_game("arena", players=players, seed=seed).new_initial_state()
    assert type(state) is ArenaState
    return state


def test_issue23_engine_copies_play_the_same_games_as_state() -> None:
    """Solo and three seats, uniformly random actions: after every ply the fused state and a
    twin stepping through `State`'s methods have the same history (texts and seats), the
    same actors, terminal flag and legal actions of every seat (those who may not act:
    none), asked twice (the cache) and with the cache emptied; a changed copy of the
    listing does not change the next answer."""
    for players, seed in ((1, 11), (1, 12), (3, 13)):
        fused, plain = _fused(players, seed), _plain_twin(players, seed)
        rng = Rng(seed)
        for _ in range(400):
            assert fused.history == plain.history
            assert fused.history_seats == plain.history_seats
            assert fused.is_terminal() is plain.is_terminal()
            if fused.is_terminal():
                break
            assert fused.actors() == plain.actors()
            for seat in [*range(players), None]:
                expected = State.legal_actions(plain, seat)
                for _ in range(2):  # filling the cache, then read from it
                    got = fused.legal_actions(seat)
                    assert got == expected
                    got.append(act("end"))  # the caller's own copy
                assert fused.legal_actions(seat) == expected
                fused._invalidate_legal()
                assert fused.legal_actions(seat) == expected
            seat = rng.choice(fused.actors())
            action = rng.choice(fused.legal_actions(seat))
            fused.apply_unchecked(action, seat)
            plain.apply_unchecked(action, seat)
        assert fused.is_terminal(), "a game this short ends within 400 plies"
        assert fused.position_digest() == plain.position_digest()


def test_issue23_engine_copies_refuse_bad_seats_as_state_does() -> None:
    """Out-of-range and non-int seats go to `State.legal_actions` (its ValueError)."""
    state = _fused(1, 3)
    for bad in (1, -1, True, "0"):
        try:
            state.legal_actions(bad)  # type: ignore[arg-type]
        except ValueError:
            continue
        raise AssertionError(f"seat {bad!r} accepted")


def test_issue23_history_text_by_id_is_the_actions_text() -> None:
    """The history's text is read from `_TEXTS` by the action's id only for that very object
    (kept there, so its id is not reused while the entry lives): an equal action made anew
    gets its own text, and an entry under its id for another object is not read."""
    a = act("npc", "boss", "target", "x")
    assert arena_game._text(a) == "npc boss target x"
    assert arena_game._TEXTS[id(a)] == (a, "npc boss target x")
    assert arena_game._TEXTS[id(a)][0] is a
    state = _fused(1, 4)
    first = state.legal_actions(0)[0]
    copy = Action(first.kind, first.args)
    assert copy is not first
    assert copy == first
    arena_game._TEXTS[id(copy)] = (act("end"), "end")  # a stale entry under the copy's id
    n = len(state.history)
    state.apply_unchecked(copy, 0)
    assert state.history[n] == str(first) != "end"
    assert state.history_seats[n] == 0


def test_issue23_move_path_is_the_safest_route() -> None:
    """R-MOV, R-HAZ (ruling: a Move is a destination, the safest route taken): the path of
    every listed `move` and `minion` action of random solo and six-seat games (the Boss's
    hazard tiles lie near most solo moves) equals `safest(routes_to(...)).path`, the Pareto
    search's answer; then the action is played, so later positions carry the tiles and
    hits it leaves."""
    from bloodforge.games.arena import attack, movement
    from bloodforge.games.arena.hexes import parse_hex

    checked = tiled = 0
    for players, seed in ((1, 21), (1, 22), (1, 23), (6, 24)):
        state = _fused(players, seed)
        rng = Rng(seed)
        while not state.is_terminal() and checked < 3000:
            seat = rng.choice(state.actors())
            legal = state.legal_actions(seat)
            for a in legal:
                if a.kind not in ("move", "minion"):
                    continue
                if a.kind == "move":
                    mover = state.unit(str(state.board.active))
                    steps = attack.movement_of(state, mover)
                else:
                    mover = state.unit(a.args[0])
                    steps = state.content.minion(mover.content_id).movement
                to = parse_hex(a.args[-1])
                assert to is not None
                assert movement.move_path(state, mover, steps, to) == \
                    movement.safest(movement.routes_to(state, mover, steps, to)).path
                checked += 1
                tiled += bool(state.board.tiles)
            state.apply_unchecked(rng.choice(legal), seat)
    assert checked > 1000
    assert tiled > 300


def test_issue23_move_actions_by_layout_follow_flying_and_steps() -> None:
    """R-MOV-2/5, KW-FLY: `player._move_actions` kept by layout answers as `destinations`
    for the same figure in the same layout when only its flying (the `fly` effect, a turn's
    modifier) or its steps differ: each is in the key. Solo positions every 5 plies, the
    active Champion walking and flying, 1 and 3 steps, each asked after the others."""
    from bloodforge.games.arena import player
    from bloodforge.games.arena.hexes import hex_id
    from bloodforge.games.arena.movement import destinations

    state = _fused(1, 31)
    rng = Rng(31)
    differed = checked = 0
    for ply in range(400):
        if state.is_terminal():
            break
        b = state.board
        if ply % 5 == 0 and b.phase == "turns" and b.active in b.units:
            u = state.unit(str(b.active))
            if u.hex is not None and u.alive:
                saved = dict(u.mods)
                answers = {}
                for flying in (False, True, False):
                    u.mods = {**saved, "flying": 1} if flying else {k: v for k, v in saved.items() if k != "flying"}
                    for steps in (1, 3):
                        want = [hex_id(h) for h in destinations(state, u, steps) if h != u.hex]
                        assert [a.args[-1] for a in player._move_actions(state, u, steps)] == want
                        answers[flying, steps] = want
                        checked += 1
                u.mods = saved
                differed += answers[True, 3] != answers[False, 3]
        seat = rng.choice(state.actors())
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    assert checked > 50
    assert differed > 0


def test_issue23_choose_actions_follow_the_options_in_their_order() -> None:
    """Spec 2.5: a waiting decision's actions are `choose <option>` for each option in the
    order given, at every waiting decision of a random solo game, and for the same options
    reversed and cut (the table is keyed by the options as listed)."""
    from bloodforge.games.arena import player

    state = _fused(1, 41)
    rng = Rng(41)
    met = 0
    while not state.is_terminal():
        seat = rng.choice(state.actors())
        p = state.board.pending
        if p is not None:
            options = list(p.options)
            for variant in (options, options[::-1], options[1:]):
                p.options = variant
                assert player.legal(state, seat) == [act("choose", o) for o in variant]
            p.options = options
            met += 1
        state.apply_unchecked(rng.choice(state.legal_actions(seat)), seat)
    assert met > 10


def test_issue23_hex_ids_kept_per_hex_are_the_formatted_ids() -> None:
    """Hex ids (the words of actions and log lines) read from the table equal `"q,r"` for
    every hex of a wide box, asked twice (made, then kept), also after the table is emptied."""
    from bloodforge.games.arena import queries

    hexes = [(q, r) for q in range(-12, 13) for r in range(-12, 13)]
    for _ in range(2):
        assert [queries.hex_id(h) for h in hexes] == [f"{q},{r}" for q, r in hexes]
    queries._IDS.clear()
    assert queries.hex_id((3, -4)) == "3,-4"
    assert queries.parse_hex(queries.hex_id((-7, 0))) == (-7, 0)


def test_issue23_seat_unit_is_the_seats_figure() -> None:
    """Every seat of a six-seat game finds the figure it plays (the first with that seat, in
    the board's order); a seat nobody plays raises StopIteration, as the generator did."""
    from bloodforge.games.arena import player

    state = _fused(6, 61)
    for seat in range(6):
        assert player.seat_unit(state, seat) is next(u for u in state.board.units.values() if u.seat == seat)
    try:
        player.seat_unit(state, 6)
    except StopIteration:
        return
    raise AssertionError("seat 6 found a figure")


def test_issue23_tile_masks_by_hexes_follow_a_turning_tile() -> None:
    """R-HAZ, E-tiles: a tile's cells as a mask (kept per grid and hexes) equal the cells of
    its hexes on the grid after every turn of the tile (six turns about its anchor, each
    shape met twice, so the second time is read from the table), with hexes beyond the map
    left out."""
    from bloodforge.games.arena import movement
    from bloodforge.games.arena.hexes import rotate
    from bloodforge.games.arena.model import Tile

    state = _fused(1, 81)
    grid = movement._grid(state.cells)
    anchor = sorted(state.cells)[len(state.cells) // 2]
    shape = [anchor, (anchor[0] + 1, anchor[1]), (anchor[0] + 2, anchor[1] - 1), (anchor[0] + 40, anchor[1])]
    tile = Tile("t1", "spikes", anchor, list(shape), None)
    for turn in range(12):
        tile.hexes = [rotate(h, anchor, turn) for h in shape]
        want = 0
        for h in tile.hexes:
            pos = grid.index.get(h)
            if pos is not None:
                want |= 1 << pos
        assert movement._tile_cells(tile, grid)[3] == want
        assert movement._tile_cells(tile, grid)[2] == tile.hexes
