"""The page of `rummisolve serve` in a real browser: Debian's chromium, headless, driven
by Playwright on a phone's screen. The README's first example is tapped in, and the page
shows the move `hint` prints.

`RUMMISOLVE_SCREENSHOTS=docs/images pytest tests/test_browser.py` also saves the
README's pictures of the page."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, ViewportSize, sync_playwright

from .cli import run
from .serving import Server, serving

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "puzzles/rules/012-interface-hint-example.txt"
PHONE = ViewportSize(width=390, height=844)


def chromium() -> str:
    """Debian's chromium (never a browser Playwright downloads); CI must have it."""
    found = os.environ.get("RUMMISOLVE_CHROMIUM") or shutil.which("chromium")
    if found is None:
        message = "no chromium on PATH: apt-get install chromium"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    path = chromium()
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=["--no-proxy-server"])
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with serving() as started:
        yield started


@contextlib.contextmanager
def opened(browser: Browser, server: Server, screen: ViewportSize, **device: Any) -> Iterator[Page]:
    """The page on a touch screen of this size, loaded (its profiles in), closed after."""
    context = browser.new_context(viewport=screen, is_mobile=True, has_touch=True, **device)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(server.url)
    page.wait_for_selector("#profile option", state="attached")
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def page(browser: Browser, server: Server) -> Iterator[Page]:
    with opened(browser, server, PHONE, device_scale_factor=2) as loaded:
        yield loaded


def test_the_page_loads_without_an_error(browser: Browser, server: Server) -> None:
    """Chromium asked /favicon.ico, which was a 404: 'Failed to load resource' in the
    console of every page opened."""
    page = browser.new_page()
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.goto(server.url)
    page.wait_for_selector("#profile option", state="attached")
    page.wait_for_load_state("networkidle")
    assert errors == []
    page.close()


def tap_tiles(page: Page, words: str) -> None:
    """Each tile as a player taps it: its colour (when it changes), then its number."""
    for word in words.split():
        if word == "J":
            page.tap("#joker")
            continue
        page.tap(f'[data-colour="{word[0]}"]')
        page.tap(f'[data-number="{word[1:]}"]')


def ask(page: Page, rack: str, shown: str = "#answer") -> None:
    """The rack tapped in, then Best move, until `shown` (the answer, or the problems) shows."""
    page.tap("#to-rack")
    tap_tiles(page, rack)
    page.tap("#solve")
    page.wait_for_selector(f"{shown}:not([hidden])")


def shown_rows(page: Page) -> list[str]:
    """The new table as the page shows it, written as `hint` writes it: `R2* R3 ...`."""
    rows = []
    for item in page.locator("#after li").all():
        tiles = []
        for tile in item.locator(".tile").all():
            face, _, stands = str(tile.get_attribute("data-tile")).partition("=")
            star = "*" if "from-rack" in str(tile.get_attribute("class")) else ""
            tiles.append(face + star + (f"={stands}" if stands else ""))
        rows.append(" ".join(tiles) + "   " + item.locator(".sr").inner_text())
    return rows


def screenshot(page: Page, name: str) -> None:
    folder = os.environ.get("RUMMISOLVE_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / name))


def tap_the_first_example(page: Page) -> None:
    """The README's first example, tapped in: its two sets, then its rack."""
    page.tap("#new-set")
    tap_tiles(page, "R3 R4 R5")
    page.tap("#new-set")
    tap_tiles(page, "K7 R7 B7 J")
    page.tap("#to-rack")
    tap_tiles(page, "R2 B5 O5 J")


def test_the_first_example_tapped_in_shows_the_move_hint_prints(page: Page) -> None:
    tap_the_first_example(page)
    screenshot(page, "serve-position.png")
    page.tap("#solve")
    page.wait_for_selector("#answer:not([hidden])")
    screenshot(page, "serve-answer.png")

    code, printed, _ = run("hint", str(EXAMPLE))
    assert code == 0
    lines = printed.splitlines()
    assert page.inner_text("#headline") == lines[0].split(":")[0]
    actions = [line.split(". ", 1)[1] for line in lines[3:5]]
    assert page.locator("#actions li .sr").all_inner_texts() == actions
    table = [line.strip() for line in lines[7:10]]
    assert [row.split("   ")[0] for row in shown_rows(page)] == table
    assert page.inner_text("#rack-after") == "(empty: Rummikub!)"
    assert page.is_hidden("#hold-apart")


def test_a_refused_position_names_the_set(page: Page) -> None:
    page.tap("#new-set")
    tap_tiles(page, "R1 R2 R4")
    ask(page, "K5", "#problems")
    assert page.inner_text("#problems li") == "Set 1: not a valid run or group: R1 R2 R4"


def test_an_initial_meld_is_headed_as_hint_heads_it(page: Page) -> None:
    """Before the meld the page said 'Play 6 tiles (90 points)', the points off the rack
    with the joker at 30: not what the meld is worth, which `hint` says (54 of 30)."""
    page.uncheck("#opened")
    ask(page, "R10 R11 J K7 O7 B7 K1")
    code, printed, _ = run("hint", "--rack", "R10 R11 J K7 O7 B7 K1", "--not-opened")
    assert code == 0
    first = printed.splitlines()[0]
    assert first.startswith("Play 6 tiles, an initial meld worth 54 points (30 needed): ")
    assert page.inner_text("#headline") == first.split(":")[0]


def ask_for_the_r1(page: Page) -> None:
    """R2 R3 R4 on the table, R1 on the rack: Best move, and its answer shown."""
    page.tap("#new-set")
    tap_tiles(page, "R2 R3 R4")
    ask(page, "R1")


def test_one_point_is_headed_in_the_singular_as_hint_heads_it(page: Page) -> None:
    ask_for_the_r1(page)
    assert page.inner_text("#headline") == "Play 1 tile (1 point)"


def test_a_tile_tapped_out_while_the_answer_shows_takes_the_answer_away(page: Page) -> None:
    """The table stays tappable under the answer: a stray tap took the R5 out of R3 R4 R5
    and the answer went on showing 'add R2* to [R3 R4 R5]', its Next turn putting the R5
    back; the keypad, and its ⌫, hidden. A tap on a tile now selects it, and brings the
    keypad back to change it."""
    page.tap("#new-set")
    tap_tiles(page, "R3 R4 R5")
    ask(page, "R2 K9")
    page.tap('#sets [data-tile="R5"]')
    assert page.is_hidden("#answer")
    assert page.is_visible("#keypad")
    page.tap("#delete")
    assert page.locator("#sets .tile").all_inner_texts() == ["3", "4"]


def test_a_tile_tapped_in_while_it_thinks_is_in_the_answer(page: Page) -> None:
    """The keypad stays live while the server thinks (up to its time limit): a tile
    tapped in then was missing from the answer shown, 'Rack after: 9' without the R6 on
    the rack above it, and Next turn dropped the R6; the tap also gave Best move back,
    for a second question beside the first."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        """The first request waits for the test; any later one goes through."""
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route("**/api/hint", hold)
    page.tap("#new-set")
    tap_tiles(page, "R3 R4 R5")
    page.tap("#to-rack")
    tap_tiles(page, "R2 K9")
    page.tap("#solve")
    page.wait_for_function("document.querySelector('#solve').disabled")
    tap_tiles(page, "R6")
    assert page.is_disabled("#solve")  # one question at a time
    held[0].continue_()
    page.wait_for_selector("#answer:not([hidden])")
    assert page.inner_text("#headline") == "Play 2 tiles (8 points)"
    assert page.inner_text("#rack-after") == "9"


def test_serve_started_with_other_rules_is_the_page_s_first_choice_again(browser: Browser) -> None:
    """The page kept the profile last chosen (here on Clear, which stores it) and put it
    before the rules of the server: 'serve --rules hebrew' the next evening, on the same
    port, showed and sent 'rules: official', overruling the server without a word."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    with serving() as first:
        page.goto(first.url)
        page.wait_for_selector("#profile option", state="attached")
        page.tap("#clear")
        page.reload()
        page.wait_for_selector("#profile option", state="attached")
        assert page.input_value("#profile") == "official"
        port = str(first.port)
    with serving("--port", port, "--rules", "hebrew") as second:
        assert second.url == first.url
        page.goto(second.url)
        page.wait_for_selector("#profile option", state="attached")
        assert page.input_value("#profile") == "hebrew"
    context.close()


def test_a_profile_chosen_on_the_page_stays_chosen(page: Page) -> None:
    page.select_option("#profile", "casual")
    page.reload()
    page.wait_for_selector("#profile option", state="attached")
    assert page.input_value("#profile") == "casual"


@pytest.mark.parametrize("width", [pytest.param(w, id=f"{w}px") for w in (320, 360, 375, 390, 412)])
def test_every_key_and_button_is_on_a_narrow_phone_s_screen(
    browser: Browser, server: Server, width: int
) -> None:
    """The header needed 383 px: on a 360 px phone (the most common Android width) or a
    375 px one the page was wider than the screen, Clear, ⌫ and J cut off at the right
    and the row of + New set, Rack and Best move below the bottom, out of reach."""
    with opened(browser, server, ViewportSize(width=width, height=640)) as page:
        assert page.evaluate("document.documentElement.scrollWidth") == width
        for control in ("#clear", "#profile", "#opened", "#back", "#joker", "#new-set", "#solve"):
            box = page.locator(control).bounding_box()
            assert box is not None
            inside = box["x"] >= 0 and box["x"] + box["width"] <= width
            assert inside and box["y"] >= 0 and box["y"] + box["height"] <= 640, control
        if width >= PHONE["width"]:  # the title gives way only where it must
            script = "(h => h.scrollWidth <= h.clientWidth)(document.querySelector('h1'))"
            assert page.evaluate(script)


def enter_a_long_table(page: Page) -> None:
    """A table taller than the screen above the keypad."""
    for run_of in ("K1-13", "R1-13", "O1-6", "B1-6"):
        page.tap("#new-set")
        colour, span = run_of[0], run_of[1:].split("-")
        tap_tiles(page, " ".join(f"{colour}{n}" for n in range(int(span[0]), int(span[1]) + 1)))
    page.tap("#to-rack")
    tap_tiles(page, "B7 B8 O8 O9 O10 O1 B12")


def top_and_bottom(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None
    return box["y"], box["y"] + box["height"]


def test_the_headline_of_a_long_answer_is_not_under_the_header(page: Page) -> None:
    """The answer was scrolled to the top of the screen, where the header stays: its first
    line, the move, lay under the header."""
    enter_a_long_table(page)
    page.tap("#solve")
    page.wait_for_selector("#answer:not([hidden])")
    assert page.inner_text("#headline") == "Play 6 tiles (43 points)"
    assert top_and_bottom(page, "#headline")[0] >= top_and_bottom(page, "header")[1]


def test_the_problems_of_a_long_position_are_not_under_the_keypad(page: Page) -> None:
    """The problems were scrolled only as far as the screen's bottom, where the keypad
    stays: 'Set 5: a set needs at least 3 tiles' lay under it."""
    enter_a_long_table(page)
    page.tap("#new-set")
    tap_tiles(page, "K1 K2")
    page.tap("#solve")
    page.wait_for_selector("#problems:not([hidden])")
    assert page.inner_text("#problems li") == "Set 5: a set needs at least 3 tiles: K1 K2"
    assert top_and_bottom(page, "#problems")[1] <= top_and_bottom(page, "#keypad")[0]


def test_the_steps_come_before_the_table_after_as_hint_prints_them(page: Page) -> None:
    """The page put 'In this order' after the new table and what became of each set: on
    a long move the steps to carry out at the table were two screens below the move, where
    `hint` prints them first."""
    enter_a_long_table(page)
    page.tap("#solve")
    page.wait_for_selector("#answer:not([hidden])")
    steps = top_and_bottom(page, "#actions-title")[0]
    assert steps < top_and_bottom(page, "#after-title")[0]
    assert top_and_bottom(page, "#actions li:first-child")[1] <= PHONE["height"]


def test_a_move_cut_short_by_the_time_limit_says_it_is_not_proved_best(page: Page) -> None:
    """As `hint` says it: the page showed such a move as the answer, 'feasible' in small
    grey type at the bottom its only sign."""

    def cut_short(route: Route) -> None:
        answer = route.fetch().json()
        route.fulfill(json=answer | {"status": "feasible"})

    page.route("**/api/hint", cut_short)
    ask_for_the_r1(page)
    assert page.inner_text("#headline") == "Play 1 tile (1 point)"
    note = "Not proved best: the time limit cut the search short."
    assert page.inner_text("#cut-short") == note


@pytest.mark.parametrize(
    ("failure", "message"),
    [
        pytest.param(
            "stopped",
            "No answer from the server: is rummisolve serve still running?",
            id="server-stopped",
        ),
        pytest.param("crashed", "internal error: TypeError", id="server-error-500"),
        pytest.param("busy", "The server answered 503 Service Unavailable", id="busy-not-json"),
    ],
)
def test_a_server_that_fails_does_not_call_the_position_unplayable(
    page: Page, failure: str, message: str
) -> None:
    """A stopped server or a solver bug was headed 'This position cannot be played', as a
    position `check` refuses: the player looked for a mistake in the tiles. A busy server's
    plain-text 503 was told as a stopped one."""

    def fail(route: Route) -> None:
        if failure == "stopped":
            route.abort("connectionrefused")
        elif failure == "busy":  # uvicorn past its connections: plain text
            route.fulfill(status=503, body="Service Unavailable", content_type="text/plain")
        else:
            route.fulfill(status=500, json={"error": message})

    page.route("**/api/hint", fail)
    ask(page, "R1 R2 R3", "#problems")
    assert page.inner_text("#problems h2") == "No answer"
    assert page.inner_text("#problems li") == message


def test_steps_to_follow_with_the_tiles_held_apart_say_so_as_hint_does(page: Page) -> None:
    """`hold_apart` (no order lets the steps take the copies they mean): `hint` says to
    keep each set's tiles apart below the steps; the page said nothing."""

    def held_apart(route: Route) -> None:
        reply = route.fetch().json()
        route.fulfill(json=reply | {"hold_apart": True})

    page.route("**/api/hint", held_apart)
    ask(page, "R1 R2 R3")
    assert page.is_visible("#hold-apart")
    assert page.inner_text("#hold-apart").startswith(
        "Keep the tiles you take from each set apart in your hand: no order of these steps"
    )
    assert low_contrasts(page)[0] == []


def test_the_steps_say_what_their_star_means_as_hint_does(page: Page) -> None:
    """'add R2* to [R3 R4 R5]': hint heads its steps '(* = from your rack)', the page
    explained only the yellow of the new table."""
    page.tap("#new-set")
    tap_tiles(page, "R3 R4 R5")
    ask(page, "R2")
    assert page.locator("#actions li .sr").all_inner_texts() == [
        "add R2* to [R3 R4 R5]: R2* R3 R4 R5"
    ]
    steps = page.get_by_role("heading", name="In this order (* = from your rack)")
    assert steps.is_visible()
    # The yellow of the table after, said to a screen reader too: it read "Table after the
    # move from your rack".
    after = page.get_by_role("heading", name="Table after the move yellow: from your rack")
    assert after.is_visible()


def test_a_position_of_many_problems_says_how_many_more(page: Page) -> None:
    """The API tells the first 100 problems and counts the others (`more_problems`)."""

    def refuse(route: Route) -> None:
        problems = [{"line": 2, "message": "unknown tile"}]
        route.fulfill(status=422, json={"error": "", "problems": problems, "more_problems": 7})

    page.route("**/api/hint", refuse)
    ask(page, "R1", "#problems")
    assert page.locator("#problems li").all_inner_texts() == ["Rack: unknown tile", "… and 7 more"]


@pytest.mark.parametrize(
    "screen",
    [
        pytest.param(PHONE, id="portrait"),
        pytest.param(ViewportSize(width=844, height=390), id="landscape"),
    ],
)
def test_where_taps_go_is_on_screen_above_the_keypad(
    browser: Browser, server: Server, screen: ViewportSize
) -> None:
    """Tiles were tapped into a set or the rack lying under the keypad (below a long
    table, or in landscape, where the keypad leaves 140 px): the player saw no tile come."""
    with opened(browser, server, screen) as page:
        for sets in range(1, 10):
            page.tap("#new-set")
            tap_tiles(page, f"K{sets} R{sets} B{sets}")
            top, bottom = top_and_bottom(page, f'#sets [data-where="{sets - 1}"]')
            assert top >= top_and_bottom(page, "header")[1], sets
            assert bottom <= top_and_bottom(page, "#keypad")[0], sets
        page.tap("#to-rack")
        tap_tiles(page, "O1 O2")
        top, bottom = top_and_bottom(page, "#rack")
        assert top >= top_and_bottom(page, "header")[1]
        assert bottom <= top_and_bottom(page, "#keypad")[0]


def test_a_tap_on_the_rack_under_the_answer_leaves_the_answer_where_it_is(page: Page) -> None:
    """Where taps go is brought above the keypad; under an answer the keypad is hidden,
    and a tap on the rack beside the answer scrolled the page for it."""
    for n in range(1, 9):
        page.tap("#new-set")
        tap_tiles(page, f"K{n} R{n} B{n}")
    ask(page, "O1 O13")
    page.evaluate("window.scrollTo(0, 0)")  # back up to the table, the rack at the bottom
    assert PHONE["height"] - 240 < top_and_bottom(page, "#rack")[1] < PHONE["height"]
    page.locator("#rack").dispatch_event("click")  # a tap, with no scroll of Playwright's
    assert page.evaluate("window.scrollY") == 0
    assert page.is_visible("#answer")


def tab_to(page: Page, name: str) -> None:
    """Tab, as a keyboard user does, until the button of that name has the focus."""
    wanted = page.get_by_role("button", name=name, exact=True)
    for _ in range(60):
        page.keyboard.press("Tab")
        if wanted.evaluate("button => button === document.activeElement"):
            assert wanted.evaluate("button => button.matches(':focus-visible')")
            ring = wanted.evaluate("button => getComputedStyle(button).outlineStyle")
            assert ring == "solid", name
            return
    raise AssertionError(f"Tab never reaches {name!r}")


def tiles_of(page: Page, where: str) -> list[str]:
    row = page.locator(f'[data-where="{where}"]')
    return [str(tile.get_attribute("data-tile")) for tile in row.locator(".tile").all()]


def test_the_sets_and_the_rack_work_from_the_keyboard(page: Page) -> None:
    """A set or the rack was made where taps go by a tap only, and a tile taken out by a
    tap only: Tab reached a row, whose Enter did nothing, and never a tile."""
    page.tap("#new-set")
    tap_tiles(page, "R3 R4 R5")
    page.tap("#new-set")
    tap_tiles(page, "K7 R7 B7")
    page.tap("#to-rack")
    tap_tiles(page, "R2")
    tab_to(page, "Set 1: tap tiles in")
    page.keyboard.press("Enter")
    assert page.get_attribute('[data-where="0"]', "class") == "row target active"
    assert page.get_attribute('[data-key="pick:0"]', "aria-pressed") == "true"
    tap_tiles(page, "R6")  # where a tap on the set would have sent it
    assert tiles_of(page, "0") == ["R3", "R4", "R5", "R6"]

    tab_to(page, "blue 7 in set 2")
    page.keyboard.press("Enter")
    assert page.get_attribute('[data-key="tile:1:2"]', "aria-pressed") == "true"
    tab_to(page, "Delete")
    page.keyboard.press("Enter")
    assert tiles_of(page, "1") == ["K7", "R7"]
    assert page.is_hidden("#edit-bar")

    tab_to(page, "Your rack: tap tiles in")
    page.keyboard.press("Space")
    assert page.get_attribute('[data-key="pick:rack"]', "aria-pressed") == "true"
    assert page.get_attribute('[data-key="pick:1"]', "aria-pressed") == "false"
    tab_to(page, "red 2 in your rack")
    page.keyboard.press("Space")
    page.tap("#back")  # ⌫ takes out the tile selected
    assert tiles_of(page, "rack") == []


def test_the_answer_takes_the_focus_from_best_move_which_it_hides(page: Page) -> None:
    """The keypad, and Best move in it, hide under the answer: the focus was lost, and a
    keyboard user started again from the top of the page."""
    page.tap("#new-set")
    tap_tiles(page, "R3 R4 R5")
    page.tap("#to-rack")
    tap_tiles(page, "R2")
    page.focus("#solve")
    page.keyboard.press("Enter")
    page.wait_for_selector("#answer:not([hidden])")
    assert page.evaluate("document.activeElement.id") == "headline"
    tab_to(page, "Edit position")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.key") == "pick:rack"


def test_next_turn_keeps_what_each_joker_stands_for(page: Page) -> None:
    """A joker stands for its tile until freed: the answer shows it (J=O7), and Next turn
    puts the table back with each joker saying so, as hint --next writes the board."""
    tap_the_first_example(page)
    page.tap("#solve")
    page.wait_for_selector("#answer:not([hidden])")
    page.tap("#next-turn")
    position = [
        [str(tile.get_attribute("data-tile")) for tile in row.locator(".tile").all()]
        for row in page.locator("#sets .row").all()
    ]
    assert position == [["R2", "R3", "R4", "R5"], ["K7", "R7", "B7", "J=O7"], ["J=K5", "O5", "B5"]]
    assert page.locator('#sets [data-tile="J=K5"]').get_attribute("title") == (
        "joker, standing for black 5"
    )


SCREENS = [
    pytest.param(PHONE, id="390x844"),
    pytest.param(ViewportSize(width=320, height=568), id="320x568"),
]


@pytest.fixture(params=SCREENS)
def phone(request: pytest.FixtureRequest, browser: Browser, server: Server) -> Iterator[Page]:
    """The page on a touch screen of each size the page is made for."""
    with opened(browser, server, request.param) as loaded:
        yield loaded


def sent_boards(page: Page) -> list[str]:
    """The boards the page posts from now on, as they go."""
    boards: list[str] = []
    page.on(
        "request",
        lambda request: (
            boards.append(json.loads(request.post_data or "{}")["board"])
            if request.url.endswith("/api/hint")
            else None
        ),
    )
    return boards


def answer_as_hint_json(page: Page, board: str) -> dict[str, Any]:
    """`hint --json` on the board the page sent, after checking that the page shows it:
    the move, each step (its text for a screen reader) and the table after, tile by tile."""
    code, printed, _ = run("hint", "--json", "-", stdin=board)
    assert code == 0
    answer: dict[str, Any] = json.loads(printed)
    played = [str(t.get_attribute("data-tile")) for t in page.locator("#played .tile").all()]
    assert played == answer["played"]
    steps = page.locator("#actions li .sr").all_inner_texts()
    assert steps == [action["text"] for action in answer["actions"]]
    table = [
        [str(t.get_attribute("data-tile")) for t in row.locator(".tile").all()]
        for row in page.locator("#after li").all()
    ]
    declared = [
        [f"J={stands.pop(0)}" if tile == "J" and stands else tile for tile in tiles]
        for tiles, stands in zip(
            answer["table"], [list(s) for s in answer["stand_for"]], strict=True
        )
    ]
    assert table == (declared if answer["tiles_played"] else [])
    return answer


def test_a_step_shows_the_copy_it_takes_under_its_tile(browser: Browser) -> None:
    """Where the step names the copy to take (a joker's own B7 and another set's both in
    the hand), a caption under the tile says which, as its screen-reader text does
    (tests/test_cli_hint.py's board)."""
    with serving("--tile-set", "160") as server, opened(browser, server, PHONE) as page:
        boards = sent_boards(page)
        for row in ["B3 J B5", "B6 B7 B8", "J B7 B8 B9"]:
            page.tap("#new-set")
            tap_tiles(page, row)
        ask(page, "O6 B4 B11 B13 J")
        answer = answer_as_hint_json(page, "rules: tile-set=160\n" + boards[-1])
        named = [i for i, action in enumerate(answer["actions"]) if "copies" in action]
        assert [answer["actions"][i]["text"] for i in named] == [
            "add B7 (B7 from [B6 B7 B8]) to [B8 B9]: B7 B8 B9"
        ]
        step = page.locator("#actions li").nth(named[0])
        assert step.locator(".drawn .named .tile").get_attribute("data-tile") == "B7"
        assert step.locator(".copy-from").all_inner_texts() == ["B7 from [B6 B7 B8]"]
        assert page.locator(".copy-from").count() == 1
        assert low_contrasts(page)[0] == []


def test_a_step_stars_the_rack_tile_laid_earlier_in_the_turn(page: Page) -> None:
    """The O3 that freed the joker lies in the set the joker's add makes: `hint` stars it
    there, and so does the drawing."""
    page.tap("#new-set")
    tap_tiles(page, "J O4 O5 O6")
    ask(page, "O3 O8 K2")
    add = page.locator("#actions li").nth(1)
    made = add.locator(".drawn .set .tile")
    assert made.evaluate_all("tiles => tiles.map(t => t.dataset.tile)") == [
        "O3",
        "O4",
        "O5",
        "O6",
        "J=O7",
        "O8",
    ]
    starred = add.locator(".drawn .set .tile.from-rack")
    assert starred.evaluate_all("tiles => tiles.map(t => t.dataset.tile)") == ["O3", "O8"]


def test_a_step_shows_the_set_of_the_table_it_means_under_it(browser: Browser) -> None:
    """Where two sets look alike while the rules tell them apart (the locked `R5 R6 R7 J
    R9`, its joker freed, and what the R3 .. R10 leaves), the step names the set of the
    table it means: its screen-reader text said so, the drawing did not."""
    table = ["K3 K4 J K6 K7 K8", "R3 R4 R5 R6 R7 R8 R9 R10", "R5 R6 R7 J R9", "O5 O6 O7"]
    served = serving("--rules", "norwegian", "--tile-set", "160")
    with served as server, opened(browser, server, PHONE) as page:
        boards = sent_boards(page)
        for row in [*table, "K11 R11 O11"]:
            page.tap("#new-set")
            tap_tiles(page, row)
        ask(page, "K12 K13 R8 R11 O13 B8 J")
        answer = answer_as_hint_json(page, "rules: norwegian tile-set=160\n" + boards[-1])
        named = [i for i, action in enumerate(answer["actions"]) if "table_set" in action]
        assert [answer["actions"][i]["text"] for i in named] == [
            "add R3 R4 R8 R10 R11 to [R5 R6 R7 R9] (set 3 of the table):"
            " R3 R4 R5 R6 R7 R8 R9 R10 R11"
        ]
        step = page.locator("#actions li").nth(named[0])
        made = step.locator(".drawn .named .sets .tile").all()
        shown = " ".join(str(t.get_attribute("data-tile")) for t in made)
        assert shown == "R3 R4 R5 R6 R7 R8 R9 R10 R11"
        assert step.locator(".table-set").all_inner_texts() == ["set 3 of the table"]
        assert page.locator(".table-set").count() == 1
        assert low_contrasts(page)[0] == []


def test_a_mistyped_tile_is_put_right_with_undo_and_with_replace(phone: Page) -> None:
    """A tap on a tile took it out at once, with no undo: a player who mistyped started
    the set again. Now a tile tapped is selected (replace it, delete it, put a tile
    before it), and every change undoes and redoes, after a reload too."""
    phone.tap("#new-set")
    tap_tiles(phone, "R3 R4 R6")
    phone.tap("#undo")
    assert tiles_of(phone, "0") == ["R3", "R4"]
    phone.tap("#redo")
    assert tiles_of(phone, "0") == ["R3", "R4", "R6"]
    phone.tap("#undo")
    tap_tiles(phone, "R5")
    assert tiles_of(phone, "0") == ["R3", "R4", "R5"]
    assert phone.is_disabled("#redo")

    phone.tap("#new-set")
    tap_tiles(phone, "K7 O7 B8")
    phone.tap('[data-key="tile:1:2"]')  # the B8, selected: Replace is what a key does
    assert phone.inner_text("#edit-what") == "blue 8: tap a tile key to put it in this one's place"
    tap_tiles(phone, "B7")
    assert tiles_of(phone, "1") == ["K7", "O7", "B7"]
    assert phone.is_hidden("#edit-bar")

    phone.reload()
    phone.wait_for_selector("#profile option", state="attached")
    assert tiles_of(phone, "1") == ["K7", "O7", "B7"]
    phone.tap("#undo")
    assert tiles_of(phone, "1") == ["K7", "O7", "B8"]
    phone.tap('[data-key="tile:1:1"]')
    phone.tap("#delete")
    assert tiles_of(phone, "1") == ["K7", "B8"]
    phone.tap("#undo")
    assert tiles_of(phone, "1") == ["K7", "O7", "B8"]


def test_a_joker_put_before_a_tile_is_sent_where_it_lies(phone: Page) -> None:
    """A tile went only at the end of a set: a joker at the start of a run (`J R3 R4`,
    the R2) could not be entered where it lies."""
    boards = sent_boards(phone)
    phone.tap("#new-set")
    tap_tiles(phone, "R3 R4")
    phone.tap('[data-key="tile:0:0"]')
    phone.tap("#before")
    assert phone.inner_text("#edit-what") == "red 3: tap a tile key to put it before this one"
    tap_tiles(phone, "J")
    assert tiles_of(phone, "0") == ["J", "R3", "R4"]
    phone.tap("#deselect")
    ask(phone, "R5 K2 O2")
    assert boards == ["table:\nJ R3 R4\nrack: R5 K2 O2\n"]
    answer_as_hint_json(phone, boards[0])


def test_a_group_s_joker_is_named_and_a_run_s_is_not(phone: Page) -> None:
    """A table joker can say which tile it stands for (`J=O7`) where its set is a group;
    a run's joker is the tile of its place, named by nobody."""
    boards = sent_boards(phone)
    phone.tap("#new-set")
    tap_tiles(phone, "R5 R6 J")
    phone.tap('#sets [data-tile="J"]')
    assert phone.is_hidden("#name-joker")
    phone.tap("#new-set")
    tap_tiles(phone, "K7 R7 J")
    phone.tap('[data-key="tile:1:2"]')
    names = phone.locator("#name-joker button").all_inner_texts()
    assert names == ["J=O7", "J=B7", "J, any"]
    phone.tap("#name-joker >> text=J=O7")
    assert tiles_of(phone, "1") == ["K7", "R7", "J=O7"]
    ask(phone, "O7 B7 R4")
    assert boards == ["table:\nR5 R6 J\nK7 R7 J=O7\nrack: O7 B7 R4\n"]
    answer_as_hint_json(phone, boards[0])


def test_a_mid_game_position_tapped_in_answers_as_hint_in_about_two_screens(page: Page) -> None:
    """55 tiles on the table, 19 on the rack: the answer was 20 lines of letter codes above
    22 full-width sets, 3.4 screens. Now each step is drawn with tiles and the new table
    lies as a table does, several sets to a row."""
    code, dealt, _ = run(
        "generate", "--count", "1", "--seed", "2", "--table-tiles", "55", "--rack-tiles", "19"
    )
    assert code == 0
    lines = dealt.splitlines()
    table = lines[lines.index("table:") + 1 : -1]
    rack = lines[-1].removeprefix("rack: ")
    assert sum(len(line.split()) for line in table) == 55 and len(rack.split()) == 19
    boards = sent_boards(page)
    for line in table:
        page.tap("#new-set")
        tap_tiles(page, line)
    ask(page, rack)
    assert boards == ["table:\n" + "\n".join(table) + f"\nrack: {rack}\n"]
    answer = answer_as_hint_json(page, boards[0])
    assert answer["tiles_played"] >= 15 and len(answer["actions"]) >= 15
    screens = top_and_bottom(page, "#answer")
    assert (screens[1] - screens[0]) / PHONE["height"] <= 2.0
    folder = os.environ.get("RUMMISOLVE_SCREENSHOTS")
    if folder:
        page.locator("#answer").screenshot(path=str(Path(folder) / "serve-mid-game.png"))


# Every text drawn on the page: its colour and its background's as the eye gets them (the
# backgrounds under it laid over each other, white under all), and their contrast ratio
# (WCAG 2). A control that is disabled is exempt (WCAG's "inactive"); no other text may
# lie under an opacity, which would change what the eye gets.
CONTRASTS = """() => {
  const rgba = (css) => {
    const parts = css.match(/[\\d.]+/g).map(Number);
    return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
  };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3]));
  const background = (node) => {
    const layers = [];
    for (let at = node; at; at = at.parentElement) {
      const colour = rgba(getComputedStyle(at).backgroundColor);
      if (colour[3] > 0) layers.push(colour);
      if (colour[3] >= 1) break;
    }
    return layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255]);
  };
  const luminance = (rgb) => rgb
    .map((v) => v / 255)
    .map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const measured = [];
  for (const node of document.querySelectorAll("body *")) {
    const text = [...node.childNodes]
      .filter((child) => child.nodeType === Node.TEXT_NODE)
      .map((child) => child.textContent.trim()).join(" ").trim();
    const box = node.getBoundingClientRect();
    const drawn = node.checkVisibility({ visibilityProperty: true });
    if (!text || box.width <= 1 || box.height <= 1 || !drawn) continue;
    if (node.closest(":disabled")) continue;
    let opacity = 1;
    for (let at = node; at; at = at.parentElement) opacity *= Number(getComputedStyle(at).opacity);
    const back = background(node);
    const fore = over(rgba(getComputedStyle(node).color), back);
    const [light, dark] = [luminance(fore), luminance(back)].sort((a, b) => b - a);
    const tile = node.classList.contains("tile");
    const named = (node.id ? "#" + node.id : node.className || node.tagName)
      + " " + JSON.stringify(text);
    measured.push({ named, tile, opacity, ratio: (light + 0.05) / (dark + 0.05) });
  }
  return measured;
}"""


def low_contrasts(page: Page) -> tuple[list[str], int]:
    """The texts below 4.5:1 (or under an opacity), and how many tiles were measured."""
    measured: list[dict[str, Any]] = page.evaluate(CONTRASTS)
    low = [
        f"{m['named']}: {m['ratio']:.2f}:1"
        + (f" under opacity {m['opacity']}" if m["opacity"] < 1 else "")
        for m in measured
        if m["ratio"] < 4.5 or m["opacity"] < 1
    ]
    return low, sum(m["tile"] for m in measured)


def test_every_text_and_tile_on_the_page_is_at_least_4_5_to_1(phone: Page) -> None:
    """Orange on the yellow of a rack's tile measured 2.2:1, orange on a tile 3.0:1, white
    on the orange key 3.1:1: under WCAG AA's 4.5:1, hard to read at a table's light."""
    tap_the_first_example(phone)
    phone.tap("#new-set")
    tap_tiles(phone, "O1 O2 O3")
    phone.tap('[data-key="tile:1:3"]')  # the K7 R7 B7 J's joker: the bar and its names
    low, tiles = low_contrasts(phone)
    assert low == [] and tiles >= 14
    phone.tap("#to-rack")
    phone.tap("#solve")
    phone.wait_for_selector("#answer:not([hidden])")
    low, tiles = low_contrasts(phone)
    assert low == [] and tiles >= 20
