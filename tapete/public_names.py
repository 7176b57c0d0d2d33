"""The name strangers see (RULES.md «Quick play», «Names»): an animal and an adjective from
the lists below, in the viewer's language — «Zorro Azul» in Spanish, «Blue Fox» in English.

Strangers never see the name a player typed for friends. Everyone has a public name from the
start, drawn from their guest id (the same one in every game, so that one can be blocked or
reported), and may choose another — from these lists only: no free text reaches a stranger,
and a child cannot put their real name in front of one. The adjectives are Spanish ones that
do not change with the noun's gender («Ardilla Veloz», «Zorro Veloz»), so any pair is
correct Spanish.

Stored as two keys (``"zorro"``, ``"azul"``), never as words: the words are the catalog's.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Final

from tapete.i18n import N_, SHARED, text

ANIMALS: Final = {
    "zorro": N_("Zorro"), "buho": N_("Búho"), "delfin": N_("Delfín"), "tigre": N_("Tigre"),
    "leon": N_("León"), "oso": N_("Oso"), "lobo": N_("Lobo"), "gato": N_("Gato"),
    "panda": N_("Panda"), "koala": N_("Koala"), "pinguino": N_("Pingüino"),
    "tortuga": N_("Tortuga"), "ardilla": N_("Ardilla"), "liebre": N_("Liebre"),
    "jirafa": N_("Jirafa"), "cebra": N_("Cebra"), "nutria": N_("Nutria"),
    "halcon": N_("Halcón"), "colibri": N_("Colibrí"), "erizo": N_("Erizo"),
    "castor": N_("Castor"), "ballena": N_("Ballena"), "foca": N_("Foca"),
    "mapache": N_("Mapache"), "camaleon": N_("Camaleón"), "gacela": N_("Gacela"),
    "lince": N_("Lince"), "caballo": N_("Caballo"),
}  # fmt: skip
"""The animals, by key: Spanish message ids."""

ADJECTIVES: Final = {
    "azul": N_("Azul"), "verde": N_("Verde"), "gris": N_("Gris"), "celeste": N_("Celeste"),
    "veloz": N_("Veloz"), "feliz": N_("Feliz"), "valiente": N_("Valiente"),
    "alegre": N_("Alegre"), "amable": N_("Amable"), "fuerte": N_("Fuerte"),
    "audaz": N_("Audaz"), "tenaz": N_("Tenaz"), "sagaz": N_("Sagaz"), "genial": N_("Genial"),
    "leal": N_("Leal"), "noble": N_("Noble"), "agil": N_("Ágil"), "gentil": N_("Gentil"),
    "paciente": N_("Paciente"), "brillante": N_("Brillante"), "elegante": N_("Elegante"),
    "capaz": N_("Capaz"), "cortes": N_("Cortés"), "cordial": N_("Cordial"),
}  # fmt: skip
"""The adjectives, by key: Spanish message ids, each the same for either gender."""

PATTERN: Final = N_("{animal} {adjective}")
"""How the two words make a name (English: «{adjective} {animal}»)."""


@dataclass(frozen=True, slots=True)
class PublicName:
    animal: str
    adjective: str

    @property
    def key(self) -> str:
        """As stored: ``"zorro-azul"``."""
        return f"{self.animal}-{self.adjective}"

    def words(self, lang: str) -> str:
        """The name in ``lang``: «Zorro Azul», «Blue Fox»."""
        return text(
            SHARED,
            lang,
            PATTERN,
            animal=text(SHARED, lang, ANIMALS[self.animal]),
            adjective=text(SHARED, lang, ADJECTIVES[self.adjective]),
        )


def parse(key: object) -> PublicName | None:
    """A stored or chosen name (``"zorro-azul"``); None if it is not one of the lists'."""
    if not isinstance(key, str):
        return None
    animal, _, adjective = key.partition("-")
    if animal in ANIMALS and adjective in ADJECTIVES:
        return PublicName(animal, adjective)
    return None


def drawn(guest: str) -> PublicName:
    """The name a guest has until they choose one: drawn from their id, always the same.

    >>> drawn("a-guest") == drawn("a-guest")
    True
    """
    digest = int.from_bytes(hashlib.sha256(b"public-name:" + guest.encode()).digest()[:8])
    animals, adjectives = list(ANIMALS), list(ADJECTIVES)
    return PublicName(
        animals[digest % len(animals)], adjectives[digest // len(animals) % len(adjectives)]
    )


def of(guest: str, chosen: str | None) -> PublicName:
    """A guest's public name: the one they chose if it is still on the lists, else drawn."""
    return parse(chosen) or drawn(guest)
