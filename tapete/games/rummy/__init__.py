"""Rummy de fichas: the rules, pure (``game``), and what makes a set (``sets``)."""

from typing import Final

from tapete.games.protocol import Clock, GameSpec, Hall, HandCodec, Online, players_field
from tapete.games.rummy.game import (
    CLOCK_MOVES,
    CONFIG,
    MELD_POINTS,
    Config,
    Draw,
    Layout,
    Move,
    Pass,
    Play,
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
    new,
    outcome,
    parse_config,
    parse_layout,
    parse_move,
    seats,
    view,
)
from tapete.games.rummy.sets import SetInfo, analyze, describe
from tapete.i18n import N_

__all__ = [
    "CLOCK_MOVES", "CONFIG", "MELD_POINTS", "SPEC", "Config", "Draw", "Layout", "Move",
    "Pass", "Play", "SetInfo", "State", "Timeout", "actors", "all_tiles", "analyze", "apply",
    "check", "clock_move", "clocks", "config_json", "describe", "dump", "hand_scores",
    "joker_meanings", "legal_moves", "load", "new", "outcome", "parse_config", "parse_layout",
    "parse_move", "seats", "view",
]  # fmt: skip


from tapete.games import rummy as _rules

SPEC: Final = GameSpec[Config, State, Move](
    key="rummy",
    rules=_rules,
    config=CONFIG,
    moves=HandCodec(parse_move, lambda m: m.to_json()),
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
        # the checks of a play still carry their own sentence (being moved to the catalog)
        **dict.fromkeys(
            (
                "invalid_set",
                "table_tile_missing",
                "not_in_rack",
                "no_new_tile",
                "meld_touch",
                "meld_short",
                "joker_unbacked",
            ),
            "{detail}",
        ),
    },
    clocks={"turn": Clock(practice=None, online=60.0)},
    online=Online(seats=(2, 4), with_seats=players_field, turn_clocks=(30.0, 60.0, 120.0, None)),
    clock_moves=CLOCK_MOVES,
    drafting=_rules,
)
"""Rummy's descriptor."""
