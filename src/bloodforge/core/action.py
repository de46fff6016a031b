"""Actions: immutable values with a stable text form, the same for every game.

An action is a verb (`kind`) and positional word arguments, printed as `kind arg1 arg2`. The text
is what logs, replays, the HTTP API and tests carry, so it must never change for a given action
(think UCI in chess). Arguments are kept as the exact words of the text; games convert them.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The verb every game uses to drop a partial compound choice (undo before commit).
CANCEL = "cancel"


@dataclass(frozen=True, slots=True, order=True)
class Action:
    kind: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join((self.kind, *self.args)) if self.args else self.kind

    @staticmethod
    def of(kind: str, *args: object) -> Action:
        return Action(kind, tuple(map(str, args)))

    @property
    def is_cancel(self) -> bool:
        return self.kind == CANCEL


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """Grammar of one verb: how many words follow it and what they mean (for help and errors)."""

    kind: str
    args: tuple[str, ...] = ()
    help: str = ""
    optional_args: int = 0

    @property
    def min_arity(self) -> int:
        return len(self.args) - self.optional_args

    @property
    def max_arity(self) -> int:
        return len(self.args)

    def usage(self) -> str:
        words = [self.kind]
        for i, name in enumerate(self.args):
            optional = i >= self.min_arity
            words.append(f"[{name}]" if optional else f"<{name}>")
        return " ".join(words)
