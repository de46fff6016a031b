"""`bloodforge lab`: the designer's lab (matchups, rule-variant A/B, sweeps, HTML reports).

Every subcommand builds an `Experiment` (the same thing a YAML config describes, see
docs/lab.md), runs it on local processes or Ray, writes the result document as JSON and prints
the summary. `lab report` turns result documents into one HTML file with plots.
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from bloodforge.core import BloodforgeError, format_validation_error
from bloodforge.lab.experiments import (
    Experiment,
    FileEdit,
    SprtSpec,
    Variant,
    load_experiment,
    run_experiment,
    write_result,
)
from bloodforge.lab.jobs import GameResult, job_key
from bloodforge.lab.levels import DEFAULT_LADDER, LevelsConfig, run_levels, seat_sentences, write_levels
from bloodforge.lab.merge import merge_runs, read_run
from bloodforge.lab.resume import count_lines, drop_torn_line, logged_games, read_for_resume
from bloodforge.lab.runner import BACKENDS

from .options import default_players, parse_params

console = Console(stderr=True)
app = typer.Typer(help="The designer's lab: matchups, rule-variant A/B, sweeps, reports.", no_args_is_help=True)

Backend = Annotated[str, typer.Option(help=f"where games run: {', '.join(BACKENDS)}")]
Workers = Annotated[int, typer.Option(help="parallel games (processes or Ray CPUs)")]
Out = Annotated[Path, typer.Option(help="result document (JSON); variant data files go beside it")]
Games = Annotated[int, typer.Option(help="games (per pair in a matchup, per variant otherwise)")]
Seed = Annotated[int, typer.Option(help="first seed; game i of a variant uses seed+i")]
Param = Annotated[list[str] | None, typer.Option(help="game parameter KEY=VALUE (repeatable)")]
Players = Annotated[int | None, typer.Option(help="number of players")]
Records = Annotated[bool, typer.Option(
    "--records", help="also keep every game's whole record (each entry, for `bloodforge replay`) in "
    "<out>.records.jsonl, one line per game in the games log's order")]
Resume = Annotated[bool, typer.Option(
    "--resume", help="go on with the run whose games log <out>.games.jsonl is there: play only the games it "
    "lacks (same settings; --games may be larger), then write the result of them all")]


def _run(exp: Experiment, out: Path, backend: str, workers: int, records: bool = False,
         resume: bool = False) -> dict[str, Any]:
    """Run with a progress bar; every finished game is also appended to `<out>.games.jsonl`
    at once (after a first line naming the experiment), so a run of hours that is stopped
    early keeps the games it finished: `--resume` goes on with it, `lab merge` pools it with
    other runs. The log of a stopped run (games its result document lacks) is never
    overwritten: without `--resume` the run is refused (the games of hours would be lost to a
    repeated command); a finished run's files are overwritten like any output.

    With `records`, each game's record goes to `<out>.records.jsonl` at the same moment: the
    games log says who won, the record lets one watch how (a lost game replayed entry by
    entry), which seeds alone cannot when the agents decide by the clock."""
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    games_log = games_log_path(out)
    records_log = records_log_path(out)
    earlier = _resumed_games(exp, games_log, records_log, records) if resume else []
    if not resume and _stopped_run(out, games_log):
        raise typer.BadParameter(
            f"{games_log} holds {logged_games(games_log)} games of a run that stopped before writing {out.name}: "
            "--resume goes on with it; to start afresh, remove it or choose another --out", param_hint="--out")
    games_log.parent.mkdir(parents=True, exist_ok=True)
    if not earlier:
        games_log.write_text(json.dumps({"experiment": exp.model_dump(mode="json")}) + "\n", encoding="utf-8")
        if records:
            records_log.write_text("", encoding="utf-8")
    with Progress(*columns, console=console) as progress, games_log.open("a", encoding="utf-8") as log, \
            (records_log.open("a", encoding="utf-8") if records else nullcontext()) as record_log:
        task: list[Any] = []

        def stage(label: str, total: int) -> None:
            task.append(progress.add_task(label, total=total))

        def advance(result: GameResult) -> None:
            log.write(result.model_dump_json(exclude={"record"}) + "\n")
            log.flush()
            if record_log is not None and result.record is not None:
                row = {**result.record, "meta": {**result.record.get("meta", {}), "index": result.index,
                                                  "tags": result.tags}}
                record_log.write(json.dumps(row, separators=(",", ":")) + "\n")
                record_log.flush()
            progress.advance(task[-1])

        try:
            doc = run_experiment(exp, work_dir=out.parent, backend=backend, workers=workers,
                                 on_result=advance, on_stage=stage, keep_records=records, resume=earlier)
        except (BloodforgeError, ValueError) as err:
            raise typer.BadParameter(str(err)) from None
        except KeyboardInterrupt:
            progress.stop()
            console.print(f"stopped: {games_log} keeps the {logged_games(games_log)} games finished; "
                          "the same command with --resume goes on with it")
            raise typer.Exit(130) from None
    write_result(doc, out)
    print_summary(doc)
    console.print(f"wrote {out} ({doc['run']['wall_seconds']} s wall)")
    return doc


def _stopped_run(out: Path, games_log: Path) -> bool:
    """Does `games_log` hold games its run never put into a result document at `out`? Those
    are the games a repeated command would lose; a finished run's log is overwritten like any
    output (its games are in the result document, which the new run replaces as well)."""
    if not logged_games(games_log):
        return False
    try:
        doc = json.loads(out.read_text(encoding="utf-8"))
        rows = [json.loads(line) for line in games_log.read_text(encoding="utf-8").splitlines()[1:] if line.strip()]
        kept = {_game_id(g) for g in doc["games"]}
        return not all(_game_id(g) in kept for g in rows)
    except (OSError, ValueError, KeyError, TypeError):  # no result document, or not one of a lab run
        return True


def _game_id(game: dict[str, Any]) -> tuple[Any, ...]:
    """A game as a run logged it: its job (`job_key`) and what was played (the digest)."""
    return *job_key(game["tags"], game["seed"]), game["digest"]


def _resumed_games(exp: Experiment, games_log: Path, records_log: Path, records: bool) -> list[GameResult]:
    """The games an earlier run logged, for `--resume`; its records log must match: one line
    per logged game when it kept records (a game logged without its record, the process
    stopped between the two lines, is played again), none when it did not."""
    if not logged_games(games_log):
        console.print(f"nothing to resume in {games_log}: starting afresh")
        return []
    try:
        if drop_torn_line(games_log):
            console.print(f"{games_log}: dropped its last line, left half written when the run stopped")
        games = read_for_resume(games_log, exp)
    except BloodforgeError as err:
        raise typer.BadParameter(str(err), param_hint="--resume") from None
    kept_records = records_log.exists()
    if records != kept_records:
        said = "kept" if kept_records else "did not keep"
        raise typer.BadParameter(f"the earlier run {said} records ({records_log}): resume "
                                 f"{'with' if kept_records else 'without'} --records, so that its records "
                                 "stay one line per game of the games log", param_hint="--records")
    if records:
        drop_torn_line(records_log)
        with_records = count_lines(records_log)  # no first line naming the experiment there
        if with_records < len(games):
            lines = games_log.read_text(encoding="utf-8").splitlines()
            games_log.write_text("\n".join(lines[:1 + with_records]) + "\n", encoding="utf-8")
            console.print(f"{len(games) - with_records} logged games had no record: they are played again")
            games = read_for_resume(games_log, exp)
        elif with_records > len(games):
            raise typer.BadParameter(f"{records_log} holds more records ({with_records}) than {games_log} games "
                                     f"({len(games)}): not the logs of one run", param_hint="--records")
    console.print(f"resuming from {games_log}: {len(games)} games played")
    return games


def games_log_path(out: Path) -> Path:
    """Where a run logs its games one JSON line each as they finish."""
    return out.with_name(out.name + ".games.jsonl")


def records_log_path(out: Path) -> Path:
    """Where a run started with `--records` keeps its games' records, one JSON line each."""
    return out.with_name(out.name + ".records.jsonl")


def _base_params(game: str, players: int | None, param: list[str] | None) -> dict[str, Any]:
    try:
        params = parse_params(param, players)
        params.setdefault("players", default_players(game))
    except BloodforgeError as err:
        raise typer.BadParameter(str(err)) from None
    return params


def _sprt(text: str | None, by_seat: bool = False) -> SprtSpec | None:
    if not text:
        if by_seat:
            raise typer.BadParameter("give the test's rates with --sprt P0,P1", param_hint="--sprt-by-seat")
        return None
    try:
        p0, p1 = (float(x) for x in text.split(","))
        return SprtSpec(p0=p0, p1=p1, by_seat=by_seat)
    except ValueError as err:
        raise typer.BadParameter(f"{text!r}: expected P0,P1 with 0 < P0 < P1 < 1 ({err})",
                                 param_hint="--sprt") from None


@app.command("run", help="Run an experiment described by a YAML or JSON config (see docs/lab.md).")
def run_command(
    config: Annotated[Path, typer.Argument(help="experiment config file")],
    out: Out = Path("lab-results/result.json"),
    backend: Backend = "process",
    workers: Workers = 1,
    games: Annotated[int | None, typer.Option(help="override the config's number of games")] = None,
    agent: Annotated[list[str] | None, typer.Option(help="override the config's agents (repeatable)")] = None,
    records: Records = False,
    resume: Resume = False,
) -> None:
    try:
        exp = load_experiment(config)
    except BloodforgeError as err:
        raise typer.BadParameter(str(err)) from None
    update: dict[str, Any] = {}
    if games is not None:
        update["games"] = games
    if agent:
        update["agents"] = agent
    _run(exp.model_copy(update=update), out, backend, workers, records, resume)


@app.command("matchup", help="Agents against each other: matrix, seat advantage, SPRT, Elo.")
def matchup_command(
    game: Annotated[str, typer.Argument(metavar="GAME")],
    agent: Annotated[list[str], typer.Option(help="agent NAME[:key=value...] (repeat, two or more)")],
    games: Games = 100,
    players: Players = None,
    param: Param = None,
    seed: Seed = 0,
    sprt: Annotated[str | None, typer.Option(help="stop early by SPRT: P0,P1, e.g. 0.5,0.75")] = None,
    sprt_by_seat: Annotated[bool, typer.Option(
        "--sprt-by-seat", help="one SPRT per seat of the first agent: it must pass from every seat")] = False,
    out: Out = Path("lab-results/matchup.json"),
    backend: Backend = "process",
    workers: Workers = 1,
    records: Records = False,
    resume: Resume = False,
) -> None:
    exp = Experiment(kind="matchup", name=f"{game} matchup", game=game, params=_base_params(game, players, param),
                     agents=agent, games=games, seed=seed, sprt=_sprt(sprt, sprt_by_seat))
    _run(exp, out, backend, workers, records, resume)


def _variant(name: str, pairs: list[str] | None) -> Variant:
    params = parse_params(pairs, None)
    return Variant(name=name, params=params)


@app.command("ab", help="Two rule variants on the same seeds (paired): which side gains, with CIs.")
def ab_command(
    game: Annotated[str, typer.Argument(metavar="GAME")],
    a: Annotated[list[str] | None, typer.Option("--a", help="variant A parameter KEY=VALUE (repeatable)")] = None,
    b: Annotated[list[str] | None, typer.Option("--b", help="variant B parameter KEY=VALUE (repeatable)")] = None,
    agents: Annotated[str, typer.Option(help="agent per seat, comma separated; one fills all")] = "greedy",
    games: Games = 100,
    players: Players = None,
    param: Param = None,
    seed: Seed = 0,
    out: Out = Path("lab-results/ab.json"),
    backend: Backend = "process",
    workers: Workers = 1,
    records: Records = False,
    resume: Resume = False,
) -> None:
    exp = Experiment(kind="variants", name=f"{game} A/B", game=game, params=_base_params(game, players, param),
                     agents=[x for x in agents.split(",") if x], games=games, seed=seed,
                     variants=[_variant("A", a), _variant("B", b)])
    _run(exp, out, backend, workers, records, resume)


@app.command("sweep", help="One parameter or one data-file value over several values, on paired seeds.")
def sweep_command(
    game: Annotated[str, typer.Argument(metavar="GAME")],
    vary: Annotated[str, typer.Option(help="KEY=V1,V2,... (a game parameter) or PATH=V1,V2,... with --file")],
    file: Annotated[
        str | None, typer.Option(help="FILE_PARAM=BASE_FILE: vary a value inside a copy of BASE_FILE")
    ] = None,
    agents: Annotated[str, typer.Option(help="agent per seat, comma separated; one fills all")] = "greedy",
    games: Games = 100,
    players: Players = None,
    param: Param = None,
    seed: Seed = 0,
    out: Out = Path("lab-results/sweep.json"),
    backend: Backend = "process",
    workers: Workers = 1,
    records: Records = False,
    resume: Resume = False,
) -> None:
    key, raw = _split_assignment(vary)
    values = [_json_or_text(v) for v in raw.split(",") if v.strip()]
    variants = []
    for v in values:
        if file is None:
            variants.append(Variant(name=f"{key}={v}", params={key.strip().replace("-", "_"): v}))
        else:
            if "=" not in file:
                raise typer.BadParameter(f"{file!r}: expected FILE_PARAM=BASE_FILE", param_hint="--file")
            fparam, base = file.split("=", 1)
            edit = FileEdit(base=str(Path(base).resolve()), set={key.strip(): v})
            variants.append(Variant(name=f"{key}={v}", files={fparam.strip(): edit}))
    exp = Experiment(kind="variants", name=f"{game} sweep {key}", game=game,
                     params=_base_params(game, players, param), agents=[x for x in agents.split(",") if x],
                     games=games, seed=seed, variants=variants)
    _run(exp, out, backend, workers, records, resume)


@app.command("levels", help="Strength levels on an Elo scale (random = 0): a ladder of agents, Bradley-Terry.")
def levels_command(
    game: Annotated[str, typer.Argument(metavar="GAME")],
    players: Players = None,
    param: Param = None,
    seed: Seed = 0,
    games_per_pair: Annotated[int, typer.Option(help="games of each pair with a searching agent")] = 8,
    cheap_games: Annotated[int, typer.Option(help="games of each pair without a searching agent")] = 40,
    rung: Annotated[list[str] | None, typer.Option(
        help="the ladder, weakest first, starting with random (repeatable; default: random, greedy 1 and 10, "
        "mcts 1, 3 and 10 with clock=cpu)")] = None,
    out: Out = Path("lab-results/levels.json"),
    levels_out: Annotated[Path | None, typer.Option(help="the game's levels file (default: beside --out; "
                                                        "shipped as src/bloodforge/agents/levels/GAME.json)")] = None,
    backend: Backend = "process",
    workers: Workers = 1,
    fit_only: Annotated[bool, typer.Option(
        "--fit-only", help="play nothing: fit the games <out>.games.jsonl holds (a run stopped early)")] = False,
    include: Annotated[list[str] | None, typer.Option(
        help="a result document of another run of this game (e.g. a published matchup): its games between two "
        "rungs are fitted too (repeatable)")] = None,
) -> None:
    """Each rung plays its neighbours only; a stopped run continues from `<out>.games.jsonl`."""
    try:
        config = LevelsConfig(game=game, params=_base_params(game, players, param), ladder=rung or list(DEFAULT_LADDER),
                              seed=seed, games_per_pair=games_per_pair, cheap_games=cheap_games,
                              include=include or [])
    except ValidationError as err:
        raise typer.BadParameter(format_validation_error(err, "the ladder")) from None
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console) as progress:
        task: list[Any] = []

        def stage(label: str, total: int) -> None:
            task.append(progress.add_task(label, total=total))

        try:
            doc, levels = run_levels(config, work_dir=out.parent, result_path=str(out), backend=backend,
                                     workers=workers, games_log=games_log_path(out),
                                     on_result=lambda _r: progress.advance(task[-1]), on_stage=stage,
                                     fit_only=fit_only)
        except (BloodforgeError, ValueError) as err:
            raise typer.BadParameter(str(err)) from None
        except KeyboardInterrupt:
            progress.stop()
            console.print(f"stopped: {games_log_path(out)} keeps the games finished; the same command goes on "
                          "with them")
            raise typer.Exit(130) from None
    write_result(doc, out)
    target = levels_out or out.with_name(out.stem + ".levels.json")
    write_levels(levels, target)
    print_summary(doc)
    t = Table(title=f"levels of {game} (Bradley-Terry Elo, random = 0; {levels.interval})")
    for col in ("agent", "level", "seconds", "Elo", "95% interval", "how", "games"):
        t.add_column(col)
    for agent, entries in levels.agents.items():
        for e in entries:
            t.add_row(agent, str(e.level), "" if e.seconds is None else f"{e.seconds:g}", f"{e.elo:+d}",
                      f"[{e.low:+d}, {e.high:+d}]", "measured" if e.measured else "interpolated", str(e.games))
    out_console = Console()
    out_console.print(t)
    # what a seat is worth, under the table as in the docs (the Elo above are for a neutral seat)
    for sentence in seat_sentences(levels):
        out_console.print(sentence, markup=False, highlight=False)
    console.print(f"wrote {out} and {target} ({doc['run']['wall_seconds']} s wall)")


@app.command("merge", help="Pool the games of several runs of one experiment (result documents or games logs).")
def merge_command(
    runs: Annotated[list[Path], typer.Argument(help="result documents (.json) or games logs (.games.jsonl)")],
    out: Out = Path("lab-results/merged.json"),
) -> None:
    try:
        doc = merge_runs([(path, *read_run(path)) for path in runs])
    except BloodforgeError as err:
        raise typer.BadParameter(str(err)) from None
    write_result(doc, out)
    print_summary(doc)
    decided = doc["run"].get("sprt_decided_after")
    if decided is not None:
        console.print(f"SPRT decided on the interleaved games after {decided} of {doc['run']['games_pooled']}")
    console.print(f"wrote {out} ({len(doc['games'])} games from {doc['run']['runs']} runs)")


@app.command("report", help="An HTML report (tables and plots) of one or more result documents.")
def report_command(
    results: Annotated[list[Path], typer.Argument(help="result documents written by the lab")],
    out: Annotated[Path, typer.Option(help="HTML file to write")] = Path("lab-results/report.html"),
    title: Annotated[str, typer.Option(help="report title")] = "bloodforge lab report",
) -> None:
    # matplotlib loads only for this command (an optional extra; slow to import)
    from bloodforge.lab.report import render_report

    docs = []
    for path in results:
        try:
            docs.append(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, json.JSONDecodeError) as err:
            raise typer.BadParameter(f"{path}: not a lab result document ({err})") from None
    try:
        page = render_report(docs, title)
    except (KeyError, TypeError) as err:
        raise typer.BadParameter(f"not a lab result document: missing {err}") from None
    except ValueError as err:
        raise typer.BadParameter(str(err)) from None
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page, encoding="utf-8")
    console.print(f"wrote {out}")


def _split_assignment(text: str) -> tuple[str, str]:
    """`PATH=VALUES` at the first `=` outside brackets (`cards[id=bolt].cost=1,2`)."""
    depth = 0
    for i, ch in enumerate(text):
        depth += {"[": 1, "]": -1}.get(ch, 0)
        if ch == "=" and depth == 0:
            return text[:i], text[i + 1 :]
    raise typer.BadParameter(f"{text!r}: expected KEY=V1,V2,...", param_hint="--vary")


def _json_or_text(raw: str) -> Any:
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw.strip()


def _seat_no(key: str | int) -> str:
    """A seat key of a result document (0-based) as people count seats (from 1)."""
    return str(int(key) + 1) if str(key).isdigit() else str(key)


def _verdict(sprt: dict[str, Any]) -> str:
    text = str(sprt["decision"] or "undecided")
    seats = sprt.get("by_seat")
    if seats:
        # seats counted from 1 in what people read (the result document keeps 0-based keys)
        text += " (" + ", ".join(f"seat {_seat_no(k)}: {v['decision'] or 'undecided'} after {v['games']}"
                                 for k, v in seats.items()) + ")"
    return text


def print_summary(doc: dict[str, Any]) -> None:
    s = doc["summary"]
    out = Console()
    if s["kind"] == "matchup":
        t = Table(title="matchup (score of A, 95% Wilson CI)")
        for col in ("A", "B", "games", "score", "95% CI", "Elo A-B", "SPRT"):
            t.add_column(col)
        for p in s["pairs"]:
            sprt = p.get("sprt")
            t.add_row(p["a"], p["b"], str(p["games"]), f"{p['rate']:.3f}", f"[{p['low']:.3f}, {p['high']:.3f}]",
                      ("+inf" if p["rate"] > 0.5 else "-inf") if p["elo"] is None else f"{p['elo']:+.0f}",
                      "" if sprt is None else _verdict(sprt))
        out.print(t)
        out.print("Bradley-Terry Elo: " + ", ".join(f"{k} {v:+.0f}" for k, v in s["elo"].items()))
        return
    t = Table(title=f"variants (paired against {s['baseline']})")
    for col in ("variant", "games", "seat win rates [95% CI]", "draws", "vs first (seat 1 return)"):
        t.add_column(col)
    for v in s["variants"]:
        seats = "; ".join(f"seat {_seat_no(k)}: {r['rate']:.3f} [{r['low']:.3f}, {r['high']:.3f}]"
                          for k, r in v["seats"].items())
        vs = v.get("vs_first", {}).get("0")
        diff = "" if vs is None else f"{vs['diff']:+.3f} [{vs['low']:+.3f}, {vs['high']:+.3f}] p={vs['p_value']:.3g}"
        t.add_row(v["name"], str(v["games"]), seats, str(v["draws"]), diff)
    out.print(t)
    names = sorted({k for v in s["variants"] for k in v.get("stats", {})})
    if names:
        st = Table(title="the game's statistics (mean per game)")
        st.add_column("statistic")
        for v in s["variants"]:
            st.add_column(v["name"])
        for k in names:
            st.add_row(k, *(f"{v.get('stats', {}).get(k, 0.0):.3g}" for v in s["variants"]))
        out.print(st)
