"""La guerra (War): the rules, pure.

Every player keeps a face-down pile. In a duel each player still in the game
turns the top card (two in *guerra de sumas*); the highest value takes every card
on the table to the bottom of their pile. A tie at the top is a war among the
tied players only: each lays ``down`` cards face down (3, or 1 by option) and
turns one more (two with sums); a new tie is a new war.

The only move is :class:`Turn`: a seat turns its cards for the current step.
When every seat the step waits for has turned, the step is resolved.

>>> s = load({"piles": ["9H KS 2C 3C 4C 4D", "5C KH 3D 4S 5S QD"], "config": {"order": "fixed"}})
>>> [e["t"] for e in apply(s, 0, Turn())]
['turn']
>>> [e["t"] for e in apply(s, 1, Turn())]
['turn', 'won', 'duel']
>>> [len(p) for p in s.piles]
[7, 5]
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Iterable
from typing import Annotated, Any, Final, Literal

import msgspec
from msgspec import Meta, Struct, field

from tapete.cards import Card, full_deck, rank_value
from tapete.games import guerra as _rules
from tapete.games.protocol import (
    JSON,
    Clock,
    Codec,
    Daily,
    Event,
    Finished,
    GameSpec,
    Guided,
    Hall,
    IllegalMove,
    Logro,
    Move,
    Online,
    Options,
    PassAndPlay,
    Quick,
    players_field,
)
from tapete.i18n import N_, Np_
from tapete.rng import Rng

LENGTHS: Final = {"corta": 80, "media": 200, "final": None}
"""Duel limits: corta 80, media 200, hasta el final (no limit)."""

Length = Literal["corta", "media", "final"]
Order = Literal["random", "fixed"]


class Config(Options, frozen=True):
    """The options of RULES.md: 2–4 players, length, cards face down in a war,
    ace low, sums, and the order of won cards. The titles are the setup page's legends;
    ``length`` says the duel limit of each choice (``extra["limits"]``)."""

    players: Annotated[int, Meta(ge=2, le=4, title=N_("Jugadores"))] = 2
    length: Annotated[Length, Meta(title=N_("Duración"), extra={"limits": LENGTHS})] = "corta"
    down: Annotated[Literal[3, 1], Meta(title=N_("Cartas boca abajo en una guerra"))] = 3
    ace_low: Annotated[bool, Meta(title=N_("El as"))] = False
    sums: Annotated[bool, Meta(title=N_("Modo"))] = False
    order: Annotated[Order, Meta(title=N_("Cartas ganadas"))] = "random"

    @property
    def limit(self) -> int | None:
        return LENGTHS[self.length]

    @property
    def up(self) -> int:
        """Cards turned face up by each player in a step."""
        return 2 if self.sums else 1


class Turn(Move, frozen=True, tag="turn"):
    """Turn your card(s) over: the duel card, or a war's face-down and face-up cards."""


CONFIG: Final = Codec[Config](Config, error="bad_config")
MOVES: Final = Codec[Turn](Turn)
parse_config = CONFIG.decode
"""Options from JSON, refusing anything out of range.

>>> parse_config({"players": 3, "length": "media"}).limit
200
"""
config_json = CONFIG.encode
parse_move = move = MOVES.decode
"""A move from JSON; ``move(repr)`` round-trips: ``move({'type': 'turn'})``."""


_CARDS: Final = {text: card for card in full_deck() for text in (str(card), card.code)}
"""Every card by the texts ``dump`` and the wire write (``"9♥"``, ``"9H"``), so reading a
position does not parse them one by one; any other form goes to :meth:`Card.parse`."""


class Pile(deque[Card]):
    """Cards, top first: ``pile[0]`` is the next card turned, won cards go to the bottom
    (``extend``). In a position a pile is card text, ``"9♥ K♠ 2♣"`` (any form
    :func:`tapete.cards.parse_cards` reads, or a list of cards or card texts; the symbol form
    is written).

    >>> pile = Pile.from_wire("9H KS 2c")
    >>> pile.take(2).to_wire(), pile.to_wire()
    ('9♥ K♠', '2♣')
    """

    __slots__ = ()

    @classmethod
    def from_wire(cls, obj: str | Iterable[Card | str]) -> Pile:
        if isinstance(obj, str):
            return cls(_CARDS.get(t) or Card.parse(t) for t in obj.replace(",", " ").split())
        return cls(c if isinstance(c, Card) else _CARDS.get(c) or Card.parse(str(c)) for c in obj)

    def to_wire(self) -> str:
        return " ".join(map(str, self))

    def take(self, n: int) -> Pile:
        """The top ``n`` cards, off the pile (it has at least ``n``)."""
        if n == 1:
            return Pile((self.popleft(),))
        out = Pile()
        for _ in range(n):
            out.append(self.popleft())
        return out


class GameRng(Rng):
    """The game's generator; in a position, its state (one integer)."""

    __slots__ = ()

    @classmethod
    def from_wire(cls, obj: int) -> GameRng:
        return cls(int(obj))

    def to_wire(self) -> int:
        return self.state


class Placed(Struct, kw_only=True):
    """What one seat put on the table in one step."""

    down: Pile = field(default_factory=Pile)
    up: Pile = field(default_factory=Pile)


class Step(Struct, kw_only=True):
    """One step of a duel: the duel itself (war=False) or one war after a tie."""

    contenders: list[int]
    war: bool = False
    placed: dict[int, Placed] = {}
    """By seat; a position writes the seat as a string key (``"0"``)."""

    def waiting(self) -> list[int]:
        return [s for s in self.contenders if s not in self.placed]


class State(Struct, kw_only=True):
    """The whole game, and the position format (docs/positions.md): ``dump`` writes these
    fields in this order, after ``"game"``; ``load`` gives every missing one its default.

    A state with no duel in progress and no result starts a duel among the seats not out,
    as the game does after a duel: ``load({"piles": [...]})`` is a position at a duel's
    start.
    """

    config: Config = Config()
    piles: list[Pile]
    """Index 0 is the top of the pile (the next card turned)."""
    out: list[bool] = []
    """Seats out of the game (empty or missing: nobody is out)."""
    duels: int = 0
    """Duels finished."""
    wars: int = 0
    """Wars fought (a war inside a war counts again)."""
    steps: list[Step] = []
    """The duel in progress: its first step and any wars that followed."""
    carry: Pile = field(default_factory=Pile)
    """Cards left on the table when every player of a war ran out (3–4 players)."""
    rng: GameRng = field(default_factory=lambda: GameRng(0))
    last: JSON | None = None
    """Summary of the last finished duel, for showing it."""
    result: JSON | None = None
    loop: list[Any] | None = None
    """Fixed order only: Brent's cycle detection over positions at duel starts."""

    def __post_init__(self) -> None:
        if not self.out:
            self.out = [False] * len(self.piles)
        if not self.steps and self.result is None:
            _start_duel(self, [])


def seats(config: Config) -> int:
    return config.players


# --- the protocol ----------------------------------------------------------------------


def new(config: Config, seed: int) -> State:
    """Shuffle the 52 cards with ``seed`` and deal them as evenly as they go."""
    rng = GameRng(Rng.from_seed(seed).state)
    deck = rng.shuffled(full_deck())
    piles = [Pile(deck[seat :: config.players]) for seat in range(config.players)]
    return State(config=config, piles=piles, rng=rng)


def actors(state: State) -> list[int]:
    """The seats the current step still waits for."""
    if state.result is not None or not state.steps:
        return []
    return state.steps[-1].waiting()


def legal_moves(state: State, seat: int) -> list[Turn]:
    return [Turn()] if seat in actors(state) else []


def apply(state: State, seat: int, move: Turn) -> list[Event]:
    """Apply ``move`` for ``seat``; on IllegalMove nothing changes."""
    if not isinstance(move, Turn):
        raise IllegalMove("unknown_move")
    if state.result is not None:
        raise IllegalMove("game_over")
    if seat not in actors(state):
        raise IllegalMove("not_your_turn")
    events: list[Event] = []
    _place(state, seat, events)
    _settle(state, events)
    return events


def clocks(state: State) -> list[tuple[str, int, Any]]:
    """A turn clock for each seat the step waits for (it runs only where the room sets one:
    private rooms; a practice duel waits for the player)."""
    step = (state.duels, len(state.steps))
    return [("turn", seat, step) for seat in actors(state)]


def clock_move(kind: str, seat: int) -> Turn:
    """A seat's clock ran out (private rooms): its cards turn by themselves."""
    return Turn()


def outcome(state: State) -> JSON | None:
    return state.result


def view(state: State, seat: int | None) -> JSON:
    """What ``seat`` may see: pile sizes, face-up cards, how many are face down.

    Nobody, the owner included, sees a face-down card or the order of a pile.
    """
    return {
        "game": "guerra",
        "config": config_json(state.config),
        "seat": seat,
        "limit": state.config.limit,
        "duel": state.duels + (0 if state.result is not None else 1),
        "duels": state.duels,
        "wars": state.wars,
        "counts": [len(p) for p in state.piles],
        "out": list(state.out),
        "table": [_step_view(step) for step in state.steps],
        "values": [_values(state, step) for step in state.steps],
        "carry": len(state.carry),
        "actors": actors(state),
        "legal": [m.to_json() for m in legal_moves(state, seat)] if seat is not None else [],
        "last": state.last,
        "result": state.result,
    }


def dump(state: State) -> JSON:
    """The position as JSON (see docs/positions.md); ``load(dump(s))`` is the same game.

    >>> dump(load({"piles": ["9H KS", "5C KH"]}))["piles"]
    ['9♥ K♠', '5♣ K♥']
    """
    return {"game": "guerra", **msgspec.to_builtins(state, enc_hook=_to_wire, str_keys=True)}


def load(data: JSON) -> State:
    """Read a position; missing fields take their defaults, so tests may write only piles.

    ``config.players`` is the number of piles. With no ``steps`` given (and no result), a
    new duel starts among the players who still have cards. Bad options raise
    ``IllegalMove("bad_config")``; anything else that does not read (a card, a field of the
    wrong type) raises :class:`msgspec.ValidationError` (a ``ValueError``) naming the field.
    """
    config = parse_config(data.get("config", {}))
    if len(data["piles"]) != config.players:
        config = parse_config({**config_json(config), "players": len(data["piles"])})
    return msgspec.convert({**data, "config": config}, State, dec_hook=_from_wire, str_keys=True)


def _to_wire(obj: Pile | GameRng) -> Any:
    return obj.to_wire()


def _from_wire(tp: type[Pile | GameRng], obj: Any) -> Any:
    return tp.from_wire(obj)


def all_cards(state: State) -> list[Card]:
    """Every card of the game, wherever it is (for invariant checks)."""
    cards = [c for p in state.piles for c in p] + list(state.carry)
    for step in state.steps:
        for placed in step.placed.values():
            cards += placed.down
            cards += placed.up
    return cards


# --- the mechanics ---------------------------------------------------------------------


def _step_view(step: Step) -> JSON:
    return {
        "contenders": list(step.contenders),
        "war": step.war,
        "placed": {
            str(s): {"down": len(p.down), "up": [c.code for c in p.up]}
            for s, p in step.placed.items()
        },
    }


def _values(state: State, step: Step) -> dict[str, int]:
    """What each seat's face-up cards of a step are worth (with sums, their sum)."""
    return {str(s): _value(state, p.up) for s, p in step.placed.items()}


def _alive(state: State) -> list[int]:
    return [s for s in range(len(state.piles)) if not state.out[s]]


def _value(state: State, cards: Iterable[Card]) -> int:
    return sum(rank_value(c, ace_low=state.config.ace_low) for c in cards)


def _start_duel(state: State, events: list[Event]) -> None:
    alive = _alive(state)
    if state.config.order == "fixed" and state.config.limit is None and _repeats(state):
        _finish(state, None, "loop", events)
        return
    state.steps = [Step(contenders=alive)]


def _start_war(state: State, seats: list[int], events: list[Event]) -> None:
    state.wars += 1
    state.steps.append(Step(contenders=seats, war=True))
    events.append({"t": "war", "seats": seats, "n": state.wars})


def _place(state: State, seat: int, events: list[Event]) -> None:
    step = state.steps[-1]
    pile = state.piles[seat]
    up_n = state.config.up
    want_down: int = state.config.down if step.war else 0
    n = len(pile)
    if n >= want_down + up_n:
        down, up = want_down, up_n
    else:  # too few: all but the last face down (the last one or two face up)
        up = min(up_n, n)
        down = n - up
    placed = Placed(down=pile.take(down), up=pile.take(up))
    step.placed[seat] = placed
    events.append(
        {"t": "turn", "seat": seat, "down": len(placed.down), "up": [c.code for c in placed.up]}
    )


def _settle(state: State, events: list[Event]) -> None:
    """Resolve the current step if it waits for nobody; seats with no cards turn nothing."""
    while state.result is None:
        step = state.steps[-1]
        for s in step.waiting():
            if not state.piles[s]:
                step.placed[s] = Placed()
                events.append({"t": "turn", "seat": s, "down": 0, "up": []})
        if step.waiting():
            return
        _resolve(state, events)


def _resolve(state: State, events: list[Event]) -> None:
    step = state.steps[-1]
    live = [s for s in step.contenders if step.placed[s].up]
    if not live:
        # Everyone left in the war ran out together: the last face-up cards were tied.
        # They are out, and so is anyone else left with no card to turn up.
        for s in _alive(state):
            if not state.piles[s]:
                state.out[s] = True
                events.append({"t": "out", "seat": s})
        remaining = _alive(state)
        state.carry = Pile(_pot(state))
        state.last = _summary(state, None, "carry", 0)
        state.steps = []
        if remaining:
            _end_duel(state, events)  # one player left takes the table; more play on for it
        else:
            state.duels += 1
            _finish(state, None, "draw_war", events)
        return
    values = {s: _value(state, step.placed[s].up) for s in live}
    best = max(values.values())
    top = [s for s in live if values[s] == best]
    if len(top) > 1:
        _start_war(state, top, events)
        return
    winner = top[0]
    why = "higher" if len(live) > 1 else "no_cards"
    pot = _pot(state, winner)
    state.last = _summary(state, winner, why, len(pot))
    state.piles[winner].extend(pot)
    events.append({"t": "won", "seat": winner, "cards": len(pot), "why": why})
    state.steps = []
    state.carry = Pile()
    for s in _alive(state):
        if not state.piles[s]:
            state.out[s] = True
            events.append({"t": "out", "seat": s})
    _end_duel(state, events)


def _end_duel(state: State, events: list[Event]) -> None:
    state.duels += 1
    alive = _alive(state)
    if len(alive) == 1:
        winner = alive[0]
        state.piles[winner].extend(state.carry)
        state.carry = Pile()
        _finish(state, winner, "all_cards", events)
        return
    limit = state.config.limit
    if limit is not None and state.duels >= limit:
        counts = [len(p) for p in state.piles]
        best = max(counts)
        leaders = [s for s, c in enumerate(counts) if c == best]
        if len(leaders) == 1:
            _finish(state, leaders[0], "limit", events)
        else:
            _finish(state, None, "draw_limit", events, tied=leaders)
        return
    _start_duel(state, events)
    if state.result is None:
        events.append({"t": "duel", "n": state.duels + 1})


def _pot(state: State, winner: int | None = None) -> list[Card]:
    """Collect the table. Fixed order: the winner's cards first (as played), then the
    others seat by seat after the winner; random order: shuffled with the game's rng."""
    n = len(state.piles)
    start = winner if winner is not None else 0
    order = [(start + i) % n for i in range(n)]
    pot: list[Card] = []
    for s in order:
        for step in state.steps:
            placed = step.placed.get(s)
            if placed is not None:
                pot += placed.down
                pot += placed.up
    pot += state.carry
    if state.config.order == "random":
        state.rng.shuffle(pot)
    return pot


def _summary(state: State, winner: int | None, why: str, cards: int) -> JSON:
    return {
        "n": state.duels + 1,
        "steps": [_step_view(step) for step in state.steps],
        "values": [_values(state, step) for step in state.steps],
        "winner": winner,
        "why": why,
        "cards": cards,
    }


def _finish(
    state: State,
    winner: int | None,
    reason: str,
    events: list[Event],
    tied: list[int] | None = None,
) -> None:
    state.steps = []
    state.result = {
        "winner": winner,
        "reason": reason,
        "counts": [len(p) for p in state.piles],
        "duels": state.duels,
        "wars": state.wars,
        "tied": tied or [],
    }
    events.append({"t": "end", **state.result})


def _repeats(state: State) -> bool:
    """Brent's cycle detection on the position at each duel start (fixed order only).

    With won cards put back in a fixed order the game is deterministic, so a
    repeated position means it would go on for ever: it ends as a draw.
    """
    text = "|".join(p.to_wire() for p in state.piles) + "/" + state.carry.to_wire()
    key = hashlib.blake2b(text.encode(), digest_size=12).hexdigest()
    if state.loop is None:
        state.loop = [key, 1, 0]
        return False
    anchor, power, lam = state.loop
    if key == anchor:
        return True
    lam += 1
    if lam == power:
        state.loop = [key, power * 2, 0]
    else:
        state.loop = [anchor, power, lam]
    return False


def _stats(outcome: JSON, seat: int, log: list[tuple[int, JSON]]) -> dict[str, int]:
    """The wars of a game (every seat fought them)."""
    return {"wars": int(outcome.get("wars", 0))}


def _daily(outcome: JSON, seat: int, log: list[tuple[int, JSON]]) -> tuple[bool, int]:
    """The day's deal (the sums, to the end): won, and in how many duels."""
    return outcome.get("winner") == seat, int(outcome.get("duels", 0))


def _double_war(f: Finished) -> int:
    """Duels of two wars or more that the seat took."""
    wars, took = 0, 0
    for _, _, events in f.moves:
        for e in events:
            if e.get("t") == "duel":
                wars = 0
            elif e.get("t") == "war" and f.seat in e.get("seats", ()):
                wars += 1
            elif e.get("t") == "won":
                took += int(wars >= 2 and e.get("seat") == f.seat)
                wars = 0
    return took


LOGROS: Final = (
    Logro("guerra.primera", N_("Primera victoria"), N_("Gana una partida de La guerra."), "⚔",
          lambda f: int(f.won)),
    Logro("guerra.todas", N_("Todas las cartas"), N_("Gana quedándote con todas las cartas."),
          "♚", lambda f: int(f.won and f.outcome.get("reason") == "all_cards")),
    Logro("guerra.doble", N_("Guerra doble"), N_("Gana un duelo que pasó por dos guerras."), "✸",
          _double_war),
    Logro("guerra.sumas", N_("Buenas cuentas"), N_("Gana una partida con sumas."), "Σ",
          lambda f: int(f.won and f.config.sums)),
    Logro("guerra.partidas", N_("Habitual de La guerra"), N_("Juega {goal} partidas de La guerra."),
          "∞", lambda f: 1, goal=25),
)  # fmt: skip
"""La guerra's logros (:mod:`tapete.logros`)."""


def _deal(config: Config, seed: int) -> JSON:
    """The deal of ``seed`` as a browser redoes it (:attr:`GameSpec.deal`): the 52 cards
    shuffled, then dealt one by one round the table."""
    state = new(config, seed)
    n = config.players
    return {
        "decks": {"deck": [c.code for c in full_deck()]},
        "steps": [{"shuffle": "deck"}],
        "parts": [
            {"seat": s, "title": N_("Montón de {name}"), "yours": N_("Tu montón"), "of": "deck",
             "take": list(range(s, 52, n)), "cards": [c.code for c in state.piles[s]]}
            for s in range(n)
        ],
    }  # fmt: skip


def _reveal(state: State) -> JSON:
    """For a replay: the card each pile turns next (its top)."""
    return {"next": [pile[0].code if pile else None for pile in state.piles]}


# --- the guided first game (GameSpec.guided, tapete/rooms/guide.py): turning the top card,
# who takes the cards and where they go, a war after a tie, the end. Six cards each, one card
# face down in a war: six duels, one of them a war.

GUIDED_POSITION: Final[JSON] = {
    "game": "guerra",
    "config": {"down": 1, "length": "final"},
    "piles": ["KH 4D 8S 2C QH AS", "5C 9H 8D 3S 6D 2H"],
    "rng": 1,
}
"""The deal (docs/positions.md, «Guided first games»): the player's K♥ beats the 5♣, the 9♥
beats their 4♦, the two 8s make a war."""

GUIDE_FIRST: Final = N_(
    "Pulsa «Dar la vuelta»: cada uno destapa la carta de arriba de su montón y la más alta "
    "se lleva las dos."
)
GUIDE_TOOK: Final = N_(
    "Te llevas {cards} cartas: van al fondo de tu montón. Dale la vuelta a la siguiente."
)
GUIDE_LOST_ONE: Final = N_(
    "Esta se la lleva el otro. Gana quien se quede con todas las cartas: dale la vuelta a la "
    "siguiente."
)
GUIDE_WAR: Final = N_(
    "¡Empate! Es la guerra: cada uno pone una carta boca abajo y otra boca arriba, y la más "
    "alta se lo lleva todo. Pulsa «¡A la guerra!»."
)
GUIDE_WAIT: Final = N_("Ahora da la vuelta el otro.")
GUIDE_WON: Final = N_("¡Has ganado: tienes todas las cartas! Ya sabes jugar a La guerra.")
GUIDE_LOST: Final = N_("Esta vez gana el otro. Ya sabes cómo va: prueba una partida normal.")


def guide_step(state: State, seat: int) -> tuple[str, JSON] | None:
    """What the table says to ``seat`` now."""
    if state.result is not None:
        return (GUIDE_WON, {}) if state.result.get("winner") == seat else (GUIDE_LOST, {})
    if not state.steps or seat not in state.steps[-1].waiting():
        return GUIDE_WAIT, {}
    if state.steps[-1].war:
        return GUIDE_WAR, {}
    last = state.last
    if last is None:
        return GUIDE_FIRST, {}
    if last.get("winner") == seat:
        return GUIDE_TOOK, {"cards": last.get("cards", 0)}
    return GUIDE_LOST_ONE, {}


def _holder(state: State) -> int | None:
    """On one device: nobody's pile is ever shown (nobody sees a face-down card), so the
    device turns every player's card at once."""
    return None


SPEC: Final = GameSpec[Config, State, Turn](
    key="guerra",
    stats=_stats,
    logros=LOGROS,
    pass_and_play=PassAndPlay(holder=_holder),
    guided=Guided(
        position=GUIDED_POSITION,
        step=guide_step,
        line=N_("Seis duelos contra un bot, con una guerra, explicados paso a paso."),
    ),
    daily=Daily(
        config={"players": 2, "sums": True, "length": "final"},
        level="normal",
        result=_daily,
        line=N_("Con sumas, hasta el final. Cuenta ganar, y en cuantos menos duelos."),
        unit=Np_("{n} duelo", "{n} duelos"),
    ),
    deal=_deal,
    reveal=_reveal,
    stat_names={"wars": N_("Guerras")},
    rules=_rules,
    config=CONFIG,
    moves=MOVES,
    hall=Hall(
        title=N_("La guerra"),
        line=N_(
            "Dais la vuelta a la vez; la carta más alta se lo lleva todo. Si empatáis, ¡guerra!"
        ),
        who=N_("De 2 a 4 jugadores, contra el ordenador o con amigos"),
        icon='<span class="ic-card">K♠</span><span class="ic-card red">K♥</span>',
    ),
    messages={"no_cards": N_("No te quedan cartas para dar la vuelta.")},
    clocks={"turn": Clock(practice=None, online=15.0)},
    online=Online(seats=(2, 4), with_seats=players_field),
    quick=Quick(Config()),
    bots_follow=True,
)
"""La guerra's descriptor."""
