"""Refusals in words: a code and its parameters become a sentence in the player's language.

The rules and the gate raise codes (:class:`tapete.games.protocol.IllegalMove`); the shared
codes are here, a game's own in its descriptor (``GameSpec.messages``).

>>> describe("not_your_turn", "en")
"It's not your turn."
>>> describe("stale_version", "es", got=3, current=5)[:35]
'Tu mesa estaba desactualizada (vers'
>>> describe("no_such_code", "en")
'That move is not allowed.'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from tapete.i18n import N_, SHARED, translations

COMMON: Final = {
    "not_your_turn": N_("No es tu turno."),
    "game_over": N_("La partida ya ha terminado."),
    "unknown_move": N_("Ese movimiento no existe en este juego."),
    "bad_move": N_("Movimiento mal formado ({field})."),
    "bad_config": N_("Opción no válida: {field}."),
    "bad_config_any": N_("Alguna de las opciones no es válida."),
    "bad_json": N_("El mensaje no es JSON válido."),
    "bad_message": N_("Mensaje no válido: {detail}."),
    "unknown_type": N_("Tipo de mensaje desconocido: «{type}»."),
    "stale_version": N_(
        "Tu mesa estaba desactualizada (versión {got}, la actual es {current}). "
        "Ya la hemos puesto al día; vuelve a intentarlo."
    ),
    "not_your_game": N_("Esa partida no existe o no es tuya."),
    "not_over": N_("La partida sigue: su repetición estará cuando termine."),
    "no_analysis": N_("Este juego no tiene análisis de jugadas."),
    "bad_seat": N_("Esa partida no tiene ese asiento."),
    "not_joined": N_("Primero hay que unirse a una partida."),
    "spectator": N_("Estás mirando: no tienes asiento en esta partida."),
    "hand_over": N_("Antes, pasa el móvil a {player}: que toque «Soy {player}»."),
    "no_device": N_("Esta partida no se juega en un solo móvil."),
    "busy": N_("El servidor está ocupado; inténtalo de nuevo."),
    "full": N_("Hay mucha gente jugando ahora mismo: vuelve en un momento."),
    "restarting": N_("Estamos poniendo la sala al día: vuelve a intentarlo en unos segundos."),
    "unavailable": N_("No podemos guardar nada ahora mismo: inténtalo de nuevo en un rato."),
    "no_hints": N_("Este juego no da pistas."),
    "no_hints_online": N_("En una partida con amigos no hay pistas."),
    "too_many_games": N_("Demasiadas partidas nuevas seguidas: espera un minuto."),
    "cross_site": N_(
        "Esta petición llega desde otra web y no la aceptamos: vuelve a Tapete y hazlo desde "
        "sus páginas."
    ),
    "too_large": N_("La petición es demasiado grande."),
    "too_fast": N_("Demasiados mensajes seguidos; espera un momento."),
}
"""The codes every game and the socket share → Spanish message ids."""
FALLBACK: Final = N_("Ese movimiento no está permitido.")
FIELDS: Final = {
    "level": N_("Nivel"),
    "clock": N_("Tiempo por turno"),
    "players": N_("Jugadores"),
    "game": N_("Juego"),
    "position": N_("Posición de prueba"),
}
"""What ``bad_config`` names besides a game's own options (whose titles the game gives)."""

ParamNamer = Callable[[str, Any, Callable[[str], str]], str]


class _Params(dict[str, Any]):
    """Missing parameters show as ``?`` rather than failing."""

    def __missing__(self, key: str) -> str:
        return "?"


def describe(
    code: str,
    lang: str,
    domain: str = SHARED,
    messages: Mapping[str, str] | None = None,
    name: ParamNamer | None = None,
    **params: Any,
) -> str:
    """The sentence for ``code`` in ``lang``: the game's own message (``messages``, in its
    ``domain``) or the shared one; ``name`` turns a parameter's value into words (a card
    code into «el as de picas»)."""
    tr = translations(lang, domain)
    msgid = (messages or {}).get(code) or COMMON.get(code) or FALLBACK
    values = _Params(params)
    if name is not None:
        for key, value in params.items():
            values[key] = name(key, value, tr.gettext)
    words = tr.gettext(msgid).format_map(values)
    return words[:1].upper() + words[1:]  # a sentence may start with a parameter («{card} …»)
