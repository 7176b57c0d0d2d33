"""«Análisis» in a real browser: a finished Rummy game of the player's, its analysis made
while the page waits (its progress said), the coach's words on each move, the costliest
marked; choosing one steps the replay's table to just before it. Phone and laptop, both
languages, screenshots looked at."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from browser import PHONE, TIMEOUT, accessible, no_horizontal_scroll, shot, still
from playwright.sync_api import Page, expect
from servers import serve

from tapete.games import rummy
from tests.rooms.test_analysis import MOVES, ONE_CARD, ONE_CARD_MOVES, POSITION

DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("tapete-analysis")


@pytest.fixture(scope="module")
def url(work: Path) -> Iterator[str]:
    with serve(work, []) as base:
        yield base


def finished_game(
    work: Path,
    guest: str,
    game_id: str,
    rules: Any = rummy,
    position: dict[str, Any] = POSITION,
    moves: list[tuple[int, dict[str, Any]]] = MOVES,
) -> None:
    """A game of ``position`` with ``moves`` played (Rummy's by default), ``guest`` at seat
    0, written into the hall's database as the writer leaves a finished game."""
    from sqlalchemy import create_engine, insert

    from tapete.store.models import GameRow, MoveRow

    state = rules.load(position)
    for seat, move in moves:
        rules.apply(state, seat, rules.parse_move(move))
    seats = [
        {"kind": "human", "guest": guest, "name": "Ana"},
        {"kind": "bot", "level": "normal", "name": "Sofía"},
    ]
    engine = create_engine(f"sqlite:///{work / 'tapete.db'}")
    now = datetime.now(UTC)
    try:
        with engine.begin() as conn:
            conn.execute(
                insert(GameRow).values(
                    id=game_id, kind=rules.SPEC.key, config=rules.config_json(state.config),
                    seed=1, seats=seats, owner=guest, status="finished", version=len(moves),
                    outcome=rules.outcome(state), position=position, updated_at=now,
                )
            )  # fmt: skip
            for n, (seat, move) in enumerate(moves, start=1):
                conn.execute(insert(MoveRow).values(game_id=game_id, n=n, seat=seat, move=move))
    finally:
        engine.dispose()


def context(browser: Any, size: dict[str, int], locale: str) -> Any:
    phone = size == PHONE
    made = browser.new_context(
        locale=locale, viewport=size, has_touch=phone, is_mobile=phone, service_workers="block"
    )
    made.set_default_timeout(TIMEOUT)
    return made


@pytest.mark.parametrize(
    ("size", "locale", "lang"), [(PHONE, "es-ES", "es"), (DESKTOP, "en-GB", "en")]
)
def test_the_analysis_of_a_finished_game(
    browser: Any, url: str, work: Path, screenshots: Path, size: dict[str, int], locale: str,
    lang: str,
) -> None:  # fmt: skip
    made = context(browser, size, locale)
    try:
        page: Page = made.new_page()
        page.goto(f"{url}/?lang={lang}")
        me = page.request.get(f"{url}/api/cuenta/datos").json()["account"]["id"]
        game_id = f"an{lang}{size['width']}"
        finished_game(work, me, game_id)
        page.goto(f"{url}/partida/{game_id}/analisis")
        costly = page.locator("#analysis-costly-list .analysis-move")
        expect(costly).to_have_count(3, timeout=30_000)  # (made meanwhile: its progress said)
        first = (
            "Podías colocar 4 fichas y colocaste 0."
            if lang == "es"
            else ("You could have put down 4 tiles and put down 0.")
        )
        expect(costly.first).to_contain_text(first)
        marked = costly.evaluate_all("(items) => items.map((li) => li.dataset.n)")
        assert marked == ["1", "3", "5"]  # (27 and 27: the earlier first)
        still(page)
        accessible(page, "the analysis of a finished game")
        no_horizontal_scroll(page, size["width"])
        # the third costliest (move 5): the replay's table just before it, step 4
        costly.nth(2).get_by_role("button").click()
        expect(page).to_have_url(re.compile(r"[?&]paso=4\b"))
        expect(page.locator("#analysis-state")).to_contain_text("3")
        page.locator("#analysis").scroll_into_view_if_needed()
        shot(page, screenshots / f"analysis-rummy-{size['width']}-{lang}.png")
    finally:
        made.close()


def test_one_cards_analysis_names_the_card_that_won(
    browser: Any, url: str, work: Path, screenshots: Path
) -> None:
    """The missed J heads-up of ``ONE_CARD`` (tests/rooms/test_analysis.py)."""
    from tapete.games import onecard

    made = context(browser, PHONE, "es-ES")
    try:
        page: Page = made.new_page()
        page.goto(f"{url}/")
        me = page.request.get(f"{url}/api/cuenta/datos").json()["account"]["id"]
        finished_game(work, me, "anonecard", onecard, ONE_CARD, ONE_CARD_MOVES)
        page.goto(f"{url}/partida/anonecard/analisis")
        costly = page.locator("#analysis-costly-list .analysis-move")
        expect(costly).to_have_count(1, timeout=30_000)
        expect(costly).to_contain_text(re.compile(r"La jota de corazones era mejor: ganaba el 100"))
        still(page)
        accessible(page, "One Card's analysis")
        page.locator("#analysis").scroll_into_view_if_needed()
        shot(page, screenshots / "analysis-onecard-390-es.png")
    finally:
        made.close()
