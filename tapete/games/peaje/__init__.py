"""El Peaje: a route of predictions over a French deck, with tolls. The rules, pure
(``game``), a refusal's parameters in words (``names``), the numbers of its guide, worked
out by the rules (``guide``), and here its descriptor (:data:`SPEC`); the package itself is
the rules module (``SPEC.rules``).
"""

from typing import Final

from tapete.cards import full_deck
from tapete.games.peaje import names
from tapete.games.peaje.game import (
    CLOCK_MOVES,
    CONFIG,
    CONFIRM_MISS,
    CONFIRM_TOLL,
    COOP_MISSES,
    MOVES,
    NAME_LENGTH,
    NO_TOLL,
    PER_PHONE,
    POSITION,
    QUESTIONS,
    RETIRE,
    REVEAL,
    ROUTE_SIZES,
    ROUTES,
    SHORT_FORM,
    SKIP,
    STYLES,
    TOLL,
    TOLL_LENGTH,
    TOLL_SUGGESTIONS,
    VARIANTS,
    After,
    Answer,
    Config,
    ConfirmMiss,
    ConfirmToll,
    Difficulty,
    Mark,
    Move,
    Phase,
    Pile,
    Position,
    Retire,
    Reveal,
    Route,
    RoutePosition,
    Skip,
    State,
    Style,
    Variant,
    absent,
    actors,
    all_cards,
    apply,
    clock_move,
    clocks,
    config_json,
    dump,
    for_room,
    legal_moves,
    load,
    move,
    new,
    odds,
    outcome,
    parse_config,
    parse_move,
    question,
    read_form,
    rematch,
    right,
    route_of,
    seat_of,
    seat_range,
    seats,
    unseen,
    view,
    with_seats,
)
from tapete.games.peaje.guided import GUIDED
from tapete.games.peaje.names import OPTION_TITLES, STEPS, name_param
from tapete.games.protocol import (
    JSON,
    Clock,
    Daily,
    Finished,
    GameSpec,
    Guide,
    Hall,
    Logro,
    Online,
    Quick,
)
from tapete.i18n import N_, Np_

__all__ = [
    "CLOCK_MOVES", "CONFIG", "CONFIRM_MISS", "CONFIRM_TOLL", "COOP_MISSES", "MOVES",
    "NAME_LENGTH", "NO_TOLL", "OPTION_TITLES", "PER_PHONE", "POSITION", "QUESTIONS", "RETIRE",
    "REVEAL",
    "ROUTES", "ROUTE_SIZES", "SHORT_FORM", "SKIP", "SPEC", "STEPS", "STYLES", "TOLL",
    "TOLL_LENGTH", "TOLL_SUGGESTIONS", "VARIANTS", "After", "Answer", "Config", "ConfirmMiss",
    "ConfirmToll", "Difficulty", "Mark", "Move", "Phase", "Pile", "Position", "Retire",
    "Reveal", "Route", "RoutePosition", "Skip", "State", "Style", "Variant", "absent",
    "actors", "all_cards", "apply", "clock_move", "clocks", "config_json", "dump", "for_room",
    "legal_moves", "load", "move", "name_param", "names", "new", "odds", "outcome",
    "parse_config", "parse_move", "question", "read_form", "rematch", "right", "route_of",
    "seat_of", "seat_range", "seats", "unseen", "view", "with_seats",
]  # fmt: skip

from tapete.games import peaje as _rules


def _guide_context() -> JSON:
    from tapete.games.peaje.guide import examples

    return {"examples": examples()}


def _stats(outcome: JSON, seat: int, log: list[tuple[int, JSON]]) -> dict[str, int]:
    """The misses and tolls of the seat's route (one route for all but in turnos rápidos)."""
    misses, tolls = outcome.get("misses") or [0], outcome.get("tolls") or [0]
    route = seat if seat < len(misses) else 0
    return {"misses": int(misses[route]), "tolls": int(tolls[route])}


def _daily(outcome: JSON, seat: int, log: list[tuple[int, JSON]]) -> tuple[bool, int]:
    """The day's deal (solitario): the route finished, and with how many misses."""
    return outcome.get("reason") == "route", int((outcome.get("misses") or [0])[0])


def _clean(f: Finished) -> bool:
    """The route finished without a miss (the seat's own route in turnos rápidos)."""
    misses = f.outcome.get("misses") or [0]
    route = f.seat if f.seat < len(misses) else 0
    return f.outcome.get("reason") == "route" and misses[route] == 0


LOGROS: Final = (
    Logro("peaje.primera", N_("Primera ruta"), N_("Llega al final de una ruta."), "⚑",
          lambda f: int(f.outcome.get("reason") == "route")),
    Logro("peaje.limpia", N_("Ruta limpia"), N_("Termina una ruta sin un solo fallo."), "✔",
          lambda f: int(_clean(f))),
    Logro("peaje.dificil", N_("Difícil y sin fallos"),
          N_("Termina una ruta difícil sin un solo fallo."), "▲",
          lambda f: int(_clean(f) and f.config.difficulty == "dificil")),
    Logro("peaje.peajes", N_("Cliente del peaje"), N_("Cruza {goal} peajes."), "⚠",
          lambda f: len(f.events("toll")), goal=25),
    Logro("peaje.fiesta", N_("De fiesta"), N_("Juega una partida de cuatro o más."), "♪",
          lambda f: int(len(f.bots) >= 4)),
    Logro("peaje.partidas", N_("Habitual del Peaje"), N_("Juega {goal} partidas de El Peaje."),
          "∞", lambda f: 1, goal=25),
)  # fmt: skip
"""El Peaje's logros (:mod:`tapete.logros`)."""


def _deal(config: Config, seed: int) -> JSON:
    """The deal of ``seed`` as a browser redoes it (:attr:`GameSpec.deal`): a deck shuffled
    for each route (one for all but in turnos rápidos), its last card turned up to start."""
    state = new(config, seed)
    several = len(state.routes) > 1
    decks = {f"r{i}": [c.code for c in full_deck()] for i in range(len(state.routes))}
    parts: list[JSON] = []
    for i, route in enumerate(state.routes):
        which = {"n": i + 1}
        parts += [
            {"title": N_("Ruta {n}: primera carta") if several else N_("Primera carta"),
             "params": which, "of": f"r{i}", "take": [51], "cards": [route.cards[0].code]},
            {"title": N_("Ruta {n}: mazo") if several else N_("Mazo"), "params": which,
             "of": f"r{i}", "take": list(range(51)), "cards": [c.code for c in route.deck]},
        ]  # fmt: skip
    return {"decks": decks, "steps": [{"shuffle": name} for name in decks], "parts": parts}


def _replay_reveal(state: State) -> JSON:
    """For a replay: the card the route in play turns next (its deck's last)."""
    deck = route_of(state).deck
    return {"next": deck[-1].code if deck else None}


SPEC: Final = GameSpec[Config, State, Move](
    key="peaje",
    stats=_stats,
    logros=LOGROS,
    daily=Daily(
        config={"variant": "solitario", "difficulty": "media", "toll": NO_TOLL},
        level=None,
        result=_daily,
        line=N_(
            "Solitario, dificultad media, la misma ruta para todos. Cuenta llegar, y con "
            "cuantos menos fallos."
        ),
        unit=Np_("{n} fallo", "{n} fallos"),
    ),
    deal=_deal,
    reveal=_replay_reveal,
    stat_names={"misses": N_("Fallos"), "tolls": N_("Peajes pagados")},
    rules=_rules,
    config=CONFIG,
    moves=MOVES,
    hall=Hall(
        title=N_("El Peaje"),
        line=N_(
            "Mayor o menor, roja o negra, adivina el palo… recorre la ruta y paga "
            "cada peaje. En grupo con un solo móvil, o cada uno con el suyo."
        ),
        who=N_("Solo o en grupo, de 1 a 12, con un móvil o uno cada uno"),
        icon='<span class="ic-card red">?</span><span class="ic-bar">PEAJE</span>',
    ),
    messages={
        "wrong_step": N_("Ahora no toca eso: primero hay que {step}."),
        "bad_answer": N_("Esa respuesta no vale para esta pregunta."),
    },
    params=name_param,
    guide=Guide(
        pages={
            "index": N_("La guía de El Peaje"),
            "como-jugar": N_("Cómo jugar"),
            "situaciones": N_("Tres situaciones"),
            "variantes": N_("Las variantes"),
            "preguntas": N_("Preguntas frecuentes"),
            "calculos": N_("Los cálculos de mayor o menor"),
            "previa": N_("El Peaje en una previa"),
            "responsable": N_("Juego responsable"),
        },
        context=_guide_context,
    ),
    read_form=read_form,
    guided=GUIDED,
    rematch=rematch,
    clocks={"turn": Clock(practice=None, online=None)},
    clock_moves=CLOCK_MOVES,
    online=Online(
        seats=(2, 12),
        with_seats=with_seats,
        turn_clocks=(None, 30.0),
        for_room=for_room,
        seat_range=seat_range,
    ),
    quick=Quick(
        Config(variant="rapidos", difficulty="media", players=2, toll=NO_TOLL, phones=2),
        alone=Config(variant="solitario", difficulty="media", toll=NO_TOLL),
        clock=30.0,
    ),
    absent=absent,
)
"""El Peaje's descriptor."""
