"""One Card: the Korean Uno-like game with a French deck. Its pieces (``pieces``: the cards
of :mod:`tapete.cards` as the engine's integers, and the jokers), the rules, pure
(``game``), a refusal's parameters in words (``names``), and here its descriptor
(:data:`SPEC`); the package itself is the rules module (``SPEC.rules``).
"""

from collections.abc import Callable
from typing import Final

from tapete.games.onecard import names
from tapete.games.onecard.built import COMPILED  # (before .game: it picks the rules' module)
from tapete.games.onecard.game import (
    FIT_TABLES,
    HAND_SIZE,
    TURN_LIMIT,
    State,
    actors,
    all_cards,
    apply,
    clock_move,
    clocks,
    cut,
    dump,
    fit_mask,
    fit_row,
    legal_moves,
    load,
    new,
    outcome,
    playable,
    view,
)
from tapete.games.onecard.guide import GUIDED
from tapete.games.onecard.names import A_RANK, card_words, name_param
from tapete.games.onecard.pieces import (
    ANY_SUIT,
    CODES,
    JOKER_CODES,
    JOKERS,
    NO_SUIT,
    RANK_CODES,
    SUIT_CODES,
    SUIT_SYMBOLS,
    Card,
    FollowCode,
    Pile,
    Suit,
    card,
    cards,
    code,
    fmt,
    rank_of,
    suit_of,
)
from tapete.games.onecard.structs import (
    CALL,
    CATCHES,
    CLOCK_MOVES,
    CONFIG,
    DRAW,
    HOUSE,
    MOVES,
    OPTIONS,
    PLAYS,
    POSITIONS,
    SEVENS,
    TIMEOUT,
    WINDOWS,
    Call,
    Catch,
    CloseWindow,
    Config,
    Draw,
    Move,
    Play,
    Position,
    Seat,
    Timeout,
    config_json,
    move,
    parse_config,
    parse_move,
    seats,
)
from tapete.games.protocol import (
    JSON,
    Clock,
    Daily,
    Finished,
    GameSpec,
    Hall,
    Logro,
    Online,
    PassAndPlay,
    Quick,
    players_field,
)
from tapete.i18n import N_, Np_
from tapete.rng import Rng

__all__ = [
    "ANY_SUIT", "A_RANK", "CALL", "CATCHES", "CLOCK_MOVES", "COMPILED", "CONFIG", "DRAW",
    "FIT_TABLES", "HAND_SIZE", "HOUSE", "JOKERS", "JOKER_CODES", "MOVES", "NO_SUIT", "OPTIONS",
    "PLAYS", "POSITIONS", "RANK_CODES", "SEVENS", "SPEC", "SUIT_CODES", "SUIT_SYMBOLS", "TIMEOUT",
    "TURN_LIMIT", "WINDOWS", "Call", "Card", "Catch", "CloseWindow", "Config", "Draw",
    "FollowCode", "Move", "Pile", "Play", "Position", "Seat", "State", "Suit", "Timeout", "actors",
    "all_cards", "apply", "card", "card_words", "cards", "clock_move", "clocks", "code",
    "config_json", "cut", "dump", "fit_mask", "fit_row", "fmt", "legal_moves", "load", "move",
    "name_param", "names", "new", "outcome", "parse_config", "parse_move", "playable", "rank_of",
    "seats", "suit_of", "view",
]  # fmt: skip

from tapete.games import onecard as _rules


def _places(outcome: JSON) -> list[int]:
    """For the ratings (RULES.md «Quick play»): the winner first, the others tied second —
    the game ends at the first empty hand, so the cards left behind rank nothing.

    >>> _places({"winner": 2, "left": [3, 5, 0], "ranks": [2, 3, 1]})
    [2, 2, 1]
    """
    return [1 if seat == outcome["winner"] else 2 for seat in range(len(outcome["left"]))]


def _stats(outcome: JSON, seat: int, log: list[tuple[int, JSON]]) -> dict[str, int]:
    """Catches made by the seat, and suffered by it (from the log: every catch is a move)."""
    catches = [(by, move.get("target")) for by, move in log if move.get("type") == "catch"]
    return {
        "caught": sum(by == seat for by, _ in catches),
        "was_caught": sum(target == seat for _, target in catches),
    }


def _daily(outcome: JSON, seat: int, log: list[tuple[int, JSON]]) -> tuple[bool, int]:
    """The day's deal: won, and in how many turns (cards played and draws: not the race)."""
    turns = sum(1 for by, move in log if by == seat and move.get("type") in ("play", "draw"))
    return outcome.get("winner") == seat, turns


def _beat(level: str) -> Callable[[Finished], int]:
    return lambda f: int(f.won and level in f.bots)


LOGROS: Final = (
    Logro("onecard.primera", N_("Primera victoria"), N_("Gana una partida de One Card."), "♠",
          lambda f: int(f.won)),
    Logro("onecard.diez", N_("Diez victorias"), N_("Gana {goal} partidas de One Card."), "★",
          lambda f: int(f.won), goal=10),
    Logro("onecard.partidas", N_("Habitual de One Card"), N_("Juega {goal} partidas de One Card."),
          "∞", lambda f: 1, goal=50),
    Logro("onecard.dificil", N_("Más que difícil"), N_("Gana a un bot difícil."), "♜",
          _beat("dificil")),
    Logro("onecard.maestro", N_("Al maestro"), N_("Gana a un bot maestro."), "♛",
          _beat("maestro")),
    Logro("onecard.ataque", N_("Ataque de +8"),
          N_("Lleva un ataque a +8 o más con una carta tuya, y gana la partida."), "⚔",
          lambda f: int(f.won and any(e.get("attack", 0) >= 8 for e in f.events("play", f.seat)))),
    Logro("onecard.pillado", N_("¡Pillado!"), N_("Pilla a quien se olvidó de cantar «¡Una!»."),
          "☝", lambda f: int(any(e.get("by") == f.seat for e in f.events("caught")))),
    Logro("onecard.sin_robar", N_("Sin robar"), N_("Gana una partida sin robar ni una carta."),
          "✦", lambda f: int(f.won and not f.events("draw", f.seat))),
)  # fmt: skip
"""One Card's logros (:mod:`tapete.logros`)."""


def _deal(config: Config, seed: int) -> JSON:
    """The deal of ``seed`` as a browser redoes it (:attr:`GameSpec.deal`): the deck shuffled
    (again, in the rare case its stock had no card to open with), seven cards each from its
    start, the stock after them, the first discard from the stock; then who starts."""
    state = new(config, seed)
    rng = Rng.from_seed(seed)
    _, found, times = cut(config, rng)
    n, dealt = config.players, config.players * HAND_SIZE
    size = 54 if config.jokers else 52
    stock = [i for i in range(dealt, size) if i != dealt + found]
    hands = [
        {"seat": s, "title": N_("Mano de {name}"), "yours": N_("Tu mano"), "of": "deck",
         "take": list(range(s * HAND_SIZE, (s + 1) * HAND_SIZE)),
         "cards": [code(c) for c in state.hands[s]]}
        for s in range(n)
    ]  # fmt: skip
    return {
        "decks": {"deck": [code(c) for c in range(size)]},
        "steps": [{"shuffle": "deck"}] * times
        + [{"below": n, "want": state.turn, "title": N_("Empieza {name}"),
            "yours": N_("Empiezas tú"), "seat": state.turn}],
        "parts": [
            *hands,
            {"title": N_("Primera carta boca arriba"), "of": "deck", "take": [dealt + found],
             "cards": [code(state.discard[0])]},
            {"title": N_("Mazo"), "of": "deck", "take": stock,
             "cards": [code(c) for c in state.stock]},
        ],
    }  # fmt: skip


def _reveal(state: State) -> JSON:
    """For a replay: every hand, in the order a hand is shown; the stock's next card."""
    return {
        "hands": [[CODES[c] if 0 <= c < 54 else code(c) for c in sorted(h)] for h in state.hands],
        "next": code(state.stock[-1]) if state.stock else None,
    }


def _holder(state: State) -> int | None:
    """On one device: the hand shown is the turn's player's (nobody's once it is over)."""
    return state.turn if state.result is None else None


SPEC: Final = GameSpec[Config, State, Move](
    key="onecard",
    stats=_stats,
    logros=LOGROS,
    pass_and_play=PassAndPlay(holder=_holder),
    guided=GUIDED,
    daily=Daily(
        config={"players": 2},
        level="dificil",
        result=_daily,
        line=N_("Mano a mano contra un bot difícil. Cuenta ganar, y en cuantas menos jugadas."),
        unit=Np_("{n} jugada", "{n} jugadas"),
    ),
    deal=_deal,
    reveal=_reveal,
    stat_names={"caught": N_("«¡Pillado!» cantados"), "was_caught": N_("Veces pillado")},
    rules=_rules,
    config=CONFIG,
    moves=MOVES,
    hall=Hall(
        title=N_("One Card"),
        line=N_(
            "El juego coreano parecido al Uno con baraja francesa: ataques con reyes y "
            "ases, el 7 cambia el palo y hay que cantar «One Card»."
        ),
        who=N_("De 2 a 4 jugadores, contra bots de fácil a maestro"),
        icon='<span class="ic-card">A♠</span><span class="ic-card red">7♦</span>',
    ),
    messages={
        "not_in_hand": N_("No tienes {card}."),
        "no_match": N_("{card} no sirve: hay que echar {suit} o {rank}."),
        "must_answer_attack": N_(
            "Te atacan con +{attack}: solo puedes pasar el ataque con otro {attacker}, o robar."
        ),
        "must_play": N_("Tienes una carta que puedes echar: no se puede robar."),
        "must_pass_attack": N_("Tienes una carta para pasar el ataque: no se puede robar."),
        "seven_needs_suit": N_("Al echar un 7 hay que elegir palo."),
        "special_finish": N_("No se puede terminar con una carta especial (regla de la casa)."),
        "cannot_call": N_(
            "Solo puedes cantar «One Card» con dos cartas o justo al quedarte con una."
        ),
        "nothing_to_catch": N_("No hay nadie a quien pillar."),
        "no_window": N_("No hay plazo abierto."),
    },
    clocks={"turn": Clock(practice=None, online=30.0), "window": Clock(practice=3.0, online=3.0)},
    online=Online(seats=(2, 4), with_seats=players_field),
    quick=Quick(Config(), places=_places),
    clock_moves=CLOCK_MOVES,
    timeouts=lambda state: list(state.timeouts),
    params=name_param,
)
"""One Card's descriptor."""
