"""A seat's name as a viewer reads it, in the viewer's language.

A seat is stored as what it is — ``{"kind": "human", "guest", "name"?}`` (a person, with the
name they sat down with, if any), ``{"kind": "bot", "level", "n"}`` (the game's ``n``-th bot,
from 1), ``{"kind": "local"}`` (someone at the same phone) — and worded only when shown: a
bot as its game names it («Ordenador», "Computer"; «Sofía»), a person without a name as
«Tú» for themselves and «Jugador n» for the others. Games stored with a bot's name (a
message id: older games, a private room's bots) still read in the viewer's language. At a
table of strangers («Jugar ahora») a person's seat holds their public name (``"public":
"zorro-azul"``), never the name they typed: it reads «Zorro Azul», or «Blue Fox».
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tapete.i18n import N_, SHARED, text
from tapete.public_names import parse
from tapete.registry import Entry

YOU = N_("Tú")
PLAYER_N = N_("Jugador {n}")


def seat_names(
    found: Entry, seats: Sequence[dict[str, Any]], viewer: int | None, lang: str
) -> list[str]:
    """Every seat's name as ``viewer`` (a seat, or None: someone without one) reads it in
    ``lang``."""
    bots = [i for i, s in enumerate(seats) if s.get("kind") == "bot"]
    out = []
    for i, s in enumerate(seats):
        name = str(s.get("name") or "")
        public = parse(s.get("public")) if s.get("kind") == "human" else None
        if public is not None:
            out.append(public.words(lang))
        elif s.get("kind") == "bot" and name:  # (a message id, as some games stored it)
            out.append(text(found.key, lang, name, n=s.get("n", i)))
        elif s.get("kind") == "bot" and found.bots is not None:
            n = s.get("n")
            index = n if type(n) is int and n >= 1 else bots.index(i) + 1
            msgid, params = found.bots.seat_name(index, len(bots))
            out.append(text(found.key, lang, msgid, **params))
        elif name:  # (a person's own name)
            out.append(name)
        else:
            out.append(text(SHARED, lang, YOU if i == viewer else PLAYER_N, n=i + 1))
    return out


def seat_of(seats: Sequence[dict[str, Any]], guest: str | None) -> int | None:
    """The seat ``guest`` sits at among ``seats`` (a person's, not a bot's), or None."""
    if guest is None:
        return None
    for i, seat in enumerate(seats):
        if seat.get("kind") == "human" and seat.get("guest") == guest:
            return i
    return None
