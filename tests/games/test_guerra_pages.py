"""La guerra's pages say what the game declares: the setup form offers the options of
``guerra.Config`` (every value, its default checked, nothing else) and each choice reads
back as a valid option; every message the table module shows is sent to it in English."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tapete.games import guerra
from tapete.i18n import js_strings
from tapete.registry import entry
from tapete.server.app import create_app
from tapete.server.pages import forms
from tapete.store import default_url

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tapete" / "server" / "static" / "js" / "guerra.js"
MESSAGE = re.compile(r'\b(?:_|ngettext)\(\s*"((?:[^"\\\n]|\\.)*)"')
"""The first argument of every ``_(…)`` / ``ngettext(…)`` call, wherever it is written
(template literals included, which the extractor does not look into)."""


class _Radios(HTMLParser):
    """The radio buttons of the setup form (``form.setup``; «Jugar ahora» has its own), but
    for its choice of bots or friends on one device (``mode``)."""

    def __init__(self) -> None:
        super().__init__()
        self.radios: list[dict[str, str | None]] = []
        self._in_setup = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "form":
            self._in_setup = "setup" in str(dict(attrs).get("class") or "").split()
        found = dict(attrs)
        # (the choice of who plays the other seats, «mode», is no option of the game)
        radio = tag == "input" and found.get("type") == "radio"
        if self._in_setup and radio and found.get("name") != "mode":
            self.radios.append(found)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._in_setup = False


@pytest.fixture(scope="module")
def setup_pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    db = default_url(tmp_path_factory.mktemp("guerra-pages") / "t.db")
    with TestClient(create_app(db)) as client:
        return {lang: client.get("/guerra", params={"lang": lang}).text for lang in ("es", "en")}


def _wire(value: Any) -> str:
    return str(int(value)) if isinstance(value, bool) else str(value)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_setup_form_offers_the_declared_options(setup_pages: dict[str, str], lang: str) -> None:
    parser = _Radios()
    parser.feed(setup_pages[lang])
    offered: dict[str, list[str]] = {}
    checked: dict[str, list[str]] = {}
    for radio in parser.radios:
        name, value = str(radio["name"]), str(radio["value"])
        offered.setdefault(name, []).append(value)
        if "checked" in radio:
            checked.setdefault(name, []).append(value)
    fields = forms.fields(entry("guerra").game)
    assert list(offered) == [f.name for f in fields]
    for f in fields:
        if f.kind == "int":
            assert f.minimum is not None and f.maximum is not None
            values: list[Any] = list(range(f.minimum, f.maximum + 1))
        elif f.kind == "bool":
            values = [False, True]
        else:
            values = list(f.choices)
        assert offered[f.name] == [_wire(v) for v in values], f.name
        assert checked[f.name] == [_wire(f.default)], f.name


def test_every_choice_of_the_form_reads_as_that_option(setup_pages: dict[str, str]) -> None:
    """A form with one choice changed reads (``forms.read``) as the options with that one
    changed; the duel limits the page prints are the game's."""
    spec = entry("guerra").game
    parser = _Radios()
    parser.feed(setup_pages["es"])
    defaults = {str(r["name"]): str(r["value"]) for r in parser.radios if "checked" in r}
    for radio in parser.radios:
        name, value = str(radio["name"]), str(radio["value"])
        config = spec.parse_config(forms.read(spec, {**defaults, name: value}))
        assert _wire(getattr(config, name)) == value
    for length, limit in guerra.LENGTHS.items():
        if limit is not None:
            assert guerra.parse_config({"length": length}).limit == limit
            assert f"{limit} duelos" in setup_pages["es"] and f"{limit} duels" in setup_pages["en"]


def test_every_message_of_the_table_module_is_in_english() -> None:
    """Each message guerra.js shows is in the catalog and sent to an English page (a
    message the extractor cannot see would stay Spanish)."""
    used = set(MESSAGE.findall(SCRIPT.read_text()))
    assert len(used) > 30
    english = js_strings("en", "guerra")
    missing = sorted(m for m in used if m not in english)
    assert not missing, missing
    same = sorted(m for m in used if english[m] == m and m != "{who} → {winner} (+{cards})")
    assert not same, same
