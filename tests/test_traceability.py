"""Issue 20: docs/games/<id>.md lists every rulebook rule id (Five Forts: the specification's ids
and the chronicle module's) or rulebook section (Bloodstones, Blood Stone) with the tests that
check it. The tables cannot rot silently: every row names tests as `tests/<file>.py::<function>`
that exist, or says honestly that the rule is untested or has no digital counterpart, and no
rule or section is missing. (The arena's and Kingdoms' tables have their own checks:
tests/arena/test_arena_inventory.py, tests/kingdoms/test_rule_index.py.)"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: shared/specs/forts.md: rules F1-F56, rulings A1-A34, worked examples T1-T13; the chronicle
#: module's house rules C1-C10 (docs/games/forts.md).
FORTS_IDS = ([f"F{i}" for i in range(1, 57)] + [f"A{i}" for i in range(1, 35)]
             + [f"T{i}" for i in range(1, 14)] + [f"C{i}" for i in range(1, 11)])

# The rulebook's sections and headings, in the rulebook's order (shared/rulebooks/README.md says
# which file is which game).
WITCH_SECTIONS = [
    'Introduction',
    'Components',
    'Preparation 1: decide who controls the Witch and the Soldiers',
    'Preparation 2: each player takes their pieces and cards',
    "Preparation 3: the map's Witch side faces the Witch player",
    'Preparation 4: unit cards with their starting blood',
    "Preparation 5: each side's deck of spell cards",
    'Preparation 6: the Witch and 4 minions on the Witch Start tiles',
    'Preparation 7: the 3 soldiers on the Soldier Start tiles',
    'Preparation 8: the Soldiers take the first turn',
    'The Battle: Soldiers first, then turns alternate until one side is left',
    'The Soldiers & Phantoms: Turns & Acts',
    'The Soldiers & Phantoms: Moving',
    'The Soldiers & Phantoms: Attacking & Range',
    'The Soldiers & Phantoms: Blood Stones',
    'The Soldiers & Phantoms: Zombification',
    'The Soldiers & Phantoms: Death',
    'The Soldiers & Phantoms: Phantom Spells',
    'The Soldiers & Phantoms: Using Spell Cards (one per turn)',
    'The Soldiers & Phantoms: Drawing & Discarding',
    'The Witch & Minions: Turns & Acts',
    'The Witch & Minions: Moving',
    'The Witch & Minions: Attacking & Attack Range',
    'The Witch & Minions: Blood Stones & Death',
    'The Witch & Minions: Blood Spells (before or after moving)',
    'The Witch & Minions: Using Spell Cards (two per turn, roll first)',
    'The Witch & Minions: Drawing & Discarding',
    'Unit Cards',
    'Unit Cards: Starting Blood',
    'Unit Cards: Movement (the 4 side squares)',
    'Unit Cards: Attack Range',
    'Spell Cards (face-down decks)',
    'Spell Cards: Chance',
    'Spell Cards: Range',
    'Spell Cards: Effect',
    'Victory',
]

BLOODSTONES_SECTIONS = [
    'Introduction (the world of Fal)',
    'Components',
    'Tile Description (build cost, unit type, pip value)',
    'Overview',
    'Starting The Game: a map suitable for the number of players',
    'Starting The Game: player order by two Battle tiles',
    'Starting The Game: choose factions (Corsairs 3+, Chaos Horde 4+)',
    'Starting The Game: draw nine tiles; Undead kept aside; villages to one side',
    'Starting The Game: citadels in reverse order, two empty areas apart',
    'Starting The Game: five Build Points of units with the citadel, ships adjacent',
    'Starting The Game: the Chaos Horde place last, not within two of a citadel',
    'Starting The Game: refill to the hand size, keep a larger hand',
    'Starting The Game: VP and Regroup markers at zero, the Chaos Horde at 10 VP',
    'Starting The Game: citadels are units, villages are not',
    'Starting The Game: anyone may count the tiles left in a bag',
    'Starting The Game: limited to your supply; no removing from play at will',
    'Description Of The Map (terrain, rivers, seas)',
    'Faction Information Card',
    'The Factions: Dragon Riders',
    'The Factions: Horse Lords',
    'The Factions: Hill Folk',
    'The Factions: The Necromancers',
    'The Factions: Chaos Horde',
    'The Factions: Corsairs',
    'Playing The Game: the sequence of phases, clockwise',
    'Playing The Game: regroup and the game end trigger',
    'A Note On Discarding Tiles',
    'Phase 1: Capture Villages',
    'Phase 2: Move Undead',
    'Phase 3: Main Actions',
    'Action: Build Unit',
    'Action: Move Units',
    'Action: Move Units: Ship Passage by Ship',
    'Action: Move Units: Leaders and Movement',
    'Action: Move Units: Dragon Movement',
    'Action: Move Units: Example of movement',
    'Action: Battle: Step One (withdrawal)',
    'Action: Battle: Step Two (draw Battle tiles)',
    'Action: Battle: Step Three (substitute one tile)',
    'Action: Battle: Step Four (reveal, top three, modifiers)',
    'Action: Battle: Step Five (the winner; ties)',
    'A Note On Battle Modifiers',
    "Clean-up (victor scores, loser's casualty)",
    'Withdrawal And Retreat Rules',
    'Battle examples',
    'Phase 4: Construct Villages',
    'Phase 5: Draw Tiles (deserts, draw back to hand size)',
    'Regrouping',
    "OMG I've Been Wiped Out!",
    'Ending The Game',
    "Faction cards (each faction's units, costs, pips and modifiers)",
    'Strategy Tips (and Faction Balance)',
    'Optional Cutiecorn Rules',
    'Extra Map Rules: Rivers and Adjacency (Map 1)',
    'Player aid',
]

#: A row with no test must say one of these.
NO_TEST = ("untested", "no digital counterpart", "no rule of its own")
REF = re.compile(r"`([^`]+?)::(test_\w+)`")


def traceability_rows(game: str) -> list[tuple[str, str]]:
    """The (rule, tests) rows of the "## Traceability" section of docs/games/<game>.md."""
    doc = (ROOT / "docs" / "games" / f"{game}.md").read_text(encoding="utf-8")
    assert "\n## Traceability" in doc, f"docs/games/{game}.md has no Traceability section"
    section = doc.split("\n## Traceability", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if cells[0] in ("rule", "rulebook section") or set(cells[0]) <= set("-: "):
            continue
        rows.append((cells[0], cells[-1]))
    return rows


@cache
def functions_in(path: str) -> frozenset[str]:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    return frozenset(n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))


EXPECTED = {"forts": FORTS_IDS, "bloodstones": BLOODSTONES_SECTIONS, "witch": WITCH_SECTIONS}


@pytest.mark.parametrize("game", sorted(EXPECTED))
def test_traceability_table_lists_every_rule_once_with_tests_that_exist(game: str) -> None:
    rows = traceability_rows(game)
    listed = [rule for rule, _ in rows]
    duplicates = sorted({r for r in listed if listed.count(r) > 1})
    assert not duplicates, f"listed twice: {duplicates}"
    expected = EXPECTED[game]
    if game == "forts":
        assert sorted(listed) == sorted(expected), (
            f"missing {sorted(set(expected) - set(listed))}, unknown {sorted(set(listed) - set(expected))}")
    else:
        assert listed == expected, "the rulebook's sections, each once, in the rulebook's order"
    for rule, refs in rows:
        named = REF.findall(refs)
        assert named or any(p in refs for p in NO_TEST), f"{rule}: no test and no reason"
        assert not re.search(r"`test_\w+`", refs), f"{rule}: name tests as `tests/<file>.py::<function>`"
        for path, func in named:
            assert path.startswith("tests/"), f"{rule}: {path} is not under tests/"
            assert (ROOT / path).is_file(), f"{rule}: no test file {path}"
            assert func in functions_in(path), f"{rule}: {path} has no {func}"
