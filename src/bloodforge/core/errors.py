"""Error types shared by every game.

Distinct types let callers (CLI, server, agents) react differently to a typo, a rule violation
and broken content, the way python-chess separates invalid, illegal and ambiguous moves. Every
message names the offending input and says why it was refused.
"""

from __future__ import annotations

from pydantic import ValidationError


class BloodforgeError(Exception):
    """Base of every error raised on purpose by bloodforge."""


class ActionSyntaxError(BloodforgeError, ValueError):
    """An action text that no action of this game could ever have (unknown word, wrong arity)."""


class IllegalAction(BloodforgeError, ValueError):  # noqa: N818 - name fixed by the public contract
    """A well-formed action that the rules forbid in the current state."""


class AmbiguousAction(BloodforgeError, ValueError):  # noqa: N818 - mirrors python-chess naming
    """An action text that matches more than one legal action."""


class ParameterError(BloodforgeError, ValueError):
    """Game parameters that fail validation (unknown name, bad value, impossible combination)."""


class ScenarioError(BloodforgeError, ValueError):
    """A scenario file or dict that is malformed or describes an impossible position."""


class DataFileError(BloodforgeError, ValueError):
    """A content data file (faction, map, cards) that fails validation."""


class UnknownGame(BloodforgeError, KeyError):  # noqa: N818 - reads better at call sites
    """A game id that is not registered."""

    def __str__(self) -> str:  # KeyError would otherwise quote the message
        return str(self.args[0]) if self.args else "unknown game"


def format_validation_error(err: ValidationError, source: str) -> str:
    """One line naming the source, each failing field's path and why."""
    parts = []
    for e in err.errors():
        loc = ".".join(str(x) for x in e["loc"]) or "(root)"
        parts.append(f"{loc}: {e['msg']}")
    return f"{source}: " + "; ".join(parts)
