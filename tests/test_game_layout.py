"""The game-folder layout (docs/architecture.md, "A game is one folder"), checked for every game.

Games are found the way `bloodforge.games` finds them (every sub-package whose name does not
start with an underscore), so a new game is checked without being listed here. The checks read
the source (AST), they import nothing:

* no import statement inside a function (imports hidden there to dodge a cycle);
* the import graph of a game's own modules, type-only (`TYPE_CHECKING`) imports included, has no
  cycle;
* a game imports only `bloodforge.core` and itself;
* `policy.py` imports, of its own game, only the exported rule queries: the module (or package)
  `queries`, which imports nothing of the game but other `queries` modules;
* nothing in `bloodforge` outside `games/` imports a game or names a game id in code (docstrings
  and comments may).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "bloodforge"
GAMES_DIR = SRC / "games"
GAME_IDS = sorted(
    p.name for p in GAMES_DIR.iterdir()
    if p.is_dir() and (p / "__init__.py").is_file() and not p.name.startswith(("_", "."))
)
#: The module (or package) of a game that its policy may import: its exported rule queries.
QUERIES = "queries"


# -- reading a game's modules ----------------------------------------------------------------------
def module_name(game_dir: Path, path: Path) -> str:
    """Dotted name inside the game: "rules", "rules.combat"; the game's own `__init__` is ""."""
    parts = list(path.relative_to(game_dir).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def game_modules(game_dir: Path) -> dict[str, Path]:
    return {module_name(game_dir, p): p for p in sorted(game_dir.rglob("*.py"))}


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def imports_of(path: Path, tree: ast.Module | None = None) -> Iterator[tuple[ast.stmt, int, str, list[str]]]:
    """(node, level, module, imported names) of every import statement, wherever it is."""
    tree = tree or ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node, 0, alias.name, []
        elif isinstance(node, ast.ImportFrom):
            yield node, node.level, node.module or "", [a.name for a in node.names]


def internal_targets(game_id: str, game_dir: Path, modules: dict[str, Path], name: str,
                     level: int, module: str, names: list[str]) -> set[str]:
    """The game's own modules an import statement in module `name` loads."""
    if level == 0:
        prefix = f"bloodforge.games.{game_id}"
        if module != prefix and not module.startswith(prefix + "."):
            return set()
        base = module[len(prefix) + 1:] if module != prefix else ""
    else:
        here = name.split(".") if name else []
        package = here if _is_package(modules[name]) else here[:-1]
        if level - 1 > len(package):
            return set()  # reaches above the game: not one of its modules
        package = package[: len(package) - (level - 1)]
        base = ".".join([*package, *([module] if module else [])])
    out = set()
    for imported in names or [""]:
        full = f"{base}.{imported}" if base and imported else (imported or base)
        target = full if full in modules else base
        if target in modules:
            out.add(target)
            parts = target.split(".")
            out.update(".".join(parts[:i]) for i in range(1, len(parts)))  # parent packages run first
    out.discard(name)
    out.discard("")  # the game's own __init__ is running already, except when a name is taken from it
    if base == "" and any(n and n not in modules for n in names):
        out.add("")  # `from . import SomeName`: a name from the game's __init__
    return out


def import_graph(game_id: str) -> dict[str, set[str]]:
    game_dir = GAMES_DIR / game_id
    modules = game_modules(game_dir)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges: set[str] = set()
        for _node, level, module, names in imports_of(path):
            edges |= internal_targets(game_id, game_dir, modules, name, level, module, names)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def label(name: str) -> str:
    return name or "__init__"


# -- the checks ----------------------------------------------------------------------------------
def test_games_are_found() -> None:
    assert {"bloodstones", "witch"} <= set(GAME_IDS)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_no_imports_inside_functions(game_id: str) -> None:
    bad = []
    for path in sorted((GAMES_DIR / game_id).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                for node in ast.walk(fn):
                    if isinstance(node, (ast.Import, ast.ImportFrom)):
                        bad.append(f"{path.relative_to(SRC)}:{node.lineno}")
                    elif isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)):
                        called = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
                        if called in ("import_module", "__import__"):
                            bad.append(f"{path.relative_to(SRC)}:{node.lineno} ({called})")
    assert not bad, f"imports inside functions (move them to the top; break a cycle by layering): {bad}"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_import_graph_has_no_cycle(game_id: str) -> None:
    cycle = find_cycle(import_graph(game_id))
    assert cycle is None, f"{game_id}: import cycle {' -> '.join(map(label, cycle or []))}"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_game_imports_only_core_and_itself(game_id: str) -> None:
    bad = []
    game_dir = GAMES_DIR / game_id
    modules = game_modules(game_dir)
    for name, path in modules.items():
        here = name.split(".") if name else []
        package_depth = len(here) if _is_package(path) else len(here) - 1
        for node, level, module, _names in imports_of(path):
            if level:
                if level - 1 > package_depth:
                    bad.append(f"{path.relative_to(SRC)}:{node.lineno} relative import out of the game")
                continue
            own = f"bloodforge.games.{game_id}"
            allowed = module in ("bloodforge.core", own) or module.startswith(("bloodforge.core.", own + "."))
            if (module == "bloodforge" or module.startswith("bloodforge.")) and not allowed:
                bad.append(f"{path.relative_to(SRC)}:{node.lineno} imports {module}")
    assert not bad, f"a game imports only bloodforge.core and itself: {bad}"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_policy_imports_only_exported_queries(game_id: str) -> None:
    game_dir = GAMES_DIR / game_id
    modules = game_modules(game_dir)
    graph = import_graph(game_id)

    def is_queries(m: str) -> bool:
        return m == QUERIES or m.startswith(QUERIES + ".")

    bad = []
    for name in modules:
        if name == "policy" or name.startswith("policy."):
            bad += [f"{name} imports {label(t)}" for t in sorted(graph[name])
                    if not is_queries(t) and not (t == "policy" or t.startswith("policy."))]
        if is_queries(name):
            bad += [f"{name} imports {label(t)}" for t in sorted(graph[name]) if not is_queries(t)]
    assert not bad, (
        f"{game_id}: the policy may import only the game's exported rule queries (`{QUERIES}`), "
        f"and those import nothing else of the game: {bad}"
    )


def _docstring_nodes(tree: ast.Module) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                out.add(id(body[0].value))
    return out


def _words_in_code(tree: ast.Module) -> Iterator[tuple[int, str]]:
    docstrings = _docstring_nodes(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value
        elif isinstance(node, ast.Name):
            yield node.lineno, node.id
        elif isinstance(node, ast.Attribute):
            yield node.lineno, node.attr
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.lineno, node.name
        elif isinstance(node, ast.arg):
            yield node.lineno, node.arg
        elif isinstance(node, ast.alias):
            yield getattr(node, "lineno", 0), node.name


def outside_modules() -> list[Path]:
    return [p for p in sorted(SRC.rglob("*.py")) if GAMES_DIR not in p.parents]


def test_nothing_outside_games_imports_a_game() -> None:
    bad = []
    for path in outside_modules():
        parts = path.relative_to(SRC).with_suffix("").parts
        package = list(parts[:-1])
        for node, level, module, names in imports_of(path):
            if level:
                base = package[: len(package) - (level - 1)] if level - 1 <= len(package) else []
                module = ".".join(["bloodforge", *base, *([module] if module else [])])
            targets = [module] + [f"{module}.{n}" for n in names]
            if any(t.startswith("bloodforge.games.") for t in targets):
                bad.append(f"{path.relative_to(SRC)}:{node.lineno} imports {', '.join(targets)}")
    assert not bad, f"only bloodforge.games imports the games (it finds them by folder): {bad}"


def test_no_game_id_outside_games() -> None:
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, GAME_IDS)) + r")\b", re.IGNORECASE)
    bad = []
    for path in outside_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, word in _words_in_code(tree):
            m = pattern.search(word)
            if m:
                bad.append(f"{path.relative_to(SRC)}:{line} names {m.group(1)!r}")
    assert not bad, f"code outside games/ names a game (docstrings and comments may): {bad}"


# -- the checker checks itself on made-up games -------------------------------------------------------
def _fake_game(tmp_path: Path, files: dict[str, str]) -> tuple[Path, dict[str, Path]]:
    game = tmp_path / "fake"
    for rel, text in files.items():
        p = game / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return game, game_modules(game)


def _graph(game: Path, modules: dict[str, Path]) -> dict[str, set[str]]:
    return {
        name: set().union(*(internal_targets("fake", game, modules, name, lv, mod, ns)
                            for _n, lv, mod, ns in imports_of(path)), set())
        for name, path in modules.items()
    }


def test_checker_finds_a_type_only_cycle(tmp_path: Path) -> None:
    game, modules = _fake_game(tmp_path, {
        "__init__.py": "from .game import G\n",
        "game.py": "from .rules import f\nclass G: ...\n",
        "rules.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .game import G\n",
    })
    cycle = find_cycle(_graph(game, modules))
    assert cycle is not None
    assert set(cycle) == {"game", "rules"}


def test_checker_finds_a_name_taken_from_the_game_init(tmp_path: Path) -> None:
    game, modules = _fake_game(tmp_path, {
        "__init__.py": "from .game import G\n",
        "game.py": "from .scenario import s\nclass G: ...\n",
        "scenario.py": "from . import G\n",
    })
    assert find_cycle(_graph(game, modules)) is not None


def test_checker_accepts_layers_and_subpackages(tmp_path: Path) -> None:
    game, modules = _fake_game(tmp_path, {
        "__init__.py": "from .game import G\n",
        "game.py": "from . import rules\nfrom .rules.combat import fight\nclass G: ...\n",
        "rules/__init__.py": "from .combat import fight\n",
        "rules/combat.py": "from ..model import M\nfrom bloodforge.games.fake import model\n",
        "model.py": "class M: ...\n",
    })
    graph = _graph(game, modules)
    assert graph["rules.combat"] == {"model"}
    assert graph["game"] == {"rules", "rules.combat"}
    assert find_cycle(graph) is None
