"""La guerra in a real browser: the hall, the rules, the setup form and the table.

Every test runs in a fresh browser context, so it is a new guest with no games.
The page exposes `window.__tapete.view` / `.version`; the tests use them only to know
when the table has settled (the computer turns right after us), and read the DOM
for everything they assert.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser import TIMEOUT, inside_viewport, no_horizontal_scroll, shot, version, view
from playwright.sync_api import Page, expect

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


expect.set_options(timeout=TIMEOUT)


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
    shot(page, screenshots / "desktop-hall.png", full=True)
    play.click()
    expect(page).to_have_url(f"{server_url}/guerra")


def test_rules_page(page: Page, server_url: str, screenshots: Path) -> None:
    page.goto(f"{server_url}/reglas/guerra")
    expect(page.locator("h1")).to_have_count(1)
    expect(page.locator("h1")).to_contain_text(re.compile("guerra", re.I))
    text = page.locator("main").inner_text()
    # the worked example: a 9 beats a 5
    assert re.search(r"\b9\b[^.\n]{0,60}\b5\b", text), "no 9-vs-5 example in the rules"
    shot(page, screenshots / "desktop-rules.png", full=True)


# the main flow on a desktop -----------------------------------------------------------------


def test_play_with_button_and_space_bar(page: Page, server_url: str, screenshots: Path) -> None:
    page.goto(f"{server_url}/guerra")
    expect(page.locator("h1")).to_have_text("La guerra")
    for name, value in (("players", "2"), ("length", "corta"), ("down", "3")):
        expect(page.locator(f'input[name="{name}"][value="{value}"]')).to_be_checked()
    shot(page, screenshots / "desktop-setup.png", full=True)

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
    shot(page, screenshots / "desktop-table.png")

    if play_until_war(page, 40):
        expect(page.locator("#wars-label")).not_to_have_text("Guerras: 0")
        shot(page, screenshots / "desktop-war.png")
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
    expect(page.locator("#end-stats")).to_have_text(re.compile(r"^\d+ duelos · \d+ guerras$"))
    expect(page.locator("#end-list li")).to_have_count(2)
    again = end.get_by_role("button", name="Nueva partida")
    expect(again).to_be_visible()
    expect(again).to_be_focused()
    expect(page.locator("#turn")).to_be_disabled()
    shot(page, screenshots / "desktop-end.png")

    again.click()
    page.wait_for_url(lambda url: GAME_URL.search(url) is not None and url != first)
    settle(page)
    expect(end).to_be_hidden()
    expect(page.locator("#duel-label")).to_have_text("Duelo 1 de 80")
    assert counts(page) == [26, 26]
    expect(page.locator("#autoplay")).not_to_be_checked()
    turn_and_check(page)


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
    shot(page, screenshots / f"desktop-table-{players}p.png")
    if players == 4 and play_until_war(page, 30):
        shot(page, screenshots / "desktop-war-4p.png")


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
    shot(page, screenshots / "desktop-sums.png")

    if play_until_war(page, 30):
        tags = page.locator(".step.war .tag:not(.sum)").all_inner_texts()
        assert tags and all(t == "1 boca abajo" for t in tags), tags
        shot(page, screenshots / "desktop-sums-war.png")


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
    expect(page.locator("#message")).to_have_attribute("aria-live", "polite")


# the phone ------------------------------------------------------------------------------------


def test_phone_main_flow(phone: Page, server_url: str, screenshots: Path) -> None:
    page = phone
    page.goto(server_url + "/")
    expect(page.locator("article.game-card")).to_have_count(4)
    no_horizontal_scroll(page)
    shot(page, screenshots / "phone-hall.png", full=True)

    page.goto(f"{server_url}/reglas/guerra")
    no_horizontal_scroll(page)
    shot(page, screenshots / "phone-rules.png")

    page.goto(f"{server_url}/guerra")
    no_horizontal_scroll(page)
    shot(page, screenshots / "phone-setup.png", full=True)

    start_game(page, server_url)
    inside_viewport(page, "#turn")
    no_horizontal_scroll(page)
    turn_and_check(page, "tap")
    turn_and_check(page, "tap")
    turn_and_check(page, "tap")
    inside_viewport(page, "#turn")
    no_horizontal_scroll(page)
    expect(page.locator("#turn")).to_be_enabled()
    shot(page, screenshots / "phone-table.png")
    if play_until_war(page, 30, how="tap"):
        no_horizontal_scroll(page)
        shot(page, screenshots / "phone-war.png")

    autoplay_to_end(page)
    expect(page.locator("#end-title")).not_to_be_empty()
    inside_viewport(page, ".end-card")
    inside_viewport(page, "#again")
    no_horizontal_scroll(page)
    shot(page, screenshots / "phone-end.png")
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
    shot(page, screenshots / "phone-table-4p-sums.png")


def test_phone_four_players_turn_button_on_screen(phone: Page, server_url: str) -> None:
    page = phone
    start_game(page, server_url, players="4")
    inside_viewport(page, "#turn")
    turn(page, "tap")
    page.evaluate("() => window.scrollTo(0, 0)")
    inside_viewport(page, "#turn")
