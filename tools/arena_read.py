"""Read arena games a lab run kept with `--records`: how the health went, round by round, and
what each way of playing would have been worth at the searching seat's decisions.

    .venv/bin/python tools/arena_read.py trace RECORDS.jsonl INDEX
    .venv/bin/python tools/arena_read.py styles RECORDS.jsonl INDEX --first 1 --last 8

`trace` prints every combatant's HP and hex at the start of each round. `styles` replays the
game to the first decision of each round (a move or an attack with a choice) of the seat the
record's `meta.tags.a_seat` names, and plays each way of playing (the greedy policy or its
`shy` option) for that seat for four turns against each opponent model (the same two), the
rest as the arena's search plays its rollouts, on the same resamples of the hidden state:
the mean of the game's evaluation for the seat. Why: a search can only choose among the ways
of playing its rollouts know; this shows, at the positions a lost game went through, which
of them the evaluation prefers and how much the answer depends on what the opponent does.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from bloodforge.core import Rng, State
from bloodforge.games.arena.policy import ArenaPolicy
from bloodforge.match import Record, read_records


def _record(path: str, index: int) -> Record:
    records = read_records(path)
    if not 0 <= index < len(records):
        raise SystemExit(f"{path} holds {len(records)} record(s); {index} is out of range")
    return records[index]


def _health(state: State, seat: int | None) -> str:
    obs = state.observation(seat)
    return " ".join(f"{u['id']}:{u['hp']}{'' if u['alive'] else '(down)'}@{u['hex']}"
                    for u in obs["units"] if u["kind"] != "minion")


def trace(record: Record) -> None:
    print(record.meta, record.agents, record.returns)
    for i, state in enumerate(record.states()):
        if i == 0:
            continue
        seat, text = record.moves[i - 1]
        if (seat is None and text == "round") or i == len(record.moves):
            print(f"{i:5} round {state.observation(None)['round']:>2}  {_health(state, None)}")


def _rollout(state: State, seat: int, mine: bool, theirs: bool, rng: Rng, turns: int = 4) -> float:
    """`seat` plays shy when `mine`, the others when `theirs`; four turns, then the evaluation."""
    marker, done = state.turn_marker(), 0
    policies: dict[int, ArenaPolicy] = {}
    while not state.is_terminal():
        actor = state.actors()[0]
        policy = policies.setdefault(actor, ArenaPolicy(shy=mine if actor == seat else theirs))
        state.apply_unchecked(policy.choose(state, actor, rng), actor)
        if state.turn_marker() != marker:
            marker, done = state.turn_marker(), done + 1
            if done >= turns:
                break
    return state.game.evaluate(state)[seat]


def _decisions(record: Record, seat: int, first: int, last: int) -> Iterator[tuple[int, str, State]]:
    """The seat's first move or attack with a choice in each round from `first` to `last`."""
    seen: set[int] = set()
    for i, state in enumerate(record.states()):
        if i >= len(record.moves):
            return
        who, text = record.moves[i]
        rnd = int(state.observation(None)["round"])
        if (who == seat and first <= rnd <= last and rnd not in seen and text.startswith(("move", "attack"))
                and len(state.legal_actions(seat)) > 1):
            seen.add(rnd)
            yield i, text, state.clone()


def styles(record: Record, first: int, last: int, samples: int) -> None:
    seat = int(record.meta["tags"]["a_seat"])
    print(record.meta, record.agents, record.returns)
    for i, text, state in _decisions(record, seat, first, last):
        rng = Rng(3)
        drawn = [(state.resample_hidden(seat, rng), rng.next_u64()) for _ in range(samples)]
        cells = []
        for theirs in (False, True):
            for mine in (False, True):
                mean = sum(_rollout(s.clone(), seat, mine, theirs, Rng(seed)) for s, seed in drawn) / samples
                cells.append(f"{'shy' if mine else 'greedy'} vs {'shy' if theirs else 'greedy'} {mean:.3f}")
        print(f"{i:5} round {state.observation(None)['round']:>2} played {text!r}  {_health(state, seat)}")
        print("      " + " | ".join(cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("trace", "styles"):
        p = sub.add_parser(name)
        p.add_argument("records")
        p.add_argument("index", type=int)
        if name == "styles":
            p.add_argument("--first", type=int, default=1)
            p.add_argument("--last", type=int, default=8)
            p.add_argument("--samples", type=int, default=40)
    args = parser.parse_args()
    record = _record(args.records, args.index)
    if args.command == "trace":
        trace(record)
    else:
        styles(record, args.first, args.last, args.samples)


if __name__ == "__main__":
    main()
