"""Sealed Bids read from a designer's data file: a test game with a file parameter, so the lab's
data-file sweeps are tested without naming a real game."""

from __future__ import annotations

import json
from pathlib import Path

from bloodforge.core import GameInfo, GameParams, ParameterError, data_file_field
from tests.toy_bids import BidsGame, BidsParams


class FileBidsParams(BidsParams):
    deck: str | None = data_file_field('JSON file {"house": {"prizes": N}}: how many prizes are bid for')


class FileBidsGame(BidsGame):
    info = GameInfo(
        id="toy_file_bids", name="Sealed Bids from a file (test game)", summary="sealed bids, prizes from a file",
        min_players=2, max_players=4, params_model=FileBidsParams,
    )

    def __init__(self, params: GameParams, seed: int = 0) -> None:
        assert isinstance(params, FileBidsParams)
        if params.deck is not None:
            try:
                prizes = int(json.loads(Path(params.deck).read_text(encoding="utf-8"))["house"]["prizes"])
            except (OSError, KeyError, ValueError) as err:
                raise ParameterError(f"{params.deck}: {err}") from None
            params = params.model_copy(update={"prizes": prizes})
        super().__init__(params, seed)
