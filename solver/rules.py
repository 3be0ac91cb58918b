"""Rule options: everything that varies between the user's rule documents."""

from __future__ import annotations

import dataclasses
import enum
import re
from dataclasses import dataclass

from .tiles import TILE_SETS, TileSet

# The seeds play 20, 30 or 50. The solver weighs criteria lexicographically in one
# objective; far larger penalties would outrun the LP's precision (seen at 1e8).
MAX_JOKER_PENALTY = 1000


class JokerRetrieval(enum.Enum):
    """How a joker may leave the set it is in on the table (rules.md, "Joker retrieval").

    FREE: the table is rearranged freely; a joker may go to any set.
    REPLACE: a joker keeps standing for a tile it stands for, unless that tile, played
    from the rack, takes its place (all seeds); the freed joker is then placed again.
    STRICT: as REPLACE, and the freed joker must end in a set holding at least two tiles
    played from the rack this turn (000, 001).
    """

    FREE = "free"
    REPLACE = "replace"
    STRICT = "strict"

    # As Colour's: Enum's own __hash__ is Python code, and Rules (which hash their
    # retrieval) key the caches every model build looks up.
    __hash__ = object.__hash__

    @property
    def by_replacement(self) -> bool:
        """A joker leaves its set only for the tile it stands for (REPLACE and STRICT)."""
        return self is not JokerRetrieval.FREE


@dataclass(frozen=True)
class Rules:
    """The options a board, a command line or a game may set (rules.md)."""

    wraparound: bool = False
    initial_meld: int = 30
    tile_set: int = 106
    joker_penalty: int = 30
    joker_retrieval: JokerRetrieval = JokerRetrieval.FREE
    # 001: no tile may be taken out of a set that holds a joker; tiles may still be added.
    locked_joker_sets: bool = False

    def __post_init__(self) -> None:
        """Refuse options that cannot be played, before they fail far from the cause."""
        if self.tile_set not in TILE_SETS:
            raise ValueError(f"tile-set must be 106 or 160, not {self.tile_set}")
        if not 0 <= self.joker_penalty <= MAX_JOKER_PENALTY:
            raise ValueError(
                f"joker-penalty must be 0 to {MAX_JOKER_PENALTY}, not {self.joker_penalty}"
            )

    @property
    def box(self) -> TileSet:
        return TILE_SETS[self.tile_set]

    def replace(self, **changes: object) -> Rules:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def differences(self) -> list[str]:
        """The options that differ from the defaults, as a `rules:` line writes them."""
        default = Rules()
        words = []
        if self.wraparound:
            words.append("wraparound")
        if self.initial_meld != default.initial_meld:
            words.append(f"initial-meld={self.initial_meld}")
        if self.tile_set != default.tile_set:
            words.append(f"tile-set={self.tile_set}")
        if self.joker_penalty != default.joker_penalty:
            words.append(f"joker-penalty={self.joker_penalty}")
        if self.joker_retrieval is not default.joker_retrieval:
            words.append(f"joker-retrieval={self.joker_retrieval.value}")
        if self.locked_joker_sets:
            words.append("locked-joker-sets")
        return words


_RETRIEVAL_VALUES = [j.value for j in JokerRetrieval]
# As a message lists them: "free, replace or strict".
_RETRIEVALS = ", ".join(_RETRIEVAL_VALUES[:-1]) + " or " + _RETRIEVAL_VALUES[-1]
_NUMERIC_RULES = {
    "initial-meld": "initial_meld",
    "tile-set": "tile_set",
    "joker-penalty": "joker_penalty",
}
# Rules that are on or off: the word alone, or with one of these values.
_SWITCHES = {"wraparound": "wraparound", "locked-joker-sets": "locked_joker_sets"}
_ON, _OFF = ("yes", "on", "true"), ("no", "off", "false")
# Rule values in a file are at most 9 ASCII digits; the command line takes the same range.
WHOLE_NUMBER = re.compile(r"[0-9]{1,9}")
LARGEST_NUMBER = 999_999_999


def parse_rule_word(word: str, rules: Rules) -> Rules:
    """Apply one word of a `rules:` line; ValueError names what is wrong."""
    name, _, value = word.partition("=")
    name = name.lower()
    if name in _SWITCHES:
        if value and value.lower() not in _ON:
            if value.lower() in _OFF:
                return rules.replace(**{_SWITCHES[name]: False})
            raise ValueError(f"rule {name} takes no value or yes/no, not {value!r}")
        return rules.replace(**{_SWITCHES[name]: True})
    if name == "joker-retrieval":
        choices = {j.value: j for j in JokerRetrieval}
        if value.lower() not in choices:
            raise ValueError(f"rule joker-retrieval takes {_RETRIEVALS}, not {value!r}")
        return rules.replace(joker_retrieval=choices[value.lower()])
    if name not in _NUMERIC_RULES:
        known = ", ".join(
            [
                *_SWITCHES,
                f"joker-retrieval={'|'.join(_RETRIEVAL_VALUES)}",
                *(f"{n}=N" for n in _NUMERIC_RULES),
            ]
        )
        raise ValueError(f"unknown rule {word!r} (known: {known})")
    # ASCII digits, and few enough that int() never meets a huge or foreign number.
    if not WHOLE_NUMBER.fullmatch(value):
        raise ValueError(f"rule {name} needs a whole number, as in {name}=30, not {value!r}")
    number = int(value)
    if name == "tile-set" and number not in TILE_SETS:
        raise ValueError(f"rule tile-set must be 106 or 160, not {number}")
    if name == "joker-penalty" and number > MAX_JOKER_PENALTY:
        raise ValueError(f"rule joker-penalty must be 0 to {MAX_JOKER_PENALTY}, not {number}")
    return rules.replace(**{_NUMERIC_RULES[name]: number})
