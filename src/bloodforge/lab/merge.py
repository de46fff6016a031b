"""Pool the games of several runs of one experiment (other seeds, other machines, a run stopped
early) into one result document.

*Why:* a strong search plays a game in minutes, so a matchup is often run as several jobs at
once on separate cores or machines, or cut short by the end of a session; the designer wants
one answer from all of them. The runs' games are interleaved (first game of each run, then the
second of each, ...) and an SPRT is decided on that ordered sequence exactly as a single run
decides it (on the ordered prefix, never on whichever games finished first, which would favour
short games), so pooling never changes what the test may conclude.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bloodforge.core import format_validation_error

from .experiments import Experiment, ExperimentError, sprt_stop, summarise
from .jobs import GameResult


def read_run(path: Path) -> tuple[Experiment, list[GameResult]]:
    """A result document (JSON) or a run's games log (`<out>.games.jsonl`: a first line with
    the experiment, then one game per line, as `lab` writes while it runs)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise ExperimentError(f"{path}: cannot read ({err.strerror})") from None
    try:
        if path.name.endswith(".jsonl"):
            lines = [json.loads(line) for line in text.splitlines() if line.strip()]
            if not lines or "experiment" not in lines[0]:
                raise ExperimentError(f"{path}: the first line must name the experiment "
                                      '({"experiment": {...}}), as lab writes it')
            exp_data, game_rows = lines[0]["experiment"], lines[1:]
        else:
            doc = json.loads(text)
            if not isinstance(doc, dict) or "experiment" not in doc or "games" not in doc:
                raise ExperimentError(f"{path}: not a lab result document (no 'experiment' and 'games')")
            exp_data, game_rows = doc["experiment"], doc["games"]
        exp = Experiment.model_validate(exp_data)
        games = [GameResult.model_validate(row) for row in game_rows]
    except json.JSONDecodeError as err:
        raise ExperimentError(f"{path}: not JSON (line {err.lineno}: {err.msg})") from None
    except ValidationError as err:
        raise ExperimentError(format_validation_error(err, str(path))) from None
    return exp, sorted(games, key=lambda g: g.index)


def _same_experiment(first: Experiment, other: Experiment) -> list[str]:
    """The fields in which two runs differ so that pooling them would mix two experiments."""
    keys = ("kind", "game", "params", "agents", "variants", "max_plies")
    return [k for k in keys if getattr(first, k) != getattr(other, k)]


def merge_runs(runs: Sequence[tuple[Path, Experiment, list[GameResult]]]) -> dict[str, Any]:
    """One result document from several runs of the same experiment; see the module docstring."""
    if not runs:
        raise ExperimentError("nothing to merge: name at least one result document or games log")
    first_path, exp, _ = runs[0]
    seen: dict[tuple[Any, ...], Path] = {}
    for path, other, games in runs:
        differ = _same_experiment(exp, other)
        if differ:
            raise ExperimentError(f"{path} is another experiment than {first_path} (differs in {', '.join(differ)})")
        for g in games:
            key = (g.seed, json.dumps(g.tags, sort_keys=True))
            if key in seen:
                raise ExperimentError(f"{path}: game seed {g.seed} {g.tags} is already in {seen[key]}; "
                                      "pool runs with different seeds")
            seen[key] = path
    pooled: list[GameResult] = []
    longest = max(len(games) for _, _, games in runs)
    for i in range(longest):
        for _, _, games in runs:
            if i < len(games):
                pooled.append(games[i].model_copy(update={"index": len(pooled)}))
    merged: dict[str, Any] = {}
    if exp.sprt is not None and exp.kind == "matchup" and len(exp.agents) == 2 and pooled:
        stop, decision = sprt_stop(exp.sprt, pooled)
        merged = {"games_pooled": len(pooled), "sprt_decided_after": stop if decision is not None else None}
        pooled = pooled[:stop]
    return {
        "experiment": exp.model_dump(mode="json"),
        "summary": summarise(exp, pooled),
        "games": [g.model_dump(mode="json", exclude={"record"}) for g in pooled],
        "run": {"merged_from": [str(p) for p, _, _ in runs], "runs": len(runs),
                "game_seconds": round(sum(g.seconds for g in pooled), 2), **merged},
    }
