"""Every character the browser client draws must exist in the fonts every player has.

UI audit 2026-11-26: the ship (⛵) and Bloodstones' dragon (🐉) were blank boxes in Debian's
Chromium, which ships with the DejaVu fonts and no emoji font: a newcomer saw an empty piece.
The DejaVu faces (Sans, Sans Mono, Serif) come with Chromium on Debian (fonts-dejavu-core) and
with matplotlib, so their character maps are the reference; anything outside them needs an
SVG or a letter instead.
"""

from __future__ import annotations

import os
from pathlib import Path

import matplotlib
from matplotlib import ft2font

ROOT = Path(__file__).resolve().parents[2] / "src" / "bloodforge"
FACES = ("DejaVuSans.ttf", "DejaVuSansMono.ttf", "DejaVuSerif.ttf")


def dejavu_characters() -> set[int]:
    fonts = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    covered: set[int] = set()
    for face in FACES:
        covered.update(ft2font.FT2Font(os.fspath(fonts / face)).get_charmap())
    return covered


def client_files() -> list[Path]:
    files = [p for p in (ROOT / "web").rglob("*") if p.suffix in {".js", ".css", ".html"}]
    files += [p for p in ROOT.glob("games/*/web/*") if p.suffix in {".js", ".css", ".html"}]
    return sorted(files)


def test_ui_audit_every_glyph_of_the_web_client_is_in_the_dejavu_fonts() -> None:
    covered = dejavu_characters()
    files = client_files()
    assert len(files) > 10  # the client's files were found
    missing = [
        f"{path.relative_to(ROOT)}:{number}: {char!r} U+{ord(char):04X}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for char in line
        if ord(char) > 127 and ord(char) not in covered
    ]
    assert not missing, "characters no DejaVu face draws (a blank box without an emoji font):\n" + "\n".join(missing)
