"""El Peaje in a real browser, on a phone (390×844, touch): the setup form, a whole solitario
route, a miss that crosses a toll back, turnos rápidos passing the phone, dos jugadores
marking answers, La patata's toll draw and the odds panel.

Games start from set positions through the test API (`--test-api`), so the cards are known:
a route's next card is the LAST code of its "deck", and "cards" starts with the initial
card. El Peaje has no bots and one seat; its page exposes `window.__tapete.view`, which the
tests read only to wait for it; every assertion reads the DOM.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import PHONE, TIMEOUT, inside_viewport, no_horizontal_scroll, open_position, shot
from playwright.sync_api import Page, expect

GAME_URL = re.compile(r"/partida/[^/?#]+$")

# Fácil: 1 mayor o menor · PEAJE · 2 roja o negra · 3 palo. From the nine of hearts the
# ten of clubs is higher, the five of diamonds red, the two of hearts a heart.
SOLITARIO: dict[str, Any] = {
    "deck": "3S 4S 2H 5D 10C",
    "cards": ["9H"],
    "config": {"variant": "solitario", "difficulty": "facil", "toll": "un vaso de agua"},
}
# Media: 1 mayor o menor · 2 redonda o picuda · PEAJE · 3 roja o negra · 4 palo.
# 10♣ is higher than 6♥, 5♥ is round (♥ ♣), and 3♠ is black: answering "Roja" misses.
MEDIA_MISS: dict[str, Any] = {
    "deck": "4D 8C 3S 5H 10C",
    "cards": ["6H"],
    "config": {"variant": "solitario", "difficulty": "media"},
}
# Turnos rápidos, media: Alba plays the MEDIA_MISS route; Bruno's K♠ is followed by a 9♦,
# so his "Mayor" misses and the phone goes back to Alba.
RAPIDOS: dict[str, Any] = {
    "routes": [
        {"deck": "4D 8C 3S 5H 10C", "cards": "6H"},
        {"deck": "2C 7H 9D", "cards": "KS"},
    ],
    "config": {"variant": "rapidos", "difficulty": "media", "players": ["Alba", "Bruno"]},
}
# Dos jugadores, fácil: Carla answers aloud, Dani validates. 10♣ after 6♥, then 3♠.
DOS: dict[str, Any] = {
    "deck": "4D 3S 10C",
    "cards": ["6H"],
    "config": {"variant": "dos", "difficulty": "facil", "players": ["Carla", "Dani"]},
}
# La patata, five numbers: whoever crosses the toll, one number drawn at random pays.
PATATA: dict[str, Any] = {
    "deck": "4D 3S 10C",
    "cards": ["6H"],
    "config": {"variant": "patata", "difficulty": "facil", "players": ["", "", "", "", ""]},
}


expect.set_options(timeout=TIMEOUT)


# helpers ---------------------------------------------------------------------------------


def from_position(page: Page, server_url: str, position: dict[str, Any]) -> str:
    open_position(page, server_url, "peaje", position)
    page.wait_for_function("() => !!(window.__tapete && window.__tapete.view)")
    return page.url


def answer(page: Page, text: str) -> None:
    page.locator("#answers .btn", has_text=text).tap()


def prompt_is(page: Page, text: str) -> None:
    expect(page.locator("#prompt")).to_have_text(text)


def route_cards(page: Page) -> list[str]:
    return [
        str(x)
        for x in page.locator("#route .card").evaluate_all("els => els.map(e => e.dataset.code)")
    ]


def pay_toll(page: Page, title: str, ok_text: str = "Sí, peaje cumplido") -> None:
    toll = page.locator("#toll")
    expect(toll).to_be_visible()
    expect(page.locator("#toll-title")).to_have_text(title)
    ok = page.locator("#toll-ok")
    expect(ok).to_have_text(ok_text)
    inside_viewport(page, "#toll-ok")
    ok.tap()
    expect(toll).to_be_hidden()


# the setup page -----------------------------------------------------------------------------


def test_setup(phone: Page, server_url: str, screenshots: Path) -> None:
    page = phone
    page.goto(f"{server_url}/peaje")
    expect(page.locator("h1")).to_have_text("El Peaje")
    no_horizontal_scroll(page)
    fewer, more, out = page.locator("#fewer"), page.locator("#more"), page.locator("#count-out")
    # solitario: one player, no more, no fewer
    expect(page.locator('input[name="variant"][value="solitario"]')).to_be_checked()
    expect(out).to_have_text("1")
    expect(fewer).to_be_disabled()
    expect(more).to_be_disabled()
    shot(page, screenshots / "phone-peaje-setup.png", full=True)

    # turnos rápidos: 2 to 4
    page.locator("label.choice", has_text="Turnos rápidos").tap()
    expect(out).to_have_text("2")
    expect(page.locator("#players-hint")).to_have_text("(2 a 4)")
    expect(page.locator("#names input")).to_have_count(2)
    more.tap()
    more.tap()
    expect(out).to_have_text("4")
    expect(more).to_be_disabled()
    fewer.tap()
    expect(out).to_have_text("3")
    expect(page.locator("#names input")).to_have_count(3)
    for i, name in enumerate(("Alba", "Bruno", "Celia")):
        page.locator("#names input").nth(i).fill(name)
    page.locator("label.choice", has_text="Media").tap()
    page.locator("[data-toll]", has_text="un vaso de agua").tap()
    expect(page.locator("#toll")).to_have_value("un vaso de agua")
    page.locator("label.choice", has_text="Cuatro colores").tap()
    no_horizontal_scroll(page)
    shot(page, screenshots / "phone-peaje-setup-filled.png", full=True)

    page.get_by_role("button", name="Empezar partida").tap()
    page.wait_for_url(GAME_URL)
    page.wait_for_function("() => !!(window.__tapete && window.__tapete.view)")
    config = page.evaluate("() => window.__tapete.view.config")
    assert config == {
        "variant": "rapidos",
        "difficulty": "media",
        "players": ["Alba", "Bruno", "Celia"],
        "toll": "un vaso de agua",
        "style": "cuatro_colores",
        "phones": 0,  # one phone passed round
    }
    expect(page.locator("body")).to_have_class(re.compile(r"\bstyle-cuatro_colores\b"))
    expect(page.locator("#who")).to_have_text("Turno de Alba")
    # the media route: four questions and a toll, starting at the first one
    expect(page.locator("#route .stop")).to_have_count(6)
    expect(page.locator("#route .stop.here")).to_contain_text("1. Mayor o menor")
    expect(page.locator("#counters li")).to_have_count(3)
    expect(page.locator("#answers .btn")).to_have_count(2)
    no_horizontal_scroll(page)
    inside_viewport(page, "#answers")
    shot(page, screenshots / "phone-peaje-table.png")


def test_desktop_table(page: Page, server_url: str, screenshots: Path) -> None:
    page.set_default_timeout(TIMEOUT)
    from_position(page, server_url, SOLITARIO)
    page.locator("#odds-toggle").click()
    expect(page.locator("#odds")).to_be_visible()
    no_horizontal_scroll(page, width=1280)  # pytest-playwright's default viewport
    inside_viewport(page, "#answers")
    shot(page, screenshots / "desktop-peaje-table.png", full=True)


# solitario ----------------------------------------------------------------------------------


def test_solitario_whole_route(phone: Page, server_url: str, screenshots: Path) -> None:
    page = phone
    from_position(page, server_url, SOLITARIO)
    expect(page.locator("#who")).to_have_text("Solitario")
    prompt_is(page, "¿La siguiente será mayor o menor que el nueve de corazones?")
    assert route_cards(page) == ["9H"]
    expect(page.locator("#counters")).to_have_text("Fallos: 0 · peajes: 0 · quedan 5 cartas")
    inside_viewport(page, "#answers")
    no_horizontal_scroll(page)

    # the odds of the first question: 20 higher cards (10 to A) of the 51 unseen
    odds = page.locator("#odds")
    expect(odds).to_be_hidden()
    toggle = page.locator("#odds-toggle")
    toggle.tap()
    expect(odds).to_be_visible()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(odds.locator("tr", has_text="Mayor")).to_contain_text("20 / 51")
    expect(odds.locator("tr", has_text="Menor")).to_contain_text("28 / 51")
    expect(odds.locator("tr", has_text="Empate")).to_contain_text("3 / 51")
    shot(page, screenshots / "phone-peaje-odds.png", full=True)

    answer(page, "Mayor")
    pay_toll(page, "¡Peaje!")
    expect(page.locator("#toll-what")).to_have_text("Toca pagar: un vaso de agua.")
    prompt_is(page, "¿Roja o negra?")
    assert route_cards(page) == ["9H", "10C"]
    # the odds follow the question: 26 red cards, less the 9♥ and the 10♣ is black
    expect(odds.locator("tr", has_text="Roja")).to_contain_text("25 / 50")
    toggle.tap()
    expect(odds).to_be_hidden()

    answer(page, "Roja")
    prompt_is(page, "¿De qué palo?")
    expect(page.locator("#answers .btn")).to_have_count(4)
    answer(page, "♥ corazones")
    end = page.locator("#end")
    expect(end).to_be_visible()
    expect(page.locator("#end-title")).to_have_text("¡Ruta completada!")
    expect(page.locator("#end-reason")).to_have_text("Se acertó la última pregunta de la ruta.")
    expect(page.locator("#end-stats")).to_contain_text("Cartas usadas: 3 · fallos: 0")
    expect(page.locator("#again")).to_be_focused()
    inside_viewport(page, "#end .end-card")
    no_horizontal_scroll(page)
    shot(page, screenshots / "phone-peaje-end.png")


def test_miss_across_a_toll(phone: Page, server_url: str, screenshots: Path) -> None:
    page = phone
    from_position(page, server_url, MEDIA_MISS)
    answer(page, "Mayor")
    prompt_is(page, "¿Redonda o picuda?")
    answer(page, "Redonda")
    pay_toll(page, "¡Peaje!")
    prompt_is(page, "¿Roja o negra?")
    assert route_cards(page) == ["6H", "10C", "5H"]

    answer(page, "Roja")  # the three of spades: a miss
    prompt_is(page, "Fallo: ha salido el tres de picas. Se retira del mazo.")
    expect(page.locator("#revealed .card")).to_have_attribute("data-code", "3S")
    expect(page.locator("#revealed-cap")).to_have_text("Fallo")
    confirm = page.locator("#answers .btn", has_text="Confirmar fallo")
    expect(confirm).to_be_visible()
    shot(page, screenshots / "phone-peaje-miss.png")
    confirm.tap()
    # stepping back from 3 to 2 crosses the toll again, the other way
    pay_toll(page, "¡Peaje! (de vuelta)")
    prompt_is(page, "¿Redonda o picuda?")
    assert route_cards(page) == ["6H", "10C"]  # the card on 2 must be earned again
    expect(page.locator("#route .stop.here")).to_contain_text("2. Redonda o picuda")
    expect(page.locator("#counters")).to_contain_text("Fallos: 1 · peajes: 2")
    no_horizontal_scroll(page)


def test_a_toll_nobody_pays_is_only_counted(phone: Page, server_url: str) -> None:
    """The toll of strangers («Jugar ahora»: they agree on none, RULES.md «Quick play»)."""
    page = phone
    from_position(
        page, server_url, {**MEDIA_MISS, "config": {**MEDIA_MISS["config"], "toll": "nada"}}
    )
    answer(page, "Mayor")
    answer(page, "Redonda")
    expect(page.locator("#toll-what")).to_have_text("Este peaje no se paga: solo se cuenta.")
    pay_toll(page, "¡Peaje!", "Seguir")
    expect(page.locator("#counters")).to_contain_text("peajes: 1")


# the group variants ------------------------------------------------------------------------


def test_turnos_rapidos_handover(phone: Page, server_url: str, screenshots: Path) -> None:
    page = phone
    url = from_position(page, server_url, RAPIDOS)
    expect(page.locator("#who")).to_have_text("Turno de Alba")
    answer(page, "Mayor")
    answer(page, "Redonda")
    pay_toll(page, "¡Peaje!")
    answer(page, "Roja")  # a miss: back over the toll, then Bruno's turn
    page.locator("#answers .btn", has_text="Confirmar fallo").tap()
    expect(page.locator("#toll-title")).to_have_text("¡Peaje! (de vuelta)")
    alba = route_cards(page)
    assert alba == ["6H", "10C"]
    pay_toll(page, "¡Peaje! (de vuelta)")
    alba_counter = page.locator("#counters li").first.inner_text()  # every route is listed
    assert "Fallos: 1 · peajes: 2" in alba_counter, alba_counter

    handover = page.locator("#handover")
    expect(handover).to_be_visible()
    expect(page.locator("#handover-title")).to_have_text("Turno de Bruno")
    ready = page.locator("#handover-ok")
    expect(ready).to_have_text("Ya tengo el móvil")
    expect(ready).to_be_focused()
    inside_viewport(page, "#handover-ok")
    shot(page, screenshots / "phone-peaje-handover.png")
    ready.tap()
    expect(handover).to_be_hidden()
    expect(page.locator("#who")).to_have_text("Turno de Bruno")
    assert route_cards(page) == ["KS"]
    prompt_is(page, "¿La siguiente será mayor o menor que el rey de picas?")
    answer(page, "Mayor")  # the nine of diamonds: a miss, and the phone goes back to Alba
    page.locator("#answers .btn", has_text="Confirmar fallo").tap()

    expect(page.locator("#handover-title")).to_have_text("Turno de Alba")
    expect(page.locator("#handover-text")).to_contain_text("posición 2")
    page.locator("#handover-ok").tap()
    expect(page.locator("#who")).to_have_text("Turno de Alba")
    assert route_cards(page) == alba
    prompt_is(page, "¿Redonda o picuda?")
    expect(page.locator("#counters li").first).to_have_text(alba_counter)
    expect(page.locator("#counters li").nth(1)).to_contain_text("Fallos: 1")

    # the saved game comes back the same after a reload
    page.reload()
    page.wait_for_function("() => !!(window.__tapete && window.__tapete.view)")
    assert page.url == url
    expect(page.locator("#who")).to_have_text("Turno de Alba")
    expect(page.locator("#handover")).to_be_hidden()
    assert route_cards(page) == alba
    expect(page.locator("#counters li").first).to_have_text(alba_counter)


def test_dos_jugadores_marks(phone: Page, server_url: str, screenshots: Path) -> None:
    page = phone
    from_position(page, server_url, DOS)
    expect(page.locator("#who")).to_have_text("Carla responde en voz alta")
    expect(page.locator("#prompt")).to_contain_text("Di tu respuesta en voz alta")
    reveal = page.locator("#answers .btn", has_text="Revelar")
    expect(reveal).to_have_count(1)
    reveal.tap()
    expect(page.locator("#who")).to_have_text("Dani valida")
    prompt_is(page, "¿Ha acertado? (Valía: ▲ Mayor)")
    expect(page.locator("#revealed .card")).to_have_attribute("data-code", "10C")
    shot(page, screenshots / "phone-peaje-dos-mark.png")
    page.locator("#answers .btn", has_text="Acierto").tap()
    pay_toll(page, "¡Peaje!")
    assert route_cards(page) == ["6H", "10C"]

    page.locator("#answers .btn", has_text="Revelar").tap()
    prompt_is(page, "¿Ha acertado? (Valía: Negra ♣♠)")
    page.locator("#answers .btn", has_text="Fallo").tap()
    page.locator("#answers .btn", has_text="Confirmar fallo").tap()
    pay_toll(page, "¡Peaje! (de vuelta)")
    expect(page.locator("#answers .btn", has_text="Revelar")).to_be_visible()
    assert route_cards(page) == ["6H"]
    expect(page.locator("#counters")).to_contain_text("Fallos: 1 · peajes: 2")


def test_patata_toll_draw(phone: Page, server_url: str, screenshots: Path) -> None:
    page = phone
    from_position(page, server_url, PATATA)
    expect(page.locator("#who")).to_have_text("Turno de Nº 1")
    answer(page, "Mayor")
    expect(page.locator("#toll")).to_be_visible()
    payer = page.locator("#toll-payer")
    expect(payer).to_be_visible()
    expect(payer).to_have_text(re.compile(r"^Paga el número \d+$"))
    number = int(payer.locator("b").inner_text())
    assert 1 <= number <= 5
    assert page.evaluate("() => window.__tapete.view.toll.payer") == number
    inside_viewport(page, ".pj-toll .end-card")
    shot(page, screenshots / "phone-peaje-patata-toll.png")
    pay_toll(page, "¡Peaje!")
    expect(page.locator("#who")).to_have_text("Turno de Nº 2")


# what a new player ran into ----------------------------------------------------------------

# Difícil: 1 mayor o menor · 2 redonda o picuda · PEAJE · 3 roja o negra · PEAJE · 4 palo.
DIFICIL: dict[str, Any] = {
    "deck": "4D 3S 10C",
    "cards": ["6H"],
    "config": {"variant": "solitario", "difficulty": "dificil"},
}
PATATA_NAMES = ["Ana", "Beto", "Celia", "Dani", "Eva"]


def test_the_dificil_route_fits_the_phone(phone: Page, server_url: str, screenshots: Path) -> None:
    """The longest route (four questions, two tolls) shows whole at 390 px: no sideways
    scroll inside it and no label cut short ("4. Pa…")."""
    page = phone
    from_position(page, server_url, DIFICIL)
    stops = page.locator("#route .stop")
    expect(stops).to_have_count(7)
    shot(page, screenshots / "phone-peaje-dificil-route.png")
    fits = page.locator("#route").evaluate("el => el.scrollWidth <= el.clientWidth")
    assert fits, "the route scrolls sideways"
    for i in range(7):
        inside_viewport(page, f"#route .stop >> nth={i}")
    cut = page.locator("#route .stop span").evaluate_all(
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
    )
    assert not cut, cut
    expect(stops.last).to_contain_text("4. Palo")
    no_horizontal_scroll(page)


def test_patata_names_who_pays(phone: Page, server_url: str, screenshots: Path) -> None:
    """With names given, La patata's toll says the name of the number drawn, not just the
    number."""
    page = phone
    config = {**PATATA["config"], "players": PATATA_NAMES}
    from_position(page, server_url, {**PATATA, "config": config})
    answer(page, "Mayor")
    payer = page.locator("#toll-payer")
    expect(payer).to_be_visible()
    number = int(payer.locator("b").inner_text())
    expect(payer).to_contain_text(PATATA_NAMES[number - 1])
    shot(page, screenshots / "phone-peaje-patata-names.png")


def test_the_end_dialog_leads_back_to_the_hall(phone: Page, server_url: str) -> None:
    page = phone
    from_position(page, server_url, {**SOLITARIO, "deck": "2H", "cards": ["9H", "10C", "5D"]})
    answer(page, "♥ corazones")
    expect(page.locator("#end")).to_be_visible()
    hall = page.locator('#end a[href="/"]')
    expect(hall).to_be_visible()
    inside_viewport(page, '#end a[href="/"]')
    hall.tap()
    page.wait_for_url(f"{server_url}/")


def test_the_handover_speaks_to_everyone(phone: Page, server_url: str) -> None:
    """«Estoy listo» is masculine only: the hand-over button says something that fits
    anybody. Each route's counter says whose it is, set apart from the figures."""
    page = phone
    from_position(page, server_url, RAPIDOS)
    answer(page, "Mayor")
    answer(page, "Redonda")
    pay_toll(page, "¡Peaje!")
    answer(page, "Roja")
    page.locator("#answers .btn", has_text="Confirmar fallo").tap()
    pay_toll(page, "¡Peaje! (de vuelta)")
    ready = page.locator("#handover-ok")
    expect(ready).to_be_visible()
    text = ready.inner_text().strip()
    assert not re.search(r"\blist[oa]\b", text), text
    assert text == "Ya tengo el móvil"
    counters = page.locator("#counters li")
    expect(counters.first).to_have_text(re.compile(r"^Alba · Fallos: 1 · peajes: 2"))
    expect(counters.nth(1)).to_have_text(re.compile(r"^Bruno · Fallos: 0"))


def test_the_name_placeholders_fit_the_phone(phone: Page, server_url: str) -> None:
    page = phone
    page.goto(f"{server_url}/peaje")
    for variant in ("Turnos rápidos", "Cooperativo", "Dos jugadores"):
        page.locator("label.choice", has_text=variant).tap()
        clipped = page.locator("#names input").evaluate_all(
            """els => els.filter(e => {
                 const kept = e.value; e.value = e.placeholder;
                 const over = e.scrollWidth > e.clientWidth; e.value = kept; return over;
               }).map(e => e.placeholder)"""
        )
        assert not clipped, (variant, clipped)


# in English ------------------------------------------------------------------------------

SPANISH_ONLY = re.compile(r"[ñáéíóú¿¡]", re.IGNORECASE)


@pytest.fixture
def english(browser: Any) -> Iterator[Page]:
    """A phone whose browser asks for English (a first visit follows Accept-Language)."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale="en-GB")
    context.set_default_timeout(TIMEOUT)
    try:
        yield context.new_page()
    finally:
        context.close()


def no_spanish_in_sight(page: Page) -> None:
    text = page.locator("body").inner_text().replace("El Peaje", "").replace("Español", "")
    assert not SPANISH_ONLY.search(text), text


def test_setup_in_english(english: Page, server_url: str, screenshots: Path) -> None:
    """The setup page in English, and a toll left blank is the first suggestion in English."""
    page = english
    page.goto(f"{server_url}/peaje")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    for label in ("Solo", "Two players", "Quick turns", "Cooperative", "Hot potato"):
        expect(page.locator("label.choice", has_text=label)).to_have_count(1)
    expect(page.locator("label.choice", has_text="Hard")).to_contain_text("4 questions, 2 tolls")
    expect(page.locator("#toll")).to_have_value("a point")
    expect(page.locator("[data-toll]")).to_have_text(
        ["a point", "a glass of water", "a question", "a quick dare"]
    )
    page.locator("label.choice", has_text="Quick turns").tap()
    expect(page.locator("#players-hint")).to_have_text("(2 to 4)")
    expect(page.locator("#names label").first).to_contain_text("Player 1")
    expect(page.locator("#names input").first).to_have_attribute("placeholder", "optional")
    no_spanish_in_sight(page)
    no_horizontal_scroll(page)
    shot(page, screenshots / "phone-peaje-setup-en.png", full=True)
    page.locator("#toll").fill("")
    page.get_by_role("button", name="Start the game").tap()
    page.wait_for_url(GAME_URL)
    page.wait_for_function("() => !!(window.__tapete && window.__tapete.view)")
    assert page.evaluate("() => window.__tapete.view.config.toll") == "a point"
    expect(page.locator("#who")).to_have_text("Player 1's turn")
    no_spanish_in_sight(page)


def test_a_route_in_english(english: Page, server_url: str, screenshots: Path) -> None:
    """A question, the odds panel (numbers as English writes them), a toll and the end, all
    in English."""
    page = english
    position = {**SOLITARIO, "config": {**SOLITARIO["config"], "toll": "a glass of water"}}
    from_position(page, server_url, position)
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#who")).to_have_text("Solo")
    prompt_is(page, "Will the next card be higher or lower than the nine of hearts?")
    expect(page.locator("#counters")).to_have_text("Misses: 0 · tolls: 0 · 5 cards left")
    expect(page.locator("#route .stop.here")).to_contain_text("1. Higher or lower")

    page.locator("#odds-toggle").tap()
    odds = page.locator("#odds")
    expect(odds).to_contain_text("With the cards still to come:")
    expect(odds.locator("tr", has_text="Higher")).to_have_text(re.compile(r"20 / 51\s*39\.2%"))
    expect(odds.locator("tr", has_text="Lower")).to_have_text(re.compile(r"28 / 51\s*54\.9%"))
    expect(odds.locator("tr", has_text="Tie (a miss)")).to_have_text(re.compile(r"3 / 51\s*5\.9%"))
    no_spanish_in_sight(page)
    shot(page, screenshots / "phone-peaje-odds-en.png", full=True)

    answer(page, "▲ Higher")
    toll = page.locator("#toll")
    expect(toll).to_be_visible()
    expect(page.locator("#toll-title")).to_have_text("Toll!")
    expect(page.locator("#toll-what")).to_have_text("Time to pay: a glass of water.")
    expect(page.locator("#toll-ok")).to_have_text("Yes, toll paid")
    no_spanish_in_sight(page)
    shot(page, screenshots / "phone-peaje-toll-en.png")
    page.locator("#toll-ok").tap()
    expect(toll).to_be_hidden()

    prompt_is(page, "Red or black?")
    expect(odds.locator("tr", has_text="Red")).to_have_text(re.compile(r"25 / 50\s*50%"))
    answer(page, "Red ♥♦")
    prompt_is(page, "Which suit?")
    answer(page, "♥ hearts")
    expect(page.locator("#end")).to_be_visible()
    expect(page.locator("#end-title")).to_have_text("Route completed!")
    expect(page.locator("#end-reason")).to_have_text(
        "The last question on the route was answered right."
    )
    expect(page.locator("#end-stats")).to_have_text("Cards used: 3 · misses: 0 · tolls: 1")
    expect(page.locator("#again")).to_have_text("Another game (new shuffle)")
    expect(page.locator('#end a[href="/"]')).to_have_text("Back to the hall")
    expect(page.locator('#end a[href="/peaje/guia"]')).to_have_text("The guide")
    no_spanish_in_sight(page)
    inside_viewport(page, "#end .end-card")
    shot(page, screenshots / "phone-peaje-end-en.png")


def test_a_miss_and_the_other_variants_in_english(english: Page, server_url: str) -> None:
    page = english
    from_position(page, server_url, MEDIA_MISS)
    answer(page, "Higher")
    answer(page, "Round")
    page.locator("#toll-ok").tap()
    answer(page, "Red")
    prompt_is(page, "A miss: out came the three of spades. It leaves the game.")
    page.locator("#answers .btn", has_text="Confirm the miss").tap()
    expect(page.locator("#toll-title")).to_have_text("Toll! (going back)")
    no_spanish_in_sight(page)

    from_position(
        page, server_url, {**PATATA, "config": {**PATATA["config"], "players": PATATA_NAMES}}
    )
    expect(page.locator("#who")).to_have_text("No. 1 (Ana)'s turn")
    answer(page, "Higher")
    expect(page.locator("#toll-payer")).to_have_text(re.compile(r"^Number \d+ pays \(\w+\)$"))
    no_spanish_in_sight(page)

    from_position(page, server_url, DOS)
    expect(page.locator("#who")).to_have_text("Carla answers out loud")
    page.locator("#answers .btn", has_text="Reveal").tap()
    expect(page.locator("#who")).to_have_text("Dani checks")
    prompt_is(page, "Right or wrong? (The right answer: ▲ Higher)")
    no_spanish_in_sight(page)
