"""The protocol every game follows, its descriptor, and the one codec every game derives.

A game is a module (or package) with the functions of :class:`Rules`::

    new(config, seed) -> State
    actors(state) -> list[int]               seats that may act now
    legal_moves(state, seat) -> list[Move]   fixed, sorted order
    apply(state, seat, move) -> list[Event]  mutates state; IllegalMove leaves it untouched
    view(state, seat | None) -> dict         what that seat (None: a spectator) may see
    outcome(state) -> dict | None
    dump(state) -> dict  /  load(data) -> State
    seats(config) -> int                     how many seats a game with these options has
    clocks(state) -> [(kind, seat, instance)]  the deadlines the room must run now
    clock_move(kind, seat) -> Move           what a clock does when it runs out

and one :class:`GameSpec`, its descriptor: everything the generic layers (rooms, store,
server) need to know about it, as data. They iterate over descriptors and never name a game.

Moves and options are :mod:`msgspec` structs: a move is a tagged :class:`Move` (its tag is
its ``"type"`` on the wire), the options a :class:`Options` struct whose fields carry their
limits and form labels. :class:`Codec` reads and writes both, the same way for every game;
a field whose type has ``from_wire``/``to_wire`` (a card, a tile) is coded by that type.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, get_args

import msgspec
import msgspec.inspect

Event = dict[str, Any]
JSON = dict[str, Any]

C = TypeVar("C")
S = TypeVar("S")
M = TypeVar("M")
T = TypeVar("T")
C_in = TypeVar("C_in", contravariant=True)
S_in = TypeVar("S_in", contravariant=True)


class IllegalMove(ValueError):
    """A move (or option) the rules refuse: a stable ``code`` and its parameters. The
    catalog turns them into a sentence in the player's language; the rules write none.

    >>> e = IllegalMove("not_your_turn")
    >>> e.code, e.params
    ('not_your_turn', {})
    >>> str(IllegalMove("bad_move", field="card"))
    'bad_move (field=card)'
    """

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        self.params = params
        details = ", ".join(f"{k}={v}" for k, v in params.items())
        super().__init__(f"{code} ({details})" if details else code)


# --- the codec -------------------------------------------------------------------------


def _dec_hook(tp: type, obj: Any) -> Any:
    from_wire = getattr(tp, "from_wire", None)
    if from_wire is None:
        raise NotImplementedError(f"no wire format for {tp!r}")
    try:
        return from_wire(obj)
    except (IllegalMove, TypeError, ValueError):
        raise  # msgspec makes them a ValidationError, at the field
    except Exception as exc:  # a reader that fails otherwise is refused at its field too
        raise ValueError(f"not a {tp.__name__}: {type(exc).__name__}") from exc


def _enc_hook(obj: Any) -> Any:
    to_wire = getattr(obj, "to_wire", None)
    if to_wire is None:
        raise NotImplementedError(f"no wire format for {type(obj)!r}")
    return to_wire()


def _path(err: msgspec.ValidationError) -> str:
    """The field a validation error is about: ``$.players`` → ``players``."""
    text = str(err)
    at = text.rfind("`$")
    where = text[at + 2 :].strip("`").lstrip(".") if at >= 0 else ""
    if "missing required field `" in text:  # the field that is missing, in its place
        name = text.split("missing required field `", 1)[1].split("`", 1)[0]
        return f"{where}.{name}" if where else name
    if at >= 0:
        return where
    if "unknown field `" in text:  # the field that should not be there
        return text.split("unknown field `", 1)[1].split("`", 1)[0]
    # a struct's own check (``__post_init__``) says the field first: "players: 2–4"
    return text.split(":", 1)[0].strip() if ":" in text else text.strip()


_ENCODER = msgspec.json.Encoder(enc_hook=_enc_hook)


@functools.cache
def option_titles(options: type) -> dict[str, str]:
    """Each option of an options struct by its title on the setup page (a message id)."""
    info = msgspec.inspect.type_info(options)
    out: dict[str, str] = {}
    for f in getattr(info, "fields", ()):
        t = f.type
        while isinstance(t, msgspec.inspect.Metadata):
            title = (t.extra_json_schema or {}).get("title")
            if isinstance(title, str):
                out[f.name] = title
                break
            t = t.type
    return out


def _builtins(value: Any) -> Any:
    """``value`` as JSON has it (tuples as lists, which ``msgspec.to_builtins`` keeps): a trip
    through msgspec's encoder, faster than walking it in Python."""
    return msgspec.json.decode(_ENCODER.encode(value))


class Codec(Generic[T]):
    """Reads JSON-like data into ``tp`` (a struct, or a union of tagged structs) and writes
    it back, refusing anything else with :class:`IllegalMove` (``error``, with the field).

    >>> class Knock(Move, tag="knock"):
    ...     times: int = 1
    >>> codec = Codec(Knock)
    >>> codec.decode({"type": "knock", "times": 2})
    move({'type': 'knock', 'times': 2})
    >>> codec.encode(Knock())
    {'type': 'knock', 'times': 1}
    >>> codec.decode({"type": "knock", "times": "x"})
    Traceback (most recent call last):
    tapete.games.protocol.IllegalMove: bad_move (field=times)
    >>> codec.decode({"type": "shout"})
    Traceback (most recent call last):
    tapete.games.protocol.IllegalMove: unknown_move
    """

    def __init__(
        self, tp: Any, error: str = "bad_move", check: Callable[[T], None] | None = None
    ) -> None:
        self.type = tp
        self.error = error
        self.check = check
        """The game's last word on a value read (what a sender must say that code building
        the value need not: One Card's 7 names a suit): raises :class:`IllegalMove`."""
        members = get_args(tp) or (tp,)
        self._by_tag: dict[str, Any] = {
            str(m.__struct_config__.tag): m
            for m in members
            if isinstance(m, type)
            and issubclass(m, msgspec.Struct)
            and m.__struct_config__.tag is not None
        }
        """Each tag's struct: a value is read as its own struct (msgspec keeps what it knows
        of a struct type between calls, not of a union, which costs microseconds to rebuild)."""
        self.tags = frozenset(self._by_tag)
        self._bare: dict[str, Any] = {
            tag: m() for tag, m in self._by_tag.items() if not m.__struct_fields__
        }
        """The moves that are only their type (draw, pass…): one value each, read at once."""
        self._decoder = msgspec.json.Decoder(tp, dec_hook=_dec_hook)
        self._memo: dict[Any, JSON] | None = (
            {} if isinstance(tp, type) and issubclass(tp, Options) else None
        )
        """Options are frozen and few: their JSON is written once (every view carries it)."""

    def decode(self, data: Any) -> T:
        """``data`` read as a value of the type; anything else raises :class:`IllegalMove`
        and nothing but it (a field's own reader that fails otherwise refuses that field)."""
        try:
            return self._decode(data)
        except IllegalMove:
            raise
        except Exception as exc:  # a field's reader or a check that failed in its own way
            raise IllegalMove(self.error, field=type(exc).__name__) from None

    def _decode(self, data: Any) -> T:
        tp = self.type
        if self.tags:
            if not isinstance(data, dict) or not isinstance(data.get("type"), str):
                raise IllegalMove(self.error, field="type")
            if data["type"] not in self.tags:
                raise IllegalMove("unknown_move")
            bare = self._bare.get(data["type"])
            if bare is not None and len(data) == 1:
                if self.check is not None:
                    self.check(bare)
                return bare  # type: ignore[no-any-return]
            tp = self._by_tag[data["type"]]
        try:
            value: T = msgspec.convert(data, tp, dec_hook=_dec_hook)
        except msgspec.ValidationError as exc:
            raise self._refusal(exc) from None
        if self.check is not None:
            self.check(value)
        return value

    def decode_json(self, raw: bytes | str) -> T:
        try:
            value: T = self._decoder.decode(raw)
        except msgspec.ValidationError as exc:
            raise self._refusal(exc) from None
        except msgspec.DecodeError:
            raise IllegalMove("bad_json") from None
        if self.check is not None:
            self.check(value)
        return value

    def _refusal(self, exc: msgspec.ValidationError) -> IllegalMove:
        """A type's own refusal (its ``from_wire`` or ``__post_init__`` raised IllegalMove)
        keeps its code; anything else is ``error`` with the field."""
        if isinstance(exc.__cause__, IllegalMove):
            return exc.__cause__
        return IllegalMove(self.error, field=_path(exc))

    def encode(self, value: Any) -> JSON:
        memo = self._memo
        if memo is not None:
            known = memo.get(value)
            if known is None:
                if len(memo) > 4096:  # (never grow without bound)
                    memo.clear()
                known = memo[value] = _builtins(value)
            return dict(known)
        out = _builtins(value)
        assert isinstance(out, dict)
        return out


_MOVE_JSON: dict[Any, JSON] = {}
"""Moves are frozen values, most of them the same few again and again: each is written once."""


class Move(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    """A move: a small frozen value, tagged by its ``type``. ``str`` is its text;
    ``repr`` round-trips through the game's :func:`move` (as python-chess's moves do
    through ``Move.from_uci``).

    Subclasses give a tag: ``class Draw(Move, tag="draw")``.
    """

    def to_json(self) -> JSON:
        known = _MOVE_JSON.get(self)
        if known is None:
            known = _builtins(self)
            assert isinstance(known, dict)
            if len(_MOVE_JSON) > 65_536:  # (never grow without bound)
                _MOVE_JSON.clear()
            _MOVE_JSON[self] = known
        return dict(known)

    def __str__(self) -> str:
        return str(self.__struct_config__.tag)

    def __repr__(self) -> str:
        return f"move({self.to_json()!r})"


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A game's options. Each field's default is the option's default; its type says its
    limits (``Annotated[int, msgspec.Meta(ge=2, le=4)]``, a ``Literal``); its ``Meta`` title
    and description (Spanish message ids) label it on the setup page."""


# --- the rules and the descriptor -----------------------------------------------------


class Rules(Protocol[C_in, S, M]):
    """A game module, seen as a value (mypy checks modules against protocols)."""

    def new(self, config: C_in, seed: int) -> S: ...
    def actors(self, state: S) -> list[int]: ...
    def legal_moves(self, state: S, seat: int) -> list[M]: ...
    def apply(self, state: S, seat: int, move: M) -> list[Event]: ...
    def view(self, state: S, seat: int | None) -> JSON: ...
    def outcome(self, state: S) -> JSON | None: ...
    def dump(self, state: S) -> JSON: ...
    def load(self, data: JSON) -> S: ...
    def seats(self, config: C_in) -> int: ...
    def clocks(self, state: S) -> list[tuple[str, int, Any]]: ...
    def clock_move(self, kind: str, seat: int) -> M: ...


class Drafting(Protocol[S_in]):
    """A game whose players build a draft that the server checks without applying it.

    ``check`` reports in codes, as the rules refuse a move: its ``errors`` are
    ``[{"code", "params", …}]``, refusals of the game (:attr:`GameSpec.messages`), and each
    of its ``sets`` has a ``reason`` why it is not valid (None if it is), the parameter
    ``reason`` of a refusal (named by :attr:`GameSpec.params`). The room words them for the
    player (:meth:`GameSpec.word_draft`)."""

    def parse_layout(self, data: Any) -> Any: ...
    def check(self, state: S_in, seat: int, layout: Any) -> JSON: ...


@dataclass(frozen=True, slots=True)
class Clock:
    """A kind of deadline a game may ask for. ``practice`` and ``online`` are its default
    seconds in a practice game and in a private room (None: that clock does not run)."""

    practice: float | None = None
    online: float | None = None


@dataclass(frozen=True, slots=True)
class Hall:
    """How the hall presents a game (Spanish message ids; ``icon`` is markup)."""

    title: str
    line: str
    who: str
    icon: str


@dataclass(frozen=True, slots=True)
class Guide:
    """A game's guide: its pages (slug → Spanish title message id, in reading order; the
    first is the index), at ``/<key>/guia/<slug>``, templates ``<key>_guide/<slug>.html``,
    and what they show that the rules compute (``context()``)."""

    pages: Mapping[str, str]
    context: Callable[[], JSON] = dict


@dataclass(frozen=True, slots=True)
class Online(Generic[C]):
    """How a game is played by friends in a private room: how many seats it may have, the
    options for a given number (``with_seats``), and the turn clocks the host may choose
    (seconds; None: no clock; the default is the ``turn`` clock's ``online`` seconds; none
    to choose from: that default, always)."""

    seats: tuple[int, int]
    with_seats: Callable[[C, int], C]
    turn_clocks: tuple[float | None, ...] = ()
    for_room: Callable[[C], C] | None = None
    """The options as a room plays them, where they differ from practice's (El Peaje: a
    phone for each player); may refuse (``IllegalMove("bad_config")``)."""
    seat_range: Callable[[C], tuple[int, int]] | None = None
    """The seats these options allow, where narrower than ``seats`` (El Peaje: its
    variant's)."""


@dataclass(frozen=True, slots=True)
class Quick(Generic[C]):
    """How strangers play the game («Jugar ahora», RULES.md «Quick play»): its standard
    options, so that results compare, and — for a game of skill — each seat's place in a
    finished game, which the ratings read (:mod:`tapete.ratings`)."""

    config: C
    """The standard options; the number of seats is set by ``Online.with_seats``."""
    places: Callable[[JSON], list[int]] | None = None
    """Each seat's place from the outcome (1 first; equal places tie); None: the game is
    matched but never rated (La guerra has no decisions, El Peaje is a party game)."""
    alone: C | None = None
    """A game without bots: the options one plays who waited alone the whole wait — a
    practice game of their own, at once (El Peaje: its route in solitario)."""
    clock: float | None = None
    """The turn clock (seconds) strangers play with, where it is not the game's online
    default (El Peaje's rooms have none: strangers get 30 s, so that no one stalls a table)."""

    @property
    def rated(self) -> bool:
        return self.places is not None


def places_by_score(scores: list[int]) -> list[int]:
    """Places from scores, the highest first, equal scores tied.

    >>> places_by_score([10, -4, 10, 3])
    [1, 4, 1, 3]
    """
    return [1 + sum(1 for other in scores if other > mine) for mine in scores]


def players_field(config: Any, n: int) -> Any:
    """``with_seats`` for options whose ``players`` field is the number of seats."""
    return msgspec.structs.replace(config, players=n)


def one_winner(outcome: JSON) -> list[int]:
    """``{"winner": seat}`` → ``[seat]``; no winner (a draw, nobody) → ``[]``."""
    winner = outcome.get("winner") if isinstance(outcome, dict) else None
    return [winner] if type(winner) is int else []


Gettext = Callable[[str], str]


def deck_words(gettext: Gettext) -> JSON:
    """The French deck's words (:mod:`tapete.cards`, the one model of it) for a table page:
    each rank's name and each suit's (``ranks``, ``suits``), how a card's name is made of
    them (``card``) and, by rank, the article it takes in a sentence (``the_card``) — by
    rank and suit code, never a card's: a page's words name no card it may not see.

    >>> from tapete.i18n import translations
    >>> words = deck_words(translations("es").gettext)
    >>> words["card"], words["ranks"]["Q"], words["suits"]["S"], words["the_card"]["Q"]
    ('{rank} de {suit}', 'reina', 'picas', 'la {card}')
    """
    from tapete import cards

    codes = {rank: cards.RANK_CODES[rank - 2] for rank in cards.RANK_NAMES}
    return {
        "ranks": {codes[rank]: gettext(name) for rank, name in cards.RANK_NAMES.items()},
        "suits": {suit: gettext(name) for suit, name in cards.SUIT_NAMES.items()},
        "card": gettext(cards.CARD_NAME),
        "the_card": {
            code: gettext(cards.THE_CARD_FEMININE if rank in cards.FEMININE else cards.THE_CARD)
            for rank, code in codes.items()
        },
    }


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished game as one of its players' logros read it (:class:`Logro`): replayed
    from its log, every move with the events it made."""

    config: Any
    """The game's options (parsed)."""
    outcome: JSON
    seat: int
    """The player's seat."""
    won: bool
    """Among the winners (the game's ``winners``)."""
    moves: list[tuple[int, JSON, list[JSON]]]
    """Each move: the seat that made it, the move, the events it made."""
    bots: tuple[str | None, ...]
    """Each seat's bot level (None: a person)."""
    daily: bool = False
    """An attempt at a deal of the day."""
    upset: bool = False
    """A rated game whose other players were rated higher than this one, on average,
    before it."""

    def events(self, t: str, seat: int | None = None) -> list[JSON]:
        """The events of type ``t`` (made by ``seat``'s moves, if given), in order."""
        return [
            e for s, _, es in self.moves if seat is None or s == seat for e in es if e.get("t") == t
        ]


@dataclass(frozen=True, slots=True)
class Logro:
    """An achievement a game declares («Logros», :mod:`tapete.logros`): what each finished
    game of a player adds to it, and how much earns it."""

    key: str
    """Unique in the hall: ``<game>.<name>``."""
    title: str
    """Its name, a message id of the game's domain."""
    rule: str
    """The rule in plain words, a message id of the game's domain (``{goal}`` in it)."""
    icon: str
    count: Callable[[Finished], int]
    """What one finished game adds (0: nothing)."""
    goal: int = 1


@dataclass(frozen=True, slots=True)
class Daily:
    """The game's deal of the day («Reto del día», :mod:`tapete.daily`): the same options,
    bots and cards for everyone who plays it that day, and how a finished attempt ranks."""

    config: JSON
    """The options (read by the game's codec), the same every day."""
    level: str | None
    """The bots' level (None: a game without bots)."""
    result: Callable[[JSON, int, list[tuple[int, JSON]]], tuple[bool, int]]
    """From the outcome, the player's seat and the log (each move's seat and move): whether
    they won, and the number the day's table ranks by."""
    lower: bool = True
    """A lower number ranks first (moves, duels, misses); False: a higher (points)."""
    line: str = ""
    """What the deal is and what counts, a message id of the game's domain (the page)."""
    unit: tuple[str, str] = ("{n}", "{n}")
    """How the number reads: a message with plurals of the game's domain, ``{n}`` in it
    (:func:`tapete.i18n.Np_`)."""


@dataclass(frozen=True, slots=True)
class PassAndPlay:
    """The game on one device passed round 2–4 people (practice, no bots): whose hidden
    information the device may show now. Before it shows a seat's hand, the page asks
    for it to be handed over («Soy Ana»: :mod:`tapete.rooms.device`)."""

    holder: Callable[[Any], int | None]
    """From the state: the seat whose turn it is (the device is handed to them before it
    shows their hand); None: nothing is hidden from anyone now (La guerra; Rummy between
    hands), and a move from the device is made for every seat that must make it."""


@dataclass(frozen=True, slots=True)
class Guided:
    """A guided first game: a scripted deal where the table says, step by step, what to do
    and why, the player making each move (:mod:`tapete.rooms.guide`)."""

    position: JSON
    """The deal (docs/positions.md, «Guided first games»): the player sits at seat 0."""
    step: Callable[[Any, int], tuple[str, JSON] | None]
    """From the state and the player's seat: what the table says now — a message id of the
    game's domain and its parameters (worded as refusals are: ``GameSpec.params``) — or
    None (nothing to say)."""
    level: str | None = None
    """The bots' level (None: a game without bots)."""
    line: str = ""
    """What the guided game teaches, a message id of the game's domain (the setup page)."""


@functools.cache
def _page_words(build: Callable[[Gettext], JSON], domain: str, lang: str) -> JSON:
    from tapete.i18n import translations

    return build(translations(lang, domain).gettext)


@dataclass(frozen=True)
class GameSpec(Generic[C, S, M]):
    """Everything the generic layers know about a game, declared once, with the game."""

    key: str
    """The game's name in URLs, records and the catalog (its domain)."""
    rules: Rules[C, S, M]
    config: Codec[C]
    """The options: a :class:`Options` struct's codec (``bad_config`` on a bad one)."""
    moves: Codec[M]
    """The moves a client (or a clock) may send: a union of :class:`Move` structs."""
    hall: Hall
    messages: Mapping[str, str] = field(default_factory=dict)
    """Refusal codes of this game → Spanish message ids (with ``{param}`` placeholders)."""
    clocks: Mapping[str, Clock] = field(default_factory=dict)
    clock_moves: frozenset[str] = frozenset()
    """Move types only a clock may send; refused from clients."""
    bots_follow: bool = False
    """The computer acts after the players the step waits for, as if at once (La guerra)."""
    drafting: Drafting[S] | None = None
    timeouts: Callable[[S], list[int]] | None = None
    """Timeouts in a row by seat, if the game counts them (a bot stands in after a few)."""
    params: Callable[[str, Any, Callable[[str], str]], str] | None = None
    """Names a refusal's parameter in the player's language (a card code → «el as de
    picas»): ``params(name, value, gettext)``; None leaves every value as it is."""
    page_words: Callable[[Gettext], JSON] = deck_words
    """The words the game's table page names its pieces with, through the language's
    ``gettext`` (the game's domain): JSON the page receives (``tapete-words``) and shows as
    it is, so that no ES module holds a copy of the names. The default is the French deck's
    (:func:`deck_words`)."""
    guide: Guide | None = None
    read_form: Callable[[Any], JSON] | None = None
    """Reads the setup form into options JSON, where reading field by field (the default,
    from the options' types) is not enough."""
    online: Online[C] | None = None
    """None: the game has no private rooms (yet)."""
    quick: Quick[C] | None = None
    """None: strangers cannot be matched for it (it needs ``online`` too)."""
    absent: Callable[[S, int, bool], M | None] | None = None
    """A game without bots among friends: what is played for a seat whose player is away
    when it must act — ``absent(state, seat, gone)``, ``gone`` if they left the room rather
    than ran out of grace (El Peaje: the turn is skipped; in turnos rápidos one who left is
    out); None from it: the table waits. Such moves are among ``clock_moves``."""
    rematch: Callable[[C], C] | None = None
    """The options of the next game with the same players («Nueva partida»), where they
    change (El Peaje's two players swap roles); None: the same options."""
    winners: Callable[[JSON], list[int]] = field(default=lambda outcome: one_winner(outcome))
    """The seats that won a finished game, from its outcome (history and statistics); the
    default reads ``{"winner": seat or None}``."""
    stats: Callable[[JSON, int, list[tuple[int, JSON]]], dict[str, int]] | None = None
    """A seat's own figures of a finished game (the history sums them), from its outcome
    and its log (each move's seat and move): ``{name: count}``; names are keys of
    ``stat_names``."""
    stat_names: Mapping[str, str] = field(default_factory=dict)
    """Each figure of ``stats`` → its title (a message id of the game's domain)."""
    deal: Callable[[C, int], JSON] | None = None
    """How the deal of ``seed`` follows from it, for a browser to redo (the fair-deck page,
    docs/fairness.md): ``{"decks": {name: [codes]}, "steps": [...], "parts": [...]}``. The
    decks are in their fixed order before any shuffle; the steps, in the order ``new``
    makes its draws, are ``{"shuffle": name}`` (Fisher–Yates of that deck, in place, with
    :class:`tapete.rng.Rng`) or ``{"below": n, "want": k, "title", "seat"?}`` (a draw in
    ``range(n)`` that the game made ``k``); each part is a pile of the game's first state,
    ``{"title", "seat"?, "of": deck, "take": [positions], "cards": [codes], "sorted"?}``:
    its cards are the shuffled deck's at those positions (in any order if ``sorted``).
    Titles are message ids of the game's domain (``{name}``: the seat's name); an item
    with a ``seat`` may give ``yours``, its title for that seat's own player («Tu montón»,
    never «Montón de Tú»)."""
    fair_words: Mapping[str, str] = field(default_factory=dict)
    """The fair-deck page's words where the game is not played with a deck of cards
    (Rummy's tiles): message ids of the game's domain for the page's ``title``, ``lead``,
    ``redo``, ``shuffling``, ``order`` and ``deal_match``, the links to it (``check``) and
    the table's note of the commitment (``committed``); a word not given is the page's own,
    of a deck of cards."""
    daily: Daily | None = None
    """The deal of the day (None: the game has none)."""
    logros: tuple[Logro, ...] = ()
    """The game's achievements, in the order the player sees them."""
    guided: Guided | None = None
    """The guided first game (None: the game has none)."""
    pass_and_play: PassAndPlay | None = None
    """The game on one device passed round (None: not offered; El Peaje plays one phone
    within its own rules)."""
    reveal: Callable[[S], JSON] | None = None
    """What the table hid while the game was played (the others' hands, the next card to
    turn), shown in its replay once it is over: JSON the game's page draws over a seat's
    view, as ``view["revealed"]``; None: the game hides nothing a replay could show."""

    def parse_move(self, data: Any) -> M:
        return self.moves.decode(data)

    def parse_config(self, data: Any) -> C:
        return self.config.decode(data if data is not None else {})

    def config_json(self, config: C) -> JSON:
        return self.config.encode(config)

    def move_json(self, move: M) -> JSON:
        return self.moves.encode(move)

    def describe(self, exc: IllegalMove, lang: str) -> str:
        """A refusal of this game in the player's words; a wrong option (``bad_config``)
        named by its title on the setup page, never by the codec's own text."""
        from tapete.i18n import text
        from tapete.i18n.errors import FIELDS, describe

        if exc.code == "bad_config":
            root = re.split(r"[\[.]", str(exc.params.get("field", "")), maxsplit=1)[0]
            title = option_titles(self.config.type).get(root) or FIELDS.get(root)
            if title is None:
                return describe("bad_config_any", lang)
            words = text(self.key, lang, title)
            return describe(exc.code, lang, self.key, self.messages, None, field=words)
        return describe(exc.code, lang, self.key, self.messages, self.params, **exc.params)

    def words(self, lang: str) -> JSON:
        """:attr:`page_words` in ``lang``, built once per language."""
        return _page_words(self.page_words, self.key, lang)

    def word_draft(self, report: JSON, lang: str) -> JSON:
        """A draft's report (:meth:`Drafting.check`) with its words in ``lang``: each
        error's ``message`` (the refusal it would be) and each set's ``why`` (its reason in
        words; None for a valid set). The page shows them as they come."""
        from tapete.i18n import translations

        gettext = translations(lang, self.key).gettext

        def why(reason: Any) -> str | None:
            if reason is None:
                return None
            return self.params("reason", reason, gettext) if self.params else str(reason)

        return {
            **report,
            "errors": [
                {**e, "message": self.describe(IllegalMove(e["code"], **e["params"]), lang)}
                for e in report["errors"]
            ],
            "sets": [{**s, "why": why(s["reason"])} for s in report["sets"]],
        }
