"""Rule options and profiles: everything that varies between the user's rule documents.

Each option is declared once, as a field of `Rules`: its type, its default, the word a
board's `rules:` line and the command line use, what it means. `OPTIONS` is read from
those fields, and the file parser, `differences()` and the click options are made from
it. A profile (`official`, `casual`, `hebrew`, ...) is one word that sets several options
at once, each with its source.
"""

from __future__ import annotations

import dataclasses
import enum
import re
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple

from .tiles import TILE_SETS, TileSet

# Every profile's name, as `rules:` lines and `--rules` take them (`PROFILES` says more).
PROFILE_NAMES = ("official", "casual", "hebrew", "norwegian", "portuguese", "french", "greek")
# The seeds play 20, 30 or 50. The solver weighs criteria lexicographically in one
# objective; far larger penalties would outrun the LP's precision (seen at 1e8).
MAX_JOKER_PENALTY = 1000
# Rule values in a file are at most 9 ASCII digits; the command line takes the same range.
WHOLE_NUMBER = re.compile(r"[0-9]{1,9}")
INTEGER = re.compile(r"-?[0-9]+")
LARGEST_NUMBER = 999_999_999


# What a rule option takes: a switch, a whole number, or one of an Enum's values.
RuleValue = bool | int | enum.Enum


def _option(
    default: Any,
    word: str,
    help: str,
    *,
    allowed: tuple[int, ...] = (),
    maximum: int = LARGEST_NUMBER,
) -> Any:
    """A field of `Rules` that is a rule option: its default, its word (a `rules:` line's,
    and `--WORD`), its help; a number option may name its `allowed` values or `maximum`.
    What it takes (a switch, a number, one of an Enum's values) is the field's type."""
    return dataclasses.field(
        default=default,
        metadata={"word": word, "help": help, "allowed": allowed, "maximum": maximum},
    )


class JokerRetrieval(enum.Enum):
    """How a joker may leave the set it lies in on the table (docs/rules.md, "Jokers").

    STRICT (the rules as written): a joker that is not freed stays with its set, standing
    for the same tile, in a set holding one of its set's tiles; it is freed only by the tile
    it stands for, from the rack, and the freed joker goes into a set holding two or more
    tiles played from the rack this turn.
    REPLACE: as STRICT, without the condition on the freed joker's new set.
    FREE: the table is rearranged freely; a joker may go to any set (many home tables).
    """

    STRICT = "strict"
    REPLACE = "replace"
    FREE = "free"

    # Enum's own __hash__ is Python code, and Rules (which hash their retrieval) key the
    # caches every model build looks up.
    __hash__ = object.__hash__


class Method(enum.Enum):
    """Who scores what once the winner is known."""

    STANDARD = "standard"
    """Losers score minus their rack; the winner the sum of those (rulebook, Hebrew,
    French, Greek)."""
    LAID = "laid"
    """Each scores the value laid on the table minus the rack; the winner the value laid
    plus the other racks (Norwegian, Portuguese)."""

    __hash__ = object.__hash__


class Blocked(enum.Enum):
    """Who wins when the pool ran out and nobody could go out."""

    DIFFERENCE = "difference"
    """The lowest rack total wins; the others lose the difference to it, and the winner
    takes the sum of those differences (rulebook, Greek)."""
    FEWEST_TILES = "fewest-tiles"
    """The rack with the fewest tiles wins, scored the usual way (Hebrew)."""

    __hash__ = object.__hash__


@dataclass(frozen=True)
class Rules:
    """The options a board, a command line or a game may set (docs/rules.md).

    The defaults are the `official` profile: the published rulebook.
    """

    profile: str = "official"
    wraparound: bool = _option(False, "wraparound", "12-13-1 is a run (13-1-2 never is).")
    initial_meld: int = _option(30, "initial-meld", "Points the initial meld needs.")
    tile_set: int = _option(
        106,
        "tile-set",
        "Which box: 106 tiles (2 copies, 2 jokers) or 160 (3, 4).",
        allowed=tuple(sorted(TILE_SETS)),
    )
    joker_penalty: int = _option(
        30, "joker-penalty", "A joker's value left on a rack.", maximum=MAX_JOKER_PENALTY
    )
    joker_retrieval: JokerRetrieval = _option(
        JokerRetrieval.STRICT,
        "joker-retrieval",
        "strict: a joker leaves its set only for the tile it stands for, from the rack, "
        "and goes into a set with two tiles from the rack (the rules as written); replace: "
        "without that last condition; free: jokers move freely (many home tables).",
    )
    locked_joker_sets: bool = _option(
        False,
        "locked-joker-sets",
        "No tile, jokers included, may be taken out of a set that holds a joker; it may "
        "grow (the Norwegian rules).",
    )
    scoring: Method = _option(
        Method.STANDARD,
        "scoring",
        "standard: losers lose their rack, the winner takes the sum; laid: each scores what "
        "it laid minus its rack (the Norwegian rules).",
    )
    blocked: Blocked = _option(
        Blocked.DIFFERENCE,
        "blocked",
        "When the pool ran out: the lowest rack total wins and takes the differences, or "
        "the fewest tiles win (the Hebrew rules).",
    )
    double_out: bool = _option(
        False,
        "double-out",
        "House rule: going out in one turn, having laid nothing before, scores double "
        "(the Greek rules' house rule).",
    )

    def __post_init__(self) -> None:
        """Refuse options that cannot be played, before they fail far from the cause."""
        if self.profile not in PROFILE_NAMES:
            raise ValueError(f"unknown rules profile {self.profile!r}")
        for option in OPTIONS:
            if option.kind is int:
                option.check(getattr(self, option.field))

    @property
    def box(self) -> TileSet:
        return TILE_SETS[self.tile_set]

    @property
    def by_replacement(self) -> bool:
        """A table joker leaves its set only for the tile it stands for (REPLACE, STRICT)."""
        return self.joker_retrieval is not JokerRetrieval.FREE

    def replace(self, **changes: object) -> Rules:
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def differences(self) -> list[str]:
        """The options that differ from the profile's, as a `rules:` line writes them after
        the profile's name (which `words` adds unless it is official)."""
        base = PROFILES[self.profile].rules
        return [
            o.word_for(self) for o in OPTIONS if getattr(self, o.field) != getattr(base, o.field)
        ]

    def words(self, full: bool = False) -> list[str]:
        """A `rules:` line's words for these rules: the profile and what differs from it, or
        (`full`) the profile and every option, so that it reads back the same whatever the
        defaults become."""
        options = [o.word_for(self) for o in OPTIONS] if full else self.differences()
        named = full or self.profile != "official"
        return ([self.profile] if named else []) + options

    def as_json(self) -> dict[str, object]:
        """Every option by its field name, and the profile: what `--json` outputs carry."""
        values: dict[str, object] = {"profile": self.profile}
        for option in OPTIONS:
            value = getattr(self, option.field)
            values[option.field] = value.value if isinstance(value, enum.Enum) else value
        return values

    def source_of(self, field: str) -> str:
        """Where this option's value comes from: the profile's document, or the rulebook,
        or (a value no profile gave) the table's own choice."""
        profile = PROFILES[self.profile]
        if getattr(self, field) != getattr(profile.rules, field):
            return "chosen for this table"
        return profile.sources.get(field, PROFILES["official"].sources[field])


class RuleOption(NamedTuple):
    """One rule option, as its field of `Rules` declares it: the field, its word (`rules:`
    line and `--WORD`), what it takes (bool: a switch; int: a whole number, perhaps one of
    `allowed` or at most `maximum`; an Enum: one of its values), its help."""

    field: str
    word: str
    kind: type
    help: str
    allowed: tuple[int, ...]
    maximum: int

    def check(self, number: int) -> int:
        """The number, if this option takes it; ValueError names what it takes."""
        wrong = number not in self.allowed if self.allowed else not 0 <= number <= self.maximum
        if wrong:
            raise ValueError(f"{self.word} must be {self.numbers}, not {number}")
        return number

    @property
    def numbers(self) -> str:
        """The numbers this option takes, in words: "106 or 160", "0 to 999999999"."""
        if self.allowed:
            return _either([str(n) for n in self.allowed])
        return f"0 to {self.maximum}"

    def word_for(self, rules: Rules) -> str:
        """This option's word for the value the rules hold: `wraparound`, `wraparound=no`,
        `initial-meld=50`, `joker-retrieval=free`."""
        value = getattr(rules, self.field)
        if self.kind is bool:
            return self.word if value else f"{self.word}=no"
        return f"{self.word}={value.value if isinstance(value, enum.Enum) else value}"

    @property
    def members(self) -> list[enum.Enum]:
        """The values an option of an Enum kind takes; none for switches and numbers."""
        if not issubclass(self.kind, enum.Enum):
            return []
        return list(self.kind)

    @property
    def choices(self) -> list[str]:
        return [m.value for m in self.members]

    def parse(self, value: str) -> RuleValue:
        """The value a word gives this option; ValueError names what is wrong."""
        if self.kind is bool:
            if not value or value.lower() in _ON:
                return True
            if value.lower() in _OFF:
                return False
            raise ValueError(f"rule {self.word} takes no value or yes/no, not {value!r}")
        if self.kind is int:
            return self.parse_number(value)
        choices = {m.value: m for m in self.members}
        if value.lower() not in choices:
            raise ValueError(f"rule {self.word} takes {_either(self.choices)}, not {value!r}")
        return choices[value.lower()]

    def parse_number(self, value: str) -> int:
        """A whole number in ASCII digits, few enough that int() never meets a huge one."""
        if INTEGER.fullmatch(value) and not WHOLE_NUMBER.fullmatch(value):  # -5, 10**20
            shown = value if len(value) <= 12 else value[:12] + "..."
            raise ValueError(f"rule {self.word} must be {self.numbers}, not {shown}")
        if not WHOLE_NUMBER.fullmatch(value):
            example = self.word_for(Rules())  # the default's: tile-set=106, initial-meld=30
            raise ValueError(
                f"rule {self.word} needs a whole number, as in {example}, not {value!r}"
            )
        try:
            return self.check(int(value))
        except ValueError as error:
            raise ValueError(f"rule {error}") from None


_ON, _OFF = ("yes", "on", "true"), ("no", "off", "false")


def _either(words: list[str]) -> str:
    """As a message lists choices: "free, replace or strict"."""
    return ", ".join(words[:-1]) + " or " + words[-1]


def _options() -> tuple[RuleOption, ...]:
    """Every rule option, in the order `Rules` declares them."""
    kinds = typing.get_type_hints(Rules)
    return tuple(
        RuleOption(
            f.name,
            f.metadata["word"],
            kinds[f.name],
            f.metadata["help"],
            f.metadata["allowed"],
            f.metadata["maximum"],
        )
        for f in dataclasses.fields(Rules)
        if "word" in f.metadata
    )


OPTIONS = _options()
OPTION_BY_WORD = {o.word: o for o in OPTIONS}
OPTION_BY_FIELD = {o.field: o for o in OPTIONS}


class Profile(NamedTuple):
    """A named set of rules, what it is, and where each of its options comes from."""

    name: str
    summary: str
    rules: Rules
    sources: Mapping[str, str]


RULEBOOK = "the published rulebook (Pressman, 2009)"
_OFFICIAL_SOURCES = {
    "wraparound": RULEBOOK + ": a run ends at 1 and at 13",
    "initial_meld": RULEBOOK + ": 30 points, from the rack alone",
    "tile_set": RULEBOOK + ": 106 tiles; 160 for 5-6 players, as the Greek rules say",
    "joker_penalty": RULEBOOK + ": 30 points",
    "joker_retrieval": RULEBOOK + ": replaced by the tile from the rack, the freed joker"
    " used again with two or more tiles from the rack",
    "locked_joker_sets": RULEBOOK + ": sets with a joker may be rearranged",
    "scoring": RULEBOOK + ": losers lose their rack, the winner takes the sum",
    "blocked": RULEBOOK + ": the lowest rack total wins",
    "double_out": RULEBOOK + ": no such rule",
}


def _profiles() -> dict[str, Profile]:
    """The profiles: official, a relaxed one, and one per user document, by language."""
    made: dict[str, Profile] = {}

    def add(name: str, summary: str, sources: dict[str, str], **options: object) -> None:
        made[name] = Profile(name, summary, Rules(profile=name, **options), sources)  # type: ignore[arg-type]

    add("official", "the published rulebook (the default)", _OFFICIAL_SOURCES)
    add(
        "casual",
        "as official, but jokers move freely on the table, as many home tables and apps play",
        {"joker_retrieval": "house rule: a joker on the table may go to any set"},
        joker_retrieval=JokerRetrieval.FREE,
    )
    hebrew = "the Hebrew rules"
    add(
        "hebrew",
        "the Hebrew rules: 12-13-1 runs, a blocked game won by the fewest tiles",
        {
            "wraparound": hebrew + ": a 1 may be low or high, not both",
            "initial_meld": hebrew + ": 30 points",
            "joker_retrieval": hebrew + ": replaced from the rack, reused with two rack tiles",
            "blocked": hebrew + ": the fewest tiles win",
            "joker_penalty": hebrew + ": 30 points",
        },
        wraparound=True,
        blocked=Blocked.FEWEST_TILES,
    )
    norwegian = "the Norwegian (and Portuguese) rules"
    norwegian_rules = {
        "initial_meld": norwegian + ": 50 points",
        "locked_joker_sets": norwegian + ": no tile may be taken out of a set with a joker",
        "joker_retrieval": norwegian + ": replaced from the rack, reused with two rack tiles",
        "scoring": norwegian + ": value laid minus the rack",
        "joker_penalty": norwegian + ": 30 points",
    }
    for name in ("norwegian", "portuguese"):
        add(
            name,
            "the Norwegian and Portuguese rules: initial meld 50, sets with a joker locked,"
            " scored by value laid",
            norwegian_rules,
            initial_meld=50,
            locked_joker_sets=True,
            scoring=Method.LAID,
        )
    french = "the French rules"
    add(
        "french",
        "the French rules: a joker left on a rack costs 20",
        {
            "joker_penalty": french + ": 20 points",
            "initial_meld": french + ": 30 points",
            "joker_retrieval": french + ": replaced from the rack, reused in the same turn",
        },
        joker_penalty=20,
    )
    greek = "the Greek rules"
    add(
        "greek",
        "the Greek rules: 160 tiles for 5-6 players; double for going out in one turn as a"
        " house rule to switch on",
        {
            "tile_set": greek + ": 160 tiles for 5-6 players",
            "initial_meld": greek + ": 30 points",
            "blocked": greek + ": the lowest rack total wins the differences",
            "joker_penalty": greek + ": 30 points (some tables 50: joker-penalty=50)",
            "double_out": greek + ": a house rule, off unless the table switches it on",
        },
    )
    return made


PROFILES = _profiles()


def profile_rules(name: str) -> Rules:
    """The rules a profile sets; ValueError names the known profiles."""
    profile = PROFILES.get(name.lower())
    if profile is None:
        raise ValueError(f"unknown rules profile {name!r} (known: {', '.join(PROFILES)})")
    return profile.rules


def parse_rule_word(word: str, rules: Rules) -> Rules:
    """Apply one word of a `rules:` line: a profile's name (which sets every option) or an
    option; ValueError names what is wrong."""
    name, _, value = word.partition("=")
    name = name.lower()
    if name in PROFILES and not value:
        return profile_rules(name)
    option = OPTION_BY_WORD.get(name)
    if option is None:
        raise ValueError(f"unknown rule {word!r} (known: {_known_words()})")
    if option.kind is not bool and not value:
        raise ValueError(f"rule {name} needs a value, as in {_shown(option)}")
    return rules.replace(**{option.field: option.parse(value)})


@cache
def _known_words() -> str:
    """Every profile and option, as an unknown word is told them: written once (a `rules:`
    line of 1 MiB holds 350,000 unknown words)."""
    return ", ".join([*PROFILES, *(_shown(o) for o in OPTIONS)])


def _shown(option: RuleOption) -> str:
    if option.kind is bool:
        return option.word
    if option.kind is int:
        return f"{option.word}=N"
    return f"{option.word}={'|'.join(option.choices)}"


@dataclass(frozen=True)
class Overrides:
    """Rule options given on a command line, which win over a board's `rules:` line: a
    profile first (it sets every option), then each option given, by its field."""

    profile: str | None = None
    options: tuple[tuple[str, RuleValue], ...] = ()

    def __post_init__(self) -> None:
        if self.profile is not None:
            profile_rules(self.profile)
        unknown = [f for f, _ in self.options if f not in OPTION_BY_FIELD]
        if unknown:
            raise ValueError(f"unknown rule options {unknown}")

    def apply(self, rules: Rules) -> Rules:
        """The rules with these options over them."""
        if self.profile is not None:
            rules = profile_rules(self.profile)
        return rules.replace(**dict(self.options)) if self.options else rules

    def given(self) -> bool:
        return self.profile is not None or bool(self.options)

    def setting(self, field: str, value: RuleValue) -> Overrides:
        """These overrides, and one more option (an alias's, such as play's --doubled)."""
        options = dict(self.options) | {field: value}
        return Overrides(self.profile, tuple(options.items()))

    def sets(self, field: str) -> bool:
        return any(f == field for f, _ in self.options)


NO_OVERRIDES = Overrides()
