"""Friends on one phone (pass-and-play) in a real browser: the setup page makes the game
with their names, the felt is veiled between turns («Turno de Leo», «Soy Leo»), and nothing
of a hand is in the page or in a frame the socket brings before its player took the phone —
read from the DOM and from every frame. At 390×844 in Spanish and 1280×800 in English;
La guerra: one tap turns everyone's card."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from browser import TIMEOUT, accessible, no_horizontal_scroll, shot, still
from playwright.sync_api import Page, expect
from test_onecard_browser import play_or_draw

expect.set_options(timeout=TIMEOUT)


class Frames:
    """Every frame the page's socket sends and receives, in order, with the seat the page
    last handed the device to (None before the first hand-over)."""

    def __init__(self, page: Page) -> None:
        self.handed: int | None = None
        self.shown: list[tuple[int | None, dict[str, Any]]] = []
        page.on("websocket", self.watch)

    def watch(self, ws: Any) -> None:
        ws.on("framesent", self.sent)
        ws.on("framereceived", self.received)

    def sent(self, payload: str | bytes) -> None:
        msg = json.loads(payload)
        if msg.get("type") == "handover":
            self.handed = msg["seat"]

    def received(self, payload: str | bytes) -> None:
        msg = json.loads(payload)
        for view in (msg.get("view"), (msg.get("sync") or {}).get("view")):
            if isinstance(view, dict):
                self.shown.append((self.handed, view))

    def check(self, hand: str) -> int:
        """Every view received held a hand (``hand``: its field) only once the page had
        handed the device to that very seat; returns how many views held one."""
        held = 0
        for handed, view in self.shown:
            if view.get(hand) is not None:
                assert view["seat"] == handed, (handed, view["seat"], view[hand])
                held += 1
        return held


def start(
    page: Page,
    server_url: str,
    kind: str,
    names: list[str],
    lang: str = "es",
    screenshot: Path | None = None,
) -> None:
    page.goto(f"{server_url}/{kind}?lang={lang}")
    page.locator('input[name="mode"][value="device"]').check(force=True)
    page.locator(f'input[name="players"][value="{len(names)}"]').check(force=True)
    expect(page.locator(".levels")).to_be_hidden()
    fields = page.locator(".device-name input")
    for i, name in enumerate(names):
        fields.nth(i).fill(name)
    if len(names) < 4:  # (as many names as players)
        expect(fields.nth(len(names))).to_be_hidden()
    if screenshot is not None:
        size = page.viewport_size
        assert size is not None
        no_horizontal_scroll(page, size["width"])
        shot(page, screenshot, full=True)
    page.locator('form.setup button[type="submit"]:not([formaction])').click()
    page.wait_for_url("**/partida/*")


def play(page: Page) -> None:
    """The shown player plays the first card that fits (a 7 asks for its own suit) or
    draws."""
    play_or_draw(page, how="tap")


def veil(page: Page) -> Any:
    return page.locator("#device-handover")


def test_friends_pass_one_phone_at_one_card(
    phone: Page, server_url: str, screenshots: Path
) -> None:
    page = phone
    frames = Frames(page)
    start(page, server_url, "onecard", ["Ana", "Leo"], screenshot=screenshots / "device-setup.png")
    names = ["Ana", "Leo"]
    seen: list[str] = []
    mine = "() => window.__tapete.view.turn === window.__tapete.mySeat"
    for _ in range(12):
        still(page)
        if page.evaluate("() => !!window.__tapete.view.result") or len(seen) == 6:
            break
        if not veil(page).is_visible() and page.evaluate(mine):
            play(page)  # (still their turn: a J or a Q with two players, no hand-over)
            continue
        expect(veil(page)).to_be_visible()
        name = names[page.evaluate("() => window.__tapete.view.turn")]
        expect(page.locator("#device-handover-title")).to_have_text(f"Turno de {name}")
        if len(seen) == 1:  # the page reloaded behind the veil: still veiled, no hand
            page.reload()
            still(page)
            expect(veil(page)).to_be_visible()
            expect(page.locator("#device-handover-title")).to_have_text(f"Turno de {name}")
        # behind the veil: nobody's hand in the page
        assert page.locator("#hand .card").count() == 0
        assert page.evaluate("() => window.__tapete.view.hand") is None
        if not seen:
            no_horizontal_scroll(page)
            shot(page, screenshots / "device-onecard-phone-veil.png")
        page.get_by_role("button", name=f"Soy {name}").tap()
        expect(veil(page)).to_be_hidden()
        still(page)
        expect(page.locator("#hand .card").first).to_be_visible()
        expect(page.locator("#me-name")).to_have_text(name)
        if not seen:
            shot(page, screenshots / "device-onecard-phone-hand.png")
        seen.append(name)
        play(page)
    assert len(set(seen)) == 2  # (the phone went from one to the other)
    assert frames.check("hand") >= len(seen)


def test_friends_pass_one_laptop_at_rummy_in_english(
    desktop: Page, server_url: str, screenshots: Path
) -> None:
    page = desktop
    frames = Frames(page)
    start(
        page,
        server_url,
        "rummy",
        ["Ana", "Leo", "Iker"],
        lang="en",
        screenshot=screenshots / "device-setup-desktop.png",
    )
    for turn in range(4):
        still(page)
        expect(veil(page)).to_be_visible()
        holder = page.evaluate("() => window.__tapete.view.turn")
        name = ["Ana", "Leo", "Iker"][holder]
        expect(page.locator("#device-handover-title")).to_have_text(f"{name}'s turn")
        expect(page.locator("#device-handover-text")).to_contain_text(f"Hand the phone to {name}")
        assert page.locator("#rack .tile").count() == 0
        if turn == 0:
            accessible(page, "the hand-over veil")
            shot(page, screenshots / "device-rummy-desktop-veil.png")
        page.keyboard.press("Escape")  # (the veil stays: only «I'm …» lifts it)
        expect(veil(page)).to_be_visible()
        expect(page.get_by_role("button", name=f"I'm {name}")).to_be_focused()
        page.keyboard.press("Enter")
        expect(veil(page)).to_be_hidden()
        still(page)
        expect(page.locator("#rack .tile").first).to_be_visible()
        if turn == 0:
            shot(page, screenshots / "device-rummy-desktop-rack.png")
        page.locator("#draw").click()
    assert frames.check("rack") >= 4


def test_la_guerra_on_one_phone_turns_every_card_at_once(phone: Page, server_url: str) -> None:
    page = phone
    start(page, server_url, "guerra", ["Ana", "Leo"])
    still(page)
    expect(veil(page)).to_be_hidden()  # (nothing hidden: no hand-over)
    expect(page.locator("#watching")).to_have_count(0)
    before = page.evaluate("() => window.__tapete.version")
    page.locator("#turn").tap()
    page.wait_for_function("v => window.__tapete.version >= v + 2", arg=before)
    still(page)
    names = page.locator(".seat .who strong").all_inner_texts()
    assert sorted(names) == ["Ana", "Leo"]  # (by name: nobody at the phone is «Tú»)
