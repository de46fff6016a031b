"""Built-in games. Importing this package registers each of them with the core registry."""

from importlib import import_module

GAME_MODULES: tuple[str, ...] = ("bloodforge.games.bloodstones", "bloodforge.games.witch")

for _name in GAME_MODULES:
    import_module(_name)
