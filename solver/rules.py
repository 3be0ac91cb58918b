"""Rule options: everything that varies between the user's rule documents."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .tiles import TILE_SETS, TileSet

JOKER_PENALTIES = (20, 30, 50)


@dataclass(frozen=True)
class Rules:
    """The options a board, a command line or a game may set (rules.md)."""

    wraparound: bool = False
    initial_meld: int = 30
    tile_set: int = 106
    joker_penalty: int = 30

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
        return words


def parse_rule_word(word: str, rules: Rules) -> Rules:
    """Apply one word of a `rules:` line; ValueError names what is wrong."""
    name, _, value = word.partition("=")
    name = name.lower()
    if name == "wraparound":
        if value and value.lower() not in ("yes", "on", "true"):
            if value.lower() in ("no", "off", "false"):
                return rules.replace(wraparound=False)
            raise ValueError(f"rule wraparound takes no value or yes/no, not {value!r}")
        return rules.replace(wraparound=True)
    numeric = {"initial-meld": "initial_meld", "tile-set": "tile_set", "joker-penalty": "joker_penalty"}
    if name not in numeric:
        raise ValueError(f"unknown rule {word!r}")
    if not value.isdigit():
        raise ValueError(f"rule {name} needs a whole number, as in {name}=30")
    number = int(value)
    if name == "tile-set" and number not in TILE_SETS:
        raise ValueError(f"tile-set must be 106 or 160, not {number}")
    return rules.replace(**{numeric[name]: number})
