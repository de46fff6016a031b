"""Game-agnostic engine: the contract, randomness, bags, decks, dice, graphs and scenarios."""

from .action import CANCEL, Action, ActionSpec
from .bag import Bag, BagEmpty
from .deck import Deck
from .dice import Dice
from .errors import (
    ActionSyntaxError,
    AmbiguousAction,
    BloodforgeError,
    DataFileError,
    IllegalAction,
    ParameterError,
    ScenarioError,
    UnknownGame,
)
from .game import Game, GameInfo, GameParams, State, winners_share
from .graph import AreaGraph, SquareGrid
from .registry import create_game, describe_games, game_class, register_game, registered_ids
from .rng import Rng, mix_seed
from .scenario import Scenario, read_scenario

__all__ = [
    "CANCEL",
    "Action",
    "ActionSpec",
    "ActionSyntaxError",
    "AmbiguousAction",
    "AreaGraph",
    "Bag",
    "BagEmpty",
    "BloodforgeError",
    "DataFileError",
    "Deck",
    "Dice",
    "Game",
    "GameInfo",
    "GameParams",
    "IllegalAction",
    "ParameterError",
    "Rng",
    "Scenario",
    "ScenarioError",
    "SquareGrid",
    "State",
    "UnknownGame",
    "create_game",
    "describe_games",
    "game_class",
    "mix_seed",
    "read_scenario",
    "register_game",
    "registered_ids",
    "winners_share",
]
