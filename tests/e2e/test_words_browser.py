"""What a new player reads, in a real browser, in Spanish and in English: a Rummy draft's
bad set named tile by tile in words (never «9N»); El Peaje's toll sign in the player's
language («PEAJE», "TOLL")."""

from __future__ import annotations

from pathlib import Path

from browser import PHONE, no_horizontal_scroll, open_position, shot
from playwright.sync_api import Page, expect
from test_peaje_browser import SOLITARIO
from test_peaje_browser import from_position as peaje_at
from test_rummy_browser import MELD, place, settle
from test_shop_browser import room_of


def test_a_bad_sets_tiles_are_named_in_words_in_each_language(
    phone: Page, server_url: str, screenshots: Path
) -> None:
    page = phone
    for lang, why in (
        ("es", "«10 rojo, comodín»: una combinación necesita 3 fichas o más."),
        ("en", "«red 10, joker»: a set needs 3 or more tiles."),
    ):
        rack = "10R J1 " + MELD["racks"][0].split(" ", 1)[1]  # type: ignore[index]
        racks = [rack, MELD["racks"][1]]  # type: ignore[index]
        open_position(page, server_url, "rummy", {**MELD, "racks": racks}, "principiante")
        page.goto(page.url + f"?lang={lang}")
        settle(page)
        place(page, "10R", "#sets .new-set")
        place(page, "J1", '#sets .set[data-set="0"] .slot')
        expect(page.locator("#sets .set.invalid .set-why")).to_have_text(why)
        no_horizontal_scroll(page, PHONE["width"])
        shot(page, screenshots / f"phone-rummy-set-words-{lang}.png")


def test_the_toll_dialogs_sign_is_in_the_players_language(
    phone: Page, server_url: str, screenshots: Path
) -> None:
    page = phone
    for lang, higher, sign in (("es", "Mayor", "PEAJE"), ("en", "Higher", "TOLL")):
        peaje_at(page, server_url, SOLITARIO)
        page.goto(page.url + f"?lang={lang}")
        page.locator("#answers .btn", has_text=higher).tap()
        dialog = page.locator("#toll")
        expect(dialog).to_be_visible()
        drawn = dialog.locator(".barrier").evaluate("e => getComputedStyle(e, '::after').content")
        assert drawn == f'"{sign}"', drawn
        shot(page, screenshots / f"phone-peaje-toll-sign-{lang}.png")


def test_the_history_names_the_computer_in_the_readers_language(
    phone: Page, server_url: str, screenshots: Path
) -> None:
    page = phone
    page.goto(server_url + "/?lang=en")  # an English player starts a game against the computer
    made = page.request.post(f"{server_url}/api/guerra/nueva", data={"config": {}})
    assert made.status == 201
    for lang, you, computer, other in (
        ("en", "You", "Computer", "Ordenador"),
        ("es", "Tú", "Ordenador", "Computer"),
    ):
        page.goto(f"{server_url}/historial?lang={lang}")
        row = page.locator(".game-row").first
        expect(row.locator(".game-who")).to_have_text(f"{you}, {computer}")
        expect(row).not_to_contain_text(other)
        no_horizontal_scroll(page, PHONE["width"])
        shot(page, screenshots / f"phone-history-computer-{lang}.png", full=True)


def test_la_guerras_room_offers_no_level_for_bots_that_make_no_decisions(
    desktop: Page, server_url: str, screenshots: Path
) -> None:
    host = desktop
    room_of(host, server_url, "guerra")
    expect(host.locator("#host")).to_be_visible()
    expect(host.get_by_label("Nivel de los bots")).to_be_hidden()
    host.get_by_role("button", name="Poner un bot").first.click()  # (a bot still sits down)
    bot = host.locator(".room-seats li.bot .who")
    expect(bot).to_have_text("Ordenador 1")  # (named, in the reader's language)
    shot(host, screenshots / "desktop-room-guerra-no-level.png", full=True)
    host.goto(host.url + "?lang=en")
    expect(bot).to_have_text("Computer 1")
    expect(host.get_by_label("Bots' level")).to_be_hidden()
    expect(host.locator("#bot-level")).to_have_count(1)  # (still there, for «Poner un bot»)
    shot(host, screenshots / "desktop-room-guerra-no-level-en.png", full=True)
    host.goto(host.url.split("?")[0] + "?lang=es")
    room_of(host, server_url, "onecard")  # (One Card's bots have three levels)
    expect(host.get_by_label("Nivel de los bots")).to_be_visible()
