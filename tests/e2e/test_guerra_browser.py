"""La guerra in a real browser: the hall, the rules, the setup form and the table.

Every test runs in a fresh browser context, so it is a new guest with no games.
The page exposes `window.__tapete.view` / `.version`; the tests use them only to know
when the table has settled (the computer turns right after us), and read the DOM
for everything they assert. Desktop pages are 1280×800, phones 390×844; screenshots are
``artifacts/screenshots/guerra-*.png``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from browser import (
    PHONE,
    TIMEOUT,
    accessible,
    inside_viewport,
    looks,
    no_horizontal_scroll,
    open_position,
    shot,
    version,
    view,
)
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

GAME_URL = re.compile(r"/partida/[^/?#]+$")
CARD_NAME = re.compile(
    r"^(as|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|jota|reina|rey) "
    r"de (corazones|diamantes|tréboles|picas)$"
)
VALUES = {"J": 11, "Q": 12, "K": 13, "A": 14}

# The table is settled when the game is over or it waits for us (the bots follow our turn).
SETTLED = """v0 => {
  const t = window.__tapete;
  const v = t && t.view;
  if (!v || (v0 !== null && !(t.version > v0))) return false;
  return !!v.result || v.actors.includes(v.seat);
}"""


DESKTOP = {"width": 1280, "height": 800}
LOCALES = {"es": "es-ES", "en": "en-GB"}

expect.set_options(timeout=TIMEOUT)


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """This module's desktop pages are 1280×800."""
    return {**browser_context_args, "viewport": DESKTOP}


# helpers ---------------------------------------------------------------------------------


def settle(page: Page, since: int | None = None) -> None:
    page.wait_for_function(SETTLED, arg=since, timeout=TIMEOUT)


def counts(page: Page) -> list[int]:
    return [int(x) for x in page.locator(".seat .count").all_inner_texts()]


def start_game(page: Page, server_url: str, **options: str) -> str:
    """Fill the setup form (radio values by input name) and start; returns the game URL."""
    page.goto(f"{server_url}/guerra")
    if any(k in options for k in ("ace_low", "sums", "order")):
        page.locator("details.more summary").click()
    for name, value in options.items():
        page.locator(f'input[name="{name}"][value="{value}"]').check()
    page.get_by_role("button", name="Empezar partida").click()
    page.wait_for_url(GAME_URL)
    settle(page)
    expect(page.locator("#turn")).to_be_enabled()
    return page.url


def turn(page: Page, how: str = "click") -> None:
    """Turn our card (button click, tap, or the space bar) and wait for the table to settle."""
    before = version(page)
    if how == "click":
        page.locator("#turn").click()
    elif how == "tap":
        page.locator("#turn").tap()
    elif how == "space":
        # the page's own shortcut, which works when no control has the focus
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        page.keyboard.press("Space")
    else:
        raise AssertionError(how)
    settle(page, before)


def turn_and_check(page: Page, how: str = "click") -> None:
    """A turn moves cards: a pile count changes whether the duel is won or goes to war."""
    before = counts(page)
    turn(page, how)
    after = counts(page)
    assert after != before, f"pile counts did not move after a turn ({how}): {before}"
    v = view(page)
    on_table = sum(len(p["up"]) + p["down"] for st in v["table"] for p in st["placed"].values())
    assert sum(after) + on_table + v["carry"] == 52


def at_war(page: Page) -> bool:
    return page.locator("#seats .step.war").count() > 0


def play_until_war(page: Page, limit: int, how: str = "space") -> bool:
    """Turn until a war shows on the table (or `limit` turns); True if one was seen."""
    for _ in range(limit):
        if at_war(page):
            return True
        if view(page)["result"]:
            return False
        turn(page, how)
    return at_war(page)


def autoplay_to_end(page: Page) -> None:
    page.locator("#speed").select_option("0")
    page.locator("#autoplay").check()
    expect(page.locator("#end")).to_be_visible(timeout=60_000)


def card_value(code: str, ace_low: bool) -> int:
    rank = code[:-1]
    if rank == "A" and ace_low:
        return 1
    return VALUES.get(rank) or int(rank)


# the hall and the rules -------------------------------------------------------------------


def test_hall_lists_four_games(page: Page, server_url: str, screenshots: Path) -> None:
    page.goto(server_url + "/")
    cards = page.locator("article.game-card")
    expect(cards).to_have_count(4)
    # Each game is either playable ("Jugar") or announced ("Próximamente"), never both.
    # La guerra is playable; the others are being built (One Card became playable while
    # these tests were written), so the split is not pinned here beyond La guerra.
    playable = 0
    for card in cards.all():
        play = card.get_by_role("link", name="Jugar", exact=True)
        soon = card.locator(".badge", has_text="Próximamente")
        assert play.count() + soon.count() == 1, card.inner_text()
        playable += play.count()
    expect(page.locator(".game-card .badge")).to_have_count(4 - playable)
    guerra = cards.filter(has=page.get_by_role("heading", name="La guerra"))
    play = guerra.get_by_role("link", name="Jugar", exact=True)
    expect(play).to_have_attribute("href", "/guerra")
    expect(page.locator(".resume")).to_have_count(0)  # a new guest has nothing to continue
    shot(page, screenshots / "guerra-desktop-hall.png", full=True)
    play.click()
    expect(page).to_have_url(f"{server_url}/guerra")


def test_rules_page(page: Page, server_url: str, screenshots: Path) -> None:
    page.goto(f"{server_url}/reglas/guerra")
    expect(page.locator("h1")).to_have_count(1)
    expect(page.locator("h1")).to_contain_text(re.compile("guerra", re.I))
    text = page.locator("main").inner_text()
    # the worked example: a 9 beats a 5
    assert re.search(r"\b9\b[^.\n]{0,60}\b5\b", text), "no 9-vs-5 example in the rules"
    shot(page, screenshots / "guerra-desktop-rules.png", full=True)


# the main flow on a desktop -----------------------------------------------------------------


def test_play_with_button_and_space_bar(page: Page, server_url: str, screenshots: Path) -> None:
    page.goto(f"{server_url}/guerra")
    expect(page.locator("h1")).to_have_text("La guerra")
    for name, value in (("players", "2"), ("length", "corta"), ("down", "3")):
        expect(page.locator(f'input[name="{name}"][value="{value}"]')).to_be_checked()
    shot(page, screenshots / "guerra-desktop-setup.png", full=True)

    start_game(page, server_url)
    duel = page.locator("#duel-label")
    expect(duel).to_have_text("Duelo 1 de 80")
    expect(page.locator("#wars-label")).to_have_text("Guerras: 0")
    expect(page.locator(".seat")).to_have_count(2)
    expect(page.locator(".seat.me")).to_have_count(1)
    assert counts(page) == [26, 26]
    expect(page.locator("#turn")).to_have_text("Dar la vuelta")
    expect(page.locator("#message")).to_have_text("Te toca: da la vuelta a tu carta.")

    turn_and_check(page, "click")
    expect(page.locator(".card.face")).not_to_have_count(0)
    turn_and_check(page, "space")
    turn_and_check(page, "space")
    # three turns finish at least one duel, even if the first ones went to war
    expect(duel).not_to_have_text("Duelo 1 de 80")
    assert re.fullmatch(r"Duelo \d+ de 80", duel.inner_text())
    shot(page, screenshots / "guerra-desktop-table.png")

    if play_until_war(page, 40):
        expect(page.locator("#wars-label")).not_to_have_text("Guerras: 0")
        shot(page, screenshots / "guerra-desktop-war.png")
        if len(view(page)["table"]) > 1:  # still fighting it: the button says so
            expect(page.locator("#turn")).to_have_text("¡A la guerra!")
            expect(page.locator("#message")).to_contain_text("¡Guerra entre")
            turn_and_check(page, "space")


def test_autoplay_to_the_end_and_new_game(page: Page, server_url: str, screenshots: Path) -> None:
    first = start_game(page, server_url)
    autoplay_to_end(page)
    end = page.locator("#end")
    expect(page.locator("#end-title")).to_have_text(re.compile(r"^(¡Has ganado!|Gana .+|Empate)$"))
    expect(page.locator("#end-reason")).not_to_be_empty()
    expect(page.locator("#end-stats")).to_have_text(re.compile(r"^\d+ duelos? · \d+ guerras?$"))
    expect(page.locator("#end-list li")).to_have_count(2)
    again = end.get_by_role("button", name="Nueva partida")
    expect(again).to_be_visible()
    expect(again).to_be_focused()
    expect(page.locator("#turn")).to_be_disabled()
    shot(page, screenshots / "guerra-desktop-end.png")

    again.click()
    page.wait_for_url(lambda url: GAME_URL.search(url) is not None and url != first)
    settle(page)
    expect(end).to_be_hidden()
    expect(page.locator("#duel-label")).to_have_text("Duelo 1 de 80")
    assert counts(page) == [26, 26]
    expect(page.locator("#autoplay")).not_to_be_checked()
    turn_and_check(page)


def test_a_turn_refused_as_stale_is_sent_again(page: Page, server_url: str) -> None:
    """Both players turn at once: when the other's card lands first, ours reaches the server
    at an old version and is refused («stale_version», with the new view). The page sends
    the same turn again at the new version: the player's click is never lost. Here the page
    is made to send at an old version (as if the other's turn had not arrived yet)."""
    moves: list[dict[str, Any]] = []

    def watch(ws: Any) -> None:
        def sent(payload: str | bytes) -> None:
            msg = json.loads(payload)
            if msg.get("type") == "move":
                moves.append(msg)

        ws.on("framesent", sent)

    page.on("websocket", watch)
    start_game(page, server_url)
    before = version(page)
    counted = counts(page)
    page.evaluate("() => { window.__tapete.sock.version -= 1; }")
    page.locator("#turn").click()
    page.wait_for_function("v => window.__tapete.version > v", arg=before)
    settle(page)
    assert [m["version"] for m in moves] == [before - 1, before]
    assert [m["move"] for m in moves] == [{"type": "turn"}, {"type": "turn"}]
    assert counts(page) != counted  # the turn was played
    expect(page.locator("#toast")).to_be_hidden()  # (no error for the player to read)


def test_reload_and_continue(page: Page, server_url: str) -> None:
    url = start_game(page, server_url)
    for _ in range(3):
        turn(page)
    duel = page.locator("#duel-label")
    label, wars = duel.inner_text(), page.locator("#wars-label").inner_text()
    piles = counts(page)
    faces = page.locator(".card.face").evaluate_all("els => els.map(e => e.dataset.code)")
    assert faces, "no cards on the table after three turns"

    page.reload()
    settle(page)
    assert page.url == url
    expect(duel).to_have_text(label)
    expect(page.locator("#wars-label")).to_have_text(wars)
    assert counts(page) == piles
    again = page.locator(".card.face").evaluate_all("els => els.map(e => e.dataset.code)")
    assert again == faces

    page.goto(f"{server_url}/guerra")
    resume = page.get_by_role("link", name="Continuar partida")
    expect(resume).to_have_attribute("href", url.removeprefix(server_url))
    page.goto(server_url + "/")
    expect(page.locator(".resume")).to_contain_text("La guerra")
    page.get_by_role("link", name="Continuar partida").click()
    page.wait_for_url(url)
    settle(page)
    expect(duel).to_have_text(label)
    assert counts(page) == piles


# players and variants ------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "deal"), [(3, [17, 17, 18]), (4, [13, 13, 13, 13])])
def test_three_and_four_players(
    page: Page, server_url: str, screenshots: Path, players: int, deal: list[int]
) -> None:
    start_game(page, server_url, players=str(players))
    expect(page.locator(".seat")).to_have_count(players)
    expect(page.locator("#seats")).to_have_class(f"seats n{players}")
    assert sorted(counts(page)) == deal
    turn_and_check(page, "click")
    expect(page.locator(".seat .played .card.face")).not_to_have_count(0)
    turn_and_check(page, "space")
    shot(page, screenshots / f"guerra-desktop-table-{players}p.png")
    if players == 4 and play_until_war(page, 30):
        shot(page, screenshots / "guerra-desktop-war-4p.png")


def test_variants_ace_low_sums_one_down(page: Page, server_url: str, screenshots: Path) -> None:
    start_game(page, server_url, ace_low="1", sums="1", down="1")
    config = view(page)["config"]
    assert (config["ace_low"], config["sums"], config["down"]) == (True, True, 1)
    turn_and_check(page)
    turn_and_check(page, "space")

    # every seat turned two cards, and the tag is their sum with the ace worth 1
    for row in page.locator(".seat").all():
        step = row.locator(".step").last
        codes = step.locator(".card.face").evaluate_all("els => els.map(e => e.dataset.code)")
        assert len(codes) == 2, codes
        expected = sum(card_value(c, ace_low=True) for c in codes)
        expect(step.locator(".tag.sum")).to_have_text(f"suma {expected}")
    shot(page, screenshots / "guerra-desktop-sums.png")

    if play_until_war(page, 30):
        tags = page.locator(".step.war .tag:not(.sum)").all_inner_texts()
        assert tags and all(t == "1 boca abajo" for t in tags), tags
        shot(page, screenshots / "guerra-desktop-sums-war.png")


# keyboard and screen readers --------------------------------------------------------------


def test_keyboard_and_card_names(page: Page, server_url: str) -> None:
    start_game(page, server_url)
    turn_btn = page.locator("#turn")
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    for _ in range(25):
        page.keyboard.press("Tab")
        if turn_btn.evaluate("el => el === document.activeElement"):
            break
    expect(turn_btn).to_be_focused()

    before = version(page)
    page.keyboard.press("Enter")
    settle(page, before)
    # The button stays enabled (aria-disabled while a move travels), so focus stays on it.
    focused = page.evaluate("() => document.activeElement.id || document.activeElement.tagName")
    assert focused == "turn", focused
    before = version(page)
    page.keyboard.press("Space")
    settle(page, before)

    labels = page.locator(".card.face[aria-label]").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert len(labels) >= 2
    for label in labels:
        assert CARD_NAME.match(label), label
    groups = page.locator(".seat .info[role=group]").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert all(re.fullmatch(r".+: (\d+ cartas|1 carta|Eliminado)", g) for g in groups), groups
    # what happens is said in the table's one polite live region (the felt's texts are not)
    expect(page.locator("#announce")).to_have_attribute("aria-live", "polite")
    expect(page.locator("#announce")).to_have_attribute("role", "log")
    said = page.locator("#announce p").all_inner_texts()  # the duels, their cards in words
    named = re.compile(r"Tú: [a-z ]+ de [a-zé]+; Ordenador: [a-z ]+ de [a-zé]+\.")
    assert any(named.match(s) for s in said), said


# the phone ------------------------------------------------------------------------------------


def test_phone_main_flow(phone: Page, server_url: str, screenshots: Path) -> None:
    page = phone
    page.goto(server_url + "/")
    expect(page.locator("article.game-card")).to_have_count(4)
    no_horizontal_scroll(page)
    shot(page, screenshots / "guerra-phone-hall.png", full=True)

    page.goto(f"{server_url}/reglas/guerra")
    no_horizontal_scroll(page)
    shot(page, screenshots / "guerra-phone-rules.png")

    page.goto(f"{server_url}/guerra")
    no_horizontal_scroll(page)
    shot(page, screenshots / "guerra-phone-setup.png", full=True)

    start_game(page, server_url)
    inside_viewport(page, "#turn")
    no_horizontal_scroll(page)
    turn_and_check(page, "tap")
    turn_and_check(page, "tap")
    turn_and_check(page, "tap")
    inside_viewport(page, "#turn")
    no_horizontal_scroll(page)
    expect(page.locator("#turn")).to_be_enabled()
    shot(page, screenshots / "guerra-phone-table.png")
    if play_until_war(page, 30, how="tap"):
        no_horizontal_scroll(page)
        shot(page, screenshots / "guerra-phone-war.png")

    autoplay_to_end(page)
    expect(page.locator("#end-title")).not_to_be_empty()
    inside_viewport(page, ".end-card")
    inside_viewport(page, "#again")
    no_horizontal_scroll(page)
    shot(page, screenshots / "guerra-phone-end.png")
    page.locator("#again").tap()
    page.wait_for_url(GAME_URL)
    settle(page)
    expect(page.locator("#end")).to_be_hidden()
    expect(page.locator("#duel-label")).to_have_text("Duelo 1 de 80")


def test_phone_four_players(phone: Page, server_url: str, screenshots: Path) -> None:
    page = phone
    start_game(page, server_url, players="4", sums="1")
    expect(page.locator(".seat")).to_have_count(4)
    turn_and_check(page, "tap")
    turn_and_check(page, "tap")
    no_horizontal_scroll(page)
    expect(page.locator(".seat .tag.sum")).not_to_have_count(0)
    page.evaluate("() => window.scrollTo(0, 0)")
    shot(page, screenshots / "guerra-phone-table-4p-sums.png")


def test_phone_four_players_turn_button_on_screen(phone: Page, server_url: str) -> None:
    page = phone
    start_game(page, server_url, players="4")
    inside_viewport(page, "#turn")
    turn(page, "tap")
    page.evaluate("() => window.scrollTo(0, 0)")
    inside_viewport(page, "#turn")


# set positions: what was fixed stays fixed, and the table in both languages ---------------


@contextmanager
def visitor(browser: Browser, lang: str, device: str) -> Iterator[Page]:
    """A new guest whose browser speaks ``lang``, on a desktop or a phone."""
    phone = device == "phone"
    context = browser.new_context(
        locale=LOCALES[lang],
        viewport=PHONE if phone else DESKTOP,  # type: ignore[arg-type]
        has_touch=phone,
        is_mobile=phone,
    )
    context.set_default_timeout(TIMEOUT)
    try:
        yield context.new_page()
    finally:
        context.close()


def open_table(page: Page, server_url: str, position: dict[str, Any], lang: str = "es") -> None:
    page.goto(f"{server_url}/?lang={lang}")
    open_position(page, server_url, "guerra", position)
    settle(page)


@pytest.mark.parametrize(
    ("piles", "title", "reason"),
    [
        (["KS", "2C"], "¡Has ganado!", "Te has quedado con todas las cartas."),
        (["2C", "KS"], "Gana Ordenador", "Se ha quedado con todas las cartas."),
    ],
)
def test_the_end_says_who_took_every_card(
    page: Page, server_url: str, piles: list[str], title: str, reason: str
) -> None:
    """Winning by taking every card, the end says «Te has quedado…» to you (it used to say
    «Se ha quedado…», which is what it says of the computer)."""
    open_table(page, server_url, {"piles": piles})
    assert view(page)["seat"] == 0
    turn(page)
    expect(page.locator("#end")).to_be_visible()
    expect(page.locator("#end-title")).to_have_text(title)
    expect(page.locator("#end-reason")).to_have_text(reason)


@pytest.mark.parametrize("card", ["10C", "10H"])
def test_the_seat_of_one_out_stays_legible(page: Page, server_url: str, card: str) -> None:
    """At the end, with its dialog closed, the seat of the one who is out shows the card they
    last turned greyed, not faded: its corner stays above 4.5:1 (faded to 45 %, as it was,
    a black ten's corner fell to 4.39 on the felt, a red one's lower)."""
    open_table(page, server_url, {"piles": [card, "KS"]})
    turn(page)
    expect(page.locator("#end")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#end")).to_be_hidden()
    out = looks(page, ".seat.out", "opacity", "filter")
    assert [(s["opacity"], s["filter"]) for s in out] == [("1", "grayscale(1)")], out
    assert [s["opacity"] for s in looks(page, ".seat.out .pile", "opacity")] == ["1"]  # (its «0»)
    expect(page.locator(".seat.out .card.face")).to_have_count(1)
    accessible(page, f"guerra-out-{card}")


def add_to_values(ws: WebSocketRoute, extra: int) -> None:
    """Pass the table's socket through, adding ``extra`` to every value the server's views
    carry (``values`` of the table and of the last duel)."""
    server = ws.connect_to_server()

    def shift(node: Any) -> None:
        if isinstance(node, dict):
            for key, item in node.items():
                if key == "values" and isinstance(item, list):
                    node[key] = [{s: v + extra for s, v in step.items()} for step in item]
                else:
                    shift(item)
        elif isinstance(node, list):
            for item in node:
                shift(item)

    def from_server(message: str | bytes) -> None:
        data = json.loads(message)
        shift(data)
        ws.send(json.dumps(data))

    server.on_message(from_server)


def sums_shown(page: Page) -> dict[int, str]:
    """The sum tag of each seat's last step, by seat."""
    shown = {}
    for row in page.locator(".seat").all():
        tag = row.locator(".step .tag.sum")
        if tag.count():
            shown[int(str(row.get_attribute("data-seat")))] = tag.last.inner_text()
    return shown


def test_the_sums_shown_are_the_views(page: Page, server_url: str) -> None:
    """«Guerra de sumas»: the page shows the sums the view carries and computes none. The
    views are changed on their way (+100 to every value): the page shows the changed ones."""
    page.route_web_socket(re.compile(r"/ws$"), lambda ws: add_to_values(ws, 100))
    position = {
        "piles": ["9H 5C 2S 3S", "4H 4D"],
        "config": {"sums": True, "order": "fixed"},
        "steps": [{"contenders": [0, 1], "placed": {"1": {"up": "KS 2D"}}}],
    }
    open_table(page, server_url, position)
    # the duel in progress: the computer has turned K♠ 2♦ (15), we have not turned yet
    expect(page.locator('.seat[data-seat="1"] .tag.sum')).to_have_text("suma 115")
    assert sums_shown(page) == {1: "suma 115"}
    assert view(page)["values"] == [{"1": 115}]
    turn(page)
    # the duel just finished: 9♥ 5♣ (14) against K♠ 2♦ (15)
    expect(page.locator('.seat[data-seat="0"] .tag.sum')).to_have_text("suma 114")
    assert sums_shown(page) == {0: "suma 114", 1: "suma 115"}
    last = view(page)["last"]
    assert last["values"] == [{"0": 114, "1": 115}] and last["winner"] == 1


# A game from a set position (fixed order): we win duel 1 (9♥ over 5♣), tie with kings and
# win the war with the A♦ (+10), lose duel 3 (5♠ under 6♠), win duel 4, tie with fives in
# duel 5 with the computer's last card, and take every card: 7 turns, 5 duels, 2 wars.
SCRIPTED = {"piles": ["9H KS 2C 3C 4C AD 5S", "5C KH 3D 4S 5D 2H 6S"], "config": {"order": "fixed"}}
WORDS: dict[str, dict[str, Any]] = {
    "es": {
        "start": ("Duelo 1 de 80", "Te toca: da la vuelta a tu carta.", "Dar la vuelta"),
        "wars": "Guerras: {n}",
        "duel": "Duelo {n} de 80",
        "won": "Te llevas {cards} cartas con {card}.",
        "lost": "Ordenador se lleva 2 cartas con 6♠.",
        "war": ("¡Guerra entre tú y Ordenador!", "¡A la guerra!"),
        "war_won": "¡Guerra! Te llevas 10 cartas con A♦.",
        "log": ["¡Guerra! Tú K♠ · Ordenador K♥ → Tú (+10)", "Tú 9♥ · Ordenador 5♣ → Tú (+2)"],
        "end": ("¡Has ganado!", "Te has quedado con todas las cartas.", "5 duelos · 2 guerras"),
        "rows": ["Tú: 14 cartas", "Ordenador: 0 cartas"],
        "again": "Nueva partida",
    },
    "en": {
        "start": ("Duel 1 of 80", "Your turn: turn over your card.", "Turn over"),
        "wars": "Wars: {n}",
        "duel": "Duel {n} of 80",
        "won": "You take {cards} cards with {card}.",
        "lost": "Computer takes 2 cards with 6♠.",
        "war": ("War between you and Computer!", "To war!"),
        "war_won": "War! You take 10 cards with A♦.",
        "log": ["War! You K♠ · Computer K♥ → You (+10)", "You 9♥ · Computer 5♣ → You (+2)"],
        "end": ("You won!", "You ended up with all the cards.", "5 duels · 2 wars"),
        "rows": ["You: 14 cards", "Computer: 0 cards"],
        "again": "New game",
    },
}


@pytest.mark.parametrize(("lang", "device"), [("es", "phone"), ("en", "desktop")])
def test_a_few_duels_and_a_war_in_each_language(
    browser: Browser, server_url: str, screenshots: Path, lang: str, device: str
) -> None:
    """The duel label, the message, the button, the log and the end dialog, as a Spanish
    and an English browser read them (``?lang=en`` on the first visit), one on a phone and
    one on a laptop (the words do not depend on the screen, nor the layout on the words)."""
    w = WORDS[lang]
    label, message, button = page_parts = ("#duel-label", "#message", "#turn")
    with visitor(browser, lang, device) as page:
        open_table(page, server_url, SCRIPTED, lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        for selector, text in zip(page_parts, w["start"], strict=True):
            expect(page.locator(selector)).to_have_text(text)
        expect(page.locator("#wars-label")).to_have_text(w["wars"].format(n=0))

        turn(page)  # duel 1: 9♥ against 5♣
        expect(page.locator(label)).to_have_text(w["duel"].format(n=2))
        expect(page.locator(message)).to_have_text(w["won"].format(cards=2, card="9♥"))
        turn(page)  # duel 2: two kings, war
        expect(page.locator(message)).to_have_text(w["war"][0])
        expect(page.locator(button)).to_have_text(w["war"][1])
        expect(page.locator("#wars-label")).to_have_text(w["wars"].format(n=1))
        expect(page.locator(label)).to_have_text(w["duel"].format(n=2))
        no_horizontal_scroll(page, PHONE["width"] if device == "phone" else DESKTOP["width"])
        shot(page, screenshots / f"guerra-{device}-{lang}-war.png")
        turn(page)  # the war: A♦ against 2♥
        expect(page.locator(message)).to_have_text(w["war_won"])
        expect(page.locator("#log li")).to_have_text(w["log"])
        expect(page.locator(button)).to_have_text(w["start"][2])
        shot(page, screenshots / f"guerra-{device}-{lang}-table.png")
        turn(page)  # duel 3: 5♠ against 6♠
        expect(page.locator(message)).to_have_text(w["lost"])
        turn(page)  # duel 4: 9♥ against 6♠
        turn(page)  # duel 5: two fives, war; the computer has no card left
        expect(page.locator(message)).to_have_text(w["war"][0])
        turn(page)

        title, reason, stats = w["end"]
        expect(page.locator("#end")).to_be_visible()
        expect(page.locator("#end-title")).to_have_text(title)
        expect(page.locator("#end-reason")).to_have_text(reason)
        expect(page.locator("#end-stats")).to_have_text(stats)
        expect(page.locator("#end-list li")).to_have_text(w["rows"])
        expect(page.locator("#again")).to_have_text(w["again"])
        if device == "phone":
            inside_viewport(page, ".end-card")
        shot(page, screenshots / f"guerra-{device}-{lang}-end.png")


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_setup_and_rules_in_english(
    browser: Browser, server_url: str, screenshots: Path, device: str
) -> None:
    """The setup page and the rules page, read by an English browser."""
    with visitor(browser, "en", device) as page:
        page.goto(f"{server_url}/guerra?lang=en")
        expect(page.locator("h1")).to_have_text("War")
        expect(page.get_by_role("button", name="Start the game")).to_be_visible()
        expect(page.get_by_text("you and the computer")).to_be_visible()
        shot(page, screenshots / f"guerra-{device}-en-setup.png", full=True)
        page.goto(f"{server_url}/reglas/guerra")
        expect(page.locator("h1")).to_have_text("War")
        expect(page.locator("article.rules")).to_have_attribute("lang", "en")
        expect(page.locator("#ej-guerra")).to_have_text("Example: a war of kings won by a queen")
        shot(page, screenshots / f"guerra-{device}-en-rules.png")
