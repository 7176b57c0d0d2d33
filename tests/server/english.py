"""Reading a page as an English speaker would: its visible text and its labels, and the
lines of it that are still Spanish."""

from __future__ import annotations

import re
from html.parser import HTMLParser

SPANISH_WORDS = frozenset(
    {
        "el",
        "la",
        "los",
        "las",
        "de",
        "del",
        "que",
        "y",
        "en",
        "un",
        "una",
        "unos",
        "unas",
        "con",
        "por",
        "para",
        "es",
        "son",
        "se",
        "su",
        "sus",
        "tu",
        "tus",
        "te",
        "al",
        "lo",
        "más",
        "pero",
        "como",
        "hay",
        "si",
        "también",
        "muy",
        "este",
        "esta",
        "estos",
        "estas",
        "ese",
        "esa",
        "cada",
        "otro",
        "otra",
        "cuando",
        "donde",
        "quien",
        "puede",
        "pueden",
        "tiene",
        "tienes",
        "hace",
        "sin",
        "sobre",
        "entre",
        "hasta",
        "desde",
        "carta",
        "cartas",
        "ficha",
        "fichas",
        "jugador",
        "jugadores",
        "partida",
        "juego",
        "juegos",
        "mano",
        "manos",
        "turno",
        "reglas",
        "robar",
        "gana",
        "ganas",
        "pierde",
        "mesa",
        "mazo",
        "palo",
    }
)
SPANISH_LETTERS = re.compile(r"[ñáéíóúü¿¡]", re.IGNORECASE)
SPANISH_NUMBER = re.compile(r"\d,\d+\s?%")
"""A decimal comma before a percent sign: «62,7 %» on an English page."""
KEEP = ("El Peaje", "Español", "Sofía", "Lucía", "PEAJE")
"""Spanish that an English page keeps: the game's brand, the language link, bots' names."""
LABELS = ("aria-label", "title", "placeholder", "alt")


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "template"):
            self._skip += 1
        values = dict(attrs)
        for name in LABELS:
            if values.get(name):
                self.lines.append(str(values[name]))
        if tag == "meta" and values.get("name") == "description" and values.get("content"):
            self.lines.append(str(values["content"]))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.lines.append(data.strip())


def texts(html: str) -> list[str]:
    """The visible text and the labels of a page, a piece per text node or attribute."""
    parser = _Text()
    parser.feed(html)
    return parser.lines


def spanish(line: str) -> bool:
    """Whether a piece of text reads as Spanish (a letter only Spanish has, or two of its
    commonest words)."""
    for keep in KEEP:
        line = line.replace(keep, "")
    if SPANISH_LETTERS.search(line) or SPANISH_NUMBER.search(line):
        return True
    words = re.findall(r"[a-záéíóúñü]+", line.lower())
    return sum(w in SPANISH_WORDS for w in words) >= 2


def spanish_lines(html: str) -> list[str]:
    return [line for line in texts(html) if spanish(line)]
