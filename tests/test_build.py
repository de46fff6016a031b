"""Issue 23 item 3: the opt-in compiled build (mypyc) is what it says it is.

The compiled build's CI job (tools/test_compiled_build.sh) runs this file with
BLOODFORGE_EXPECT_COMPILED=1 against the installed compiled package: every listed module must
then be an extension module, or the golden-game tests it runs next would quietly test the pure
code. In the ordinary suite the same checks prove the default build is pure Python.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

import bloodforge
from bloodforge.buildinfo import BuildInfo, build_info, is_compiled_module, listed_modules

EXPECT_COMPILED = os.environ.get("BLOODFORGE_EXPECT_COMPILED") == "1"


def test_the_running_build_is_the_expected_one() -> None:
    info = build_info()
    if EXPECT_COMPILED:
        missing = [name for name in info.listed if name not in info.compiled]
        assert not missing, f"listed for mypyc but running from source: {missing}"
        assert info.describe() == f"compiled with mypyc ({len(info.listed)} modules)"
    else:
        assert info.compiled == ()
        assert info.describe() == "pure Python"


def test_every_listed_module_is_a_source_module_listed_once() -> None:
    names = listed_modules()
    assert names, "the compiled build lists no module"
    assert len(set(names)) == len(names)
    root = Path(bloodforge.__file__).parent.parent
    for name in names:
        assert name.startswith("bloodforge."), name
        if not EXPECT_COMPILED:  # the installed compiled package ships no sources of these
            assert (root / Path(*name.split("."))).with_suffix(".py").is_file(), name


@pytest.mark.skipif(EXPECT_COMPILED, reason="reads the sources")
def test_no_listed_module_defines_what_mypyc_cannot_compile() -> None:
    """Pydantic models and Protocols do not compile (../shared/docs/MYPYC_NOTES.md); a module
    gaining one must leave the list, or the compiled build breaks."""
    root = Path(bloodforge.__file__).parent.parent
    for name in listed_modules():
        tree = ast.parse((root / Path(*name.split("."))).with_suffix(".py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = {ast.unparse(b) for b in node.bases}
                assert not bases & {"BaseModel", "Protocol", "GameParams"}, f"{name}.{node.name}: {bases}"


def test_a_partly_compiled_build_says_so() -> None:
    assert BuildInfo(("a", "b"), ("a",)).describe() == "partly compiled with mypyc (1 of 2 modules)"
    assert BuildInfo(("a",), ()).describe() == "pure Python"


def test_source_modules_are_not_taken_for_compiled_ones() -> None:
    assert not is_compiled_module("bloodforge.buildinfo")


@pytest.mark.parametrize(("game_id", "params"), [
    ("bloodstones", {"players": 3}), ("witch", {}), ("forts", {"players": 3}),
    ("kingdoms", {"players": 4}), ("arena", {"players": 2}),
])
def test_a_position_survives_pickling_in_this_build(game_id: str, params: dict[str, object]) -> None:
    """The server sends positions (and agents) to its search workers pickled; objects of
    compiled classes pickle differently (a frozen compiled dataclass refused to unpickle in a
    trial build), so every game's mid-game position must round-trip in whichever build runs."""
    import pickle

    from tests.random_play import played

    state = played(game_id, params, 40)
    actor = state.actors()[0] if state.actors() else None
    legal = state.legal_actions(actor) if actor is not None else []
    copy = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    assert copy.position_digest() == state.position_digest()
    assert copy.digest() == state.digest()
    if actor is not None:
        assert copy.legal_actions(actor) == legal
        assert pickle.loads(pickle.dumps(legal)) == legal


def test_arena_search_memo_objects_survive_pickling_in_this_build() -> None:
    """arena.movement and arena.npc are compiled although they define classes: a position's
    layout memo (shared by clones) holds `_Layout`s, and a compiled class unpickles through
    its `__init__` called without arguments unless it has a `__reduce__` (each fails here in
    the compiled build without one). The state pickles without that memo now
    (tests/arena/test_arena_worker_pickle.py), but whoever pickles one of these objects must
    still get the same data back, answering the same searches."""
    import pickle

    from bloodforge.core import Rng
    from bloodforge.games.arena import movement, npc

    state = bloodforge.load_game("arena", seed=5, players=6).new_initial_state()
    rng = Rng(5)
    layouts: list[movement._Layout] = []
    for _ in range(200):  # until a search has filled the layout memo
        layouts = [v for v in state.layout_memo().values() if isinstance(v, movement._Layout)]
        if layouts or state.is_terminal():
            break
        seat = rng.choice(state.actors())
        state.apply(rng.choice(state.legal_actions(seat)), seat)
    assert layouts, "no layout in the memo"
    lay = layouts[0]
    copy = pickle.loads(pickle.dumps(lay, protocol=pickle.HIGHEST_PROTOCOL))
    assert type(copy) is movement._Layout
    assert (copy.ids, copy.occ, copy.by_side, copy.blocking) == (lay.ids, lay.occ, lay.by_side, lay.blocking)
    grid = movement._grid(state.cells)
    regrid = pickle.loads(pickle.dumps(grid))
    assert (regrid.cells, regrid.hexes, regrid.around, regrid.inside) == (grid.cells, grid.hexes, grid.around,
                                                                        grid.inside)
    attrs = npc.Attrs(3, 2, 1, True)
    back = pickle.loads(pickle.dumps(attrs))
    assert (back.movement, back.range, back.targets, back.from_minion) == (3, 2, 1, True)
    restored = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    for unit in state.board.units.values():
        if unit.alive and unit.hex is not None:
            assert movement.explore(restored, restored.board.units[unit.uid], 3) == movement.explore(state, unit, 3)


def test_forts_config_and_witch_ranges_survive_pickling_in_this_build() -> None:
    """forts.rules, forts.rules_battle and witch.board are compiled although they define
    dataclasses: the server pickles each table's game for its search workers, and a Five Forts
    game holds its `Config`, a Blood Stone game's content its compiled ranges (`Reach`). A
    compiled frozen dataclass does not unpickle by filling in its fields, so each pickles by its
    constructor's arguments (`__reduce__`); without one, each fails here in the compiled build.
    The copies must be equal values that answer the same questions."""
    import pickle

    from bloodforge.games.forts.rules_battle import Ctx

    forts = bloodforge.load_game("forts", seed=4, players=3)
    config = forts.config
    back = pickle.loads(pickle.dumps(config, protocol=pickle.HIGHEST_PROTOCOL))
    assert type(back) is type(config)
    assert back == config
    assert back.seat_names == config.seat_names
    state = forts.new_initial_state()
    ctx = state._ctx()
    ctx_back = pickle.loads(pickle.dumps(ctx))
    assert type(ctx_back) is Ctx
    assert (ctx_back.cfg, ctx_back.rng) == (ctx.cfg, ctx.rng)
    assert [ctx_back.name(s) for s in range(3)] == [ctx.name(s) for s in range(3)]
    regame = pickle.loads(pickle.dumps(forts, protocol=pickle.HIGHEST_PROTOCOL))
    assert regame.config == config

    witch = bloodforge.load_game("witch", seed=4)
    content = witch.content
    reaches = {uid: r for uid, r in content.attack_reach.items() if r is not None}
    assert reaches, "no unit with a range"
    recontent = pickle.loads(pickle.dumps(witch, protocol=pickle.HIGHEST_PROTOCOL)).content
    at = {sq: uid for uid, sq in zip(content.soldier_ids, sorted(content.square_names), strict=False)}
    for uid, reach in reaches.items():
        copy = recontent.attack_reach[uid]
        assert copy is not None
        assert type(copy) is type(reach)
        assert (copy.blocked, copy.rays, copy.order) == (reach.blocked, reach.rays, reach.order)
        for origin in list(reach.rays)[:8]:
            assert copy.units(origin, at, frozenset()) == reach.units(origin, at, frozenset())
            assert list(copy.free_squares(origin, at, frozenset())) == list(reach.free_squares(origin, at, frozenset()))


def test_rng_survives_pickling_in_this_build() -> None:
    """core.rng is compiled although it defines a class: every position carries its `Rng` to
    the server's workers pickled, and a compiled class unpickles through its `__init__`, so
    `Rng` pickles by its constructor's argument (`__reduce__`; a copy that lost the state
    would restart from another seed and fail here). The copy must be an equal generator that
    makes the same draws as the original, and a pickled state's digest and JSON must not
    change."""
    import pickle

    from bloodforge.core import Rng

    rng = Rng(11)
    for _ in range(5):
        rng.randbelow(6)
    for protocol in (2, pickle.HIGHEST_PROTOCOL):
        copy = pickle.loads(pickle.dumps(rng, protocol=protocol))
        assert type(copy) is Rng
        assert copy == rng
        assert copy.state == rng.state
        draws = [rng.copy().randbelow(n) for n in (2, 6, 7, 1000)], rng.copy().random()
        assert ([copy.copy().randbelow(n) for n in (2, 6, 7, 1000)], copy.copy().random()) == draws
        seq = list(range(9))
        twin = list(seq)
        copy.copy().shuffle(twin)
        rng.copy().shuffle(seq)
        assert twin == seq
    assert pickle.loads(pickle.dumps(Rng(2**64 - 1))).state == 2**64 - 1
    state = bloodforge.load_game("arena", seed=4, players=1).new_initial_state()
    state.apply(state.legal_actions(state.actors()[0])[0], state.actors()[0])
    restored = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
    assert restored.rng == state.rng
    assert restored.rng.copy().next_u64() == state.rng.copy().next_u64()
    assert restored.position_digest() == state.position_digest()
    assert restored.clone().to_json() == state.clone().to_json()
