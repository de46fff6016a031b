"""The seeded random number generator that lives inside every game state.

SplitMix64 keeps its whole state in one 64-bit integer, so cloning and serialising a state costs
nothing and a game record (params, seed, actions) replays identically on any Python version;
`random.Random` carries 2.5 kB of state and its derived methods are not guaranteed stable.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Final, TypeVar

T = TypeVar("T")

_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15


def mix_seed(*parts: int | str) -> int:
    """Derive a 64-bit seed from several parts (e.g. a game seed and a purpose label)."""
    h = 0x243F6A8885A308D3
    for part in parts:
        data = part.encode() if isinstance(part, str) else str(int(part)).encode()
        for byte in data:
            h = ((h ^ byte) * 0x100000001B3) & _MASK
        h = _splitmix_output((h + _GOLDEN) & _MASK)
    return h


_LIMITS: dict[int, int] = {}  # n >= 2 -> the largest multiple of n not above 2**64 (randbelow's rejection bound)


def _splitmix_output(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng:
    """Deterministic SplitMix64 generator; `state` is the only field and is JSON-safe."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = int(seed) & _MASK

    def next_u64(self) -> int:
        self.state = (self.state + _GOLDEN) & _MASK
        return _splitmix_output(self.state)

    def randbelow(self, n: int) -> int:
        """Uniform integer in [0, n) without modulo bias.

        *Why this shape:* every die roll, shuffle and random choice of every game comes
        through here (issue 23: ~1 us a draw, 3-4 % of a playout). A bound seen before
        (always above 1) finds its rejection limit at once and the first output is taken with
        one test: `next_u64` and `_splitmix_output` inlined with their constants as literals
        (no global look-ups), the same numbers. A new bound, 1, a non-positive bound and the
        rare rejected output (below one chance in 2**61 for a bound under 8) go the plain
        way in `_randbelow`."""
        limit = _LIMITS.get(n)
        if limit is not None:
            state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
            z ^= z >> 31
            if z < limit:
                self.state = state
                return z % n
        return self._randbelow(n)

    def _randbelow(self, n: int) -> int:
        """`randbelow` the plain way: the checks, the limit's table, the rejection loop."""
        if n <= 0:
            raise ValueError(f"randbelow needs a positive bound, got {n}")
        if n == 1:
            return 0
        limit = _LIMITS.get(n)
        if limit is None:
            if len(_LIMITS) > 4096:
                _LIMITS.clear()
            limit = _LIMITS[n] = _MASK + 1 - ((_MASK + 1) % n)
        state = self.state
        while True:
            state = (state + _GOLDEN) & _MASK
            z = _splitmix_output(state)
            if z < limit:
                self.state = state
                return z % n

    def randint(self, low: int, high: int) -> int:
        """Uniform integer in [low, high], both ends included (like a die)."""
        return low + self.randbelow(high - low + 1)

    def random(self) -> float:
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence[T]) -> T:
        if not seq:
            raise ValueError("cannot choose from an empty sequence")
        return seq[self.randbelow(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher-Yates in place."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.randbelow(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def weighted_index(self, weights: Sequence[int]) -> int:
        """Index drawn with probability proportional to non-negative integer weights."""
        total = sum(weights)
        if total <= 0:
            raise ValueError("weighted draw needs a positive total weight")
        r = self.randbelow(total)
        for i, w in enumerate(weights):
            if r < w:
                return i
            r -= w
        raise AssertionError("unreachable: weights changed during the draw")

    def __reduce__(self) -> tuple[type[Rng], tuple[int]]:
        """Pickled by its constructor's argument: every position carries its generator to the
        server's search workers pickled, and in the compiled build (README, "Compiled build") a
        class compiled by mypyc unpickles through `__init__`, not by filling in its slots; the
        state alone is the whole generator, so both builds write and read the same thing."""
        return (Rng, (self.state,))

    def fork(self, label: str) -> Rng:
        """An independent generator derived from this one without advancing it."""
        return Rng(mix_seed(self.state, label))

    def copy(self) -> Rng:
        return Rng(self.state)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other.state == self.state

    def __hash__(self) -> int:
        return hash(self.state)

    def __repr__(self) -> str:
        return f"Rng(state={self.state:#x})"
