"""Creating a table: the game and first state a request describes, seats, names, tokens.

Every refusal is a clear 4xx (`ApiError`) naming the field, the file or the game, and nothing
is stored before all checks pass. Runs in a worker thread (a game may take a while to set up).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import unicodedata
from typing import Any

import bloodforge
from bloodforge.agents import agent_names
from bloodforge.core import BloodforgeError, Game, State, UnknownGame, game_class

from .errors import ApiError
from .schemas import MAX_SEED, SeatCreate, TableCreate
from .untrusted import check_shape, parse_yaml

MAX_SCENARIO_CHARS = 200_000

#: How an AI seat's default name tells its agent ("AI 2", "AI 3 (search)"), in players' words.
AGENT_WORDS = {"greedy": "", "heuristic": "", "mcts": " (search)", "random": " (random moves)"}


def hash_token(token: str) -> str:
    # surrogatepass: a token with lone surrogates (from a JSON escape) hashes, and never matches
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def clean_name(raw: str, fallback: str, limit: int) -> str:
    """Printable text only (no control or format characters), spaces collapsed, trimmed.

    Names are still shown only as text (never parsed as HTML); cleaning keeps logs and layouts
    sane, escaping is the UI's job."""
    kept = "".join(ch for ch in raw if unicodedata.category(ch)[0] != "C")
    text = " ".join(kept.split())[:limit]
    return text or fallback


def new_game(req: TableCreate) -> tuple[Game, State, dict[str, Any] | None]:
    """The game and first state a create request describes; every refusal is a clear 4xx."""
    if req.scenario is not None:
        # Every scenario message names the file the player uploaded (the server opens no file).
        label = f"scenario file {req.scenario_name!r}" if req.scenario_name else "the scenario"
        data = _scenario_dict(req.scenario, label)
        if req.game is not None and data.get("game") != req.game:
            raise ApiError(422, "scenario/invalid", f"{label} is for game {data.get('game')!r}, not {req.game!r}")
        params = data.get("params")
        _refuse_files(str(data.get("game")), params if isinstance(params, dict) else {})
        try:
            state = bloodforge.load_scenario(data)
        except KeyError as err:  # UnknownGame
            raise ApiError(422, "game/unknown", f"{label}: {err}") from None
        except (BloodforgeError, ValueError) as err:
            text = str(err).removeprefix("scenario: ").removeprefix("scenario ")
            raise ApiError(422, "scenario/invalid", f"{label}: {text}") from None
        return state.game, state, data
    if req.game is None:
        raise ApiError(422, "game/missing", "give a game id (see GET /api/games) or a scenario")
    check_shape(req.params, "params", code="params/invalid")
    _refuse_files(req.game, req.params)
    seed = req.seed if req.seed is not None else secrets.randbelow(MAX_SEED)
    try:
        game = bloodforge.load_game(req.game, seed=seed, **req.params)
    except KeyError as err:
        raise ApiError(422, "game/unknown", str(err)) from None
    except (BloodforgeError, ValueError, TypeError) as err:
        raise ApiError(422, "params/invalid", str(err), **_param_field(req.game, str(err))) from None
    return game, game.new_initial_state(), None


def _param_field(game_id: str, message: str) -> dict[str, str]:
    """`details.field` of a parameter refusal ("params.max_rounds", or "players"), so the lobby
    writes the message under the field it is about; {} when no single parameter is named.

    The parameter is the one the message starts with ("parameters of 'x': max_rounds: ...") or
    else the one it names as a whole word (`map` is not named by `map_file`)."""
    try:
        names = list(game_class(game_id).info.params_model.model_fields)
    except UnknownGame:
        return {}
    lead = re.match(r"parameters of '[^']*': (\w+):", message)
    named = [n for n in names if re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", message)]
    # "players" is also an ordinary word of messages ("marked for 5-6 players"): the last resort
    found = lead.group(1) if lead and lead.group(1) in names else next(
        (n for n in sorted(named, key=lambda n: n == "players")), None)
    if found is None:
        return {}
    return {"field": "players" if found == "players" else f"params.{found}"}


def _refuse_files(game_id: str, params: dict[str, Any]) -> None:
    """Parameters that name files would let a client make the server open its files: every
    game declares them with `data_file_field`, and the server refuses them all."""
    try:
        files = game_class(game_id).info.params_model.file_parameters()
    except UnknownGame:
        return  # the game lookup that follows gives the clear error
    named = [k for k in files if params.get(k) is not None]
    if named:
        raise ApiError(
            422, "params/invalid",
            f"parameter {named[0]!r} names a file; the server accepts no file parameters "
            f"({', '.join(files)}): play a designer's copy with the CLI or the lab",
            field=f"params.{named[0]}",
        )


def _scenario_dict(source: str | dict[str, Any], label: str) -> dict[str, Any]:
    """Bounded before anything is built: no YAML anchors or aliases, at most MAX_NODES values
    nested MAX_DEPTH deep, read within PARSE_SECONDS (see `untrusted`)."""
    if isinstance(source, dict):
        check_shape(source, label)
        return source
    if len(source) > MAX_SCENARIO_CHARS:
        raise ApiError(413, "scenario/too_large", f"{label}: over {MAX_SCENARIO_CHARS} characters")
    data = parse_yaml(source, label)
    if not isinstance(data, dict):
        raise ApiError(422, "scenario/invalid", f"{label}: a scenario must be a mapping with game, params, position")
    return data


def seat_specs(seats: list[SeatCreate] | None, game: Game) -> list[SeatCreate]:
    n = game.num_players
    if seats is None:
        seats = [SeatCreate(kind="human")] + [SeatCreate(kind="agent", agent="greedy") for _ in range(n - 1)]
    if len(seats) != n:
        raise ApiError(422, "seats/invalid", f"{game.info.name} with these parameters has {n} seats, got {len(seats)}",
                       field="seats")
    known = agent_names()
    out = []
    for i, s in enumerate(seats):
        if s.kind == "agent":
            agent = s.agent or "greedy"
            if agent not in known:
                # people count seats from 1 (lobby, CLI); `details.field` keeps the 0-based index
                raise ApiError(422, "agent/unknown",
                               f"seat {i + 1}: unknown agent {agent!r}; known: {', '.join(known)}",
                               field=f"seats.{i}")
            name = clean_name(s.name, f"AI {i + 1}{AGENT_WORDS.get(agent, f' ({agent})')}", 40)
            out.append(SeatCreate(name=name, kind="agent", agent=agent, strength=s.strength))
        else:
            out.append(SeatCreate(name=clean_name(s.name, f"Player {i + 1}", 40), kind="human"))
    return out


def default_table_name(game: Game, seats: list[SeatCreate]) -> str:
    """A name that says who plays: "Kingdoms of Blood · Anna vs 3 AI", "Five Forts · Anna vs
    Bob", "BLOODSTONE arena · Anna (solo)", so tables in the lobby tell apart at a glance."""
    humans = [s.name for s in seats if s.kind == "human"]
    ai = len(seats) - len(humans)
    if not humans:
        who = f"{ai} AI"
    elif ai == 0 and len(humans) == 1:
        who = f"{humans[0]} (solo)"
    elif ai == 0:
        who = " vs ".join(humans) if len(humans) <= 3 else f"{', '.join(humans[:-1])} and {humans[-1]}"
    else:
        who = f"{' & '.join(humans) if len(humans) <= 2 else f'{len(humans)} players'} vs {ai} AI"
    return f"{game.info.name} · {who}"


def roles_at_a_new_table(game: Game) -> list[dict[str, Any]]:
    """What each seat plays at a new table of `game` (default parameters), for the lobby: the
    game's own `seat_roles()` ("Elves + Dwarves" when a seat commands two factions, "Undead" for
    the third seat of three), coloured by the board's `seats` (by the first faction's name, else
    by index). Empty when the board names no seats: the game deals roles at the start
    (Bloodstones' factions depend on the seed, which the lobby does not know yet)."""
    board = game.static_info().get("board") or {}
    fixed = [s for s in board.get("seats") or [] if isinstance(s, dict)]
    if not fixed:
        return []
    by_index = {int(s.get("seat", -1)): s for s in fixed}
    by_name = {str(s.get("name")): s.get("colour") for s in fixed}
    out = []
    for i, role in enumerate(game.new_initial_state().seat_roles()):
        seat = by_index.get(i, {})
        name = role or str(seat.get("name", ""))
        out.append({"seat": i, "role": name, "colour": by_name.get(name.split(" + ")[0]) or seat.get("colour")})
    return out
