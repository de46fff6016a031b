"""Which build of bloodforge is running: pure Python or compiled with mypyc.

Why it matters: the opt-in compiled build (`BLOODFORGE_MYPYC=1`, see setup.py) plays the same
games faster, so every speed figure, lab timing and server measurement depends on it. `serve`
prints it at start, the lab writes it into each result document, and the compiled build's CI job
checks that the modules it lists really are the compiled ones (an editable install or a stray
`src/` on sys.path would silently run the pure code).
"""

from __future__ import annotations

import importlib
import importlib.machinery
from dataclasses import dataclass
from importlib import resources

#: The modules setup.py compiles, one dotted name a line (comments with '#').
MODULE_LIST = "mypyc_modules.txt"


@dataclass(frozen=True)
class BuildInfo:
    listed: tuple[str, ...]  # modules the compiled build compiles
    compiled: tuple[str, ...]  # those of them loaded from a compiled extension here

    @property
    def is_compiled(self) -> bool:
        return bool(self.compiled)

    def describe(self) -> str:
        """One line for people: what a benchmark or lab result was measured on."""
        if not self.compiled:
            return "pure Python"
        if len(self.compiled) == len(self.listed):
            return f"compiled with mypyc ({len(self.compiled)} modules)"
        return f"partly compiled with mypyc ({len(self.compiled)} of {len(self.listed)} modules)"


def listed_modules() -> tuple[str, ...]:
    text = resources.files("bloodforge").joinpath(MODULE_LIST).read_text(encoding="utf-8")
    names = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return tuple(name for name in names if name)


def is_compiled_module(name: str) -> bool:
    """True when `name` was imported from an extension module (.so/.pyd), not from source."""
    path = getattr(importlib.import_module(name), "__file__", None) or ""
    return path.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def build_info() -> BuildInfo:
    listed = listed_modules()
    return BuildInfo(listed, tuple(name for name in listed if is_compiled_module(name)))
