"""El Peaje: the rules, pure — options, moves, the state, ``apply``, the odds, what a seat
sees, positions and clocks.

The route has numbered positions (questions) and tolls between some of them. Position 0
holds the initial card; the reference of position k is the card standing on k−1. A hit
puts the revealed card on the position and advances; a miss removes the revealed card,
counts, and steps back one position, taking away the card that stood there. Crossing a
toll, either way, stops the game until the toll is confirmed.

Practice is played on one device, so there is one seat (0); the players are names in the
config and the state knows whose turn it is. Among friends in a private room each player
may have a phone of their own (``phones``): then player p sits at seat p, and in La patata
the participants without a phone (numbers past the phones) answer aloud and the host's
phone (seat 0) records it. Dos jugadores: seat 0 answers aloud, seat 1 reveals and marks.

>>> s = load({"deck": "6D 10C", "cards": ["6H"], "config": {"difficulty": "media"}})
>>> [str(m) for m in legal_moves(s, 0)]
['answer/mayor', 'answer/menor']
>>> [e["t"] for e in apply(s, 0, Answer("mayor"))]
['reveal', 'hit']
>>> s.routes[0].pos, [str(c) for c in s.routes[0].cards]
(2, ['6♥', '10♣'])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Any, Final, Literal, cast

import msgspec
from msgspec import Meta
from msgspec.structs import force_setattr

from tapete.cards import SUITS, Card, format_cards, full_deck, parse_cards
from tapete.games.names import clean_text
from tapete.games.protocol import JSON, Codec, Event, IllegalMove, Options
from tapete.games.protocol import Move as MoveBase
from tapete.i18n import N_
from tapete.rng import Rng

QUESTIONS: Final = {
    "mayor_menor": ("mayor", "menor"),
    "redonda_picuda": ("redonda", "picuda"),
    "roja_negra": ("roja", "negra"),
    "palo": ("corazones", "diamantes", "treboles", "picas"),
}
"""Each question's answers (codes), in the order they are offered; the suit answers follow
the suits of :data:`tapete.cards.SUITS` (♥ ♦ ♣ ♠)."""
TOLL: Final = "PEAJE"
ROUTES: Final = {
    "facil": ("mayor_menor", TOLL, "roja_negra", "palo"),
    "media": ("mayor_menor", "redonda_picuda", TOLL, "roja_negra", "palo"),
    "dificil": ("mayor_menor", "redonda_picuda", TOLL, "roja_negra", TOLL, "palo"),
}
VARIANTS: Final = {
    "solitario": (1, 1),
    "dos": (2, 2),
    "rapidos": (2, 4),
    "cooperativo": (2, 8),
    "patata": (2, 12),
}
"""Each variant with its fewest and most players."""
COOP_MISSES: Final = 6
STYLES: Final = ("clasico", "cuatro_colores", "alto_contraste")
TOLL_SUGGESTIONS: Final = (
    N_("un punto"),
    N_("un vaso de agua"),
    N_("una pregunta"),
    N_("un reto breve"),
)
"""Safe tolls the setup page offers (message ids: shown in the player's language); the
first is the default. Never alcohol."""
NO_TOLL: Final = N_("nada")
"""The toll strangers play with (RULES.md «Quick play»: they agree on nothing): the route's
tolls stop the game and are counted, and nothing is paid."""
TOLL_LENGTH: Final = 80
"""The longest toll text."""
NAME_LENGTH: Final = 24
"""A player's name, at most (as a room's)."""


Variant = Literal["solitario", "dos", "rapidos", "cooperativo", "patata"]
Difficulty = Literal["facil", "media", "dificil"]
Style = Literal["clasico", "cuatro_colores", "alto_contraste"]
Phase = Literal["answer", "reveal", "mark", "miss", "toll", "over"]
After = Literal["answer", "next"]
"""What follows a toll: the same player answers, or the next player's turn."""


ROUTE_SIZES: Final = {
    d: {"questions": sum(s != TOLL for s in r), "tolls": r.count(TOLL)} for d, r in ROUTES.items()
}
"""How many questions and tolls each difficulty's route has (the setup page says it)."""


class Config(Options, frozen=True):
    variant: Annotated[
        Variant,
        Meta(title=N_("Variante"), extra={"players": VARIANTS, "misses": COOP_MISSES}),
    ] = "solitario"
    difficulty: Annotated[
        Difficulty,
        Meta(title=N_("Dificultad"), extra={"routes": ROUTE_SIZES}),
    ] = "facil"
    players: Annotated[tuple[str, ...] | int, Meta(title=N_("Jugadores"))] = ("",)
    """The players' names (blank ones allowed), or just how many they are."""
    toll: Annotated[
        str,
        Meta(
            title=N_("El peaje"),
            min_length=1,
            max_length=TOLL_LENGTH,
            extra={"suggestions": TOLL_SUGGESTIONS, "max_length": TOLL_LENGTH},
        ),
    ] = TOLL_SUGGESTIONS[0]
    style: Annotated[Style, Meta(title=N_("Estilo de cartas"))] = "clasico"
    phones: Annotated[int, Meta(ge=0, le=12, title=N_("Móviles"))] = 0
    """0: one phone passed around (practice). Else a private room with this many phones, one
    per player (La patata: at least two, at most one per participant)."""

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names (a count given is blank names by now)."""
        assert isinstance(self.players, tuple)
        return self.players

    def __post_init__(self) -> None:
        players = self.players
        if isinstance(players, int):
            players = ("",) * players
        low, high = VARIANTS[self.variant]
        if not low <= len(players) <= high:
            raise ValueError(f"players: {low}–{high}")
        force_setattr(self, "players", tuple(clean_text(p, NAME_LENGTH) for p in players))
        toll = clean_text(self.toll, TOLL_LENGTH)
        if not toll:
            raise ValueError("toll: empty")
        force_setattr(self, "toll", toll)
        if self.phones:
            fits = (
                2 <= self.phones <= len(players)
                if self.variant == "patata"
                else self.phones == len(players) and self.variant != "solitario"
            )
            if not fits:
                raise ValueError("phones: one per player")

    @property
    def route(self) -> tuple[str, ...]:
        return ROUTES[self.difficulty]

    @property
    def questions(self) -> list[str]:
        """The route's questions, position 1 first."""
        return [q for q in self.route if q != TOLL]

    @property
    def tolls_after(self) -> frozenset[int]:
        """Positions p with a toll between p and p+1."""
        out, pos = set(), 0
        for step in self.route:
            if step == TOLL:
                out.add(pos)
            else:
                pos += 1
        return frozenset(out)


CONFIG: Final = Codec[Config](Config, error="bad_config")
parse_config = CONFIG.decode
config_json = CONFIG.encode


def seats(config: Config) -> int:
    """One seat for the phone passed around; in a room one per phone."""
    return config.phones or 1


def seat_of(config: Config, player: int) -> int:
    """The seat that acts for ``player``: their own phone, else the one phone (seat 0; in La
    patata the host's phone records the participants without one).

    >>> seat_of(Config(variant="patata", players=5, phones=3), 4)
    0
    """
    return player if player < config.phones else 0


PER_PHONE: Final = {
    "dos": (2, 2),
    "rapidos": (2, 4),
    "cooperativo": (2, 8),
    "patata": (2, 12),
}
"""The phones a room of each variant may have (solitario has no room)."""


def for_room(config: Config) -> Config:
    """The options as a private room plays them: a phone for each player (La patata: each
    participant, until the host says fewer have one). Solitario has no room
    (``bad_config``, the variant).

    >>> for_room(Config(variant="cooperativo", players=3)).phones
    3
    """
    if config.variant == "solitario":
        raise IllegalMove("bad_config", field="variant")
    if config.phones:
        return config
    return with_seats(config, len(config.names))


def with_seats(config: Config, n: int) -> Config:
    """The options for ``n`` phones: one player each (La patata keeps its participants if
    there are more). Refused (``bad_config``) where the variant does not allow ``n``."""
    names = list(config.names)
    if config.variant != "patata" or len(names) < n:
        names = (names + [""] * n)[:n]
    return CONFIG.decode(config_json(config) | {"players": names, "phones": n})


def seat_range(config: Config) -> tuple[int, int]:
    """How many phones a room with these options may have."""
    return PER_PHONE.get(config.variant, (2, 2))


# --- moves -----------------------------------------------------------------------------


class Answer(MoveBase, frozen=True, tag="answer"):
    """Answer the current question; the app reveals the next card and checks it."""

    choice: str
    """An answer code of the question (``mayor``, ``treboles``…); another is refused by
    the rules (``bad_answer``), not by the codec."""

    def __str__(self) -> str:
        return f"answer/{self.choice}"


class Reveal(MoveBase, frozen=True, tag="reveal"):
    """Dos jugadores: the validator turns the next card (the answer was said aloud)."""


class Mark(MoveBase, frozen=True, tag="mark"):
    """Dos jugadores: the validator marks the answer right or wrong; the mark counts."""

    hit: bool

    def __str__(self) -> str:
        return f"mark/{'hit' if self.hit else 'miss'}"


class ConfirmMiss(MoveBase, frozen=True, tag="confirm_miss"):
    """The miss was seen: step back (and maybe cross a toll)."""


class ConfirmToll(MoveBase, frozen=True, tag="confirm_toll"):
    """The toll was paid."""


class Skip(MoveBase, frozen=True, tag="skip"):
    """The player in turn let the clock run out, or is away among friends: only the room
    sends it. On a question the turn passes to the next player (their route, in turnos
    rápidos, stays as it is); on a miss, the miss is confirmed for them."""


class Retire(MoveBase, frozen=True, tag="retire"):
    """Turnos rápidos: the player in turn left the room; their route ends, out (RULES.md,
    «Leaving»). Only the room sends it."""


Move = Answer | Reveal | Mark | ConfirmMiss | ConfirmToll | Skip | Retire
REVEAL: Final = Reveal()
CONFIRM_MISS: Final = ConfirmMiss()
CONFIRM_TOLL: Final = ConfirmToll()
SKIP: Final = Skip()
RETIRE: Final = Retire()
CLOCK_MOVES: Final = frozenset({"skip", "retire"})
"""Move types only the room sends (a clock running out, a player away)."""
MOVES: Final = Codec[Move](Move)
parse_move = move = MOVES.decode
"""A move from JSON; ``move(repr)`` round-trips:

>>> move({"type": "answer", "choice": "mayor"})
move({'type': 'answer', 'choice': 'mayor'})
>>> str(move({"type": "mark", "hit": False}))
'mark/miss'
"""


# --- state -----------------------------------------------------------------------------


@dataclass(slots=True)
class Route:
    """One player's (or the group's) route: its deck, the cards earned, where it stands."""

    deck: list[Card]
    """The next card revealed is the end of the list."""
    cards: list[Card]
    """cards[0] is the initial card; cards[k] the card earned on position k."""
    misses: int = 0
    tolls: int = 0
    revealed: list[Card] = field(default_factory=list)
    """Every card turned on this route, in order (hits and misses)."""
    out: bool = False
    done: bool = False
    last: JSON | None = None
    """This route's last reveal (kept with the route: turnos rápidos hand it back as it was)."""

    @property
    def pos(self) -> int:
        """The position whose question is asked now (1-based)."""
        return len(self.cards)


@dataclass(slots=True)
class State:
    config: Config
    routes: list[Route]
    rng: Rng
    current: int = 0
    """The player whose turn it is (an index into config.players)."""
    phase: str = "answer"
    """answer | mark (dos jugadores) | miss (confirm it) | toll (confirm it) | over"""
    last: JSON | None = None
    """The last reveal: the card, the question, the answer, hit or miss."""
    toll: JSON | None = None
    """The toll to confirm: its direction and, in La patata, who pays."""
    after_toll: str = "answer"
    turns: int = 0
    result: JSON | None = None


def new(config: Config, seed: int) -> State:
    """Shuffle a deck for the route (one per player in turnos rápidos) and turn the first
    card up."""
    rng = Rng.from_seed(seed)
    n = len(config.names) if config.variant == "rapidos" else 1
    routes = []
    for _ in range(n):
        deck = rng.shuffled(full_deck())
        first = deck.pop()
        routes.append(Route(deck=deck, cards=[first]))
    return State(config=config, routes=routes, rng=rng, phase=_ask(config))


def _ask(config: Config) -> Phase:
    return "reveal" if config.variant == "dos" else "answer"


def route_of(state: State) -> Route:
    return state.routes[state.current if state.config.variant == "rapidos" else 0]


def question(state: State) -> str:
    return state.config.questions[route_of(state).pos - 1]


def actors(state: State) -> list[int]:
    """Who acts now: the one phone; with a phone each, the player in turn (dos jugadores:
    the validator, seat 1, reveals, marks and confirms the miss), and anyone for a toll
    (whoever sees it paid confirms it)."""
    config = state.config
    if state.result is not None:
        return []
    if not config.phones:
        return [0]
    if state.phase == "toll":
        return list(range(config.phones))
    if config.variant == "dos":
        return [1]
    return [seat_of(config, state.current)]


def legal_moves(state: State, seat: int) -> list[Move]:
    if seat not in actors(state):
        return []
    if state.phase == "answer":
        return [Answer(c) for c in QUESTIONS[question(state)]]
    if state.phase == "reveal":
        return [REVEAL]
    if state.phase == "mark":
        return [Mark(True), Mark(False)]
    if state.phase == "miss":
        return [CONFIRM_MISS]
    if state.phase == "toll":
        return [CONFIRM_TOLL]
    return []


def right(q: str, reference: Card, card: Card) -> set[str]:
    """The answers ``card`` makes right for question ``q`` (none for a tie in mayor o menor).

    >>> sorted(right("mayor_menor", Card.parse("6H"), Card.parse("6D")))
    []
    """
    if q == "mayor_menor":
        if card.rank > reference.rank:
            return {"mayor"}
        return {"menor"} if card.rank < reference.rank else set()
    if q == "redonda_picuda":
        return {"redonda" if card.round else "picuda"}
    if q == "roja_negra":
        return {"roja" if card.red else "negra"}
    return {QUESTIONS["palo"][SUITS.index(card.suit)]}


def apply(state: State, seat: int, move: Move) -> list[Event]:
    if state.result is not None:
        raise IllegalMove("game_over")
    if seat not in actors(state):
        raise IllegalMove("not_your_turn")
    if isinstance(move, Skip):
        return _skip(state)
    if isinstance(move, Retire):
        return _retire(state)
    if isinstance(move, Answer):
        if state.phase != "answer":
            raise IllegalMove("wrong_step", step=state.phase)
        q = question(state)
        if move.choice not in QUESTIONS[q]:
            raise IllegalMove("bad_answer", question=q)
        return _reveal(state, answer=move.choice)
    if isinstance(move, Reveal):
        if state.phase != "reveal":
            raise IllegalMove("wrong_step", step=state.phase)
        return _reveal(state, answer=None)
    if isinstance(move, Mark):
        if state.phase != "mark":
            raise IllegalMove("wrong_step", step=state.phase)
        assert state.last is not None
        state.last["hit"] = move.hit
        events: list[Event] = [{"t": "mark", "hit": move.hit}]
        _settle(state, move.hit, events)
        return events
    if isinstance(move, ConfirmMiss):
        if state.phase != "miss":
            raise IllegalMove("wrong_step", step=state.phase)
        return _step_back(state)
    if isinstance(move, ConfirmToll):
        if state.phase != "toll":
            raise IllegalMove("wrong_step", step=state.phase)
        route_of(state).tolls += 1
        events = [{"t": "toll_paid", "player": state.current, **(state.toll or {})}]
        state.toll = None
        nxt = state.after_toll
        if nxt == "next":
            _next_player(state, events)
        else:
            state.phase = _ask(state.config)
        return events
    raise IllegalMove("unknown_move")


def _skip(state: State) -> list[Event]:
    """A turn nobody played (see :class:`Skip`)."""
    if state.phase == "miss":
        return _step_back(state)
    if state.phase != "answer" or state.config.variant in ("solitario", "dos"):
        raise IllegalMove("wrong_step", step=state.phase)
    events: list[Event] = [{"t": "skipped", "player": state.current}]
    _next_player(state, events)
    return events


def _retire(state: State) -> list[Event]:
    if state.config.variant != "rapidos" or state.phase not in ("answer", "miss"):
        raise IllegalMove("wrong_step", step=state.phase)
    events: list[Event] = [{"t": "retired", "player": state.current}]
    _out(state, events)
    return events


def absent(state: State, seat: int, gone: bool) -> Move | None:
    """What the room plays for ``seat`` while its player is away among friends (``gone``:
    they left the room): their turn is skipped, and a miss of theirs confirmed; in turnos
    rápidos one who left is out, their route ended. Dos jugadores waits for both phones,
    and a toll for whoever is there."""
    if state.config.variant == "dos" or state.phase not in ("answer", "miss"):
        return None
    if seat not in actors(state):
        return None
    return RETIRE if gone and state.config.variant == "rapidos" else SKIP


def _reveal(state: State, answer: str | None) -> list[Event]:
    route = route_of(state)
    q = question(state)
    if not route.deck:  # asking for a card from an empty deck ends that route
        return _deck_empty(state)
    card = route.deck.pop()
    route.revealed.append(card)
    reference = route.cards[-1]
    ok = right(q, reference, card)
    state.last = {
        "player": state.current, "question": q, "reference": reference.code, "card": card.code,
        "answer": answer, "right": sorted(ok), "pos": route.pos,
        "hit": (answer in ok) if answer is not None else None,
    }  # fmt: skip
    route.last = state.last
    events: list[Event] = [{"t": "reveal", **state.last}]
    if answer is None:
        state.phase = "mark"
        return events
    _settle(state, answer in ok, events)
    return events


def _settle(state: State, hit: bool, events: list[Event]) -> None:
    """After a reveal is judged: a hit advances (maybe over a toll); a miss waits to be
    confirmed."""
    route = route_of(state)
    assert state.last is not None
    card = Card.parse(state.last["card"])
    if not hit:
        route.misses += 1
        events.append({"t": "miss", "misses": route.misses})
        state.phase = "miss"
        return
    pos = route.pos
    route.cards.append(card)
    events.append({"t": "hit", "pos": pos})
    if pos == len(state.config.questions):
        route.done = True
        _finish(state, state.current, "route", events)
        return
    after: After = "answer" if state.config.variant in ("solitario", "dos", "rapidos") else "next"
    if pos in state.config.tolls_after:
        _open_toll(state, "forward", after, events)
    elif after == "next":
        _next_player(state, events)
    else:
        state.phase = _ask(state.config)


def _step_back(state: State) -> list[Event]:
    route = route_of(state)
    events: list[Event] = [{"t": "miss_confirmed", "misses": route.misses}]
    if state.config.variant == "cooperativo" and route.misses >= COOP_MISSES:
        _finish(state, None, "misses", events)
        return events
    pos = route.pos
    crossed = False
    if pos > 1:
        route.cards.pop()  # the card on pos-1 must be earned again
        crossed = (pos - 1) in state.config.tolls_after
        events.append({"t": "back", "pos": pos - 1})
    after: After = "answer" if state.config.variant in ("solitario", "dos") else "next"
    if crossed:
        _open_toll(state, "back", after, events)
    elif after == "next":
        _next_player(state, events)
    else:
        state.phase = _ask(state.config)
    return events


def _open_toll(state: State, direction: str, after: After, events: list[Event]) -> None:
    toll: JSON = {"direction": direction}
    if state.config.variant == "patata":
        toll["payer"] = state.rng.below(len(state.config.names)) + 1
    state.toll = toll
    state.after_toll = after
    state.phase = "toll"
    events.append({"t": "toll", **toll})


def _next_player(state: State, events: list[Event]) -> None:
    n = len(state.config.names)
    if state.config.variant == "rapidos":
        for step in range(1, n + 1):
            cand = (state.current + step) % n
            if not state.routes[cand].out:
                state.current = cand
                break
    else:
        state.current = (state.current + 1) % n
    state.turns += 1
    state.phase = _ask(state.config)
    events.append({"t": "turn", "player": state.current})


def _deck_empty(state: State) -> list[Event]:
    events: list[Event] = [{"t": "deck_empty", "player": state.current}]
    if state.config.variant != "rapidos":
        _finish(state, None, "deck", events)
        return events
    _out(state, events)
    return events


def _out(state: State, events: list[Event]) -> None:
    """Turnos rápidos: the player in turn is out (their route ends); the next one plays,
    or, all out, nobody wins."""
    route_of(state).out = True
    if all(r.out for r in state.routes):
        _finish(state, None, "all_out", events)
    else:
        _next_player(state, events)


def _finish(state: State, winner: int | None, reason: str, events: list[Event]) -> None:
    state.phase = "over"
    state.result = {
        "winner": winner,
        "reason": reason,
        "misses": [r.misses for r in state.routes],
        "tolls": [r.tolls for r in state.routes],
        "used": [len(r.revealed) for r in state.routes],
    }
    events.append({"t": "end", **state.result})


def outcome(state: State) -> JSON | None:
    return state.result


# --- odds ------------------------------------------------------------------------------


def unseen(route: Route) -> list[Card]:
    """The cards this route has not shown: its deck, as far as anybody can know."""
    seen = set(route.revealed) | set(route.cards)  # a card on the route is in sight
    return [c for c in full_deck() if c not in seen]


def odds(route: Route, q: str) -> JSON:
    """For each answer: how many unseen cards would make it right, and the chance.

    >>> r = Route(deck=[], cards=[Card.parse("6H")])
    >>> o = odds(r, "mayor_menor"); o["mayor"]["count"], o["menor"]["count"], o["tie"]["count"]
    (32, 16, 3)
    """
    cards = unseen(route)
    total = len(cards)
    counts: dict[str, int] = {a: 0 for a in QUESTIONS[q]}
    ties = 0
    reference = route.cards[-1]
    for c in cards:
        ok = right(q, reference, c)
        if not ok:
            ties += 1
        for a in ok:
            counts[a] += 1
    out: JSON = {}
    for a, k in [*counts.items(), *([("tie", ties)] if q == "mayor_menor" else [])]:
        frac = Fraction(k, total) if total else Fraction(0)
        out[a] = {"count": k, "total": total, "fraction": f"{frac.numerator}/{frac.denominator}",
                  "percent": round(float(frac) * 100, 1)}  # fmt: skip
    return out


# --- view, positions -------------------------------------------------------------------


def _route_view(state: State, route: Route) -> JSON:
    return {
        "cards": [c.code for c in route.cards],
        "pos": route.pos,
        "misses": route.misses,
        "tolls": route.tolls,
        "left": len(route.deck),
        "used": len(route.revealed),
        "out": route.out,
        "done": route.done,
        "last": route.last,
    }


def view(state: State, seat: int | None) -> JSON:
    """Everything on the table is public; only the decks' order is hidden.

    Besides the state it says what the page would otherwise have to work out from the
    rules: ``seats``, the seat (phone) acting for each player; ``playing``, the route in
    play (an index into ``routes``: the current player's in turnos rápidos, else the one
    shared route), and ``misses_left``, the misses the group may still make in cooperativo
    (None in the other variants)."""
    route = route_of(state)
    q = question(state) if state.result is None else None
    return {
        "game": "peaje",
        "config": config_json(state.config),
        "seat": seat,
        "route": list(state.config.route),
        "questions": state.config.questions,
        "tolls_after": sorted(state.config.tolls_after),
        "routes": [_route_view(state, r) for r in state.routes],
        "current": state.current,
        "phase": state.phase,
        "question": q,
        "reference": route.cards[-1].code,
        "last": state.last,
        "toll": state.toll,
        "odds": odds(route, q) if q is not None and route.deck else None,
        "actors": actors(state),
        "legal": [MOVES.encode(m) for m in legal_moves(state, seat)] if seat is not None else [],
        "result": state.result,
        "playing": state.routes.index(route),
        "misses_left": (
            max(0, COOP_MISSES - route.misses) if state.config.variant == "cooperativo" else None
        ),
        "seats": [seat_of(state.config, p) for p in range(len(state.config.names))],
    }


class Pile:
    """Cards as a position writes them: one text, ``"10♥ K♠"``, next card last for a deck
    (``load`` also takes a list of codes, in any card form). Only on the wire: the engine
    keeps lists of cards.

    >>> Pile.from_wire(["6H", "10c"]).to_wire()
    '6♥ 10♣'
    """

    __slots__ = ("cards",)

    def __init__(self, cards: list[Card] | None = None) -> None:
        self.cards = list(cards or [])

    @classmethod
    def from_wire(cls, obj: Any) -> Pile:
        if isinstance(obj, list) and all(isinstance(x, str) for x in obj):
            obj = " ".join(obj)
        if not isinstance(obj, str):
            raise ValueError("cards are written as text")
        return cls(parse_cards(obj))  # a CardParseError is a ValueError

    def to_wire(self) -> str:
        return format_cards(self.cards)


class RoutePosition(msgspec.Struct, kw_only=True):
    """A route as a position writes it (docs/positions.md)."""

    deck: Pile = msgspec.field(default_factory=Pile)
    cards: Pile
    misses: int = 0
    tolls: int = 0
    revealed: Pile = msgspec.field(default_factory=Pile)
    out: bool = False
    done: bool = False
    last: JSON | None = None

    @classmethod
    def of(cls, r: Route) -> RoutePosition:
        return cls(
            deck=Pile(r.deck), cards=Pile(r.cards), misses=r.misses, tolls=r.tolls,
            revealed=Pile(r.revealed), out=r.out, done=r.done, last=r.last,
        )  # fmt: skip

    def route(self) -> Route:
        return Route(
            deck=self.deck.cards, cards=self.cards.cards, misses=self.misses, tolls=self.tolls,
            revealed=self.revealed.cards, out=self.out, done=self.done, last=self.last,
        )  # fmt: skip


class Position(msgspec.Struct, kw_only=True):
    """The position format (docs/positions.md): the state's fields, cards as text, the
    generator as its number. ``phase`` defaults to the variant's first step."""

    game: str = "peaje"
    config: Config = msgspec.field(default_factory=Config)
    routes: list[RoutePosition]
    current: int = 0
    phase: Phase | None = None
    last: JSON | None = None
    toll: JSON | None = None
    after_toll: After = "answer"
    turns: int = 0
    rng: int = 0
    result: JSON | None = None

    @classmethod
    def of(cls, state: State) -> Position:
        return cls(
            config=state.config, routes=[RoutePosition.of(r) for r in state.routes],
            current=state.current, phase=cast(Phase, state.phase), last=state.last,
            toll=state.toll, after_toll=cast(After, state.after_toll), turns=state.turns,
            rng=state.rng.state,
            result=state.result,
        )  # fmt: skip

    def state(self) -> State:
        state = State(
            config=self.config, routes=[r.route() for r in self.routes], rng=Rng(self.rng),
            current=self.current, phase=self.phase or _ask(self.config), last=self.last,
            toll=self.toll, after_toll=self.after_toll, turns=self.turns, result=self.result,
        )  # fmt: skip
        route = route_of(state)
        if route.last is not None and route.last == state.last:
            route.last = state.last  # one reveal, as in play (a mark updates both)
        return state


POSITION: Final = Codec[Position](Position, error="bad_position")
SHORT_FORM: Final = ("deck", "cards", "revealed")
"""A one-route position may give its route's fields at the top (``routes`` left out)."""


def dump(state: State) -> JSON:
    """The position as JSON (docs/positions.md); ``load(dump(s))`` is the same game."""
    return POSITION.encode(Position.of(state))


def load(data: JSON) -> State:
    """Read a position. A short form for one route: ``{"deck": "10C 6D", "cards": ["6H"]}``
    (the deck's next card is its LAST code; ``cards`` from the initial card on). Anything
    that is not a position is refused (``bad_position``, with the field)."""
    if not data.get("routes"):
        route = {k: data.get(k, "") for k in SHORT_FORM}
        data = {k: v for k, v in data.items() if k not in SHORT_FORM} | {"routes": [route]}
    return POSITION.decode(data).state()


def all_cards(state: State) -> list[list[Card]]:
    """Per route: every card of its deck, wherever it is (deck, route, removed)."""
    out = []
    for r in state.routes:
        on_route = set(r.cards)
        removed = [c for c in r.revealed if c not in on_route]
        out.append(r.deck + r.cards + removed)
    return out


def clocks(state: State) -> list[tuple[str, int, Any]]:
    """A turn clock, only among friends with a phone each, if the room chose one: on the
    player in turn, for a question or a miss to confirm (dos jugadores has none: the two
    roles talk to each other). A new question is a new clock."""
    config = state.config
    if (
        not config.phones
        or config.variant == "dos"
        or state.result is not None
        or state.phase not in ("answer", "miss")
    ):
        return []
    step = (state.turns, len(route_of(state).revealed), state.phase)
    return [("turn", seat_of(config, state.current), step)]


def clock_move(kind: str, seat: int) -> Move:
    """The turn ran out: the turn passes (a miss is confirmed)."""
    if kind != "turn":
        raise IllegalMove("unknown_move")
    return SKIP


def read_form(form: Any) -> JSON:
    """The setup form: the names typed (blank ones allowed) for the number of players the
    variant was given (``count``), the toll. A toll left blank is the first suggestion in
    the page's language, which the page sends as ``toll_default`` (the form reader is not
    told the language); «un punto» if even that is missing."""
    names = [str(x) for x in form.getlist("player")] if hasattr(form, "getlist") else []
    count_text = str(form.get("count") or "")
    count = int(count_text) if count_text.isdigit() else len(names) or 1
    if 1 <= count <= 12:
        names = (names + [""] * count)[:count]
    return {
        "variant": str(form.get("variant") or "solitario"),
        "difficulty": str(form.get("difficulty") or "facil"),
        "players": names or [""],
        "toll": str(form.get("toll") or "").strip()
        or str(form.get("toll_default") or "").strip()
        or TOLL_SUGGESTIONS[0],
        "style": str(form.get("style") or "clasico"),
    }


def rematch(config: Config) -> Config:
    """The next game of the same table: in dos jugadores the two swap roles."""
    if config.variant == "dos":
        return msgspec.structs.replace(config, players=tuple(reversed(config.names)))
    return config
