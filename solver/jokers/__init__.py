"""The jokers: what a set's jokers stand for (`readings`), how a set lies with them
(`laying`), and where the table's jokers may go under the board's rules (`retrieval`)."""

from .laying import lay_jokers, lay_with_roles
from .readings import (
    fits_declared,
    joker_stand_ins,
    place_reading,
    set_readings,
    stand_ins,
    table_readings,
)
from .retrieval import Telling, joker_places, joker_problems, tell_jokers

__all__ = [
    "Telling",
    "fits_declared",
    "joker_places",
    "joker_problems",
    "joker_stand_ins",
    "lay_jokers",
    "lay_with_roles",
    "place_reading",
    "set_readings",
    "stand_ins",
    "table_readings",
    "tell_jokers",
]
