"""Rummy de fichas in a real browser: dragging and clicking tiles into a draft, the server's
check of it (valid sets, the initial meld, the reasons for a bad set), undo, drawing, the
end of a hand and a phone.

Each test starts its game from a set position through the test API (`--test-api`): seat 0
is ours, the bots are Sofía, Pablo and Lucía, and the pool's next tile is its LAST code.
The page exposes `window.__tapete.view` (the table controller) and `window.__rummy.draft` /
`.report`; the tests use the view to know when the bots are done and the report to know the
server has checked a draft, and read the DOM for what they assert.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import PHONE, TIMEOUT, no_horizontal_scroll, open_position, shot, still, view
from playwright.sync_api import Locator, Page, expect

GAME_URL = re.compile(r"/partida/[^/?#]+$")

# Settled: the game is over, or it is our turn again. Rummy's page has no version counter;
# the view's `turns` goes up with every move, so it serves.
SETTLED = """t0 => {
  const v = window.__tapete && window.__tapete.view;
  if (!v || (t0 !== null && !(v.turns > t0))) return false;
  return !!v.result || v.turn === v.seat;
}"""

# Our rack has a group of three 10s (30 points: an initial meld) and a broken red run.
RACK = "10R 10A 10N 4R 5R 7R 2A 3O 8N 11O 12A 13N 6O 1A"
# Sofía's rack makes no set at all, so on her turn she draws. (A bot that lays tiles down
# stalls the room: see test_bot_lays_down_its_meld.)
MELD = {
    "racks": [RACK, "1R 2A 3N 4O 5R 6A 7N 8O 9R 11A 12N 13O 1O 2N"],
    "pool": "2N 3N 4N 5N 6N 7N",
    "melded": [False, False],
    "turn": 0,
}
# Sofía can open with 1R 2R 3R + 9A 9N 9O (33 points) once we have played.
BOT_MELDS = {
    "racks": [RACK, "1R 2R 3R 9A 9N 9O 4A 5O 6N 7O 8A 11R 12N 13O"],
    "pool": "2N 3N 4N 5N 6N 7N",
    "melded": [False, False],
    "turn": 0,
}
# No set at all on our rack: the hint can only say there is no play.
NO_PLAY = {
    "racks": [
        "1R 3A 5N 7O 9R 11A 13N 2O 4R 6A 8N 10O 12R 1A",
        "1R 2A 3N 4O 5R 6A 7N 8O 9R 11A 12N 13O 1O 2N",
    ],
    "pool": "2N 3N 4N 5N 6N 7N",
    "melded": [False, False],
    "turn": 0,
}
# Three tiles, one group of 30: laying it down empties the rack and ends the (only) hand.
FINISH = {
    "racks": ["10R 10A 10N", "1R 2R 3R 9A 9N 9O 4A"],
    "pool": "5N 6N 7N 8N",
    "melded": [False, False],
    "turn": 0,
}


# Hand 1 of 3: laying the three 10s empties our rack; Sofía is left with 37 points.
HAND_OF_THREE = {**FINISH, "config": {"hands": 3}}
# Two sets of three (10-11-12 rojo, 33; three 9s, 27) among tiles that make nothing else.
KEYS = {
    "racks": [
        "10R 11R 12R 9A 9N 9O 2A 3O 5N 1A 4R 7O 13N 6A",
        "1R 2A 3N 4O 5R 6A 7N 8O 9R 11A 12N 13O 1O 2N",
    ],
    "pool": "2N 3N 4N 5N 6N 7N",
    "melded": [False, False],
    "turn": 0,
}


expect.set_options(timeout=TIMEOUT)


@pytest.fixture
def english(browser: Any) -> Iterator[Page]:
    """A desktop page whose browser speaks English (a guest of its own)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    context.set_default_timeout(TIMEOUT)
    try:
        yield context.new_page()
    finally:
        context.close()


# helpers ---------------------------------------------------------------------------------


def settle(page: Page, since: int | None = None) -> None:
    page.wait_for_function(SETTLED, arg=since, timeout=TIMEOUT)


def turns(page: Page) -> int:
    """The view's turn count (what SETTLED waits to see move on)."""
    return int(page.evaluate("() => window.__tapete.view.turns"))


def from_position(page: Page, server_url: str, position: dict[str, Any]) -> str:
    """Start a game against principiante bots from `position` and open its table."""
    open_position(page, server_url, "rummy", position, "principiante")
    settle(page)
    expect(page.locator("#turn-label")).to_have_text("Te toca")
    return page.url


def rack_tile(page: Page, code: str) -> Locator:
    return page.locator(f'#rack .tile[data-code="{code}"]')


def table_set(page: Page, i: int) -> Locator:
    return page.locator(f'#sets .set[data-set="{i}"]')


def codes(where: Locator) -> list[str]:
    return [
        str(x) for x in where.locator(".tile").evaluate_all("els => els.map(e => e.dataset.code)")
    ]


BOX = """e => { const r = e.getBoundingClientRect();
  return {x: r.x, y: r.y, width: r.width, height: r.height}; }"""
"""An element's box on the screen, read where the element is found (a locator's
``bounding_box`` finds it, then asks for its box: a rack drawn again in between gave None)."""


def drag(page: Page, source: Locator, target: Locator) -> None:
    """A mouse drag (pointer events), once the table is still: press on the tile, move past
    the 8 px threshold, drop."""
    still(page)
    a, b = source.evaluate(BOX), target.evaluate(BOX)
    x, y = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 12, y - 12, steps=3)
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()
    checked(page)


def checked(page: Page) -> None:
    """Wait for the server's report on the draft (the table re-renders when it comes)."""
    page.wait_for_function("() => window.__rummy.report !== null")


def place(page: Page, code: str, target: str, *, tap: bool = False) -> None:
    """Pick and place: click (or tap) a rack tile, then the target (a selector)."""
    tile = rack_tile(page, code)
    tile.tap() if tap else tile.click()
    expect(tile).to_have_attribute("aria-pressed", "true")
    spot = page.locator(target)
    spot.tap() if tap else spot.click()
    expect(rack_tile(page, code)).to_have_count(0)
    checked(page)


def meld_tens(page: Page, *, tap: bool = False) -> None:
    place(page, "10R", "#sets .new-set", tap=tap)
    place(page, "10A", '#sets .set[data-set="0"] .slot', tap=tap)
    place(page, "10N", '#sets .set[data-set="0"] .slot', tap=tap)


def end_turn(page: Page, *, tap: bool = False) -> None:
    done = page.locator("#done")
    expect(done).to_be_enabled()  # after the server's check of the draft
    before = turns(page)
    done.tap() if tap else done.click()
    settle(page, before)


# dragging, the check, ending the turn ----------------------------------------------------


def test_drag_initial_meld(page: Page, server_url: str, screenshots: Path) -> None:
    from_position(page, server_url, MELD)
    expect(page.locator("#rack .tile")).to_have_count(14)
    expect(page.locator("#meld")).to_have_text("Bajada: 0 / 30")
    expect(page.locator("#done")).to_be_disabled()
    shot(page, screenshots / "desktop-rummy-start.png")

    drag(page, rack_tile(page, "10R"), page.locator("#sets .new-set"))
    expect(table_set(page, 0).locator(".tile")).to_have_count(1)
    drag(page, rack_tile(page, "10A"), table_set(page, 0))
    drag(page, rack_tile(page, "10N"), table_set(page, 0))
    first = table_set(page, 0)
    expect(first.locator(".tile")).to_have_count(3)
    assert sorted(codes(first)) == ["10A", "10N", "10R"]
    expect(first).to_have_class(re.compile(r"\bvalid\b"))
    expect(page.locator("#meld")).to_have_text("Bajada: 30 / 30")
    expect(page.locator("#help")).to_have_text("Todo correcto: pulsa «Terminar turno».")
    expect(page.locator("#rack .tile")).to_have_count(11)
    shot(page, screenshots / "desktop-rummy-draft.png")

    end_turn(page)
    expect(page.locator("#log")).to_contain_text("Pones 3 fichas (bajada de 30)")
    assert sorted(codes(table_set(page, 0))) == ["10A", "10N", "10R"]
    expect(page.locator(".rm-player.me .badge-ok")).to_have_text("ha bajado")
    expect(page.locator("#rack .tile")).to_have_count(11)
    shot(page, screenshots / "desktop-rummy-after-meld.png")


def test_invalid_set_undo_and_draw(page: Page, server_url: str, screenshots: Path) -> None:
    from_position(page, server_url, MELD)
    drag(page, rack_tile(page, "4R"), page.locator("#sets .new-set"))
    drag(page, rack_tile(page, "5R"), table_set(page, 0))
    drag(page, rack_tile(page, "7R"), table_set(page, 0))
    bad = page.locator("#sets .set.invalid")
    expect(bad).to_have_count(1)
    expect(bad.locator(".set-why")).to_have_text("La escalera roja 4-5-7 no es válida: falta el 6.")
    expect(bad).to_have_attribute("aria-label", re.compile(r"falta el 6"))
    expect(page.locator("#done")).to_be_disabled()
    expect(page.locator("#help")).to_contain_text("falta el 6")
    shot(page, screenshots / "desktop-rummy-invalid.png")

    undo = page.locator("#undo")
    expect(undo).to_be_enabled()
    undo.click()
    expect(page.locator("#sets .set:not(.new-set)")).to_have_count(0)
    expect(page.locator("#rack .tile")).to_have_count(14)
    for code in ("4R", "5R", "7R"):
        expect(rack_tile(page, code)).to_have_count(1)
    expect(undo).to_be_disabled()

    draw = page.locator("#draw")
    expect(draw).to_have_text("Robar")
    before = turns(page)
    draw.click()
    settle(page, before)
    expect(page.locator("#log")).to_contain_text("Robas")
    expect(page.locator("#rack .tile")).to_have_count(15)
    expect(rack_tile(page, "7N")).to_have_count(1)  # the pool's next tile


def test_pick_and_place_with_clicks(page: Page, server_url: str) -> None:
    from_position(page, server_url, MELD)
    tile = rack_tile(page, "10R")
    tile.click()
    expect(tile).to_have_class(re.compile(r"\bpicked\b"))
    expect(page.locator("#help")).to_contain_text("¿Dónde la pones?")
    tile.click()  # a second click drops the tile
    expect(tile).to_have_attribute("aria-pressed", "false")

    meld_tens(page)
    expect(table_set(page, 0).locator(".tile")).to_have_count(3)
    expect(table_set(page, 0)).to_have_class(re.compile(r"\bvalid\b"))
    end_turn(page)
    expect(page.locator("#log")).to_contain_text("Pones 3 fichas")


def test_bot_lays_down_its_meld(page: Page, server_url: str) -> None:
    from_position(page, server_url, BOT_MELDS)
    meld_tens(page)
    done = page.locator("#done")
    expect(done).to_be_enabled()
    done.click()
    expect(page.locator("#log")).to_contain_text("Pones 3 fichas")
    expect(page.locator("#log")).to_contain_text("Sofía pone 6 fichas")
    expect(page.locator("#turn-label")).to_have_text("Te toca")


def test_hint_button(page: Page, server_url: str) -> None:
    from_position(page, server_url, MELD)
    hint = page.locator("#hint")
    expect(hint).to_be_visible()
    hint.click()
    # a hint fills the draft with a play (here the three 10s), or says there is none
    expect(page.locator("#sets .set:not(.new-set), #toast:not([hidden])")).not_to_have_count(0)
    expect(page.locator("#toast")).not_to_contain_text("desconocido")


def test_finish_a_short_hand(page: Page, server_url: str, screenshots: Path) -> None:
    first = from_position(page, server_url, FINISH)
    meld_tens(page)
    expect(page.locator("#rack .tile")).to_have_count(0)
    with page.expect_response(lambda r: r.url.endswith("/analisis")) as asked:
        page.locator("#done").click()  # the end asks for the analysis once: made meanwhile
    assert asked.value.status in (200, 202)
    end = page.locator("#end")
    expect(end).to_be_visible()
    expect(page.locator("#end-analysis")).to_have_text("Ver el análisis")
    expect(page.locator("#end-title")).to_have_text("¡Has ganado la partida!")
    expect(page.locator("#end-reason")).to_have_text("Te quedaste sin fichas.")
    # Sofía keeps 1+2+3 + 9·3 + 4 = 37 points on her rack
    expect(page.locator("#end-list li")).to_have_count(2)
    expect(page.locator("#end-list li.winner")).to_contain_text("+37")
    expect(page.locator("#end-list li").nth(1)).to_contain_text("Sofía: -37")
    again = page.locator("#again")
    expect(again).to_be_visible()
    expect(again).to_have_text("Nueva partida")
    expect(again).to_be_focused()
    expect(page.locator("#summary")).to_be_hidden()
    expect(page.locator("#turn-label")).to_have_text("Partida terminada")
    shot(page, screenshots / "desktop-rummy-summary.png")

    again.click()
    page.wait_for_url(lambda url: GAME_URL.search(url) is not None and url != first)
    expect(page.locator("#end")).to_be_hidden()
    expect(page.locator("#rack .tile")).to_have_count(14)


# the phone ----------------------------------------------------------------------------------


def test_phone_taps(phone: Page, server_url: str, screenshots: Path) -> None:
    page = phone
    page.goto(f"{server_url}/rummy")
    no_horizontal_scroll(page)
    page.locator('input[name="level"][value="principiante"]').check()
    shot(page, screenshots / "phone-rummy-setup.png", full=True)
    page.get_by_role("button", name="Empezar partida").tap()
    page.wait_for_url(GAME_URL)
    # (not `settle`: in a dealt game Sofía may start, and a bot's play stalls the room)
    page.wait_for_function("() => !!(window.__tapete && window.__tapete.view)")
    expect(page.locator("#rack .tile")).to_have_count(14)
    no_horizontal_scroll(page)
    shot(page, screenshots / "phone-rummy-table.png")

    from_position(page, server_url, MELD)
    no_horizontal_scroll(page)
    meld_tens(page, tap=True)
    expect(table_set(page, 0)).to_have_class(re.compile(r"\bvalid\b"))
    no_horizontal_scroll(page)
    shot(page, screenshots / "phone-rummy-draft.png")
    end_turn(page, tap=True)
    expect(page.locator("#log")).to_contain_text("Pones 3 fichas")
    no_horizontal_scroll(page)
    shot(page, screenshots / "phone-rummy-after-meld.png", full=True)

    # a message never covers the buttons (they sit at the bottom of a small phone's screen)
    page.set_viewport_size({"width": 375, "height": 667})
    from_position(page, server_url, NO_PLAY)
    page.evaluate(  # scrolled as a thumb leaves it: the buttons at the bottom of the screen
        "() => window.scrollBy(0, document.getElementById('done').getBoundingClientRect()"
        ".bottom - window.innerHeight + 8)"
    )
    page.locator("#hint").tap()
    toast = page.locator("#toast")
    expect(toast).to_contain_text("No hay jugada")
    box = toast.bounding_box()
    assert box is not None
    for button in ("#undo", "#hint", "#draw", "#done"):
        other = page.locator(button).bounding_box()
        assert other is not None
        above = box["y"] + box["height"] <= other["y"] or other["y"] + other["height"] <= box["y"]
        aside = box["x"] + box["width"] <= other["x"] or other["x"] + other["width"] <= box["x"]
        assert above or aside, (button, box, other)
    shot(page, screenshots / "phone-rummy-no-play.png")
    page.set_viewport_size({"width": PHONE["width"], "height": PHONE["height"]})

    from_position(page, server_url, FINISH)
    meld_tens(page, tap=True)
    page.locator("#done").tap()
    expect(page.locator("#end-title")).to_have_text("¡Has ganado la partida!")
    no_horizontal_scroll(page)
    shot(page, screenshots / "phone-rummy-summary.png")


# the end of a hand: nothing goes on behind the summary -----------------------------------


def test_the_next_hand_waits_for_the_summary(
    page: Page, server_url: str, screenshots: Path
) -> None:
    from_position(page, server_url, HAND_OF_THREE)
    meld_tens(page)
    page.locator("#done").click()
    summary = page.locator("#summary")
    expect(summary).to_be_visible()
    expect(page.locator("#summary-title")).to_have_text("Fin de la mano 1")
    expect(page.locator("#summary-text")).to_have_text("Te quedaste sin fichas.")
    expect(page.locator("#summary-list li.winner")).to_contain_text("Tú: +37 (total 37)")
    expect(page.locator("#summary-racks")).to_contain_text("Sofía se queda con 1 rojo")
    ok = page.locator("#summary-ok")
    expect(ok).to_have_text("Siguiente mano")
    expect(ok).to_be_focused()
    # the final table of the hand stays in view, and nothing is dealt behind the summary
    assert sorted(codes(table_set(page, 0))) == ["10A", "10N", "10R"]
    expect(page.locator("#rack .tile")).to_have_count(0)
    expect(page.locator("#hand-label")).to_contain_text("Mano 1 de 3")
    # Sofía's own answer to the summary (she is ready for the next hand) proves the bots
    # have had their say on this table; and still the hand waits for ours
    page.wait_for_function(
        "() => { const v = window.__tapete.view; return v.hand !== 1 || !v.waiting.includes(1); }"
    )
    now = view(page)
    assert now["hand"] == 1 and now["waiting"] == [0] and now["scores"] == [37, -37]
    shot(page, screenshots / "rummy-hand-end-es.png")

    ok.click()
    expect(summary).to_be_hidden()
    expect(page.locator("#hand-label")).to_contain_text("Mano 2 de 3")
    settle(page)  # Sofía starts hand 2
    expect(page.locator("#rack .tile")).not_to_have_count(0)
    assert view(page)["hand"] == 2


# a reload keeps the arrangement ---------------------------------------------------------


def test_a_reload_keeps_the_draft(page: Page, server_url: str) -> None:
    from_position(page, server_url, MELD)
    place(page, "10R", "#sets .new-set")
    place(page, "10A", '#sets .set[data-set="0"] .slot')
    expect(page.locator("#rack .tile")).to_have_count(12)
    # the server's report on this very draft: the room has it (the check carries it there)
    page.wait_for_function("() => window.__rummy.report !== null")
    page.reload()
    settle(page)
    expect(table_set(page, 0).locator(".tile")).to_have_count(2)
    assert sorted(codes(table_set(page, 0))) == ["10A", "10R"]
    expect(page.locator("#rack .tile")).to_have_count(12)
    expect(rack_tile(page, "10N")).to_have_count(1)
    place(page, "10N", '#sets .set[data-set="0"] .slot')
    end_turn(page)
    expect(page.locator("#log")).to_contain_text("Pones 3 fichas (bajada de 30)")


# the keyboard ---------------------------------------------------------------------------

FOCUS = """() => {
  const el = document.activeElement;
  return el ? {id: el.id, code: el.dataset.code || null, rack: !!el.closest("#rack"),
               visible: el.matches(":focus-visible")} : null;
}"""


def test_a_six_tile_meld_with_few_keys(page: Page, server_url: str, screenshots: Path) -> None:
    """Two sets of three from the keyboard alone, counting every key pressed from the page's
    load to the end of the turn: the arrows move along the rack, N starts a set, A adds to it."""
    from_position(page, server_url, KEYS)
    presses = 0

    def press(key: str) -> dict[str, Any]:
        nonlocal presses
        presses += 1
        page.keyboard.press(key)
        focus = page.evaluate(FOCUS)
        assert focus is not None and focus["visible"], (key, focus)  # the focus is seen
        return dict(focus)

    def to(code: str) -> None:
        while page.evaluate(FOCUS)["code"] != code:
            press("ArrowRight")
            assert presses < 40

    while not press("Tab")["rack"]:  # (through the top bar: its six links, then the table)
        assert presses < 17
    for first, *rest in (("10R", "11R", "12R"), ("9A", "9N", "9O")):
        to(first)
        press("n")
        for code in rest:
            to(code)
            press("a")
    checked(page)
    assert sorted(map(sorted, view_table(page))) == [["10R", "11R", "12R"], ["9A", "9N", "9O"]]
    expect(page.locator("#meld")).to_have_text("Bajada: 60 / 30")
    shot(page, screenshots / "rummy-keyboard-es.png")
    while press("Tab")["id"] != "done":  # no trap: Tab leaves the rack for the buttons
        assert presses < 40
    before = turns(page)
    press("Enter")
    settle(page, before)
    assert presses < 32, presses  # (30 before the top bar's «Reto» and «Historial»)
    print(f"keys for a six-tile meld: {presses}")
    expect(page.locator("#log")).to_contain_text("Pones 6 fichas (bajada de 60)")


def view_table(page: Page) -> list[list[str]]:
    sets = page.evaluate("() => window.__rummy.draft.sets.map((s) => s.map((t) => t.code))")
    return [list(x) for x in sets]


# in English -------------------------------------------------------------------------------


def test_the_table_in_english(english: Page, server_url: str, screenshots: Path) -> None:
    page = english
    open_position(page, server_url, "rummy", MELD, "principiante")
    settle(page)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#turn-label")).to_have_text("Your turn")
    expect(page.locator("#meld")).to_have_text("Meld: 0 / 30")
    expect(page.locator("#draw")).to_have_text("Draw")
    expect(page.locator("#help")).to_have_text(
        "Your initial meld: new sets from your rack worth 30 or more. Or draw."
    )
    expect(rack_tile(page, "10R")).to_have_attribute("aria-label", "red 10")
    place(page, "4R", "#sets .new-set")
    place(page, "5R", '#sets .set[data-set="0"] .slot')
    place(page, "7R", '#sets .set[data-set="0"] .slot')
    why = "The red run 4-5-7 isn't valid: the 6 is missing."
    expect(page.locator("#sets .set.invalid .set-why")).to_have_text(why)
    expect(page.locator("#help")).to_have_text(why)
    expect(table_set(page, 0)).to_have_attribute("aria-label", re.compile(r"^Set 1: red 4, red 5"))
    shot(page, screenshots / "rummy-invalid-en.png")
    page.set_viewport_size({"width": PHONE["width"], "height": PHONE["height"]})
    shot(page, screenshots / "rummy-invalid-en-phone.png")
    page.set_viewport_size({"width": 1280, "height": 800})

    open_position(page, server_url, "rummy", HAND_OF_THREE, "principiante")
    settle(page)
    meld_tens(page)
    page.locator("#done").click()
    expect(page.locator("#summary-title")).to_have_text("End of hand 1")
    expect(page.locator("#summary-text")).to_have_text("You ran out of tiles.")
    expect(page.locator("#summary-list li.winner")).to_have_text("You: +37 (total 37)")
    expect(page.locator("#summary-racks")).to_contain_text("Sofía is left with red 1, red 2")
    expect(page.locator("#summary-ok")).to_have_text("Next hand")
    shot(page, screenshots / "rummy-hand-end-en.png")
    page.set_viewport_size({"width": PHONE["width"], "height": PHONE["height"]})
    no_horizontal_scroll(page)
    shot(page, screenshots / "rummy-hand-end-en-phone.png", full=True)
    page.set_viewport_size({"width": 1280, "height": 800})

    open_position(page, server_url, "rummy", FINISH, "principiante")
    settle(page)
    meld_tens(page)
    page.locator("#done").click()
    expect(page.locator("#end-title")).to_have_text("You won the match!")
    expect(page.locator("#end-reason")).to_have_text("You ran out of tiles.")
    expect(page.locator("#end-list li").nth(1)).to_have_text("Sofía: -37 (total -37)")
    expect(page.locator("#again")).to_have_text("New game")
    expect(page.locator("#turn-label")).to_have_text("Game over")
    shot(page, screenshots / "rummy-end-en.png")


# the colours' marks --------------------------------------------------------------------------

MARKS = {"R": "●", "A": "■", "N": "▲", "O": "◆"}
"""Rojo a circle, azul a square, negro a triangle, naranja a diamond: the colour is never the
only clue (the rules' legend says so)."""
RULES_CLASS = {"rojo": "R", "azul": "A", "negro": "N", "naranja": "O"}


def test_every_colour_has_its_mark_on_the_table_and_in_the_rules(
    page: Page, server_url: str
) -> None:
    from_position(page, server_url, KEYS)
    on_table = page.locator("#rack .tile:not(.joker)").evaluate_all(
        "els => els.map((e) => [e.dataset.code.slice(-1), e.querySelector('.m').textContent])"
    )
    assert {c for c, _m in on_table} == set(MARKS)
    assert all(MARKS[c] == m for c, m in on_table), on_table
    page.goto(f"{server_url}/reglas/rummy")
    legend = page.locator(".legend .mini-tile:not(.comodin)").evaluate_all(
        "els => els.map((e) => [e.classList[1], getComputedStyle(e, '::after').content])"
    )
    assert [(RULES_CLASS[c], m.strip('"')) for c, m in legend] == list(MARKS.items())
    expect(page.locator(".legend li")).to_have_text(
        [
            "7 rojo (círculo)",
            "7 azul (cuadrado)",
            "7 negro (triángulo)",
            "7 naranja (rombo)",
            "★ comodín (estrella)",
        ]
    )
