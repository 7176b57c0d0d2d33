"""The cosmetics of the shop: what each is, where it is worn, what it costs.

Declared once here: the shop lists them, the store keeps who owns and wears which, the
pages draw them (CSS and SVG, nothing to download: ``static/css/cosmetics.css`` has a class
``cos-<key>`` for each). The first item of each slot is free and worn by everyone who has
not chosen another; the first day's coins buy one card back or one frame.

>>> ITEMS["oro"].slot, ITEMS["oro"].price
('frame', 300)
>>> [i.key for i in ITEMS.values() if i.price == 0]
['clasico', 'verde', 'marfil', 'sin-marco']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from tapete.i18n import N_


@dataclass(frozen=True)
class Item:
    key: str
    slot: str
    price: int
    name: str
    """Its name, a Spanish message id (the shared catalog)."""


SLOTS: Final = {
    "back": N_("Reversos de carta"),
    "felt": N_("Tapetes"),
    "tiles": N_("Fichas"),
    "frame": N_("Marcos de avatar"),
}
"""Where an item is worn → the shop's heading for it."""

ITEMS: Final = {
    i.key: i
    for i in (
        Item("clasico", "back", 0, N_("Clásico")),
        Item("azulejo", "back", 20, N_("Azulejo")),
        Item("rayas", "back", 60, N_("Rayas")),
        Item("dorado", "back", 200, N_("Dorado")),
        Item("verde", "felt", 0, N_("Verde de casino")),
        Item("azul", "felt", 40, N_("Azul marino")),
        Item("granate", "felt", 60, N_("Granate")),
        Item("noche", "felt", 150, N_("Noche")),
        Item("marfil", "tiles", 0, N_("Marfil")),
        Item("menta", "tiles", 25, N_("Menta")),
        Item("pizarra", "tiles", 90, N_("Pizarra")),
        Item("sin-marco", "frame", 0, N_("Sin marco")),
        Item("bronce", "frame", 20, N_("Bronce")),
        Item("plata", "frame", 100, N_("Plata")),
        Item("oro", "frame", 300, N_("Oro")),
    )
}

AVATAR_KEYS: Final = (
    "sol",
    "luna",
    "estrella",
    "trebol",
    "corazon",
    "diamante",
    "pica",
    "corona",
    "ancla",
    "pez",
    "gato",
    "buho",
)
"""The avatars a player can pick (``templates/_avatars.html`` draws each in SVG)."""

DEFAULTS: Final = {slot: next(i.key for i in ITEMS.values() if i.slot == slot) for slot in SLOTS}
"""What each slot wears when nothing else is chosen (the free item)."""


def worn(equipped: dict[str, object] | None) -> dict[str, str]:
    """Every slot's item for a player who equipped ``equipped`` (the defaults elsewhere; an
    item that no longer exists falls back to its slot's default)."""
    chosen = equipped or {}
    out = {}
    for slot, default in DEFAULTS.items():
        key = chosen.get(slot)
        item = ITEMS.get(key) if isinstance(key, str) else None
        out[slot] = item.key if item is not None and item.slot == slot else default
    return out


def look(equipped: dict[str, object] | None, avatar: str | None) -> dict[str, str]:
    """What a player shows at a table (their seat's ``worn``, which the others see too):
    every slot's item (:func:`worn`) and their avatar, if they chose one.

    >>> look({"back": "azulejo"}, "gato")["back"], look(None, "gato")["avatar"]
    ('azulejo', 'gato')
    >>> "avatar" in look(None, None)
    False
    """
    out = worn(equipped)
    if avatar:
        out["avatar"] = avatar
    return out
