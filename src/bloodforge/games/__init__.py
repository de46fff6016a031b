"""Built-in games: every sub-package is a game, found and registered at import.

A game is one folder (`games/<id>/`): adding one needs no edit anywhere else. A package whose
name starts with an underscore is skipped (shared test fixtures, work in progress).
"""

from importlib import import_module
from pkgutil import iter_modules

GAME_PACKAGES: tuple[str, ...] = tuple(
    sorted(m.name for m in iter_modules(__path__) if m.ispkg and not m.name.startswith("_"))
)

for _name in GAME_PACKAGES:
    import_module(f"{__name__}.{_name}")
