"""The message catalog: every player-facing string, Spanish first, English second.

>>> t("error.not_your_turn")
'No es tu turno.'
>>> t("error.not_your_turn", lang="en")
"It's not your turn."
>>> t("guerra.won", lang="es", name="Ana", cards=10)
'Ana gana 10 cartas.'
"""

from __future__ import annotations

from typing import Final

LANGS: Final = ("es", "en")
DEFAULT_LANG: Final = "es"

CATALOG: Final[dict[str, dict[str, str]]] = {
    # errors shared by every game and by the socket
    "error.not_your_turn": {"es": "No es tu turno.", "en": "It's not your turn."},
    "error.game_over": {"es": "La partida ya ha terminado.", "en": "The game is over."},
    "error.unknown_move": {
        "es": "Ese movimiento no existe en este juego.",
        "en": "That move does not exist in this game.",
    },
    "error.bad_move": {"es": "Movimiento mal formado: {detail}", "en": "Malformed move: {detail}"},
    "error.bad_config": {"es": "Opción no válida: {detail}", "en": "Invalid option: {detail}"},
    "error.bad_json": {
        "es": "El mensaje no es JSON válido.",
        "en": "The message is not valid JSON.",
    },
    "error.bad_message": {
        "es": "Mensaje no válido: {detail}",
        "en": "Invalid message: {detail}",
    },
    "error.unknown_type": {
        "es": "Tipo de mensaje desconocido: «{type}».",
        "en": "Unknown message type: '{type}'.",
    },
    "error.stale_version": {
        "es": "Tu mesa estaba desactualizada (versión {got}, la actual es {current}). "
        "Ya la hemos puesto al día; vuelve a intentarlo.",
        "en": "Your table was out of date (version {got}, current is {current}). "
        "It is up to date now; try again.",
    },
    "error.not_your_game": {
        "es": "Esa partida no existe o no es tuya.",
        "en": "That game does not exist or is not yours.",
    },
    "error.not_joined": {
        "es": "Primero hay que unirse a una partida.",
        "en": "Join a game first.",
    },
    "error.spectator": {
        "es": "Estás mirando: no tienes asiento en esta partida.",
        "en": "You are watching: you have no seat in this game.",
    },
    "error.busy": {
        "es": "La sala está ocupada; inténtalo de nuevo.",
        "en": "The room is busy; try again.",
    },
    # La guerra
    "guerra.won": {"es": "{name} gana {cards} cartas.", "en": "{name} wins {cards} cards."},
    "guerra.no_cards": {
        "es": "No te quedan cartas para dar la vuelta.",
        "en": "You have no cards left to turn.",
    },
}


def t(key: str, lang: str = DEFAULT_LANG, **params: object) -> str:
    """Look up ``key`` in ``lang`` (falling back to Spanish) and fill in ``params``."""
    entry = CATALOG.get(key)
    if entry is None:
        return key
    text = entry.get(lang) or entry[DEFAULT_LANG]
    return text.format(**params) if params else text


def pick_lang(value: str | None) -> str:
    """Choose a supported language from a cookie or an Accept-Language header."""
    if value:
        for part in value.split(","):
            code = part.split(";")[0].strip().lower()[:2]
            if code in LANGS:
                return code
    return DEFAULT_LANG
