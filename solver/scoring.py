"""Scoring a finished game, and totals over a match (docs/rules.md, "Ending and scoring a game").

The user's documents score a game in more than one way; each reading is an option of
`Scoring`, so that a table can pick its own. A score file (`rummisolve score FILE`) is read
and written here: one line per player, `NAME: tiles left [laid=N]`, and an optional
`rules:` line.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .board import read_text
from .errors import BoardError, Problem, RummisolveError, TileError
from .rules import PROFILES, WHOLE_NUMBER, Blocked, Method, Rules, parse_rule_word
from .tiles import TILE_SETS, Tile, format_tile, format_tiles, parse_tile, split_tiles, tile_value

# The players a game has (docs/rules.md: 2-4, 5-6 with the 160-tile set): here, where the
# game, its environment and tournament take them from (game.py imports this module).
MIN_PLAYERS, MAX_PLAYERS = 2, 6
_LAID_RE = re.compile(r"laid=(.*)", re.IGNORECASE)
_LAID_UNUSED = "laid= counts only under the laid scoring (scoring=laid, --scoring laid)"


@dataclass(frozen=True)
class Scoring:
    """The scoring options a table agrees on before the match."""

    method: Method = Method.STANDARD
    blocked: Blocked = Blocked.DIFFERENCE
    joker_penalty: int = 30

    @classmethod
    def of(cls, rules: Rules) -> Scoring:
        """The scoring a table's rules set."""
        return cls(rules.scoring, rules.blocked, rules.joker_penalty)

    def rack_total(self, rack: Iterable[Tile]) -> int:
        return sum(tile_value(t, self.joker_penalty) for t in rack)


@dataclass(frozen=True)
class PlayerResult:
    """One player at the end of a game: the tiles left, and (for `Method.LAID`) the value
    the player laid on the table during the game."""

    name: str
    rack: tuple[Tile, ...]
    laid: int | None = None


@dataclass(frozen=True)
class FinishedGame:
    """What scoring needs to know about a game. `doubled`: the house rule applies, the
    winner went out in a single turn having laid nothing before (004)."""

    players: tuple[PlayerResult, ...]
    doubled: bool = False

    @property
    def out(self) -> PlayerResult | None:
        """The player who emptied the rack, if anyone did."""
        return next((p for p in self.players if not p.rack), None)


@dataclass(frozen=True)
class GameScore:
    """The result of one game: its winner (None when the rules leave a tie) and scores."""

    winner: str | None
    scores: Mapping[str, int]


class ScoreError(RummisolveError):
    """A finished game that the chosen scoring cannot score."""


class ScoreFileError(BoardError):
    """A score file that is refused; reported like a board, one `FILE:LINE` per problem."""


def score_game(game: FinishedGame, scoring: Scoring) -> GameScore:
    """Score one game. Without a winner (a tie in a blocked game) nobody collects."""
    names = [p.name for p in game.players]
    if len(set(names)) != len(names):
        raise ScoreError("every player needs a different name")
    if sum(1 for p in game.players if not p.rack) > 1:
        raise ScoreError("only the winner's rack may be empty")
    if game.doubled and game.out is None:
        raise ScoreError("doubled: nobody went out, so nobody went out in one turn")
    winner = _winner(game, scoring)
    racks = {p.name: scoring.rack_total(p.rack) for p in game.players}
    scores: dict[str, int]
    if scoring.method is Method.LAID:
        scores = {p.name: _laid(p) - racks[p.name] for p in game.players}
        if winner is not None:
            laid = _laid(next(p for p in game.players if p.name == winner))
            scores[winner] = laid + sum(t for name, t in racks.items() if name != winner)
    else:
        lowest = min(racks.values())
        base = lowest if game.out is None and scoring.blocked is Blocked.DIFFERENCE else 0
        scores = {name: base - total for name, total in racks.items()}
        if winner is not None:
            scores[winner] = -sum(s for name, s in scores.items() if name != winner)
    factor = 2 if game.doubled else 1
    return GameScore(winner, {name: factor * scores[name] for name in names})


def _winner(game: FinishedGame, scoring: Scoring) -> str | None:
    if game.out is not None:
        return game.out.name
    if scoring.blocked is Blocked.FEWEST_TILES:
        measure = {p.name: len(p.rack) for p in game.players}
    else:
        measure = {p.name: scoring.rack_total(p.rack) for p in game.players}
    best = min(measure.values())
    leaders = [name for name, value in measure.items() if value == best]
    return leaders[0] if len(leaders) == 1 else None


def _laid(player: PlayerResult) -> int:
    if player.laid is None:
        raise ScoreError(f"{player.name}: the laid scoring needs the value laid (laid=N)")
    return player.laid


@dataclass(frozen=True)
class Match:
    """Games agreed beforehand; the highest total wins (docs/rules.md, "A match")."""

    games: tuple[GameScore, ...] = ()

    def then(self, game: GameScore) -> Match:
        return Match((*self.games, game))

    @property
    def totals(self) -> dict[str, int]:
        totals: dict[str, int] = {}
        for game in self.games:
            for name, score in game.scores.items():
                totals[name] = totals.get(name, 0) + score
        return totals

    @property
    def leaders(self) -> list[str]:
        """The players with the highest total (more than one on a tie)."""
        totals = self.totals
        best = max(totals.values(), default=0)
        return [name for name, total in totals.items() if total == best]


# Score files ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreSheet:
    """A score file: the finished game and the scoring its `rules:` line asks for."""

    game: FinishedGame
    scoring: Scoring = field(default_factory=Scoring)


def parse_score_sheet(
    text: str,
    source: str = "<score>",
    overrides: Callable[[Scoring], Scoring] | None = None,
    doubled_option: bool = False,
) -> ScoreSheet:
    """Read a score file; every problem found is reported at once, each with its line.

    `overrides` (the command line's scoring over the file's `rules:`) and `doubled_option`
    (`--doubled`) are checked here too, so that what they ask of the file is named by its
    lines as the file's own words are."""
    problems: list[Problem] = []
    scoring, doubled, rules_line = Scoring(), False, 0
    players: list[PlayerResult] = []
    seen: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, colon, rest = line.partition(":")
        name = name.strip()
        if not colon or not name:
            problems.append(Problem(source, number, "expected NAME: tiles left on the rack"))
        elif name.lower() == "rules":
            if rules_line:
                problems.append(
                    Problem(source, number, f"rules: given twice (first on line {rules_line})")
                )
            rules_line = number
            scoring, doubled = _read_rules(rest, scoring, doubled, source, number, problems)
        elif name in seen:
            problems.append(
                Problem(source, number, f"player {name!r} given twice (first on line {seen[name]})")
            )
        else:
            seen[name] = number
            if len(seen) == MAX_PLAYERS + 1:
                message = (
                    f"{name!r} is player {len(seen)}: a game has at most {MAX_PLAYERS} players"
                )
                problems.append(Problem(source, number, message))
            player = _read_player(name, rest, source, number, problems)
            if player is not None:
                players.append(player)
    last = len(text.splitlines()) or 1
    if not seen:
        problems.append(Problem(source, last, "no players: one line per player, NAME: tiles"))
    elif len(seen) < MIN_PLAYERS:
        problems.append(Problem(source, last, "a game needs at least two players"))
    empty = [seen[p.name] for p in players if not p.rack]
    problems.extend(
        Problem(source, line, "a second empty rack: only the winner's may be empty")
        for line in empty[1:]
    )
    problems.extend(_box_problems(players, seen, source))
    if doubled and not empty and rules_line:
        problems.append(Problem(source, rules_line, "doubled: nobody went out (no rack is empty)"))
    if doubled_option and not empty and seen:
        problems.append(Problem("--doubled", 0, "nobody went out (no rack is empty)"))
    if overrides is not None:
        scoring = overrides(scoring)
    if scoring.method is Method.LAID:
        problems.extend(
            Problem(source, seen[p.name], f"the laid scoring needs laid=N for {p.name}")
            for p in players
            if p.laid is None
        )
    else:  # a value laid the scoring has no use for is refused, never silently dropped
        problems.extend(
            Problem(source, seen[p.name], _LAID_UNUSED) for p in players if p.laid is not None
        )
    if problems:
        raise ScoreFileError(sorted(problems, key=lambda p: p.line))
    return ScoreSheet(FinishedGame(tuple(players), doubled or doubled_option), scoring)


def _box_problems(players: list[PlayerResult], seen: dict[str, int], source: str) -> list[Problem]:
    """Racks that hold more of a tile than the box has: 106 tiles up to 4 players, else 160."""
    box = TILE_SETS[106 if len(players) <= 4 else 160]
    counts: Counter[Tile] = Counter()
    problems = []
    for player in players:
        for tile in player.rack:
            counts[tile] += 1
            if counts[tile] == box.limit(tile) + 1:
                what = "jokers" if tile.is_joker else f"copies of {format_tile(tile)}"
                problems.append(
                    Problem(
                        source, seen[player.name], f"too many {what}: the box has {box.limit(tile)}"
                    )
                )
    return problems


def _read_player(
    name: str, text: str, source: str, number: int, problems: list[Problem]
) -> PlayerResult | None:
    tiles: list[Tile] = []
    laid: int | None = None
    ok = True
    for word in split_tiles(text):
        if match := _LAID_RE.fullmatch(word):
            if WHOLE_NUMBER.fullmatch(value := match.group(1)):
                laid = int(value)
            else:
                message = f"laid= needs a whole number, as in laid=40, not {value!r}"
                problems.append(Problem(source, number, message))
                ok = False
            continue
        try:
            tiles.append(parse_tile(word))
        except TileError as error:
            problems.append(Problem(source, number, str(error)))
            ok = False
    return PlayerResult(name, tuple(tiles), laid) if ok else None


def _read_rules(
    text: str,
    scoring: Scoring,
    doubled: bool,
    source: str,
    number: int,
    problems: list[Problem],
) -> tuple[Scoring, bool]:
    """The score file's `rules:` words: a profile, joker-penalty=N, scoring=..., blocked=...,
    doubled."""
    for word in text.split():
        key, _, value = word.lower().partition("=")
        try:
            if key in PROFILES and not value:
                scoring = Scoring.of(PROFILES[key].rules)
            elif key == "doubled" and not value:
                doubled = True
            elif key == "scoring":
                scoring = _replace(scoring, method=Method(value))
            elif key == "blocked":
                scoring = _replace(scoring, blocked=Blocked(value))
            elif key == "joker-penalty":
                penalty = parse_rule_word(word, _rules_for(scoring)).joker_penalty
                scoring = _replace(scoring, joker_penalty=penalty)
            else:
                raise ValueError(
                    f"unknown rule {word!r} (known: a profile such as norwegian, "
                    "joker-penalty=N, scoring=standard|laid, blocked=difference|fewest-tiles, "
                    "doubled)"
                )
        except ValueError as error:
            problems.append(Problem(source, number, _rule_message(key, value, error)))
    return scoring, doubled


def _rule_message(key: str, value: str, error: ValueError) -> str:
    choices = {"scoring": Method, "blocked": Blocked}
    if key in choices:
        known = "|".join(c.value for c in choices[key])
        return f"{key} must be {known}, not {value!r}"
    return str(error)


def _replace(scoring: Scoring, **changes: object) -> Scoring:
    return dataclasses.replace(scoring, **changes)  # type: ignore[arg-type]


def _rules_for(scoring: Scoring) -> Rules:
    return Rules(joker_penalty=scoring.joker_penalty)


def format_score_sheet(sheet: ScoreSheet) -> str:
    """The score file that `parse_score_sheet` reads back to the same sheet."""
    words = []
    default = Scoring()
    if sheet.scoring.joker_penalty != default.joker_penalty:
        words.append(f"joker-penalty={sheet.scoring.joker_penalty}")
    if sheet.scoring.method is not default.method:
        words.append(f"scoring={sheet.scoring.method.value}")
    if sheet.scoring.blocked is not default.blocked:
        words.append(f"blocked={sheet.scoring.blocked.value}")
    if sheet.game.doubled:
        words.append("doubled")
    lines = [f"rules: {' '.join(words)}"] if words else []
    for player in sheet.game.players:
        parts = [format_tiles(player.rack)] if player.rack else []
        if player.laid is not None:
            parts.append(f"laid={player.laid}")
        lines.append(f"{player.name}: {' '.join(parts)}".rstrip())
    return "\n".join(lines) + "\n"


def read_score_sheet(
    path: str | Path,
    overrides: Callable[[Scoring], Scoring] | None = None,
    doubled_option: bool = False,
) -> ScoreSheet:
    """Read a score file, or standard input when the path is `-`."""
    return parse_score_sheet(read_text(path), str(path), overrides, doubled_option)
