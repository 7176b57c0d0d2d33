"""«Jugar ahora» in real browsers: four strangers who never met land at one One Card table,
named only by their public names; one alone is seated with bots after the wait, the wait
shown as it runs; cancelling brings the form back. Phones and laptops, both languages."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import PHONE, TIMEOUT, accessible, no_horizontal_scroll, part_shot, shot, still
from playwright.sync_api import Page, expect
from servers import serve

from tapete.public_names import ADJECTIVES, ANIMALS

pytestmark = pytest.mark.slow  # (four browsers at one table: started first)

WAIT = 3
"""Seconds of «Jugar ahora»'s wait on the server of these tests (20 s in the hall)."""
DESKTOP = {"width": 1280, "height": 800}
TABLE = re.compile(r"/sala/\d{6}$")


@pytest.fixture(scope="module")
def quick_work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("tapete-quick")


PATIENT = 12
"""Seconds of the wait on a second server, for the tests where several people must meet
before the first one's wait runs out: opening four pages one after another (with audits and
screenshots between) once took more than ``WAIT`` on a loaded machine, and made two tables."""


@pytest.fixture(scope="module")
def patient_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A `tapete serve` like :func:`quick_url`'s, whose wait is ``PATIENT`` seconds."""
    flags = ["--bot-pace", "0.15", "--quick-wait", str(PATIENT)]
    with serve(tmp_path_factory.mktemp("tapete-patient"), flags) as url:
        yield url


@pytest.fixture(scope="module")
def quick_url(quick_work: Path) -> Iterator[str]:
    """A `tapete serve` of its own whose «Jugar ahora» waits ``WAIT`` seconds, bots at 15 %
    of their pace (its database in ``quick_work``); its base URL."""
    flags = ["--bot-pace", "0.15", "--quick-wait", str(WAIT)]
    with serve(quick_work, flags) as url:
        yield url


def context(browser: Any, size: dict[str, int], locale: str = "es-ES") -> Any:
    phone = size == PHONE
    made = browser.new_context(
        locale=locale, viewport=size, has_touch=phone, is_mobile=phone, service_workers="block"
    )
    made.set_default_timeout(TIMEOUT)
    return made


def press(page: Page, players: str, game: str | None = None) -> None:
    """Choose (the game by its key, on the hall) and the players, and press «Jugar ahora»."""
    form = page.locator("#quick-form")
    if game is not None:  # (its label says how many play it now: chosen by its key)
        form.locator(f'input[name="quick_game"][value="{game}"]').check()
    form.get_by_label(players, exact=True).check()
    form.get_by_role("button").click()


def is_public_name(name: str, lang: str) -> bool:
    """Whether ``name`` is a public name (an animal and an adjective of the lists)."""
    from tapete.i18n import SHARED, text

    animals = {text(SHARED, lang, a) for a in ANIMALS.values()}
    adjectives = {text(SHARED, lang, a) for a in ADJECTIVES.values()}
    words = name.split(" ", 1)
    return len(words) == 2 and (
        (words[0] in animals and words[1] in adjectives)
        or (words[0] in adjectives and words[1] in animals)
    )


def test_four_strangers_land_at_one_one_card_table(
    browser: Any, patient_url: str, screenshots: Path
) -> None:
    quick_url = patient_url
    sizes = [PHONE, DESKTOP, PHONE, DESKTOP]
    made = [context(browser, size) for size in sizes]
    try:
        pages = [c.new_page() for c in made]
        for i, page in enumerate(pages):
            page.goto(f"{quick_url}/onecard")
            if i == 0:
                expect(page.locator("#quick h2")).to_have_text("Jugar ahora con gente")
                accessible(page, "One Card's page with «Jugar ahora»")
                shot(page, screenshots / "quick-onecard-page-390.png")
            press(page, "4")
            if i == 0:
                expect(page.locator("#quick-wait")).to_be_visible()
                expect(page.locator("#quick-left")).to_contain_text("Buscando jugadores")
                still(page)
                accessible(page, "waiting for «Jugar ahora»")
                shot(page, screenshots / "quick-waiting-390.png")
        for page in pages:
            expect(page).to_have_url(TABLE)
        assert len({page.url for page in pages}) == 1  # one table for the four
        for page, size in zip(pages, sizes, strict=True):
            still(page)
            seats = page.evaluate("() => window.__tapete.seats")
            assert [s["kind"] for s in seats] == ["human"] * 4
            names = [s["name"] for s in seats]
            assert all(is_public_name(n, "es") for n in names), names
            no_horizontal_scroll(page, size["width"])
        expect(pages[0].locator(".roombar-code")).to_have_text("Jugar ahora")  # no code
        accessible(pages[0], "a table of strangers on a phone")
        shot(pages[0], screenshots / "quick-table-390.png")
        shot(pages[1], screenshots / "quick-table-1280.png")
    finally:
        for c in made:
            c.close()


def test_alone_in_english_the_wait_runs_out_and_bots_sit_down(
    browser: Any, quick_url: str, screenshots: Path
) -> None:
    made = context(browser, PHONE, "en-GB")
    try:
        page = made.new_page()
        page.goto(f"{quick_url}/?lang=en")
        expect(page.locator("#quick h2")).to_have_text("Play now")
        shot(page, screenshots / "quick-hall-390-en.png")
        expect(page.locator("#quick-form")).to_contain_text("War")
        press(page, "2", game="guerra")
        expect(page.locator("#quick-count")).to_have_text(
            "Only you are waiting for this game right now."
        )
        expect(page.locator("#quick-left")).to_contain_text("at most")
        expect(page).to_have_url(TABLE, timeout=(WAIT + 10) * 1000)
        still(page)
        seats = page.evaluate("() => window.__tapete.seats")
        assert [s["kind"] for s in seats] == ["human", "bot"]
        assert is_public_name(seats[0]["name"], "en"), seats
    finally:
        made.close()


def test_el_peaje_two_strangers_share_a_table_and_one_alone_plays_alone(
    browser: Any, quick_url: str, screenshots: Path
) -> None:
    """El Peaje has no bots: two strangers play turnos rápidos, a phone each, with a toll
    nobody pays; one who waited alone the whole wait plays the route alone."""
    made = [context(browser, PHONE), context(browser, DESKTOP, "en-GB")]
    try:
        ana, bea = (c.new_page() for c in made)
        ana.goto(f"{quick_url}/peaje")
        bea.goto(f"{quick_url}/peaje?lang=en")
        expect(ana.locator("#quick-hint-alone")).to_contain_text("juegas la ruta tú solo")
        expect(ana.locator("#quick-hint-bots")).to_be_hidden()
        expect(bea.locator("#quick-hint-alone")).to_contain_text("you play the route on your own")
        shot(ana, screenshots / "quick-peaje-page-390.png")
        press(ana, "2")
        press(bea, "2")
        for page in (ana, bea):
            expect(page).to_have_url(TABLE)
        assert ana.url == bea.url
        for page in (ana, bea):
            still(page)
            view = page.evaluate("() => window.__tapete.view")
            config = view["config"]
            assert (config["variant"], config["toll"], config["phones"]) == ("rapidos", "nada", 2)
            seats = page.evaluate("() => window.__tapete.seats")
            assert [s["kind"] for s in seats] == ["human", "human"]
        shot(bea, screenshots / "quick-peaje-table-1280-en.png")
    finally:
        for c in made:
            c.close()

    alone = context(browser, PHONE)
    try:
        page = alone.new_page()
        page.goto(f"{quick_url}/")
        form = page.locator("#quick-form")
        form.locator('input[name="quick_game"][value="peaje"]').check()
        expect(page.locator("#quick-hint-alone")).to_be_visible()
        expect(page.locator("#quick-hint-bots")).to_be_hidden()
        press(page, "Me da igual")
        expect(page.locator("#quick-left")).to_have_text(
            "Nadie más buscaba partida: juegas tú solo. Entrando…", timeout=(WAIT + 10) * 1000
        )
        expect(page).to_have_url(re.compile(r"/partida/[^/?#]+$"))
        still(page)
        assert page.evaluate("() => window.__tapete.view.config.variant") == "solitario"
        shot(page, screenshots / "quick-peaje-alone-390.png")
    finally:
        alone.close()


def test_open_tables_on_the_hall_one_click_sits_down_with_who_waits(
    browser: Any, patient_url: str, screenshots: Path
) -> None:
    quick_url = patient_url
    made = [context(browser, PHONE), context(browser, DESKTOP, "en-GB")]
    try:
        ana, bea = (c.new_page() for c in made)
        ana.goto(f"{quick_url}/")
        answer = ana.request.post(f"{quick_url}/api/jugar", data={"game": "guerra", "players": 3})
        assert answer.status == 202  # ana waits for a table of three
        bea.goto(f"{quick_url}/?lang=en")
        row = bea.locator('.open-game[data-open-game="guerra"]')
        expect(row.locator(".open-count")).to_contain_text("1 waiting for a table of 3")
        expect(bea.locator('.open-game[data-open-game="peaje"]')).to_be_visible()
        accessible(bea, "the hall's open tables")
        shot(bea, screenshots / "quick-open-tables-1280-en.png")
        row.get_by_role("button", name="Take a seat to play War").click()  # one click
        expect(bea.locator("#quick-wait")).to_be_visible()
        expect(bea.locator("#open-tables")).to_be_hidden()
        expect(bea).to_have_url(TABLE, timeout=(PATIENT + 10) * 1000)  # (the third seat: a bot)
        status = ana.request.get(f"{quick_url}/api/jugar").json()
        assert status["state"] == "seated" and bea.url.endswith(status["url"])
        seats = bea.evaluate("() => window.__tapete.seats")
        assert [s["kind"] for s in seats] == ["human", "human", "bot"]
    finally:
        for c in made:
            c.close()


def test_a_reload_keeps_waiting_and_cancelling_brings_the_form_back(
    browser: Any, quick_url: str
) -> None:
    made = context(browser, DESKTOP)
    try:
        page = made.new_page()
        page.goto(f"{quick_url}/rummy")
        press(page, "4")
        expect(page.locator("#quick-wait")).to_be_visible()
        page.reload()  # the wait goes on where it was asked for
        expect(page.locator("#quick-wait")).to_be_visible()
        expect(page.locator("#quick-form")).to_be_hidden()
        page.get_by_role("button", name="Cancelar").click()
        expect(page.locator("#quick-form")).to_be_visible()
        expect(page.locator("#quick-wait")).to_be_hidden()
        status = page.request.get(f"{quick_url}/api/jugar").json()
        assert status == {"state": "idle"}
        expect(page).to_have_url(f"{quick_url}/rummy")
    finally:
        made.close()


def test_the_leaderboard_in_each_language_on_a_phone_and_a_laptop(
    browser: Any, quick_url: str, quick_work: Path, screenshots: Path
) -> None:
    from datetime import UTC, datetime

    from sqlalchemy import create_engine, insert

    from tapete.store.models import GameRow, Guest
    from tests.ratings_seed import seed_rating

    engine = create_engine(f"sqlite:///{quick_work / 'tapete.db'}")
    now = datetime.now(UTC)
    try:
        with engine.begin() as conn:
            for i in range(12):
                guest, mu = f"board-{i:02d}", 34.0 - i * 0.7
                conn.execute(insert(Guest).values(id=guest))
                conn.execute(
                    insert(GameRow).values(
                        id=f"bg{i:02d}", kind="onecard", config={}, seed=1, seats=[],
                        owner=guest, status="finished", version=1, rated=True,
                        updated_at=now,
                    )
                )  # fmt: skip
                seed_rating(conn, guest, mu, now, sigma=3.5, games=20 + i, game_id=f"bg{i:02d}")
    finally:
        engine.dispose()
    for size, locale, lang, title in [
        (PHONE, "es-ES", "es", "Clasificación de One Card"),
        (DESKTOP, "en-GB", "en", "One Card leaderboard"),
    ]:
        made = context(browser, size, locale)
        try:
            page = made.new_page()
            page.goto(f"{quick_url}/clasificacion/onecard?periodo=siempre&lang={lang}")
            expect(page.locator("h1")).to_have_text(title)
            rows = page.locator("table.board tbody tr")
            expect(rows).to_have_count(12)
            first = rows.first.locator("th").text_content() or ""
            assert is_public_name(first, lang), first
            no_horizontal_scroll(page, size["width"])
            accessible(page, f"the leaderboard ({lang})")
            shot(page, screenshots / f"leaderboard-{size['width']}-{lang}.png", full=True)
        finally:
            made.close()


def test_after_a_game_with_a_stranger_one_blocks_the_other_reports(
    browser: Any, quick_url: str, screenshots: Path
) -> None:
    made = [context(browser, PHONE), context(browser, DESKTOP, "en-GB")]
    try:
        ana, bea = (c.new_page() for c in made)
        ana.goto(f"{quick_url}/guerra")
        bea.goto(f"{quick_url}/guerra?lang=en")
        press(ana, "2")
        press(bea, "2")
        for page in (ana, bea):
            expect(page).to_have_url(TABLE)
            page.locator("#speed").select_option("0")  # (no pause to watch each duel)
            page.locator("#autoplay").check()  # both turn their cards by themselves
        for page in (ana, bea):
            expect(page.locator("#end")).to_be_visible(timeout=90_000)
            expect(page.locator("#end-strangers")).to_be_visible()
        others = ana.locator("#end-strangers li")
        expect(others).to_have_count(1)
        name = others.locator(".stranger-name").text_content() or ""
        assert is_public_name(name, "es"), name
        others.get_by_role("button", name=f"Bloquear: {name}").click()
        expect(ana.locator(".end-strangers-said")).to_have_text(
            "Bloqueado: no volveréis a coincidir."
        )
        expect(ana.locator("#start-now")).to_be_hidden()  # nobody runs a table of strangers
        expect(ana.locator("#end-quick")).to_have_text("Buscar otra mesa")
        accessible(ana, "the end of a table of strangers")
        shot(ana, screenshots / "quick-end-390.png")
        mine = bea.locator("#end-strangers li")
        mine.get_by_role("button", name=re.compile(r"^Report: ")).click()
        bea.get_by_label("Why?").select_option(label="Cheats")
        mine.get_by_role("button", name=re.compile(r"^Send: ")).click()
        expect(bea.locator(".end-strangers-said")).to_have_text(
            "Report sent. Thank you for telling us."
        )
        shot(bea, screenshots / "quick-end-1280-en.png")
    finally:
        for c in made:
            c.close()


def test_a_chosen_public_name_is_the_one_strangers_see(
    browser: Any, quick_url: str, screenshots: Path
) -> None:
    made = context(browser, PHONE)
    try:
        page = made.new_page()
        page.goto(f"{quick_url}/perfil")
        drawn = page.locator("#public-now").text_content() or ""
        assert is_public_name(drawn, "es"), drawn
        page.get_by_label("Animal").select_option(label="Lince")
        page.get_by_label("Cómo es").select_option(label="Leal")
        page.get_by_role("button", name="Usar este nombre").click()
        expect(page.locator("#public-now")).to_have_text("Lince Leal")
        still(page)
        accessible(page, "the profile's public name")
        part_shot(page.locator("#public-form"), screenshots / "public-name-390.png")
        page.goto(f"{quick_url}/onecard")
        press(page, "2")
        expect(page).to_have_url(TABLE, timeout=(WAIT + 10) * 1000)
        still(page)
        seats = page.evaluate("() => window.__tapete.seats")
        assert [s["name"] for s in seats if s["you"]] == ["Lince Leal"]
        page.goto(f"{quick_url}/perfil")
        page.get_by_role("button", name="El que me tocó").click()
        expect(page.locator("#public-now")).to_have_text(drawn)
        page.reload()
        expect(page.locator("#public-now")).to_have_text(drawn)
    finally:
        made.close()


@pytest.mark.console_errors(r"status of 429 .* @ .*/api/jugar$")  # the refusal, on purpose
def test_one_who_left_two_games_is_told_how_long_to_wait_in_plain_words(
    browser: Any, quick_url: str, quick_work: Path, screenshots: Path
) -> None:
    from datetime import UTC, datetime, timedelta

    from sqlalchemy import create_engine, insert

    from tapete.store.models import GameRow, LeavingRow

    made = context(browser, PHONE)
    try:
        page = made.new_page()
        page.goto(f"{quick_url}/onecard")
        me = page.request.get(f"{quick_url}/api/cuenta/datos").json()["account"]["id"]
        engine = create_engine(f"sqlite:///{quick_work / 'tapete.db'}")
        now = datetime.now(UTC)
        try:
            with engine.begin() as conn:
                for i, ago in enumerate((40, 1)):  # two rated games left in the last hour
                    conn.execute(
                        insert(GameRow).values(
                            id=f"left{i}{me[:6]}", kind="onecard", config={}, seed=1, seats=[],
                            owner=me, status="finished", version=1, rated=True, updated_at=now,
                        )
                    )  # fmt: skip
                    conn.execute(
                        insert(LeavingRow).values(
                            game_id=f"left{i}{me[:6]}", guest=me, at=now - timedelta(minutes=ago)
                        )
                    )
        finally:
            engine.dispose()
        press(page, "2")
        error = page.locator("#quick-error")
        expect(error).to_be_visible()
        expect(error).to_contain_text("Dejaste partidas a medias")
        expect(error).to_contain_text("dentro de 4\u00a0min")
        expect(page.locator("#quick-form")).to_be_visible()  # nothing changed: no wait began
        still(page)
        accessible(page, "the leaving penalty")
        part_shot(page.locator("#quick"), screenshots / "quick-penalty-390.png")
    finally:
        made.close()
