"""What both adapters share: numbering the legal actions and encoding observations as bytes."""

from __future__ import annotations

import json
from typing import Any

from bloodforge.core import Action, State

#: Default size of the numbered action space: more than any built-in game offers at once
#: (Bloodstones with six players peaks near 120 in random play).
MAX_ACTIONS = 512
#: Default size of an encoded observation in bytes (Bloodstones with six players: ~13 kB).
MAX_OBSERVATION_BYTES = 32_768


class AdapterLimitError(ValueError):
    """A position does not fit the adapter's fixed sizes; raise the limit named in the message."""


def numbered_actions(state: State, seat: int, max_actions: int) -> list[Action]:
    """The legal actions of `seat`, in the contract's order: action id i is the i-th."""
    legal = state.legal_actions(seat)
    if len(legal) > max_actions:
        raise AdapterLimitError(
            f"{state.game.id}: seat {seat} has {len(legal)} legal actions, more than max_actions={max_actions}"
        )
    return legal


def encode_observation(observation: dict[str, Any], size: int) -> bytes:
    """The observation as canonical JSON in UTF-8, zero-padded to `size` bytes."""
    data = json.dumps(observation, sort_keys=True, separators=(",", ":")).encode()
    if len(data) > size:
        raise AdapterLimitError(f"an observation of {len(data)} bytes exceeds max_observation_bytes={size}")
    return data + b"\0" * (size - len(data))


def decode_observation(data: bytes | bytearray | Any) -> dict[str, Any]:
    """Inverse of `encode_observation` (accepts bytes or a uint8 array)."""
    raw = bytes(data).rstrip(b"\0")
    result: dict[str, Any] = json.loads(raw.decode())
    return result
