"""Strength levels that mean something: the lobby's levels 1-10 on a measured Elo scale.

`bloodforge lab levels GAME` plays a *ladder* of agents, each rung only against its neighbours
(random - greedy 1 - greedy 10 - search 1 - search 3 - search 10 by default), fits Bradley-Terry
ratings to all the games with the random player anchored at Elo 0, and writes

* the lab's result document (every game with its seed, agents, returns and digest, the matchup
  summary of the pairs played, and the levels), as a matchup writes it, and
* the game's levels file (`agents/levels/<game>.json`, `bloodforge.agents.levels.GameLevels`),
  which the server ships to the lobby.

*Why a ladder and not a round robin:* a game with the search at one second a decision costs a
CPU minute or more; a round robin of six rungs is fifteen pairs, a ladder five, and each rung is
compared with the rungs nearest to it, where a game says most about the difference (a pair
that one side sweeps only bounds it). *Why interpolation:* the lobby has ten levels per agent and
measuring each would cost ten times as much; the levels between two measured ones are
interpolated (the search linearly in the logarithm of its seconds per decision, since its
strength grows with each doubling of time rather than each added tenth of a second; greedy
linearly in the level, since its share of random moves is linear in it), marked as such in the
file and on screen. A level outside the measured range gets no number.

Intervals: a bootstrap over seeds (each pair's seeds drawn with replacement, both seat-swapped
games of a seed together, `bootstrap` times; the ratings refitted and anchored each time), 95%
percentile intervals. *Why the bootstrap:* on a chain the uncertainties add up along the way
from random to each rung, which the bootstrap gives without the asymptotics of the Fisher
information (poor for pairs near a sweep, common here).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

import bloodforge
from bloodforge.agents.levels import SEARCH_AGENT, GameLevels, LevelEntry, PairRecord, SeatAdvantage
from bloodforge.agents.mcts import STRENGTH_SECONDS
from bloodforge.buildinfo import build_info

from .experiments import Experiment, ExperimentError, check_experiment, matchup_jobs, summarise_matchup
from .jobs import AgentSpec, GameResult, Job
from .runner import OnResult, run_jobs
from .stats import Cell, SeatedFit, bradley_terry, bradley_terry_seated

#: The default ladder, weakest first: each rung plays its neighbours.
DEFAULT_LADDER = (
    "random",
    "greedy:strength=1",
    "greedy:strength=10",
    "mcts:strength=1:clock=cpu",
    "mcts:strength=3:clock=cpu",
    "mcts:strength=10:clock=cpu",
)

#: The agent every rating is measured from (Elo 0).
ANCHOR = "random"

#: Agents whose levels are search time: interpolated in log seconds; others linearly in the level.
SEARCH_AGENTS = ("mcts",)

#: Bootstrap resamples for the intervals.
BOOTSTRAP = 400


class LevelsConfig(BaseModel):
    """A levels run: the ladder, who plays whom, and how many games each pair plays."""

    model_config = ConfigDict(extra="forbid")

    game: str
    params: dict[str, Any] = Field(default_factory=dict)
    ladder: list[str] = Field(default_factory=lambda: list(DEFAULT_LADDER))
    seed: int = 0
    games_per_pair: int = Field(8, ge=1, description="games of every pair with a searching agent")
    cheap_games: int = Field(40, ge=1, description="games of every pair without a searching agent (cheap)")
    bootstrap: int = Field(BOOTSTRAP, ge=50)
    max_plies: int = Field(200_000, ge=1)
    include: list[str] = Field(default_factory=list, description=(
        "result documents of other lab runs of this game (e.g. a published matchup) whose games between two "
        "rungs are fitted too"))

    @model_validator(mode="after")
    def _ladder(self) -> LevelsConfig:
        if len(self.ladder) < 2:
            raise ValueError("a ladder needs at least two rungs")
        specs = [AgentSpec.parse(a) for a in self.ladder]
        if specs[0].name != ANCHOR or specs[0].options:
            raise ValueError(f"the ladder starts with {ANCHOR!r} (the anchor, Elo 0)")
        keys = [rung_key(s) for s in specs]
        if len(set(keys)) != len(keys):
            raise ValueError(f"every rung must be a different agent or level: {self.ladder}")
        return self

    @property
    def players(self) -> int:
        return int(self.params.get("players", 2))

    def specs(self) -> list[AgentSpec]:
        return [AgentSpec.parse(a) for a in self.ladder]

    def pairs(self) -> list[tuple[int, int]]:
        """Neighbours on the ladder: (0, 1), (1, 2), ..."""
        return [(i, i + 1) for i in range(len(self.ladder) - 1)]

    def games_of(self, a: int, b: int) -> int:
        specs = self.specs()
        searching = any(specs[i].name in SEARCH_AGENTS for i in (a, b))
        return self.games_per_pair if searching else self.cheap_games

    def command(self) -> str:
        """The command line that reproduces this run (output paths left out)."""
        parts = ["bloodforge lab levels", self.game]
        if "players" in self.params:
            parts.append(f"--players {self.params['players']}")
        for key, value in sorted(self.params.items()):
            if key != "players":
                parts.append(f"--param {key}={json.dumps(value)}")
        parts += [f"--seed {self.seed}", f"--games-per-pair {self.games_per_pair}", f"--cheap-games {self.cheap_games}"]
        if self.ladder != list(DEFAULT_LADDER):
            parts += [f"--rung {r}" for r in self.ladder]
        parts += [f"--include {path}" for path in self.include]
        return " ".join(parts)


def rung_key(spec: AgentSpec) -> tuple[str, int | None]:
    """(agent, level) of a rung: the level is the `strength` option (greedy's default is 10).

    A greedy rung with `blunder` is a bridge, not a lobby level (level None): it joins random to
    greedy 1 in games random never wins against greedy 1, so the levels above get a finite Elo.
    So is greedy with an option of the game's policy (the arena's `shy`), and a search rung with
    `iterations` (and no `strength`): bridges between greedy and the search's level 1 where greedy
    wins none of its games against level 1 (the two-player arena, 2026-11-28: greedy 10 won 0
    of 64 against the search, which plays the policy's `shy` as one root option; greedy with
    `shy` won 13 of 16 against greedy 10 and 4 of 8 against search level 1)."""
    if spec.name == ANCHOR:
        return spec.name, None
    if spec.name == "greedy" and set(spec.options) - {"strength"}:
        return spec.label, None
    if spec.name in SEARCH_AGENTS and "iterations" in spec.options and "strength" not in spec.options:
        return spec.label, None
    strength = spec.options.get("strength", 10 if spec.name == "greedy" else None)
    if not isinstance(strength, int) or isinstance(strength, bool) or not 1 <= strength <= 10:
        raise ValueError(f"rung {spec.label!r}: give its level as strength=1..10")
    return spec.name, strength


def same_agent(spec: AgentSpec) -> tuple[str, str]:
    """What an agent plays like, whatever it was called: the search's `strength=k` is
    `seconds=0.1k`, greedy's missing strength is 10. Two specs with the same value are one rung."""
    options = dict(spec.options)
    if spec.name in SEARCH_AGENTS and "strength" in options:
        options["seconds"] = STRENGTH_SECONDS * int(options.pop("strength"))
    if "seconds" in options:
        options["seconds"] = round(float(options["seconds"]), 6)
    if spec.name == "greedy":
        options.setdefault("strength", 10)
    return spec.name, json.dumps(options, sort_keys=True)


#: A game of another run: (its document, rung a, rung b, seed, a's score against b, a's seat sign).
Included = tuple[str, int, int, int, float, int]


def pairwise(returns: Sequence[float], seat: int) -> tuple[float, int]:
    """The score of the agent in `seat` against the other side, and its seat sign for the fit
    (+1 seat 1, -1 seat 0 of a two-player game; 0 with more seats, where the seat is not fitted).

    Two players: the share of the two returns, half each when neither scored. *Why:* in the
    arena a third party (the Boss) can win, both players returning 0; such a game says neither
    beat the other, a draw between the two, not a win of whichever rung is called the second
    (the count before 2026-11-26, which gave the weaker rung of a pair every Boss win as a loss).
    More seats (one agent against the others): its return, as a matchup scores it."""
    if len(returns) != 2:
        return float(returns[seat]), 0
    mine, theirs = float(returns[seat]), float(returns[1 - seat])
    total = mine + theirs
    return (mine / total if total > 0 else 0.5), (1 if seat == 1 else -1)


def included_games(config: LevelsConfig, docs: Sequence[tuple[str, dict[str, Any]]],
                   played: Iterable[tuple[int, str]] = ()) -> list[Included]:
    """The games of other lab result documents played between exactly two rungs of the ladder
    (one seat against the rest), as that pair's games. A document of another game or other
    parameters is refused: its Elo would be on another scale.

    A game already counted (the same seed and record digest as one of `played`, the run's own
    games, or of an earlier document) is counted once. *Why:* a second run of a ladder on the
    same seeds replays its pairs without a searching agent move for move (the arena's run at 32
    games a pair repeated the 80 greedy games of the run at 16); counting them twice would
    halve their intervals for nothing. Search games on the same seeds differ (the search stops
    on CPU time) and count, each run's in bootstrap groups of its own."""
    rungs = {same_agent(s): i for i, s in enumerate(config.specs())}
    seen = set(played)
    out: list[Included] = []
    for path, doc in docs:
        exp = doc.get("experiment", {})
        if exp.get("game") != config.game or exp.get("params", {}) != config.params:
            raise ExperimentError(f"{path}: a run of {exp.get('game')!r} with {exp.get('params')}, "
                                  f"not of {config.game!r} with {config.params}")
        for g in doc.get("games", []):
            try:
                seats = [rungs.get(same_agent(AgentSpec.parse(label))) for label in g["agents"]]
            except ValueError:
                continue
            if None in seats or len(set(seats)) != 2:
                continue
            digest = g.get("digest")
            if digest is not None:
                if (int(g["seed"]), digest) in seen:
                    continue
                seen.add((int(g["seed"]), digest))
            a, b = sorted({s for s in seats if s is not None})
            alone = [seat for seat, r in enumerate(seats) if seats.count(r) == 1]
            if not alone:
                continue
            seat = alone[0]
            if len(seats) == 2:
                seat = seats.index(a)
                score, sign = pairwise(g["returns"], seat)
            else:
                score, sign = float(g["returns"][seat]), 0
                if seats[seat] != a:
                    score = 1.0 - score
            out.append((path, a, b, int(g["seed"]), score, sign))
    return out


# -- the jobs ---------------------------------------------------------------------------------------
def levels_jobs(config: LevelsConfig) -> list[Job]:
    """Every pair's games, on the same seeds, each rung of a pair in every seat in turn; tags
    name the rungs by their ladder index, as a matchup of the whole ladder would.

    Order: the pairs without a searching agent first (seconds in all), then the search pairs
    seed by seed, interleaved (seed 1 of every pair, then seed 2, ...). *Why:* a run stopped
    for lack of CPU time still has games of every pair, so every level gets a number, only a
    less certain one, instead of the strongest levels none."""
    specs = config.specs()
    found: list[tuple[tuple[int, int, int, int], Job]] = []
    for p, (a, b) in enumerate(config.pairs()):
        exp = Experiment(kind="matchup", game=config.game, params=config.params, agents=[config.ladder[a],
                         config.ladder[b]], games=config.games_of(a, b), seed=config.seed,
                         max_plies=config.max_plies)
        searching = int(any(specs[i].name in SEARCH_AGENTS for i in (a, b)))
        for job in matchup_jobs(exp, 0, 1, [specs[a], specs[b]]):
            order = (searching, job.seed if searching else 0, p, job.index)
            found.append((order, job.model_copy(update={"tags": {**job.tags, "pair": [a, b]}})))
    found.sort(key=lambda x: x[0])
    return [job.model_copy(update={"index": i}) for i, (_, job) in enumerate(found)]


def ladder_experiment(config: LevelsConfig) -> Experiment:
    """The run as a matchup experiment of the whole ladder (what the summary and `lab report`
    read); `games` is the search pairs' count."""
    return Experiment(kind="matchup", name=f"{config.game} levels", game=config.game, params=config.params,
                      agents=config.ladder, games=config.games_per_pair, seed=config.seed,
                      max_plies=config.max_plies,
                      description="strength ladder: each rung against its neighbours only (bloodforge lab levels)")


# -- the fit ----------------------------------------------------------------------------------------
#: One game of a pair: the first rung's score against the second and its seat sign (`pairwise`).
Obs = tuple[float, int]

#: Per pair, per seed group ("<document>#<seed>"): the first rung's games in those games.
BySeed = dict[tuple[int, int], dict[str, list[Obs]]]


def pair_scores(results: Sequence[GameResult], included: Sequence[Included] = ()) -> BySeed:
    """Per pair, per seed: the first rung's score and seat in that seed's games (all seats);
    games of other runs in groups of their own (their document and seed)."""
    out: BySeed = defaultdict(lambda: defaultdict(list))
    for r in results:
        a, b = r.tags["pair"]
        out[(a, b)][f"#{r.seed:012d}"].append(pairwise(r.returns, int(r.tags["a_seat"])))
    for path, a, b, seed, score, sign in included:
        out[(a, b)][f"{path}#{seed:012d}"].append((score, sign))
    return out


def order_chains(specs: Sequence[AgentSpec]) -> list[list[int]]:
    """The rungs the fit keeps in order, weakest first, one list per agent family: greedy by
    its share of random moves (random is greedy moving at random every time, the bridges'
    `blunder`, `strength` k is (10 - k)/18), the search by its budget per decision (seconds, or
    iterations) with all other options alike. *Why:* a ruling (docs/lab.md, "Strength levels"):
    more thinking time or fewer random moves do not make the same AI weaker, a prior every player
    shares; without it a few noisy games show a level 1 stronger than a level 10."""
    families: dict[str, list[tuple[float, int]]] = defaultdict(list)
    for i, spec in enumerate(specs):
        options = dict(spec.options)
        if spec.name == ANCHOR and not options:
            families["greedy {}"].append((-1.0, i))
        elif spec.name == "greedy":
            strength = int(options.pop("strength", 10))
            share = options.pop("blunder", (10 - strength) / 18)
            families[f"greedy {json.dumps(options, sort_keys=True)}"].append((-float(share), i))
        elif spec.name in SEARCH_AGENTS:
            strength = options.pop("strength", None)
            if "seconds" in options or ("iterations" not in options and strength is not None):
                budget, value = "seconds", float(options.pop("seconds", STRENGTH_SECONDS * int(strength or 0)))
            elif "iterations" in options:
                budget, value = "iterations", float(options.pop("iterations"))
            else:
                continue
            families[f"{spec.name} {budget} {json.dumps(options, sort_keys=True)}"].append((value, i))
    return [[i for _, i in sorted(members)] for members in families.values() if len(members) > 1]


def seated_cells(scores: Mapping[tuple[int, int], Sequence[Obs]]) -> dict[Cell, tuple[float, float]]:
    """(a, b, a's seat sign) -> (a's score, games) of every pair's games."""
    cells: dict[Cell, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for (a, b), games in scores.items():
        for score, sign in games:
            cell = cells[(a, b, sign)]
            cell[0] += score
            cell[1] += 1.0
    return {key: (v[0], v[1]) for key, v in cells.items()}


def seated_fit(k: int, scores: Mapping[tuple[int, int], Sequence[Obs]], chains: Sequence[Sequence[int]] = (),
               seat_groups: Mapping[tuple[int, int], int] | None = None) -> SeatedFit:
    """Bradley-Terry with seat terms and the families' order (`stats.bradley_terry_seated`,
    half a virtual draw per pair that met), random (rung 0) at exactly 0."""
    return bradley_terry_seated(k, seated_cells(scores), chains=chains, anchor=0, seat_groups=seat_groups)


#: What each seat term of the fit is for (`seat_classes`).
SEAT_CLASSES = ("pairs with at most one searching agent", "two searching agents")


def seat_classes(specs: Sequence[AgentSpec],
                 scores: Mapping[tuple[int, int], Sequence[float]]) -> dict[tuple[int, int], int]:
    """Each pair's seat term: 1 for two searching agents, 0 for the others; none (one term for
    all) when no pair of two searching agents has games both sides scored in (a sweep says
    nothing about the seat, and a term fitted to virtual draws alone would look exact).

    *Why two:* between two searching agents the seat weighs far more than in the other pairs
    (Blood Stone: seat 1 scored 9.5 of 12 between search levels, 35 of the run's 86 other
    games; the arena: 12 of 15 against 42.5 of 88); one term for all is dominated by the many
    cheap games and misses it (likelihood ratio of the two-term fit 5.1 and 5.2 on one degree
    of freedom, p ~ 0.02, in each game)."""
    return {(a, b): 1 for (a, b), s in scores.items()
            if specs[a].name in SEARCH_AGENTS and specs[b].name in SEARCH_AGENTS and 0 < sum(s) < len(s)}


def anchored_ratings(wins: Sequence[Sequence[float]], anchor: int = 0) -> list[float]:
    """The plain Bradley-Terry Elo (`stats.bradley_terry`: no seat term, no order, half a
    virtual draw per pair that met) shifted so that rung `anchor` is exactly 0: the fit before
    2026-11-26, kept in the result document beside the seated one for comparison."""
    ratings = bradley_terry(wins)
    return [r - ratings[anchor] for r in ratings]


def wins_matrix(k: int, scores: Mapping[tuple[int, int], Sequence[float]]) -> list[list[float]]:
    """`wins[i][j]`: i's score against j, from each pair's list of the first rung's scores."""
    wins = [[0.0] * k for _ in range(k)]
    for (a, b), s in scores.items():
        wins[a][b] += sum(s)
        wins[b][a] += len(s) - sum(s)
    return wins


Interval = tuple[float, float, float]


@dataclass(frozen=True)
class LadderFit:
    """The ladder's fit: every rung's Elo at a neutral seat with its interval, the seat terms
    (`SEAT_CLASSES`, one or two) with their intervals, the rungs the order constraint pooled,
    and the plain fit for comparison."""

    ratings: list[Interval]
    seats: list[Interval]
    pooled: list[list[int]]
    plain: list[float]
    #: Per rung, the share of bootstrap refits in which the order constraint pooled it with a neighbour.
    pooled_share: list[float]

    @property
    def seat(self) -> Interval:
        """The first seat term (all pairs', or those with at most one searching agent)."""
        return self.seats[0]


def fit_with_intervals(k: int, by_seed: BySeed, reps: int, seed: int, chains: Sequence[Sequence[int]] = (),
                       seat_groups: Mapping[tuple[int, int], int] | None = None) -> LadderFit:
    """(Elo, low, high) of every rung and of each seat term: the fit on all games and the 95%
    percentile interval of `reps` refits on seeds drawn with replacement within each pair (a
    seed's seat-swapped games stay together), each refit under the same order constraint.
    Deterministic for a given `seed`."""
    flat = {p: [x for games in seeds.values() for x in games] for p, seeds in by_seed.items()}
    point = seated_fit(k, flat, chains, seat_groups)
    plain = anchored_ratings(wins_matrix(k, {p: [x for x, _ in g] for p, g in flat.items()}))
    rng = random.Random(seed)
    samples: list[list[float]] = [[] for _ in range(k + len(point.seats))]
    pooled_count = [0] * k
    groups = {p: [seeds[s] for s in sorted(seeds)] for p, seeds in by_seed.items()}
    for _ in range(reps):
        drawn = {p: [x for _ in g for x in g[rng.randrange(len(g))]] for p, g in groups.items()}
        fit = seated_fit(k, drawn, chains, seat_groups)
        for i, r in enumerate([*fit.ratings, *fit.seats]):
            samples[i].append(r)
        for group in fit.pooled:
            for i in group:
                pooled_count[i] += 1
    out = []
    for i, value in enumerate([*point.ratings, *point.seats]):
        s = sorted(samples[i])
        low, high = _percentile(s, 0.025), _percentile(s, 0.975)
        out.append((value, min(low, value), max(high, value)))
    return LadderFit(ratings=out[:k], seats=out[k:], pooled=point.pooled, plain=plain,
                     pooled_share=[c / reps for c in pooled_count])


def _percentile(sorted_values: Sequence[float], q: float) -> float:
    if not sorted_values:
        return math.nan
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (pos - lo) * (sorted_values[hi] - sorted_values[lo])


# -- levels ------------------------------------------------------------------------------------------
def _axis(agent: str, level: int) -> float:
    return math.log(level) if agent in SEARCH_AGENTS else float(level)


def level_table(agent: str, measured: dict[int, tuple[float, float, float, int]],
                pooled: Mapping[int, Sequence[int]] | None = None) -> list[LevelEntry]:
    """Every level of `agent` from its measured ones: those measured as they are, each level
    between two measured ones interpolated (Elo and both interval ends) on the agent's axis,
    none outside the measured range (no extrapolation). `pooled`: per measured level, the other
    measured levels the order constraint gave the same Elo (the data would have reversed them)."""

    def seconds(level: int) -> float | None:
        return round(STRENGTH_SECONDS * level, 3) if agent in SEARCH_AGENTS else None

    known = sorted(measured)
    out = []
    for level in range(known[0], known[-1] + 1):
        if level in measured:
            elo, low, high, games = measured[level]
            out.append(LevelEntry(level=level, seconds=seconds(level), elo=round(elo), low=round(low),
                                  high=round(high), measured=True, games=games,
                                  pooled_with=sorted((pooled or {}).get(level, ()))))
            continue
        below = max(x for x in known if x < level)
        above = min(x for x in known if x > level)
        t = (_axis(agent, level) - _axis(agent, below)) / (_axis(agent, above) - _axis(agent, below))
        lo_v, hi_v = measured[below], measured[above]
        vals = [lo_v[i] + t * (hi_v[i] - lo_v[i]) for i in range(3)]
        out.append(LevelEntry(level=level, seconds=seconds(level), elo=round(vals[0]), low=round(vals[1]),
                              high=round(vals[2]), measured=False, games=0))
    return out


def rated_rungs(scores: Mapping[tuple[int, int], Sequence[float]]) -> set[int]:
    """The rungs with a finite Elo: those joined to the anchor (rung 0) by pairs that neither
    side swept. *Why:* a pair one side won every game of says only that the gap is large; the
    fit's finite number for it comes from its half virtual draw, not from the games, and every
    resample sweeps too, so the bootstrap interval would look exact. A rung reached from random
    only across a sweep gets no number (the lobby shows its level alone)."""
    linked: dict[int, set[int]] = defaultdict(set)
    for (a, b), s in scores.items():
        if s and 0 < sum(s) < len(s):
            linked[a].add(b)
            linked[b].add(a)
    seen = {0}
    todo = [0]
    while todo:
        for other in linked[todo.pop()] - seen:
            seen.add(other)
            todo.append(other)
    return seen - {0}


def ladder_fit(config: LevelsConfig, results: Sequence[GameResult],
               included: Sequence[Included] = ()) -> tuple[BySeed, LadderFit]:
    """The run's games (and those `included` from other runs) by pair and seed, and their fit
    with the seat terms (`seat_classes`) and every family's order (`order_chains`)."""
    by_seed = pair_scores(results, included)
    if not by_seed:
        raise ExperimentError("no games were played: nothing to fit")
    specs = config.specs()
    return by_seed, fit_with_intervals(len(specs), by_seed, config.bootstrap, config.seed, order_chains(specs),
                                       seat_classes(specs, {pair: [x for g in seeds.values() for x, _ in g]
                                                            for pair, seeds in by_seed.items()}))


#: How the levels are fitted, in words (the levels file's `model`).
MODEL = ("Bradley-Terry by maximum likelihood with a seat term (Elo at a neutral seat; two-player games: "
         "logistic(strength difference + seat 1's advantage), one advantage between two searching agents and one "
         "for the other pairs), half a virtual draw per pair that met; the levels "
         "of one AI kept in order (a higher level is not weaker), levels the games would reverse share one Elo")


def levels_of(config: LevelsConfig, results: Sequence[GameResult], result_path: str,
              date: str | None = None, planned: int | None = None,
              included: Sequence[Included] = (), fit: tuple[BySeed, LadderFit] | None = None) -> GameLevels:
    """The game's levels file from the run's games and those `included` from other runs
    (`planned`: the games the config asks for; fewer were played when the run was stopped and
    fitted as it was, which the command says; `fit`: `ladder_fit` of the same games, if done)."""
    specs = config.specs()
    k = len(specs)
    by_seed, fitted = fit or ladder_fit(config, results, included)
    games_of_rung = [0] * k
    pairs = []
    sources: dict[tuple[str | None, int, int], list[float]] = defaultdict(list)
    for (a, b), seeds in by_seed.items():
        for group, games in seeds.items():
            source = group.rsplit("#", 1)[0] or None
            sources[(source, a, b)] += [score for score, _ in games]
    for (source, a, b), scores in sorted(sources.items(), key=lambda x: (x[0][0] or "", x[0][1], x[0][2])):
        games_of_rung[a] += len(scores)
        games_of_rung[b] += len(scores)
        pairs.append(PairRecord(a=config.ladder[a], b=config.ladder[b], games=len(scores),
                                score=round(sum(scores), 6), result=source))
    rated = rated_rungs({pair: [x for g in seeds.values() for x, _ in g] for pair, seeds in by_seed.items()})
    measured: dict[str, dict[int, tuple[float, float, float, int]]] = defaultdict(dict)
    level_of = {i: rung_key(spec) for i, spec in enumerate(specs)}
    pooled: dict[str, dict[int, list[int]]] = defaultdict(dict)
    for tied in fitted.pooled:
        for i in tied:
            agent, level = level_of[i]
            if level is not None and i in rated:
                pooled[agent][level] = [other for j in tied if j != i and j in rated
                                        for name, other in [level_of[j]] if name == agent and other is not None]
    for i, (agent, level) in enumerate(level_of.values()):
        if level is not None and i in rated:
            measured[agent][level] = (*fitted.ratings[i], games_of_rung[i])
    return GameLevels(
        game=config.game, players=config.players,
        interval=f"95% percentile bootstrap over seeds ({config.bootstrap} resamples; each pair's seeds drawn "
                 "with replacement, a seed's seat-swapped games together, each refit under the same order)",
        interpolation="levels between two measured ones: the search linearly in log seconds per decision, "
                      "greedy linearly in the level; none outside the measured range",
        command=config.command() + ("" if planned is None or len(results) >= planned
                                    else f" (stopped after {len(results)} of {planned} games, then --fit-only)"),
        date=date or datetime.now(UTC).strftime("%Y-%m-%d"), seed=config.seed,
        games=sum(p.games for p in pairs), result=result_path, pairs=pairs,
        agents={agent: level_table(agent, m, pooled.get(agent)) for agent, m in measured.items()},
        model=MODEL,
        seats=[SeatAdvantage(between=between, elo=round(elo), low=round(low), high=round(high))
               for between, (elo, low, high) in zip(_seat_names(fitted), fitted.seats, strict=True)]
        if config.players == 2 else [],
        search=search_settings(config),
    )


#: Options of a search rung that say how long it searches (its level), not how.
_BUDGET_OPTIONS = frozenset({"strength", "seconds", "iterations", "clock"})


def search_settings(config: LevelsConfig) -> dict[str, Any] | None:
    """The settings the ladder's search rungs play with: the game's `search_options()` now, with
    the options a rung gives itself (other than its time budget) on top; None without a search
    rung. *Why:* the levels file keeps them so that the lobby drops the search's Elo once the
    game's settings change (`agents.levels.for_play`). They are the settings of the code that
    writes the file: a `--fit-only` of games played before a change of the game's settings
    would name the new ones, so such games are refitted only together with new games."""
    rungs = [s for s in config.specs() if s.name == SEARCH_AGENT]
    if not rungs:
        return None
    own = bloodforge.load_game(config.game, **config.params).search_options()
    found = [{**own, **{k: v for k, v in s.options.items() if k not in _BUDGET_OPTIONS}} for s in rungs]
    if any(f != found[0] for f in found):
        raise ExperimentError(f"the search rungs play with different settings ({found}): the lobby's levels "
                              "of one AI differ only in time")
    return found[0]


def _seat_names(fitted: LadderFit) -> tuple[str, ...]:
    return ("all pairs",) if len(fitted.seats) == 1 else SEAT_CLASSES


def fit_document(config: LevelsConfig, by_seed: BySeed, fitted: LadderFit) -> dict[str, Any]:
    """Every rung's fit for the result document, bridges included: Elo at a neutral seat with its
    interval, the plain fit (no seat term, no order) beside it, and how often the bootstrap
    pooled it with a neighbour; the seat term, the pooled rungs, and per pair the first rung's
    score in each seat (the fit has one seat term for all pairs: this shows where it differs)."""
    cells = seated_cells({pair: [x for g in seeds.values() for x in g] for pair, seeds in by_seed.items()})
    by_seat = [{"a": config.ladder[a], "b": config.ladder[b], "a_seat": {-1: 0, 1: 1}.get(sign),
                "a_score": round(score, 6), "games": int(games)}
               for (a, b, sign), (score, games) in sorted(cells.items())]
    return {
        "model": MODEL,
        "seats": [{"between": between, "elo": round(elo, 1), "low": round(low, 1), "high": round(high, 1),
                   "meaning": "Elo of seat 1 over seat 0 between two equal agents"}
                  for between, (elo, low, high) in zip(_seat_names(fitted), fitted.seats, strict=True)],
        "pooled": [[config.ladder[i] for i in group] for group in fitted.pooled],
        "rungs": [{"rung": label, "elo": round(elo, 1), "low": round(low, 1), "high": round(high, 1),
                   "plain_elo": round(plain, 1), "pooled_in_resamples": round(share, 3)}
                  for label, (elo, low, high), plain, share in zip(config.ladder, fitted.ratings, fitted.plain,
                                                                   fitted.pooled_share, strict=True)],
        "pairs_by_seat": by_seat,
    }


# -- running ----------------------------------------------------------------------------------------
def _key(seed: int, agents: Sequence[str]) -> str:
    """A ladder game by what was played: the seed and the agent in each seat (which names the
    pair and the seat without the rungs' positions, so a rung put into the ladder keeps the
    games of the pairs it leaves as they were)."""
    return json.dumps([seed, list(agents)])


def read_games_log(path: Path, config: LevelsConfig) -> dict[str, GameResult]:
    """Games a previous run of the ladder finished (its games log), by what was played (seed and
    the agent in each seat); an absent log or one of another game, parameters, seed or length
    limit gives none. *Why:* at a CPU minute a game, a run that was stopped continues where it
    was, a run with more games per pair keeps the games of a smaller one (the same seeds come
    first), and a ladder with a rung put in (a bridge) keeps the games of its other pairs."""
    if not path.is_file():
        return {}
    lines = path.read_text(encoding="utf-8").splitlines()
    same = ("game", "params", "seed", "max_plies")
    old = json.loads(lines[0]).get("levels") if lines else None
    if not isinstance(old, dict) or any(old.get(k) != getattr(config, k) for k in same):
        return {}
    done = {}
    for line in lines[1:]:
        try:
            r = GameResult.model_validate_json(line)
        except ValueError:
            continue  # a line cut short when the run was stopped
        done[_key(r.seed, r.agents)] = r
    return done


def run_levels(config: LevelsConfig, *, work_dir: Path, result_path: str, backend: str = "process",
               workers: int = 1, games_log: Path | None = None, on_result: OnResult | None = None,
               on_stage: Callable[[str, int], None] | None = None,
               fit_only: bool = False) -> tuple[dict[str, Any], GameLevels]:
    """Play the ladder (continuing from `games_log` when it holds games of this config) and
    return the result document and the levels. `fit_only`: play nothing, fit the games the log
    holds (a run stopped for lack of CPU time; the games are interleaved so every pair has some)."""
    exp = ladder_experiment(config)
    check_experiment(exp, work_dir)
    jobs = levels_jobs(config)
    logged = read_games_log(games_log, config) if games_log is not None else {}
    done: dict[int, GameResult] = {}
    for job in jobs:
        old = logged.get(_key(job.seed, [s.label for s in job.agents]))
        if old is not None:
            done[job.index] = old.model_copy(update={"index": job.index, "tags": job.tags})
    if games_log is not None:
        games_log.parent.mkdir(parents=True, exist_ok=True)
        header = {"experiment": exp.model_dump(mode="json"), "levels": config.model_dump(mode="json")}
        lines = [json.dumps(header)] + [done[i].model_dump_json(exclude={"record"}) for i in sorted(done)]
        games_log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    start = time.perf_counter()
    results = dict(done)
    todo = [] if fit_only else [j for j in jobs if j.index not in results]
    if on_stage is not None:
        on_stage(f"{config.game} ladder ({len(results)} games already played)", len(todo))
    for r in run_jobs(todo, backend=backend, workers=workers, on_result=_logger(games_log, on_result)):
        results[r.index] = r
    ordered = [results[i] for i in sorted(results)]
    included = included_games(config, [(path, _read_doc(path)) for path in config.include],
                              played=[(r.seed, r.digest) for r in ordered])
    fit = ladder_fit(config, ordered, included)
    levels = levels_of(config, ordered, result_path, planned=len(jobs), included=included, fit=fit)
    summary = summarise_matchup(exp, ordered)
    doc = {
        "experiment": exp.model_dump(mode="json"),
        "levels_config": config.model_dump(mode="json"),
        "summary": summary,
        "levels": levels.model_dump(mode="json"),
        "fit": fit_document(config, *fit),
        "included": {path: sum(1 for x in included if x[0] == path) for path in config.include},
        "games": [r.model_dump(mode="json", exclude={"record"}) for r in ordered],
        "run": {"backend": backend, "workers": workers, "build": build_info().describe(),
                "wall_seconds": round(time.perf_counter() - start, 2),
                "game_seconds": round(sum(r.seconds for r in ordered), 2),
                "resumed_games": len(done)},
    }
    return doc, levels


def _read_doc(path: str) -> dict[str, Any]:
    try:
        doc: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise ExperimentError(f"{path}: not a lab result document ({err})") from None
    return doc


def _logger(path: Path | None, on_result: OnResult | None) -> OnResult:
    def log(r: GameResult) -> None:
        if path is not None:
            with path.open("a", encoding="utf-8") as f:
                f.write(r.model_dump_json(exclude={"record"}) + "\n")
        if on_result is not None:
            on_result(r)

    return log


def write_levels(levels: GameLevels, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(levels.model_dump(mode="json"), indent=1) + "\n", encoding="utf-8")


def levels_markdown(levels: GameLevels) -> str:
    """The levels as the Markdown table docs/lab.md shows (one row per level of each AI; a level
    the order constraint pooled says with which), then the seat term."""
    rows = ["| AI | level | seconds a decision | Elo | 95% interval | how | games |",
            "| --- | --- | --- | --- | --- | --- | --- |",
            f"| random | — | — | 0 | (the anchor) | by definition | {_anchor_games(levels)} |"]
    for agent, entries in levels.agents.items():
        for e in entries:
            seconds = "—" if e.seconds is None else f"{e.seconds:g}"
            how = "measured" if e.measured else "interpolated"
            if e.pooled_with:
                how += ", not distinguished from level " + " and ".join(str(x) for x in e.pooled_with) + " (pooled)"
            games = str(e.games) if e.measured else "—"
            interval = f"[{e.low:+d}, {e.high:+d}]"
            rows.append(f"| {agent} | {e.level} | {seconds} | {e.elo:+d} | {interval} | {how} | {games} |")
    seats = seat_sentences(levels)
    return "\n".join([*rows, "", *seats] if seats else rows)


def seat_sentences(levels: GameLevels) -> list[str]:
    """The fit's seat terms in words a designer reads, one sentence a term: what the second seat
    is worth over the first between equal players, its 95% interval and which seat that favours
    (none for more than two players, or a levels file from before the seat term). Seats are
    counted from 1 as on the table (the fit's "seat 1 over seat 0"). *Why one function:* the
    docs table (`levels_markdown`) and `lab levels` print the same sentences."""
    sentences = []
    for s in levels.seats:
        if s.low > 0:
            verdict = "the second seat is favoured"
        elif s.high < 0:
            verdict = "the first seat is favoured"
        else:
            verdict = "neither seat is shown to be favoured"
        sentences.append(f"Second seat over the first, equal players ({s.between}): {s.elo:+d} Elo, "
                         f"95% interval [{s.low:+d}, {s.high:+d}]: {verdict}.")
    return sentences


def _anchor_games(levels: GameLevels) -> int:
    return sum(p.games for p in levels.pairs if ANCHOR in (p.a, p.b))
