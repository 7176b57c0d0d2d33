"""A refusal's parameters in the player's words (the catalog's ``peaje`` domain): the step
a move came too early or too late for, an option a setup got wrong."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import msgspec.inspect

from tapete.cards import Card
from tapete.games.peaje.game import Config
from tapete.i18n import N_


def _option_titles() -> dict[str, str]:
    info = msgspec.inspect.type_info(Config)
    assert isinstance(info, msgspec.inspect.StructType)
    out = {}
    for f in info.fields:
        if isinstance(f.type, msgspec.inspect.Metadata) and f.type.extra_json_schema:
            out[f.name] = str(f.type.extra_json_schema["title"])
    return out


OPTION_TITLES: Final = _option_titles()
"""Each option's title (a message id), to name it in a refusal."""


STEPS: Final = {
    "answer": N_("responder la pregunta"),
    "reveal": N_("revelar la carta"),
    "mark": N_("marcar acierto o fallo"),
    "miss": N_("confirmar el fallo"),
    "toll": N_("confirmar el peaje"),
    "over": N_("empezar otra partida"),
}
"""What a step asks for, as a refusal names it («primero hay que revelar la carta»)."""


def name_param(name: str, value: Any, gettext: Callable[[str], str]) -> str:
    """A refusal's parameter in the player's words: a step (``wrong_step``), an option
    (``bad_config``: its title on the setup page), a card (the guided game's ``card``).

    >>> name_param("step", "reveal", str.upper)
    'REVELAR LA CARTA'
    """
    if name == "card":  # (a card code: «el cuatro de corazones», the guided game)
        return Card.parse(str(value)).the_words(gettext)
    if name == "step" and value in STEPS:
        return gettext(STEPS[value])
    if name == "field" and value in OPTION_TITLES:
        return gettext(OPTION_TITLES[value])
    return str(value)
