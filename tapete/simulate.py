"""Seeded simulations of whole games, for ``tapete simulate``.

A simulation plays ``games`` games with the seeds ``seed``, ``seed + 1``, … through the
public protocol of the game (``new``, ``actors``, ``legal_moves``, ``apply``,
``outcome``) and sums up how they went. The report is plain JSON and depends only on
its arguments, so two runs with the same arguments give the same report.

>>> report = simulate("guerra", 3, seed=1, options={"length": "corta"})
>>> report["games"], report["limit"], report["duels_max"] <= 80
(3, 80, True)
>>> sum(report["reasons"].values())
3
>>> print(format_report(report).splitlines()[0])
La guerra: 3 partidas (semillas 1–3)
"""

from __future__ import annotations

from typing import Any, Final

from tapete.games import guerra
from tapete.games.protocol import JSON, IllegalMove
from tapete.registry import entry

MAX_DUELS: Final = 20_000
"""Safety cap for games with no duel limit (La guerra «hasta el final»)."""

REASONS: Final = ("all_cards", "limit", "draw_limit", "draw_war", "loop", "capped")
"""How a game of La guerra can end; ``capped`` is the simulation's own cap."""

REASON_LABELS: Final = {
    "all_cards": "con todas las cartas",
    "limit": "al límite de duelos",
    "draw_limit": "empate al límite",
    "draw_war": "empate en guerra",
    "loop": "empate por repetición",
    "capped": "cortadas por el tope",
}


def simulate(
    game: str, games: int, seed: int, options: JSON, *, max_duels: int = MAX_DUELS
) -> JSON:
    """Play ``games`` seeded games of ``game`` with ``options`` and report on them.

    For La guerra the report holds the mean and maximum duels per game, the mean
    wars per game, how many games reached the duel limit, how many ended by each
    reason (``all_cards``, ``limit``, ``draw_limit``, ``draw_war``, ``loop``) and, for
    games with no limit, how many were stopped at ``max_duels`` (``capped``).

    Bad options raise :class:`IllegalMove` (``bad_config``), as the game refuses them.
    """
    if game != "guerra":
        entry(game)  # an unknown game: bad_config
        raise IllegalMove("bad_config", field="game")
    if type(games) is not int or games < 1:
        raise ValueError("games must be a positive integer")
    if type(max_duels) is not int or max_duels < 1:
        raise ValueError("max_duels must be a positive integer")
    module = guerra
    config = module.parse_config(dict(options))
    settings = module.config_json(config)
    limit = config.limit
    cap = max_duels if limit is None else None

    reasons = dict.fromkeys(REASONS, 0)
    seats = module.seats(config)
    wins = [0] * seats
    duel_counts: list[int] = []
    war_counts: list[int] = []
    moves = 0
    for i in range(games):
        duels, wars, reason, winner, played = _play(module, config, seed + i, cap)
        moves += played
        duel_counts.append(duels)
        war_counts.append(wars)
        reasons[reason] += 1
        if winner is not None:
            wins[winner] += 1

    return {
        "game": game,
        "options": settings,
        "games": games,
        "seed": seed,
        "limit": limit,
        "max_duels": cap,
        "duels_mean": round(sum(duel_counts) / games, 2),
        "duels_max": max(duel_counts),
        "duels_min": min(duel_counts),
        "wars_mean": round(sum(war_counts) / games, 2),
        "wars_max": max(war_counts),
        "reached_limit": reasons["limit"] + reasons["draw_limit"],
        "reasons": reasons,
        "wins": wins,
        "draws": reasons["draw_limit"] + reasons["draw_war"] + reasons["loop"],
        "moves": moves,
    }


def _play(module: Any, config: Any, seed: int, cap: int | None) -> tuple[int, int, str, Any, int]:
    """One game: (duels, wars, reason, winner, moves). Each step, every seat the table
    waits for takes its first legal move (in La guerra, turning its card)."""
    state = module.new(config, seed)
    duels = wars = moves = 0
    while module.outcome(state) is None:
        if cap is not None and duels >= cap:
            return duels, wars, "capped", None, moves
        seat = module.actors(state)[0]
        move = module.legal_moves(state, seat)[0]
        for event in module.apply(state, seat, move):
            kind = event["t"]
            if kind == "duel":
                duels = event["n"] - 1
            elif kind == "war":
                wars += 1
        moves += 1
    result = module.outcome(state)
    return int(result["duels"]), int(result["wars"]), str(result["reason"]), result["winner"], moves


def format_report(report: JSON) -> str:
    """The report as plain text, in Spanish."""
    o = report["options"]
    games = report["games"]
    first = report["seed"]
    lines = [f"La guerra: {games} partidas (semillas {first}–{first + games - 1})"]
    length = {"corta": "corta (80 duelos)", "media": "media (200 duelos)"}.get(
        o["length"], "hasta el final"
    )
    lines.append(
        "Opciones: "
        + ", ".join(
            [
                f"{o['players']} jugadores",
                length,
                f"{o['down']} boca abajo en la guerra",
                "as bajo" if o["ace_low"] else "as alto",
                "guerra de sumas" if o["sums"] else "sin sumas",
                "orden fijo" if o["order"] == "fixed" else "orden al azar",
            ]
        )
    )
    if report["max_duels"] is not None:
        lines.append(f"Tope de seguridad: {report['max_duels']} duelos")
    lines.append(
        f"Duelos por partida: media {report['duels_mean']:.2f}, "
        f"mínimo {report['duels_min']}, máximo {report['duels_max']}"
    )
    lines.append(
        f"Guerras por partida: media {report['wars_mean']:.2f}, máximo {report['wars_max']}"
    )
    if report["limit"] is not None:
        lines.append(f"Llegaron al límite de {report['limit']} duelos: {report['reached_limit']}")
    lines.append("Final de las partidas:")
    width = max(len(label) for label in REASON_LABELS.values())
    for reason in REASONS:
        label = REASON_LABELS[reason]
        lines.append(f"  {label:<{width}}  {report['reasons'][reason]:>7}  ({reason})")
    wins = ", ".join(f"jugador {i + 1}: {n}" for i, n in enumerate(report["wins"]))
    lines.append(f"Victorias: {wins}; empates: {report['draws']}")
    lines.append(f"Movimientos: {report['moves']}")
    return "\n".join(lines)
