"""Rummy de fichas: the rules, pure (``game``), and what makes a set (``sets``)."""

from tapete.games.rummy.game import (
    BOTS_FOLLOW,
    CLOCK_MOVES,
    MELD_POINTS,
    NAME,
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

__all__ = [
    "BOTS_FOLLOW", "CLOCK_MOVES", "MELD_POINTS", "NAME", "Config", "Draw", "Layout", "Move",
    "Pass", "Play", "SetInfo", "State", "Timeout", "actors", "all_tiles", "analyze", "apply",
    "check", "clock_move", "clocks", "config_json", "describe", "dump", "hand_scores",
    "joker_meanings", "legal_moves", "load", "new", "outcome", "parse_config", "parse_layout",
    "parse_move", "seats", "view",
]  # fmt: skip
