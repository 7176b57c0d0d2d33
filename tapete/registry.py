"""The games of the hall, one line each: a game's descriptor and its bots'.

``rooms/``, ``store/`` and ``server/`` find games here and never name one. A fifth game is
its module or package in ``games/`` (with its ``SPEC``), its bots in ``bots/`` (their
``BOTS``), one line below, and everything ``docs/architecture.md`` lists in «Adding a game»
(templates, ES module, style sheet, catalogs, fingerprint bench, tests, its section in
``docs/positions.md``, the linter's list): ``tests/test_registry.py`` names what is missing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tapete.bots import BotSpec
from tapete.bots import guerra as guerra_bots
from tapete.bots import onecard as onecard_bots
from tapete.bots import rummy as rummy_bots
from tapete.games import guerra, onecard, peaje, rummy
from tapete.games.protocol import GameSpec, IllegalMove


@dataclass(frozen=True, slots=True)
class Entry:
    game: GameSpec[Any, Any, Any]
    bots: BotSpec | None
    """None: a game without bots (El Peaje is played by people around one phone)."""

    @property
    def key(self) -> str:
        return self.game.key


def _entries(*entries: Entry) -> dict[str, Entry]:
    return {e.key: e for e in entries}


REGISTRY: dict[str, Entry] = _entries(
    Entry(guerra.SPEC, guerra_bots.BOTS),
    Entry(onecard.SPEC, onecard_bots.BOTS),
    Entry(rummy.SPEC, rummy_bots.BOTS),
    Entry(peaje.SPEC, None),
)
"""The games by key, in the hall's order."""


def entry(key: object) -> Entry:
    """The game ``key``; ``IllegalMove("bad_config")`` if there is none."""
    found = REGISTRY.get(key) if isinstance(key, str) else None
    if found is None:
        raise IllegalMove("bad_config", field="game")
    return found
