"""One Card's structs: the options, the moves and the position format, as :mod:`msgspec`
reads and writes them. The rules (:mod:`tapete.games.onecard.game`) are kept apart, as
plain classes and functions: a build may compile that module with mypyc (``setup.py``),
which cannot compile a msgspec struct (its class keywords, ``frozen=True``, ``tag=…``, are
lost on the way).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Final, Literal

import msgspec
from msgspec import Meta
from msgspec.structs import force_setattr

from tapete.games import protocol
from tapete.games.onecard.pieces import (
    CARD_VALUES,
    CODES,
    NO_SUIT,
    SUIT_CODES,
    SUIT_VALUES,
    Card,
    FollowCode,
    Pile,
    Suit,
    rank_of,
)
from tapete.games.protocol import JSON, Codec, IllegalMove, Options
from tapete.i18n import N_

HOUSE: Final = "house"
"""The group of the seed's house rules (``extra={"group": HOUSE}``): the setup page lists
them together."""


# --- options ---------------------------------------------------------------------------


def _house(title: str, hint: str) -> Meta:
    return Meta(title=title, extra={"group": HOUSE, "hint": hint})


class Config(Options, frozen=True):
    """2–4 players; the house rules of the seed's last section, all off by default."""

    players: Annotated[int, Meta(ge=2, le=4, title=N_("Jugadores"))] = 2
    two_attack: Annotated[
        bool, _house(N_("El 2 ataca con +2"), N_("Solo se pasa con otro 2."))
    ] = False  # fmt: skip
    jokers: Annotated[
        bool,
        _house(
            N_("Comodines: +5"),
            N_("Dos cartas más en la baraja: van sobre cualquier carta y atacan con +5."),
        ),
    ] = False
    king_again: Annotated[
        bool,
        _house(N_("El rey vuelve a jugar"), N_("No ataca: quien lo echa juega otra vez.")),
    ] = False
    three_blocks: Annotated[
        bool,
        _house(N_("El 3 para un ataque"), N_("Si es del palo de la carta que ataca.")),
    ] = False
    no_special_finish: Annotated[
        bool,
        _house(
            N_("No se termina con carta especial"),
            N_("La última carta no puede ser un 7, J, Q, K o A."),
        ),
    ] = False
    penalty: Annotated[
        int,
        Meta(
            ge=1, le=5, title=N_("Cartas por no avisar"),
            extra={"group": HOUSE, "hint": N_("Las que roba quien es pillado sin avisar.")},
        ),
    ] = 2  # fmt: skip
    """Cards drawn by a seat caught without calling (2; the table may agree on 1–5)."""

    def attack_value(self, c: int) -> int:
        r = rank_of(c)
        if r == 0:
            return 5 if self.jokers else 0
        if r == 14:
            return 3
        if r == 13:
            return 0 if self.king_again else 2
        if r == 2 and self.two_attack:
            return 2
        return 0

    def special(self, c: int) -> bool:
        r = rank_of(c)
        return (
            r in (0, 7, 11, 12, 13, 14)
            or (r == 2 and self.two_attack)
            or (r == 3 and self.three_blocks)
        )


OPTIONS: Final = ("two_attack", "jokers", "king_again", "three_blocks", "no_special_finish")
"""The house rules that switch on, in the seed's order."""
CONFIG: Final = Codec[Config](Config, error="bad_config")
parse_config = CONFIG.decode
config_json = CONFIG.encode


def seats(config: Config) -> int:
    return config.players


# --- moves -----------------------------------------------------------------------------


class Play(protocol.Move, frozen=True, tag="play", omit_defaults=True):
    """Play ``card``; a 7 names the next ``suit`` (0..3; -1, none, for any other card,
    and left out on the wire).

    Built in code from plain integers (``Play(card("7H"), 3)``) they become a
    :class:`Card` and a :class:`Suit`.
    """

    card: Card
    suit: Suit = NO_SUIT

    if TYPE_CHECKING:  # what code may build it from (``__post_init__`` makes the types)

        def __init__(self, card: int, suit: int = -1) -> None: ...

    def __post_init__(self) -> None:
        c, s = self.card, self.suit
        if type(c) is not Card:
            if type(c) is not int or not 0 <= c < 54:
                raise IllegalMove("bad_move", field="card")
            force_setattr(self, "card", CARD_VALUES[c])
        if s >= 0 and (c >= 52 or c % 13 != 5):
            raise IllegalMove("bad_move", field="suit")
        if type(s) is int and -1 <= s < 4:
            force_setattr(self, "suit", SUIT_VALUES[s] if s >= 0 else NO_SUIT)

    def __str__(self) -> str:
        return CODES[self.card] + (f"/{SUIT_CODES[self.suit]}" if self.suit >= 0 else "")


class Draw(protocol.Move, frozen=True, tag="draw"):
    """Draw: one card when nothing fits, or every card of the attack."""


class Call(protocol.Move, frozen=True, tag="call"):
    """«One Card»: with two cards, or right after the play that left one."""


Seat = Annotated[int, Meta(ge=0, le=3)]


class Catch(protocol.Move, frozen=True, tag="catch"):
    """Catch ``target``, left with one card without calling: they draw the penalty."""

    target: Seat

    def __str__(self) -> str:
        return f"catch/{self.target}"


class CloseWindow(protocol.Move, frozen=True, tag="close_window"):
    """Clock move: the catch window on ``target`` has run out."""

    target: Seat

    def __str__(self) -> str:
        return f"close_window/{self.target}"


class Timeout(protocol.Move, frozen=True, tag="timeout"):
    """Clock move: the seat to play let its time run out."""


Move = Play | Draw | Call | Catch | CloseWindow | Timeout
CLOCK_MOVES: Final = frozenset({"close_window", "timeout"})
"""Move types only the room applies, when a clock says so; refused from clients."""

PLAYS: Final = [Play(c) for c in range(54)]
SEVENS: Final = {c: [Play(c, s) for s in range(4)] for c in range(52) if rank_of(c) == 7}
DRAW: Final = Draw()
CALL: Final = Call()
CATCHES: Final = [Catch(i) for i in range(4)]
WINDOWS: Final = [CloseWindow(i) for i in range(4)]
TIMEOUT: Final = Timeout()
CARD_MOVES: Final = tuple(
    tuple(SEVENS[c]) if c < 52 and c % 13 == 5 else (PLAYS[c],) for c in range(54)
)
"""The plays of each card: a 7 once per suit."""


def _named(m: Move) -> None:
    """What a sender must say: a 7 played names the next suit."""
    if type(m) is Play and m.suit < 0 and m.card < 52 and m.card % 13 == 5:
        raise IllegalMove("seven_needs_suit")


MOVES: Final = Codec[Move](Move, check=_named)
parse_move = move = MOVES.decode
"""A move from JSON, refusing anything else (``bad_move``, ``unknown_move``,
``seven_needs_suit``); ``move(repr(m))`` round-trips."""


# --- positions -------------------------------------------------------------------------


class Position(msgspec.Struct, kw_only=True):
    """The position format (docs/positions.md): what :func:`dump` writes and :func:`load`
    reads. Only ``hands`` and ``discard`` are required; a field left out takes its default,
    ``None`` one derived from the others (the suit of the top card; a value per seat)."""

    game: Literal["onecard"] = "onecard"
    config: dict[str, Any] = {}
    """The options (``players`` is the number of ``hands``)."""
    hands: list[Pile]
    stock: Pile = ""
    discard: Pile
    turn: int = 0
    direction: Literal[1, -1] = 1
    suit: FollowCode | None = None
    attack: Annotated[int, Meta(ge=0)] = 0
    called: list[bool] | None = None
    exposed: list[int] = []
    turns: int = 1
    timeouts: list[int] | None = None
    voids: list[int] | None = None
    seen: list[int] | None = None
    log: list[JSON] = []
    rng: int = 0
    result: JSON | None = None


POSITIONS: Final = Codec[Position](Position)
