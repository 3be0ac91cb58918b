"""`rummisolve hint` end to end: exit codes, exact output, JSON as interface.md says."""

from __future__ import annotations

import dataclasses
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rummisolve.board import STREAM_IN_ONE_BOARD, parse_board
from rummisolve.engine.backends import BACKENDS
from rummisolve.engine.solve import find_move
from rummisolve.move import Status
from rummisolve.render import render_move
from rummisolve.rules import Rules

from .cli import run

BOARD = """\
table:
R3 R4 R5
K7 R7 B7 J
rack: R2 B5 O5 K1
"""
PUZZLES = Path(__file__).parent.parent / "puzzles" / "rules"
FOOTER = re.compile(r"\(optimal, \d+ ms, clp\)\n$")


@pytest.fixture
def board_file(tmp_path: Path) -> Path:
    path = tmp_path / "board.txt"
    path.write_text(BOARD)
    return path


def test_human_output(board_file: Path) -> None:
    code, out, err = run("hint", str(board_file))
    assert code == 0 and err == ""
    body, footer = out.rsplit("\n(", 1)
    assert body == (
        "Play 3 tiles (12 points): R2 B5 O5\n"
        "\n"
        "At the table (* = from your rack):\n"
        "  1. take R5 from [R3 R4 R5]\n"
        "  2. add R2* to [R3 R4]: R2* R3 R4\n"
        "  3. lay R5 O5* B5* new\n"
        "\n"
        "Table after the move:\n"
        "  R2* R3 R4\n"
        "  R5 O5* B5*\n"
        "  K7 R7 B7 J=O7\n"
        "\n"
        "Rack after: K1"
    )
    assert FOOTER.match("(" + footer)


def test_json_output(board_file: Path) -> None:
    code, out, _ = run("hint", str(board_file), "--json")
    assert code == 0
    answer = json.loads(out)
    assert answer["seconds"] >= 0
    del answer["seconds"], answer["steps"], answer["actions"], answer["tiles_moved"]
    assert answer.pop("rules") == Rules().as_json()
    assert answer == {
        "status": "optimal",
        "tiles_played": 3,
        "value_played": 12,
        "played": ["R2", "B5", "O5"],
        "table": [["R2", "R3", "R4"], ["R5", "O5", "B5"], ["K7", "R7", "B7", "J"]],
        "stand_for": [[], [], ["O7"]],
        "rack": ["K1"],
        "sets_changed": 1,
        "backend": "clp",
    }


def test_no_move(tmp_path: Path) -> None:
    code, out, _ = run("hint", "-", stdin="table:\nR3 R4 R5\nrack: K9\n")
    assert code == 0
    assert out.startswith("No move: draw a tile.\n")
    code, out, _ = run("hint", "-", "--json", stdin="table:\nR3 R4 R5\nrack: K9\n")
    answer = json.loads(out)
    assert (answer["status"], answer["table"], answer["rack"]) == (
        "no-move",
        [["R3", "R4", "R5"]],
        ["K9"],
    )


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_every_backend_from_the_command_line(board_file: Path, backend: str) -> None:
    code, out, _ = run("hint", str(board_file), "--json", "--backend", backend)
    assert code == 0 and json.loads(out)["tiles_played"] == 3


def test_rule_options_win_over_the_file(tmp_path: Path) -> None:
    path = tmp_path / "wrap.txt"
    path.write_text("rules: wraparound\nrack: K12 K13 K1\n")
    assert json.loads(run("hint", str(path), "--json")[1])["tiles_played"] == 3
    code, out, _ = run("hint", str(path), "--json", "--no-wraparound")
    assert code == 0 and json.loads(out)["tiles_played"] == 0


def test_bad_board_is_one_line_and_exit_1(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("table:\nR3 R4 X5\nrack: R1\n")
    code, out, err = run("hint", str(path))
    assert (code, out, err) == (
        1,
        "",
        f"{path}:2: unknown tile 'X5': colour must be K, R, O (or Y) or B\n",
    )


@pytest.mark.parametrize("maker", ["generate", "puzzle"])
def test_a_stream_saved_to_one_file_is_one_line_naming_where_board_2_starts(
    tmp_path: Path, maker: str
) -> None:
    """`generate --count 2 > f` (or puzzle's) then `hint f`: one line, not every section
    of the second board refused as given twice."""
    kind = ["--kind", "all-out"] if maker == "puzzle" else []
    stream = run(maker, "--count", "2", "--seed", "1", *kind).out
    path = tmp_path / "two.txt"
    path.write_text(stream)
    second = stream.splitlines().index(next(x for x in stream.splitlines() if "board 2" in x))
    code, out, err = run("hint", str(path))
    assert (code, out) == (1, "")
    assert err == f"{path}:{second + 1}: {STREAM_IN_ONE_BOARD}\n"
    assert run("check", "-", stdin=stream).code == 0


def test_missing_file(tmp_path: Path) -> None:
    code, _, err = run("hint", str(tmp_path / "nope.txt"))
    assert (code, err) == (1, f"{tmp_path / 'nope.txt'}: cannot read: No such file or directory\n")


def test_usage_error_is_exit_2(board_file: Path) -> None:
    code, _, err = run("hint", str(board_file), "--backend", "gurobi")
    assert code == 2 and "Invalid value for '--backend'" in err


def test_colour_only_when_asked() -> None:
    board = parse_board(BOARD)
    move = find_move(board)
    assert "\x1b[" not in render_move(board, move, colour=False)
    assert "\x1b[31mR2*\x1b[0m" in render_move(board, move, colour=True)


def test_stdout_holds_only_the_json(board_file: Path) -> None:
    """HiGHS prints a banner from C++ on its first start: it must not reach stdout; nor
    may anything CLP prints."""
    for backend in ("highs", "clp", "pulp-highs"):
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "rummisolve",
                "hint",
                str(board_file),
                "--json",
                "--backend",
                backend,
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        assert json.loads(result.stdout)["status"] == "optimal"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["generate", "--count", "1", "--out", "{tmp}/file/sub"],
            "{tmp}/file/sub: Not a directory",
        ),
        (["generate", "--count", "1", "--out", "{tmp}/file"], "{tmp}/file: File exists"),
        (["play", "--players", "2", "--games", "1", "--log", "{tmp}"], "{tmp}: Is a directory"),
    ],
    ids=["out-below-a-file", "out-is-a-file", "log-is-a-folder"],
)
def test_files_that_cannot_be_written_are_one_line_and_exit_1(
    tmp_path: Path, args: list[str], message: str
) -> None:
    (tmp_path / "file").write_text("")
    code, out, err = run(*(a.format(tmp=tmp_path) for a in args))
    assert (code, out, err) == (1, "", f"Error: {message.format(tmp=tmp_path)}\n")


def test_output_that_cannot_be_written_is_one_line_and_exit_1() -> None:
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "rummisolve", "hint", str(PUZZLES / "000-extend-and-split.txt")],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
        )
    assert (result.returncode, result.stderr) == (
        1,
        "Error: cannot write standard output: No space left on device\n",
    )


def test_a_time_limit_must_be_a_number_of_seconds(board_file: Path) -> None:
    code, _, err = run("hint", str(board_file), "--time-limit", "nan")
    assert code == 2 and "nan is not a number of seconds" in err


def test_nothing_to_play_needs_no_backend(backend: str) -> None:
    """cbc used to fail on a model with no constraint: an empty rack is simply no move."""
    code, out, _ = run(
        "hint",
        "-",
        "--json",
        "--backend",
        backend,
        stdin="rules: initial-meld=0\nopened: no\nrack:\n",
    )
    assert code == 0 and json.loads(out)["status"] == "no-move"


@pytest.mark.parametrize(
    ("rack", "options", "first_line", "laid"),
    [
        pytest.param(
            "R11 R12 R13 J",
            ["--not-opened", "--wraparound"],
            "Play 4 tiles, an initial meld worth 46 points (30 needed): R11 R12 R13 J=R10",
            "J*=R10 R11* R12* R13*",
            id="meld-of-11-12-13-and-a-joker-with-wraparound",
        ),
        pytest.param(
            "R11 R12 R13 J",
            ["--wraparound"],
            "Play 4 tiles (66 points): R11 R12 R13 J=R10",
            "J*=R10 R11* R12* R13*",
            id="opened-the-same-tiles-with-wraparound",
        ),
    ],
)
def test_the_first_line_names_what_a_joker_stands_for_as_the_table_reads_it(
    rack: str, options: list[str], first_line: str, laid: str
) -> None:
    """The first line read the played tiles, in the order of the rack, as if they made a
    set: R11 R12 R13 J with wraparound read the joker as the R1, while the table laid it
    as the R10 and the meld's 46 points counted the R10."""
    code, out, _ = run("hint", "--rack", rack, *options)
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == first_line
    assert f"  {laid}" in lines


def test_no_initial_meld_says_why() -> None:
    code, out, _ = run("hint", "-", stdin="opened: no\nrules: initial-meld=50\nrack: R9 R10 R11\n")
    assert code == 0
    assert out.startswith("No move: no initial meld worth 50 points; draw a tile.\n")


class CtrlCAtTheKeyboard(io.BytesIO):
    """Standard input from a terminal where Ctrl-C is pressed instead of a board typed."""

    def read(self, size: int | None = -1, /) -> bytes:
        if size == 0:
            return b""
        raise KeyboardInterrupt


def test_ctrl_c_is_interrupted_not_a_traceback() -> None:
    """One handler takes Ctrl-C for the whole command: here while the board is read."""
    assert run("hint", "-", stdin=CtrlCAtTheKeyboard()) == (130, "", "\ninterrupted\n")


@pytest.mark.parametrize("listing", [["--all"], ["--limit", "2"], ["--criteria", "tiles"]])
def test_next_with_every_best_move_is_a_usage_error_not_ignored(
    tmp_path: Path, listing: list[str]
) -> None:
    """`hint --all --next FILE` listed the moves and wrote no FILE, silently: which move's
    board would it be?"""
    after = tmp_path / "next.txt"
    code, out, err = run(
        "hint", str(PUZZLES / "012-interface-hint-example.txt"), *listing, "--next", str(after)
    )
    assert (code, out) == (2, "")
    assert err.endswith("Error: --next writes the board after one move: not with --all\n")
    assert not after.exists()


@pytest.mark.parametrize(
    ("args", "first_line"),
    [
        pytest.param(
            ["--table", "R2 R3 R4", "--rack", "R1"], "Play 1 tile (1 point): R1", id="one-point"
        ),
        pytest.param(
            ["--rack", "R1 K1 B1", "--not-opened", "--initial-meld", "1"],
            "Play 3 tiles, an initial meld worth 3 points (1 needed): R1 K1 B1",
            id="meld-of-one-point-needed",
        ),
        pytest.param(
            ["--rack", "R1", "--not-opened", "--initial-meld", "1"],
            "No move: no initial meld worth 1 point; draw a tile.",
            id="no-meld-of-one-point",
        ),
    ],
)
def test_one_point_is_said_in_the_singular(args: list[str], first_line: str) -> None:
    """'Play 1 tile (1 points)' said the tiles in the singular and the points not."""
    code, out, _ = run("hint", *args)
    assert (code, out.splitlines()[0]) == (0, first_line)


@pytest.mark.parametrize(
    ("puzzle", "freeing", "as_it_lies"),
    [
        pytest.param(
            "jokers/001-free-joker-from-run-start.txt",
            "R4",
            ["J", "R5", "R6"],
            id="run-laid-joker-first",
        ),
        pytest.param(
            "rulebook/005-retrieval-after-the-initial-meld.txt",
            "B9",
            ["K9", "R9", "J"],
            id="group-of-three-joker-either-colour",
        ),
        pytest.param(
            "profiles/003-hebrew.txt", "R1", ["R11", "R12", "R13", "J"], id="hebrew-wraps-to-r1"
        ),
        pytest.param(
            "--table=J K8 K9,--rack=K6 K7 R2 R4",
            "K7",
            ["J", "K8", "K9"],
            id="run-joker-at-the-low-end",
        ),
    ],
)
def test_a_joker_freed_by_a_rack_tile_is_a_swap_on_the_set_as_it_lies(
    puzzle: str, freeing: str, as_it_lies: list[str]
) -> None:
    """Under the rules as written the rack's tile takes the joker's place first (format.md:
    'a joker the move frees comes first'), and each set is named as it looks. Here the
    steps said 'take J from [R5 R6 J=R7]' for the table's J R5 R6, then added the R4
    elsewhere: a player following them takes a joker the rules let nobody take."""
    position = puzzle.split(",") if puzzle.startswith("--") else [str(PUZZLES.parent / puzzle)]
    code, out, _ = run("hint", *position, "--json")
    assert code == 0
    first = json.loads(out)["actions"][0]
    assert (first["action"], first["tiles"], first["set"]) == ("replace", [freeing], as_it_lies)


def test_a_joker_that_goes_on_beside_a_tile_of_its_set_is_not_taken_alone() -> None:
    """Under the rules as written a joker leaves its set only freed, or along with a part
    of it (rules.md, point 2): here with the B3, standing for the B2, the set read so and
    split where it lies. The steps said 'take J from [J=B2 B3 B4 B5]', the joker alone:
    the same table in the end, but a move the player is challenged for."""
    code, out, _ = run("hint", "--table", "J B3 B4 B5", "--rack", "B1 B3", "--json")
    assert code == 0
    said = [a["text"] for a in json.loads(out)["actions"]]
    assert said == [
        "split [J=B2 B3 B4 B5] into [J=B2 B3] [B4 B5]",
        "add B1* to [J=B2 B3]: B1* J=B2 B3",
        "add B3* to [B4 B5]: B3* B4 B5",
    ]


def test_a_move_cut_short_by_the_time_limit_says_it_is_not_proved_best() -> None:
    """A move found when the time limit struck was shown as the answer, the only sign
    'feasible' in the last line: a word a player does not read as 'maybe not the best'."""
    board = parse_board(BOARD)
    move = dataclasses.replace(find_move(board), status=Status.FEASIBLE)
    lines = render_move(board, move).splitlines()
    assert lines[0] == "Play 3 tiles (12 points): R2 B5 O5"
    assert lines[-2:] == [
        "Not proved best: the time limit cut the search short (a longer --time-limit may"
        " find a better move).",
        f"(feasible, {move.seconds * 1000:.0f} ms, clp)",
    ]


def hint_steps(*args: str) -> list[str]:
    """`hint`'s lines of 'At the table' and 'Table after the move', without their headings
    (it must succeed)."""
    code, out, _ = run("hint", *args)
    assert code == 0
    lines = out.splitlines()
    start = lines.index("At the table (* = from your rack):")
    end = next(n for n, line in enumerate(lines) if line.startswith("Rack after:"))
    return [line for line in lines[start + 1 : end] if line.startswith("  ")]


@pytest.mark.parametrize(
    ("rack", "expected"),
    [
        pytest.param(
            "O2",
            ["  1. add O2* to [O3 J=O4 J=O5]: O2* O3 J=O4 J=O5", "  O2* O3 J=O4 J=O5"],
            id="added-below-frees-nothing",
        ),
        pytest.param(
            "O5",
            ["  1. add O5* to [J=O2 O3 J=O4]: J=O2 O3 J=O4 O5*", "  J=O2 O3 J=O4 O5*"],
            id="added-above-read-the-other-way",
        ),
        pytest.param(
            "O1 O4",
            [
                "  1. swap O4* for the joker in [O3 J=O4 J=O5]: O3 O4* J=O5, the joker in hand",
                "  2. add O1* J=O2 to [O3 O4* J=O5]: O1* J=O2 O3 O4* J=O5",
                "  O1* J=O2 O3 O4* J=O5",
            ],
            id="freed-beside-two-rack-tiles",
        ),
        pytest.param(
            "O2 K9 R9",
            [
                "  1. swap O2* for the joker in [O3 J=O1 J=O2]: J=O1 O2* O3, the joker in hand",
                "  2. lay K9* R9* J=O9 new",
                "  J=O1 O2* O3",
                "  K9* R9* J=O9",
            ],
            id="freed-for-a-new-group",
        ),
    ],
)
def test_twin_joker_sets_free_only_what_the_move_frees_and_the_other_stays_as_it_lies(
    rack: str, expected: list[str]
) -> None:
    """Two sets `O3 J J` alike: the narration read a joker of one as freed by the O2 (or
    the O5) where the move only adds the tile (the freed joker then lay beside one rack
    tile: a step the rules forbid), and showed the set left alone in that reading too."""
    assert hint_steps("--table", "O3 J J | O3 J J", "--rack", rack, "--tile-set", "160") == [
        *expected,
        "  O3 J=O4 J=O5",
    ]


@pytest.mark.parametrize(
    ("table", "rack", "expected"),
    [
        pytest.param(
            "J R8 O8 | K8 J K10 K11",
            "B8 K8",
            [
                "  1. swap K8* for the joker in [J=K8 R8 O8]: K8* R8 O8, the joker in hand",
                "  2. take K8* from [K8* R8 O8]",
                "  3. take K8 from [K8 J=K9 K10 K11]",
                "  4. lay K8* J=R8 B8* new",
                "  5. add K8 to [R8 O8]: K8 R8 O8",
                "  K8* J=R8 B8*",
                "  K8 R8 O8",
                "  J=K9 K10 K11",
            ],
            id="taken-back-for-the-freed-joker",
        ),
        pytest.param(
            "J K10 K11",
            "K9 K9 K10",
            [
                "  1. swap K9* for the joker in [J=K9 K10 K11]: K9* K10 K11, the joker in hand",
                "  2. lay J=K8 K9* K10* new",
                "  J=K8 K9* K10*",
                "  K9* K10 K11",
            ],
            id="the-rack-copy-stays",
        ),
    ],
)
def test_a_tile_from_the_rack_is_starred_in_every_step_and_lies_beside_the_joker_it_frees(
    table: str, rack: str, expected: list[str]
) -> None:
    """The tile that freed a joker was shown unstarred in later steps; and the freed joker
    was laid beside the table's copy of a tile while the rack's stayed where it freed it:
    one tile from the rack beside the freed joker, which the rules forbid."""
    assert hint_steps("--table", table, "--rack", rack) == expected


def test_a_step_names_the_copy_it_takes_where_a_joker_own_and_another_are_in_hand() -> None:
    """`J B7 B8 B9` gives its joker (the B6) and its B7 to `B3 B4 B5`, and `B6 B7 B8` its
    B7 to what is left, `B8 B9`: both B7s are in the hand at once in any order, and the
    player who added the joker's own to `B8 B9` left the joker beside another set's B7
    and B8 (rule 2). The step names the copy; --json, the take it comes from."""
    position = ["--table", "B3 J B5 | B6 B7 B8 | J B7 B8 B9", "--rack", "O6 B4 B11 B13 J"]
    assert hint_steps(*position, "--tile-set", "160")[:7] == [
        "  1. swap B4* for the joker in [B3 J=B4 B5]: B3 B4* B5, the joker in hand",
        "  2. lay B11* J=B12 B13* new",
        "  3. take B7 B8 from [B6 B7 B8]",
        "  4. add J*=K6 O6* to [B6]: J*=K6 O6* B6",
        "  5. take J=B6 B7 from [J=B6 B7 B8 B9]",
        "  6. add B7 (B7 from [B6 B7 B8]) to [B8 B9]: B7 B8 B9",
        "  7. add J=B6 B7 B8 to [B3 B4* B5]: B3 B4* B5 J=B6 B7 B8",
    ]
    code, out, _ = run("hint", *position, "--tile-set", "160", "--json")
    assert code == 0
    copies = [action.get("copies") for action in json.loads(out)["actions"]]
    assert copies == [None] * 5 + [[{"tile": "B7", "take": 2}], None]


def test_json_names_the_rack_tiles_laid_earlier_that_a_step_shows() -> None:
    """The O3 that freed the joker is starred again where the joker's add shows it; the
    JSON said only the add's own rack tile, so the page drew the O3 unstarred."""
    code, out, _ = run("hint", "--table", "J O4 O5 O6", "--rack", "O3 O8 K2", "--json")
    assert code == 0
    actions = json.loads(out)["actions"]
    assert [(a["text"], a.get("from_rack_earlier")) for a in actions] == [
        ("swap O3* for the joker in [J=O3 O4 O5 O6]: O3* O4 O5 O6, the joker in hand", None),
        ("add J=O7 O8* to [O3* O4 O5 O6]: O3* O4 O5 O6 J=O7 O8*", ["O3"]),
    ]


def test_a_joker_that_stays_in_a_group_of_three_keeps_its_colour_everywhere(
    tmp_path: Path,
) -> None:
    """`K9 R9 O9 J` gives its O9 away: the joker it keeps stands for the B9, as it did.
    Shown, in --json's stand_for and in --next's board, it read as the O9 (the first
    reading of `K9 R9 J`): a tile the next player could free it with."""
    position = ["--table", "K9 R9 O9 J | O10 O11 O12", "--rack", "O8"]
    assert hint_steps(*position, "--next", str(tmp_path / "next.txt"))[-2:] == [
        "  K9 R9 J=B9",
        "  O8* O9 O10 O11 O12",
    ]
    assert (tmp_path / "next.txt").read_text().splitlines()[3] == "K9 R9 J=B9"
    code, out, _ = run("hint", *position, "--json")
    assert code == 0
    assert json.loads(out)["stand_for"] == [["B9"], []]


@pytest.mark.parametrize(
    ("table", "rack", "expected"),
    [
        pytest.param(
            "R5 R6 J R8 R9",
            "R11 J",
            [
                "  1. add J*=R10 R11* to [R5 R6 J=R7 R8 R9]: R5 R6 J=R7 R8 R9 J*=R10 R11*",
                "  R5 R6 J=R7 R8 R9 J*=R10 R11*",
            ],
            id="the-rack-joker-beside-the-table-one",
        ),
        pytest.param(
            "R8 J R10 | O6 O7 O8 J O10",
            "R9 O9 K13 O13 J",
            [
                "  1. swap R9* for the joker in [R8 J=R9 R10]: R8 R9* R10, the joker in hand",
                "  2. swap O9* for the joker in [O6 O7 O8 J=O9 O10]: O6 O7 O8 O9* O10,"
                " the joker in hand",
                "  3. add J*=R6 J=R7 to [R8 R9* R10]: J*=R6 J=R7 R8 R9* R10",
                "  4. lay K13* J=R13 O13* new",
                "  J*=R6 J=R7 R8 R9* R10",
                "  O6 O7 O8 O9* O10",
                "  K13* J=R13 O13*",
            ],
            id="two-freed-one-beside-the-rack-joker",
        ),
    ],
)
def test_the_starred_joker_is_the_racks_and_each_freed_one_lies_beside_two_rack_tiles(
    table: str, rack: str, expected: list[str]
) -> None:
    """The first joker of a set was starred, though the table's stood there (`J*=R7`); and
    two freed jokers were laid beside the R9 alone, the rack's joker with the K13 O13."""
    assert hint_steps("--table", table, "--rack", rack, "--tile-set", "160") == expected


@pytest.mark.parametrize(
    ("table", "rack", "expected"),
    [
        pytest.param(
            "K2 K3 K4 K5 J | K4 K5 K6",
            ["--rack", "K7 R6 B6"],
            [
                "  1. split [K2 K3 K4 K5 J=K6] into [K2 K3] [K4 K5 J=K6]",
                "  2. take K4 K5 from [K4 K5 K6]",
                "  3. add K7* to [K4 K5 J=K6]: K4 K5 J=K6 K7*",
                "  4. add K4 K5 to [K2 K3]: K2 K3 K4 K5",
                "  5. add R6* B6* to [K6]: K6 R6* B6*",
            ],
            id="the-piece-it-lies-in-stays",
        ),
        pytest.param(
            "O10 O11 O12 | O9 O10 O11 O12 J",
            ["--rack", "K10 R10"],
            [
                "  1. take O9 O10 from [O9 O10 O11 O12 J=O13]",
                "  2. add O9 to [O10 O11 O12]: O9 O10 O11 O12",
                "  3. lay K10* R10* O10 new",
            ],
            id="its-set-gives-the-tiles-away",
        ),
        pytest.param(
            "J B8 B9 B10 B11 B12 | B3 B4 B5 J",
            ["--rack", "B8"],
            [
                "  1. take J=B7 B8 from [J=B7 B8 B9 B10 B11 B12]",
                "  2. add B8* to [B9 B10 B11 B12]: B8* B9 B10 B11 B12",
                "  3. add J=B7 B8 to [B3 B4 B5 J=B6]: B3 B4 B5 J=B6 J=B7 B8",
            ],
            id="taken-with-a-tile-of-its-set",
        ),
        pytest.param(
            "J J K9 K10 K11",
            ["--rack", "K9"],
            [
                "  1. split [J=K7 J=K8 K9 K10 K11] into [J=K7 J=K8 K9] [K10 K11]",
                "  2. add K9* to [K10 K11]: K9* K10 K11",
            ],
            id="not-cut-off-alone",
        ),
        pytest.param(
            "J J R11 R12 R13 | K1 K2 K3 | R10 R11 J R13",
            ["--rack", "R10 O3 B7 B10", "--tile-set", "160"],
            [
                "  1. swap R10* for the joker in [J=R9 J=R10 R11 R12 R13]: J=R9 R10* R11 R12"
                " R13, the joker in hand",
                "  2. take R10* R12 from [J=R9 R10* R11 R12 R13]",
                "  3. take R10 J=R12 from [R10 R11 J=R12 R13]",
                "  4. add J=R12 R10 to [J=R9 R11 R13]: J=R9 R10 R11 J=R12 R13",
                "  5. add R12 to [R11 R13]: R11 R12 R13",
            ],
            id="a-tile-of-its-set-not-the-racks",
        ),
        pytest.param(
            "K2 R2 O2 B2 | K8 K9 K10 K11 | K9 J K11 J",
            ["--rack", "K7 K11 R9 R9 O9", "--tile-set", "160"],
            [
                "  1. take K8 K10 K11 from [K8 K9 K10 K11]",
                "  2. split [K9 J=K10 K11 J=K12] into [K9 J=K10] [K11 J=K12]",
            ],
            id="both-jokers-of-a-set-each-with-a-tile",
        ),
        pytest.param(
            "B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13 J",
            ["--rack", "B5 B11", "--rules", "hebrew"],
            [
                "  1. split [B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13 J=B1] into [B2 B3 B4]"
                " [B5 B6 B7 B8 B9 B10] [B11 B12 B13 J=B1]",
            ],
            id="wraparound-joker-where-it-lies",
        ),
    ],
)
def test_a_joker_that_is_not_freed_moves_only_along_with_a_tile_of_its_set(
    table: str, rack: list[str], expected: list[str]
) -> None:
    """'take J from [K2 K3 K4 K5 J=K6]' then 'add J K7* to [K4 K5]': the new table is
    legal (the K4 K5 there are tiles alike), but a player who takes a joker alone out of
    a set, not freed, is challenged. The joker stays in a piece of its set, or goes with
    a tile of it (its set's, not the rack's tile that freed its other joker), and the
    tiles alike go where the others were."""
    lines = hint_steps("--table", table, *rack)
    assert lines[: len(expected)] == expected


def test_a_joker_moved_with_a_tile_of_its_set_is_not_the_starred_one() -> None:
    """The jokers added to [O4 J=O6] are the table's O2, moved with its O3, and the
    rack's: the step read them as the run J O3 J (J*=O2 ... J=O4) and starred the
    table's, and the set made starred the O2 where the rack's joker is the O5."""
    table = "K4 K5 K6 K7 K8 K9 K10 K11 K12 | O4 O5 J | J O3 O4"
    rack = "K4 K13 R4 R5 R9 R10 O10 B1 B5 B9 B13 J"
    lines = hint_steps("--table", table, "--rack", rack, "--tile-set", "160")
    assert "  4. take J=O2 O3 from [J=O2 O3 O4]" in lines
    assert "  8. add J=O2 O3 J*=O5 to [O4 J=O6]: J=O2 O3 O4 J*=O5 J=O6" in lines
    assert "  J=O2 O3 O4 J*=O5 J=O6" in lines


def test_two_sets_alike_once_laid_as_read_keep_their_own_readings() -> None:
    """`J J O5` read as a group (K5, B5) and `O5 J J` as the O4 and O6 are both laid
    `J O5 J` as read: looked up by their tiles, both showed the O4 and O6, and the group's
    R5 was added to a run's jokers."""
    position = ["--table", "J J O5 | O5 J J", "--rack", "R5 O7 K1", "--tile-set", "160"]
    assert hint_steps(*position) == [
        "  1. add O7* to [J=O4 O5 J=O6]: J=O4 O5 J=O6 O7*",
        "  2. add R5* to [J=K5 O5 J=B5]: J=K5 R5* O5 J=B5",
        "  J=O4 O5 J=O6 O7*",
        "  J=K5 R5* O5 J=B5",
    ]


def test_a_set_with_one_joker_declared_reads_the_other_as_its_set_allows(tmp_path: Path) -> None:
    """`J=K3 J O3`: its first joker is the K3, so the set is a group; the other was read
    by its place in a run (the O2), a set no group reading holds, and --next wrote it so."""
    board = tmp_path / "board.txt"
    board.write_text("table:\nJ=K3 J O3\nrack: K1 R1 O1\n")
    assert hint_steps(str(board), "--next", str(tmp_path / "next.txt"))[-2:] == [
        "  J=K3 J=R3 O3",
        "  K1* R1* O1*",
    ]
    assert "J=K3 J=R3 O3" in (tmp_path / "next.txt").read_text().splitlines()


def test_a_set_alike_a_locked_one_is_taken_from_before_the_two_look_alike() -> None:
    """The O8* frees the joker of the locked `O3 .. O7 J` and moves on: that set then
    looks like the other `O3 O4 O5 O6 O7`, and `take O3 O4 from [O3 O4 O5 O6 O7]`, printed
    after, could be followed out of the locked one. The other's tiles come first."""
    position = ["--table", "O3 O4 O5 O6 O7 J | O3 O4 O5 O6 O7 | O4 O5 O6 J | B2 B3 B4"]
    position += ["--rack", "K4 K8 O8 B1", "--rules", "norwegian", "--tile-set", "160"]
    assert hint_steps(*position)[:4] == [
        "  1. swap O8* for the joker in [O3 O4 O5 O6 O7 J=O8]: O3 O4 O5 O6 O7 O8*,"
        " the joker in hand",
        "  2. take O3 O4 from [O3 O4 O5 O6 O7]",
        "  3. take O8* from [O3 O4 O5 O6 O7 O8*]",
        "  4. take B4 from [B2 B3 B4]",
    ]


def test_an_add_to_one_of_sets_alike_says_not_which_where_either_will_do() -> None:
    """The O2* goes to one of two `O3 O4 O5 O6 O7`, one of them locked: a locked set may
    grow, and no step names either after, so the step reads as it always did."""
    position = ["--table", "O3 O4 O5 O6 O7 J | O3 O4 O5 O6 O7", "--rack", "K8 O8 O2"]
    assert hint_steps(*position, "--rules", "norwegian", "--tile-set", "160")[:4] == [
        "  1. swap O8* for the joker in [O3 O4 O5 O6 O7 J=O8]: O3 O4 O5 O6 O7 O8*,"
        " the joker in hand",
        "  2. take O8* from [O3 O4 O5 O6 O7 O8*]",
        "  3. add O2* to [O3 O4 O5 O6 O7]: O2* O3 O4 O5 O6 O7",
        "  4. lay K8* J=R8 O8* new",
    ]
