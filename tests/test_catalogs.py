"""The catalogs are complete: every message in the sources is in both languages' catalogs,
English translated (not fuzzy, same placeholders), nothing stale (``tapete catalogs
check``, also in the lint step)."""

from __future__ import annotations

from tapete.catalogs import run
from tapete.i18n import domains, js_strings, text


def test_catalogs_are_up_to_date_and_english_is_complete() -> None:
    assert run(write=False) == []


def test_every_game_has_its_domain() -> None:
    assert set(domains()) == {"tapete", "guerra", "onecard", "rummy", "peaje"}


def test_a_game_domain_falls_back_to_the_shared_one() -> None:
    assert text("guerra", "en", "No es tu turno.") == "It's not your turn."


def test_spanish_pages_get_no_strings_english_pages_get_theirs() -> None:
    assert js_strings("es", "guerra") == {}
    strings = js_strings("en", "guerra")
    assert strings["Dar la vuelta"] == "Turn over"
    assert all(isinstance(v, str | list) and v for v in strings.values())
