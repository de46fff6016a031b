"""Playing and recording games: one record format and one driver for the CLI, the lab and the server."""

from .driver import Driver, MatchResult, PlyLimitExceededError, play_match
from .record import Record, ReplayError, read_records, write_records

__all__ = [
    "Driver",
    "MatchResult",
    "PlyLimitExceededError",
    "Record",
    "ReplayError",
    "play_match",
    "read_records",
    "write_records",
]
