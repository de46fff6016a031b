"""Bloodstones: rulebook sections no other test named (issue 20: every section of the rulebook has
a test in docs/games/bloodstones.md's traceability table)."""

from __future__ import annotations

from .helpers import run
from .test_table_view import _example, _fought


def test_a_note_on_discarding_tiles_the_discard_pile_is_face_up_for_everyone() -> None:
    """A Note On Discarding Tiles: discards lie face up, so every seat and spectator sees them."""
    st = _fought()
    assert st.discards[0] == {"resources": 1}  # the substitute tile went to the discard pile
    for viewer in (0, 1, None):
        players = st.observation(viewer)["players"]
        assert [p["discard"] for p in players] == st.discards


def test_starting_the_game_units_and_villages_may_not_be_removed_at_will() -> None:
    """Starting The Game: 'once placed you may not choose to remove [units] from play'; no action
    takes a unit or village off the map except battle, desert and capture."""
    st = _example()
    for _ in range(12):
        words = {a.split()[0] for a in (str(x) for x in st.legal_actions())}
        assert not words & {"remove", "disband", "scrap", "dismiss"}, words
        if st.is_terminal():
            break
        run(st, "end" if "end" in words else sorted(str(x) for x in st.legal_actions())[0])
