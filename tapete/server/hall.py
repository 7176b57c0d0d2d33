"""The hall's catalogue of games and the setup form of each playable one."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

GAMES: dict[str, dict[str, Any]] = {
    "guerra": {
        "key": "guerra",
        "title": "La guerra",
        "icon": '<span class="ic-card">K♠</span><span class="ic-card red">K♥</span>',
        "line": "Dais la vuelta a la vez; la carta más alta se lo lleva todo. "
        "Si empatáis, ¡guerra!",
        "who": "Tú contra el ordenador, de 2 a 4 jugadores",
        "playable": True,
        "play_url": "/guerra",
    },
    "onecard": {
        "key": "onecard",
        "title": "One Card",
        "icon": '<span class="ic-card">A♠</span><span class="ic-card red">7♦</span>',
        "line": "El juego coreano parecido al Uno con baraja francesa: ataques con reyes y "
        "ases, el 7 cambia el palo y hay que cantar «One Card».",
        "who": "De 2 a 4 jugadores, contra bots fáciles, normales o difíciles",
        "playable": True,
        "play_url": "/onecard",
    },
    "rummy": {
        "key": "rummy",
        "title": "Rummy de fichas",
        "icon": '<span class="ic-tile">12</span><span class="ic-tile blue">13</span>',
        "line": "Series y escaleras de fichas, comodines y una mesa que se puede reordenar. "
        "Abre con 30 puntos.",
        "who": "De 2 a 4 jugadores, a 1, 3 o 5 manos, contra bots de tres niveles",
        "playable": True,
        "play_url": "/rummy",
    },
    "peaje": {
        "key": "peaje",
        "title": "El Peaje",
        "icon": '<span class="ic-card red">?</span><span class="ic-bar">PEAJE</span>',
        "line": "Mayor o menor, roja o negra, adivina el palo… recorre la ruta y paga "
        "cada peaje. Para jugar en grupo con un solo móvil.",
        "who": "Solo o en grupo, de 1 a 12, con un solo móvil",
        "playable": True,
        "play_url": "/peaje",
    },
}


def guerra_form_config(form: Mapping[str, Any]) -> dict[str, Any]:
    """Turn the setup form into a config; the engine validates it."""
    return {
        "players": _number(form.get("players"), 2),
        "length": form.get("length") or "corta",
        "down": _number(form.get("down"), 3),
        "ace_low": _checked(form, "ace_low"),
        "sums": _checked(form, "sums"),
        "order": form.get("order") or "random",
    }


ONECARD_HOUSE_RULES = ("two_attack", "jokers", "king_again", "three_blocks", "no_special_finish")


def onecard_form_config(form: Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    """The One Card setup form: the engine's config and the bots' level."""
    config: dict[str, Any] = {"players": _number(form.get("players"), 2)}
    for name in ONECARD_HOUSE_RULES:
        config[name] = _checked(form, name)
    if form.get("penalty"):
        config["penalty"] = _number(form.get("penalty"), 2)
    return config, str(form.get("level") or "normal")


def _checked(form: Mapping[str, Any], name: str) -> bool:
    return form.get(name) in ("1", "on", "true")


def _number(value: Any, default: int) -> Any:
    """An int from a form field, the default when empty; other text is passed on for the
    engine to refuse with a clear message."""
    if value is None or value == "":
        return default
    try:
        return int(str(value))
    except ValueError:
        return value


FormReader = Callable[[Mapping[str, Any]], tuple[dict[str, Any], str]]


def rummy_form_config(form: Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    config = {"players": _number(form.get("players"), 2), "hands": _number(form.get("hands"), 1)}
    return config, str(form.get("level") or "normal")


def peaje_form_config(form: Any) -> tuple[dict[str, Any], str]:
    """The El Peaje setup: names (blank ones allowed) for the players of the variant."""
    names = [str(x) for x in form.getlist("player")] if hasattr(form, "getlist") else []
    variant = str(form.get("variant") or "solitario")
    count = _number(form.get("count"), len(names) or 1)
    if isinstance(count, int) and 1 <= count <= 12:
        names = (names + [""] * count)[:count]
    config = {
        "variant": variant,
        "difficulty": str(form.get("difficulty") or "facil"),
        "players": names or [""],
        "toll": str(form.get("toll") or "").strip() or "un punto",
        "style": str(form.get("style") or "clasico"),
    }
    return config, "normal"


FORMS: dict[str, FormReader] = {
    "guerra": lambda form: (guerra_form_config(form), "normal"),
    "onecard": onecard_form_config,
    "rummy": rummy_form_config,
    "peaje": peaje_form_config,
}
"""The playable games' setup forms: form → (config, bots' level)."""


GUIDE_PAGES: dict[str, str] = {
    "index": "La guía de El Peaje",
    "como-jugar": "Cómo jugar",
    "situaciones": "Tres situaciones",
    "variantes": "Las variantes",
    "preguntas": "Preguntas frecuentes",
    "calculos": "Los cálculos de mayor o menor",
    "previa": "El Peaje en una previa",
    "responsable": "Juego responsable",
}
"""El Peaje's guide pages (templates/peaje_guide/<key>.html), in reading order."""
