"""Rummy de fichas: the rules, pure (``game``), what makes a set (``sets``), and the names
of tiles and colours in the player's language (``names``)."""

from typing import Any, Final

from tapete.games.protocol import (
    Clock,
    Daily,
    Finished,
    GameSpec,
    Hall,
    Logro,
    Online,
    PassAndPlay,
    Quick,
    places_by_score,
    players_field,
)
from tapete.games.rummy import names
from tapete.games.rummy.game import (
    CLOCK_MOVES,
    CONFIG,
    MELD_POINTS,
    MOVES,
    RACK_SIZE,
    Config,
    Draw,
    Layout,
    Moves,
    Next,
    Pass,
    Play,
    Position,
    State,
    Timeout,
    actors,
    all_tiles,
    apply,
    check,
    clock_move,
    clocks,
    config_json,
    dump,
    hand_scores,
    joker_meanings,
    legal_moves,
    load,
    move,
    new,
    outcome,
    parse_config,
    parse_layout,
    parse_move,
    seats,
    view,
)
from tapete.games.rummy.guide import GUIDED
from tapete.games.rummy.sets import MESSAGES as SET_MESSAGES
from tapete.games.rummy.sets import SetInfo, analyze, reason, tidy
from tapete.i18n import N_, Np_
from tapete.tiles import full_set, text

__all__ = [
    "CLOCK_MOVES", "CONFIG", "MELD_POINTS", "MOVES", "SET_MESSAGES", "SPEC", "Config", "Draw",
    "Layout", "Moves", "Next", "Pass", "Play", "Position", "SetInfo", "State", "Timeout",
    "actors", "all_tiles", "analyze", "apply", "check", "clock_move", "clocks", "config_json",
    "dump", "hand_scores", "joker_meanings", "legal_moves", "load", "move", "name_param",
    "names", "new", "outcome", "parse_config", "parse_layout", "parse_move", "reason",
    "seats", "tidy", "view",
]  # fmt: skip


def name_param(key: str, value: Any, gettext: names.Gettext) -> str:
    """A refusal's parameter in the player's words: a tile code (``tile``), the tiles a
    joker needs (``tiles``), a set's tiles (``set``), a colour's code, or why a set is not
    valid (``reason``: ``{"code", "params"}``, itself a message of :data:`SET_MESSAGES`)."""
    if key == "reason" and isinstance(value, dict):
        inner = {k: name_param(k, v, gettext) for k, v in value.get("params", {}).items()}
        msgid = SET_MESSAGES.get(str(value.get("code")), N_("Esa combinación no es válida."))
        return gettext(msgid).format_map(inner)
    namer = names.NAMERS.get(key)
    return namer(value, gettext) if namer is not None else str(value)


from tapete.games import rummy as _rules  # noqa: E402


def _winners(outcome: dict[str, Any]) -> list[int]:
    """Rummy's outcome names every seat with the best score (``winners``)."""
    return [s for s in outcome.get("winners", []) if type(s) is int]


def _places(outcome: dict[str, Any]) -> list[int]:
    """For the ratings (RULES.md «Quick play»): the order of the points, ties tied.

    >>> _places({"winners": [1], "scores": [-12, 30, -12], "hands": 1})
    [2, 1, 2]
    """
    return places_by_score([int(v) for v in outcome["scores"]])


def _stats(outcome: dict[str, Any], seat: int, log: list[Any]) -> dict[str, int]:
    """The seat's points at the end (the hands' scores added up)."""
    scores = outcome.get("scores") or []
    return {"points": int(scores[seat]) if seat < len(scores) else 0}


def _daily(outcome: dict[str, Any], seat: int, log: list[Any]) -> tuple[bool, int]:
    """The day's deal (one hand): won, and the hand's points for the seat."""
    scores = outcome.get("scores") or []
    points = int(scores[seat]) if seat < len(scores) else 0
    return points > 0 and points == max(scores), points


def _hands_won(f: Finished) -> int:
    return sum(1 for e in f.events("hand_end") if e.get("winners") == [f.seat])


LOGROS: Final = (
    Logro("rummy.primera", N_("Primera mano"), N_("Gana una mano de Rummy."), "▣", _hands_won),
    Logro("rummy.diez", N_("Diez manos"), N_("Gana {goal} manos de Rummy."), "★", _hands_won,
          goal=10),
    Logro("rummy.partidas", N_("Habitual del Rummy"), N_("Juega {goal} partidas de Rummy."), "∞",
          lambda f: 1, goal=50),
    Logro("rummy.apertura", N_("Gran apertura"), N_("Baja tu primera jugada con 50 puntos o más."),
          "✚", lambda f: int(any(e.get("meld", 0) >= 50 for e in f.events("play", f.seat)))),
    Logro("rummy.de_golpe", N_("De golpe"), N_("Coloca 14 fichas de tu atril en un solo turno."),
          "⚡", lambda f: int(any(len(e.get("tiles") or ()) >= 14
                                  for e in f.events("play", f.seat)))),
    Logro("rummy.experto", N_("Más que experto"), N_("Gana una partida a un bot experto."), "♛",
          lambda f: int(f.won and "experto" in f.bots)),
)  # fmt: skip
"""Rummy's logros (:mod:`tapete.logros`)."""


def _deal(config: Config, seed: int) -> dict[str, Any]:
    """The deal of ``seed`` as a browser redoes it (:attr:`GameSpec.deal`): who starts, then
    the 106 tiles shuffled, fourteen to each rack from the start (a rack is shown sorted),
    the rest the pool."""
    state = new(config, seed)
    n = config.players
    racks = [
        {"seat": s, "title": N_("Atril de {name}"), "yours": N_("Tu atril"), "of": "bag",
         "sorted": True,
         "take": list(range(s * RACK_SIZE, (s + 1) * RACK_SIZE)),
         "cards": [text(t) for t in state.racks[s]]}
        for s in range(n)
    ]  # fmt: skip
    pool = {
        "title": N_("Pozo"), "of": "bag", "take": list(range(n * RACK_SIZE, 106)),
        "cards": [text(t) for t in state.pool],
    }  # fmt: skip
    starter = state.starter if state.starter is not None else state.turn
    return {
        "decks": {"bag": [text(t) for t in full_set()]},
        "steps": [
            {
                "below": n,
                "want": starter,
                "title": N_("Empieza {name}"),
                "yours": N_("Empiezas tú"),
                "seat": starter,
            },
            {"shuffle": "bag"},
        ],
        "parts": [*racks, pool],
    }


def _reveal(state: State) -> dict[str, Any]:
    """For a replay: every rack, sorted as a rack is shown."""
    return {"racks": [[text(t) for t in sorted(rack)] for rack in state.racks]}


def _holder(state: State) -> int | None:
    """On one device: the rack shown is the turn's player's; between hands (every rack is
    shown as it ended) and once it is over, nobody's."""
    return state.turn if state.result is None and not state.waiting else None


SPEC: Final = GameSpec[Config, State, Moves](
    key="rummy",
    winners=_winners,
    deal=_deal,
    reveal=_reveal,
    stats=_stats,
    logros=LOGROS,
    pass_and_play=PassAndPlay(holder=_holder),
    guided=GUIDED,
    daily=Daily(
        config={"players": 2, "hands": 1},
        level="experto",
        result=_daily,
        lower=False,
        line=N_("Una mano contra un bot experto. Cuentan los puntos de la mano."),
        unit=Np_("{n} punto", "{n} puntos"),
    ),
    stat_names={"points": N_("Puntos")},
    rules=_rules,
    config=CONFIG,
    moves=MOVES,
    hall=Hall(
        title=N_("Rummy de fichas"),
        line=N_(
            "Series y escaleras de fichas, comodines y una mesa que se puede reordenar. "
            "Abre con 30 puntos."
        ),
        who=N_("De 2 a 4 jugadores, a 1, 3 o 5 manos, contra bots de tres niveles"),
        icon='<span class="ic-tile">12</span><span class="ic-tile blue">13</span>',
    ),
    messages={
        "pool_empty": N_("El pozo está vacío: no se puede robar; pasa."),
        "must_draw": N_("Aún quedan fichas en el pozo: roba en vez de pasar."),
        # the five checks of a play, in the order of RULES.md
        "invalid_set": N_("{reason}"),
        "table_tile_missing": N_(
            "Falta en la mesa {tile}: lo que estaba no puede volver al atril."
        ),
        "not_in_rack": N_("No tienes {tile} en tu atril."),
        "no_new_tile": N_("Tienes que poner al menos una ficha de tu atril."),
        "meld_touch": N_(
            "Antes de tu bajada inicial no puedes tocar la mesa: "
            "solo combinaciones nuevas de tu atril."
        ),
        "meld_short": N_("Tu bajada suma {points}: hacen falta {needed} o más."),
        "joker_unbacked": N_("Para retirar el comodín hace falta dejar en la mesa {tiles}."),
        # between hands
        "hand_over": N_("La mano ha terminado: pulsa «Siguiente mano»."),
        "already_ready": N_("Ya has pasado a la siguiente mano; faltan los demás."),
        "hand_not_over": N_("La mano no ha terminado."),
        "bad_position": N_("Posición mal formada ({field})."),
    },
    params=name_param,
    page_words=names.page_words,
    fair_words={
        "title": N_("Unas fichas bien mezcladas"),
        "check": N_("Comprobar las fichas"),
        "committed": N_("Fichas comprometidas antes de empezar:"),
        "lead": N_(
            "Antes de la primera jugada, Tapete fija cómo se mezclan las fichas de esta "
            "partida y publica una huella de ello (SHA-256). La huella no deja adivinar las "
            "fichas; al terminar se enseña la semilla y cualquiera puede comprobar que da esa "
            "misma huella: las fichas no cambiaron a media partida."
        ),
        "redo": N_(
            "Tu navegador mezcla las fichas con esa semilla (splitmix64 y Fisher–Yates, como "
            "el servidor) y comprueba que cada atril y el pozo salen tal como empezó la "
            "partida."
        ),
        "shuffling": N_("Mezclando las fichas en tu navegador…"),
        "order": N_("El orden en que quedaron las fichas"),
        "deal_match": N_(
            "Coincide: mezclando las fichas con la semilla sale el reparto con el que empezó "
            "la partida."
        ),
    },
    clocks={"turn": Clock(practice=None, online=60.0)},
    online=Online(seats=(2, 4), with_seats=players_field, turn_clocks=(30.0, 60.0, 120.0, None)),
    quick=Quick(Config(), places=_places),
    clock_moves=CLOCK_MOVES,
    drafting=_rules,
)
"""Rummy's descriptor. A refusal of an invalid set carries why (``reason``), which
:func:`name_param` writes as the set's own message."""
