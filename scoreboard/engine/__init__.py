"""The pure game engine: commands in, snapshots out; no I/O, no clock, no pygame."""
from .commands import INTERNAL, SPEC, BadCommand, Command, InternalError, Refused, make, parse
from .game import Game, Outcome
from .regulation import Regulation, RegulationError, parse_regulation

__all__ = ["INTERNAL", "SPEC", "BadCommand", "Command", "InternalError", "Refused", "make", "parse", "Game", "Outcome",
           "Regulation", "RegulationError", "parse_regulation"]
