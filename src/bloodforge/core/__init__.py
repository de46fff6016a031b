"""Game-agnostic engine: the contract, randomness, bags, decks, dice, graphs and scenarios."""

from .action import ARG_TYPES, CANCEL, TIMEOUT, Action, ActionSpec
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
    format_validation_error,
)
from .game import (
    FILE_PARAMETER_KEY,
    Game,
    GameInfo,
    GameParams,
    Outcome,
    State,
    data_file_field,
    winners_of,
    winners_share,
)
from .graph import AreaGraph, SquareGrid
from .log import EventLog, LogEvent, seats
from .policy import PlanningPolicy, Policy, WeightingPolicy
from .registry import create_game, describe_games, game_class, register_game, registered_ids, unregister_game
from .rng import Rng, mix_seed
from .scenario import Scenario, read_scenario

__all__ = [
    "ARG_TYPES",
    "CANCEL",
    "FILE_PARAMETER_KEY",
    "TIMEOUT",
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
    "EventLog",
    "Game",
    "GameInfo",
    "GameParams",
    "IllegalAction",
    "LogEvent",
    "Outcome",
    "ParameterError",
    "PlanningPolicy",
    "Policy",
    "Rng",
    "Scenario",
    "ScenarioError",
    "SquareGrid",
    "State",
    "UnknownGame",
    "WeightingPolicy",
    "create_game",
    "data_file_field",
    "describe_games",
    "format_validation_error",
    "game_class",
    "mix_seed",
    "read_scenario",
    "register_game",
    "registered_ids",
    "seats",
    "unregister_game",
    "winners_of",
    "winners_share",
]
