"""One Card: the rules, pure — the state, ``apply``, what a seat sees, positions and
clocks; the options, the moves and the position format are the structs of
:mod:`tapete.games.onecard.structs`. This module is plain Python that mypyc
compiles where a C compiler is at hand (``setup.py``; :mod:`tapete.games.onecard` says which
one runs).

Cards are the integers of :mod:`tapete.games.onecard.pieces` (``suit * 13 + rank - 2``,
the index of :mod:`tapete.cards`; ``52`` and ``53`` the jokers of the house rule). On the
wire and in positions they are text codes: ``"7H"``, ``"AS"``, ``"JK1"`` (a move's card is
a :class:`~tapete.games.onecard.pieces.Card`, an ``int`` that reads and writes its code).

Moves (:class:`~tapete.games.protocol.Move` structs, one codec, :data:`MOVES`):

* :class:`Play` a card (a 7 names the next suit: ``Play(card, suit)``);
* :class:`Draw`: one card when nothing fits, or the whole attack;
* :class:`Call`: "One Card", while holding two cards, or right after the play that left one;
* :class:`Catch` a player left with one card who did not call (they draw the penalty);
* clock moves the room applies, never a client: :class:`CloseWindow`, :class:`Timeout`.

The rules write no sentence: a refusal is a code with codes for parameters
(``IllegalMove("no_match", card="9C", suit="D", rank="5")``) that the descriptor names in
the player's language (:mod:`tapete.games.onecard.names`).

>>> s = load({"hands": ["5H 9C KD", "5S 2D 3D"], "discard": "5D", "stock": "4C 4D 4S"})
>>> [str(m) for m in legal_moves(s, 0)]
['5H', 'KD']
>>> _ = apply(s, 0, Play(card("KD")))
>>> s.attack, s.turn, [str(m) for m in legal_moves(s, 1)]
(2, 1, ['draw'])
>>> from tapete.games.onecard.structs import move
>>> move({"type": "play", "card": "7H", "suit": "S"})
move({'type': 'play', 'card': '7H', 'suit': 'S'})
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final

import msgspec

from tapete.games.onecard.pieces import (
    ANY_SUIT,
    CODES,
    FOLLOW,
    FOLLOW_CODES,
    RANK_CODES,
    SUIT_CODES,
    VOIDS,
    card,  # noqa: F401 (the doctests read cards)
    code,
    fmt,
    pile_cards,
    rank_of,
    suit_of,
)
from tapete.games.onecard.structs import (
    CALL,
    CARD_MOVES,
    CATCHES,
    DRAW,
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
    Timeout,
    config_json,
    parse_config,
)
from tapete.games.protocol import JSON, Event, IllegalMove
from tapete.rng import Rng

HAND_SIZE: Final = 7
TURN_LIMIT: Final = 1000
"""A hand still going after this many turns ends (Tapete's call; RULES.md is silent): with
nearly every card in the hands, attacks can go round for ever. Fewest cards wins; a tie
goes to the first of them in playing order from the player to move."""


# --- the state -------------------------------------------------------------------------


@dataclass(slots=True)
class State:
    config: Config
    hands: list[list[int]]
    stock: list[int]
    """The top of the stock is the end of the list."""
    discard: list[int]
    """The top card is the end of the list."""
    rng: Rng
    turn: int = 0
    direction: int = 1
    suit: int = 0
    """The suit to follow: the top card's, the one a 7 named, or ANY_SUIT after a joker."""
    attack: int = 0
    """Cards the player to move must draw unless they pass the attack on."""
    called: list[bool] = field(default_factory=list)
    exposed: list[int] = field(default_factory=list)
    """Players left with one card who did not call: any other player may catch them."""
    turns: int = 0
    """Turns begun, to tell one turn's clock from the next."""
    timeouts: list[int] = field(default_factory=list)
    """Timeouts in a row, by seat."""
    voids: list[int] = field(default_factory=list)
    """By seat, a bitmask of suits they were seen not to have (they drew on it)."""
    seen: list[int] = field(default_factory=lambda: [0] * 15)
    """Cards seen played by rank (index 0: jokers; the first discard included) and still in
    the discard pile, for counting attack cards: a reshuffle puts them back among the
    unseen."""
    log: list[JSON] = field(default_factory=list)
    result: JSON | None = None

    @property
    def top(self) -> int:
        return self.discard[-1]

    def copy(self) -> State:
        """The same hand to play on, sharing nothing that a move changes (a bot's search
        plays several moves from one position)."""
        return State(
            config=self.config,
            hands=[list(h) for h in self.hands],
            stock=list(self.stock),
            discard=list(self.discard),
            rng=Rng(self.rng.state),
            turn=self.turn,
            direction=self.direction,
            suit=self.suit,
            attack=self.attack,
            called=list(self.called),
            exposed=list(self.exposed),
            turns=self.turns,
            timeouts=list(self.timeouts),
            voids=list(self.voids),
            seen=list(self.seen),
            log=list(self.log),
            result=None if self.result is None else dict(self.result),
        )


def cut(config: Config, rng: Rng) -> tuple[list[int], int, int]:
    """Shuffle until the stock has a card that may open the discard: the deck as shuffled,
    that card's place in the stock (from its bottom), and how many shuffles it took."""
    deck = list(range(54 if config.jokers else 52))
    times = 0
    while True:  # (with every house rule on, a stock of specials only is ~1e-11 likely)
        rng.shuffle(deck)
        times += 1
        stock = deck[config.players * HAND_SIZE :]
        # the first discard: the first card from the top of the stock that is 2–6 or 8–10
        found = next((i for i in range(len(stock) - 1, -1, -1) if _plain(config, stock[i])), -1)
        if found >= 0:
            return deck, found, times


def new(config: Config, seed: int) -> State:
    """Shuffle, deal seven each, and turn up the first card of the stock that is not special."""
    rng = Rng.from_seed(seed)
    n = config.players
    deck, found, _ = cut(config, rng)
    hands = [deck[i * HAND_SIZE : (i + 1) * HAND_SIZE] for i in range(n)]
    stock = deck[n * HAND_SIZE :]
    first = stock.pop(found)
    state = State(
        config=config, hands=hands, stock=stock, discard=[first], rng=rng, suit=suit_of(first),
        called=[False] * n, timeouts=[0] * n, voids=[0] * n,
    )  # fmt: skip
    state.seen[rank_of(first)] += 1
    state.turn = rng.below(n)
    state.turns = 1
    return state


def _plain(config: Config, c: int) -> bool:
    r = rank_of(c)
    return 2 <= r <= 10 and r != 7 and not config.special(c)


def _next(state: State, seat: int, steps: int = 1) -> int:
    return (seat + state.direction * steps) % len(state.hands)


def fit_mask(top: int, suit: int, attack: bool, blocks: bool = False) -> int:
    """The cards that may go on ``top`` now, as bits (card ``c`` is bit ``c``): the one
    answer to "does this card fit" for the engine and its bots.

    ``suit`` is the suit to follow (the top card's, the one a 7 named, or ANY_SUIT after a
    joker). Under an attack only a card of the same rank passes it on (a joker always);
    ``blocks``: the 3s of ``suit`` that stop it (house rule), and nothing else.

    >>> bin(fit_mask(card("5D"), 1, False)).count("1")  # 12 more diamonds, 3 fives, 2 jokers
    18
    """
    mask = 0
    for c in range(54):
        if c >= 52:
            ok = not blocks
        elif blocks:
            ok = top < 52 and c % 13 == 1 and c // 13 == suit
        elif attack:
            ok = top < 52 and c % 13 == top % 13
        else:
            ok = suit == ANY_SUIT or top >= 52 or c // 13 == suit or c % 13 == top % 13
        if ok:
            mask |= 1 << c
    return mask


def _table(attack: bool, blocks: bool = False) -> tuple[bytes, ...]:
    """:func:`fit_mask` for every top card and suit to follow, as bytes (``t[top * 5 + suit +
    1][card]`` is 1 where the card fits): worked out once, looked up by the hot loops."""
    masks = (fit_mask(t, s, attack, blocks) for t in range(54) for s in range(-1, 4))
    return tuple(bytes(m >> c & 1 for c in range(54)) for m in masks)


_PLAIN: Final = _table(False)
_ATTACK: Final = _table(True)
_BLOCKS: Final = _table(True, True)
FIT_TABLES: Final = (_PLAIN, _ATTACK, _BLOCKS)
"""The tables for searching bots that simulate the rules in a loop of their own: plain,
under attack, the 3s that block it (``table[top * 5 + suit + 1][card]``; the rows of
:func:`fit_row`)."""
_ATTACK_OR_BLOCK: Final = tuple(
    bytes(a | b for a, b in zip(x, y, strict=True)) for x, y in zip(_ATTACK, _BLOCKS, strict=True)
)


def fit_row(top: int, suit: int, attack: bool, three_blocks: bool = False) -> bytes:
    """For each card (by index), 1 if it may go on ``top`` now: the same answer as
    :func:`fit_mask`, looked up (the bots ask it in their hot loops).

    >>> fit_row(card("KH"), 0, True)[card("KS")], fit_row(card("KH"), 0, True)[card("5H")]
    (1, 0)
    """
    i = top * 5 + suit + 1
    if attack:
        return _ATTACK_OR_BLOCK[i] if three_blocks else _ATTACK[i]
    return _PLAIN[i]


def playable(state: State, seat: int) -> list[int]:
    """The cards of ``seat``'s hand that may be played now, in the hand's order (a 3 that
    stops an attack after the rest); on its turn, ``seat`` may draw only if there are
    none."""
    hand = state.hands[seat]
    i = state.discard[-1] * 5 + state.suit + 1  # (the discard's row of the tables above)
    if state.attack:
        fits = _ATTACK[i]
        out = [c for c in hand if fits[c]]
        if state.config.three_blocks:
            blocks = _BLOCKS[i]
            out += [c for c in hand if blocks[c]]
    else:
        fits = _PLAIN[i]
        out = [c for c in hand if fits[c]]
    if len(hand) == 1 and out and state.config.no_special_finish and state.config.special(out[0]):
        return []
    return out


def actors(state: State) -> list[int]:
    """The player to move, plus anyone who may call or catch right now."""
    if state.result is not None:
        return []
    turn, called, exposed = state.turn, state.called, state.exposed
    out = [
        seat
        for seat, hand in enumerate(state.hands)
        if seat == turn
        or (not called[seat] and (len(hand) == 2 or seat in exposed))
        or (exposed and any(t != seat for t in exposed))
    ]
    if not 0 <= turn < len(state.hands):  # never in a real game
        out = sorted({turn, *out})
    return out


def legal_moves(state: State, seat: int) -> list[Move]:
    """Plays (by card; a 7 once per suit), then draw, then call, then catches."""
    if state.result is not None:
        return []
    moves: list[Move]
    hand = state.hands[seat]
    exposed = state.exposed
    if seat == state.turn:
        fitting = playable(state, seat)
        if not fitting:
            moves = [DRAW]
        elif len(fitting) == 1:
            moves = list(CARD_MOVES[fitting[0]])
        else:
            fitting.sort()
            moves = []
            for c in fitting:
                moves += CARD_MOVES[c]
    else:
        moves = []
    if not state.called[seat] and (len(hand) == 2 or seat in exposed):
        moves.append(CALL)
    if exposed:
        for t in exposed:
            if t != seat:
                moves.append(CATCHES[t])
    return moves


def apply(state: State, seat: int, move: Move) -> list[Event]:
    """Apply ``move`` for ``seat``. Raises IllegalMove, leaving the state untouched."""
    if state.result is not None:
        raise IllegalMove("game_over")
    if not 0 <= seat < len(state.hands):
        raise IllegalMove("not_your_turn")
    kind = type(move)
    if kind is Play:
        return _play(state, seat, move, timeout=False)  # type: ignore[arg-type]
    if kind is Draw:
        return _draw_move(state, seat, timeout=False)
    if isinstance(move, Call):
        return _call(state, seat)
    if isinstance(move, Catch):
        return _catch(state, seat, move.target)
    if isinstance(move, CloseWindow):
        if move.target not in state.exposed:
            raise IllegalMove("no_window")
        state.exposed.remove(move.target)
        return [{"t": "window_closed", "seat": move.target}]
    if isinstance(move, Timeout):
        return _timeout(state, seat)
    raise IllegalMove("unknown_move")


def _play(state: State, seat: int, move: Play, *, timeout: bool) -> list[Event]:
    if seat != state.turn:
        raise IllegalMove("not_your_turn")
    cfg = state.config
    hand = state.hands[seat]
    try:
        at = hand.index(move.card)
    except ValueError:
        raise IllegalMove("not_in_hand", card=code(move.card)) from None
    c = hand[at]  # the hand's own int (the move's is a Card)
    i = state.discard[-1] * 5 + state.suit + 1  # (does it fit? as playable() reads it)
    if not (
        (_ATTACK[i][c] or (cfg.three_blocks and _BLOCKS[i][c])) if state.attack else _PLAIN[i][c]
    ):
        raise _no_fit(state, c)
    if len(hand) == 1 and cfg.no_special_finish and cfg.special(c):
        raise IllegalMove("special_finish")
    r = 0 if c >= 52 else c % 13 + 2  # rank_of(c)
    if r == 7 and not 0 <= move.suit < 4:
        raise IllegalMove("seven_needs_suit")
    # the move is legal: change the state
    del hand[at]
    state.discard.append(c)
    state.seen[r] += 1
    state.timeouts[seat] = state.timeouts[seat] + 1 if timeout else 0
    s = -1 if c >= 52 else c // 13  # suit_of(c)
    if s >= 0:
        state.voids[seat] &= ~(1 << s)
    state.suit = int(move.suit) if r == 7 else (ANY_SUIT if s < 0 else s)
    event: Event = {"t": "play", "seat": seat, "card": CODES[c] if 0 <= c < 54 else code(c)}
    if r == 7:
        event["suit"] = SUIT_CODES[state.suit]
    value = cfg.attack_value(c) if r == 0 or r == 2 or r >= 13 else 0
    if value:
        state.attack += value
        event["attack"] = state.attack
    elif r == 3 and cfg.three_blocks and state.attack:
        state.attack = 0
        event["blocked"] = True
    if timeout:
        event["timeout"] = True
    events = [event]
    if not hand:
        _finish(state, seat, events)
        return events
    left = len(hand)
    if left > 2:
        state.called[seat] = False
    elif left == 1 and not state.called[seat] and seat not in state.exposed:
        state.exposed.append(seat)
        events.append({"t": "window", "seat": seat})
    # whose turn next (``_next`` and ``_log`` inlined)
    n = len(state.hands)
    direction = state.direction
    if r == 11:  # J: skip the next player (with two, you play again)
        nxt = (seat + direction * 2) % n
        event["skips"] = (seat + direction) % n
    elif r == 12:  # Q: reverse (with two, nothing changes)
        if n > 2:
            state.direction = direction = -direction
        nxt = (seat + direction) % n
    elif r == 13 and cfg.king_again:
        nxt = seat
    else:
        nxt = (seat + direction) % n
    if state.attack:
        event["target"] = nxt
    state.turn = nxt
    state.turns += 1
    log = state.log
    log.append(event)  # a play has no secret
    if len(log) > 12:
        del log[0]
    if state.turns > TURN_LIMIT:
        _stop_at_limit(state, events)
    return events


def _no_fit(state: State, c: int) -> IllegalMove:
    """Why ``c`` does not fit, in codes: the card, and what would (the suit to follow and the
    top card's rank; under attack, the attacking rank)."""
    top = state.discard[-1]
    rank = RANK_CODES[top % 13] if top < 52 else "JK"
    if state.attack:
        return IllegalMove("must_answer_attack", card=code(c), attack=state.attack, attacker=rank)
    suit = "*" if state.suit < 0 else SUIT_CODES[state.suit]
    return IllegalMove("no_match", card=code(c), suit=suit, rank=rank)


def _draw_move(state: State, seat: int, *, timeout: bool) -> list[Event]:
    if seat != state.turn:
        raise IllegalMove("not_your_turn")
    if playable(state, seat):
        raise IllegalMove("must_play" if not state.attack else "must_pass_attack")
    event: Event = {"t": "draw", "seat": seat}
    if state.attack:
        want = state.attack
        state.attack = 0
        event["attack"] = True
    else:
        want = 1
        suit = state.suit
        hand = state.hands[seat]
        # (nothing fits, so a hand of two or more cards has none of the suit: no need to look)
        if suit >= 0 and (len(hand) > 1 or not any(c < 52 and c // 13 == suit for c in hand)):
            state.voids[seat] |= 1 << suit  # public: they had nothing of that suit
    stock = state.stock
    if want == 1 and stock:  # the usual draw, ``_take`` inlined
        c = stock.pop()
        hand = state.hands[seat]
        hand.append(c)
        if len(hand) > 2:
            state.called[seat] = False
        if len(hand) > 1 and seat in state.exposed:
            state.exposed.remove(seat)
        event["n"] = 1
        public = event.copy()
        event["secret"] = [CODES[c] if 0 <= c < 54 else code(c)]
    else:
        got = _take(state, seat, want)
        event["n"] = len(got)
        public = event.copy()
        event["secret"] = [CODES[c] if 0 <= c < 54 else code(c) for c in got]
    if timeout:
        event["timeout"] = public["timeout"] = True
    state.timeouts[seat] = state.timeouts[seat] + 1 if timeout else 0
    state.turn = (seat + state.direction) % len(state.hands)  # the next seat
    state.turns += 1
    log = state.log  # _log(state, event), the secret left out
    log.append(public)
    if len(log) > 12:
        del log[0]
    events = [event]
    if state.turns > TURN_LIMIT:
        _stop_at_limit(state, events)
    return events


def _take(state: State, seat: int, n: int) -> list[int]:
    """Draw ``n`` cards (reshuffling the discard under the top card when the stock runs out;
    with nothing left, what there is)."""
    got: list[int] = []
    for _ in range(n):
        if not state.stock:
            if len(state.discard) <= 1:
                break
            state.stock = state.discard[:-1]
            state.discard = state.discard[-1:]
            for c in state.stock:  # back in the stock: unseen again
                r = 0 if c >= 52 else c % 13 + 2
                state.seen[r] = max(0, state.seen[r] - 1)
            state.rng.shuffle(state.stock)
        got.append(state.stock.pop())
    hand = state.hands[seat]
    hand.extend(got)
    if len(hand) > 2:
        state.called[seat] = False
    if len(hand) > 1 and seat in state.exposed:
        state.exposed.remove(seat)
    return got


def _call(state: State, seat: int) -> list[Event]:
    hand = state.hands[seat]
    if state.called[seat] or not (len(hand) == 2 or seat in state.exposed):
        raise IllegalMove("cannot_call")
    state.called[seat] = True
    if seat in state.exposed:
        state.exposed.remove(seat)
    event: Event = {"t": "call", "seat": seat}
    _log(state, event)
    return [event]


def _catch(state: State, seat: int, target: int) -> list[Event]:
    if target == seat or target not in state.exposed:
        raise IllegalMove("nothing_to_catch")
    state.exposed.remove(target)
    got = _take(state, target, state.config.penalty)
    event: Event = {
        "t": "caught", "seat": target, "by": seat, "n": len(got),
        "secret": [code(c) for c in got],
    }  # fmt: skip
    _log(state, event)
    return [event]


def _timeout(state: State, seat: int) -> list[Event]:
    """Draw if drawing is allowed (or take the attack); else play the first legal card,
    a 7 naming the suit held most."""
    if seat != state.turn:
        raise IllegalMove("not_your_turn")
    fitting = playable(state, seat)
    if not fitting:
        return _draw_move(state, seat, timeout=True)
    c = min(fitting)
    if rank_of(c) != 7:
        return _play(state, seat, PLAYS[c], timeout=True)
    counts = [0, 0, 0, 0]
    for x in state.hands[seat]:
        if x != c and x < 52:
            counts[x // 13] += 1
    suit = max(range(4), key=lambda s: (counts[s], -s)) if any(counts) else suit_of(c)
    return _play(state, seat, SEVENS[c][suit], timeout=True)


def _log(state: State, event: Event) -> None:
    """Keep the last 12 public entries (a drawn card's face is not public)."""
    log = state.log
    if "secret" in event:
        event = dict(event)
        del event["secret"]
    log.append(event)
    if len(log) > 12:
        del log[0]


def _finish(state: State, winner: int, events: list[Event]) -> None:
    left = [len(h) for h in state.hands]
    order = sorted(range(len(left)), key=lambda s: (left[s], s))
    ranks = [0] * len(left)
    for s in order:
        ranks[s] = 1 + sum(1 for x in left if x < left[s])
    state.exposed.clear()
    state.result = {"winner": winner, "left": left, "ranks": ranks}
    events.append({"t": "end", **state.result})
    _log(state, events[0])


def _stop_at_limit(state: State, events: list[Event]) -> None:
    """End the hand at :data:`TURN_LIMIT`: fewest cards wins (a tie: the first of them to
    play from here on), the others ranked by cards left."""
    left = [len(h) for h in state.hands]
    n = len(left)
    order = [(state.turn + state.direction * k) % n for k in range(n)]
    winner = min(order, key=lambda s: left[s])
    ranks = [1 + sum(1 for x in left if x < left[s]) for s in range(n)]
    state.exposed.clear()
    state.result = {"winner": winner, "left": left, "ranks": ranks, "limit": TURN_LIMIT}
    event: Event = {"t": "turn_limit", "turns": TURN_LIMIT}
    events.append(event)
    _log(state, event)
    events.append({"t": "end", **state.result})


def outcome(state: State) -> JSON | None:
    return state.result


# --- what a seat sees ------------------------------------------------------------------


def view(state: State, seat: int | None) -> JSON:
    """Your hand; the others' counts; the discard's top, the stock's size; never the
    order of the stock nor another hand."""
    top = state.discard[-1]
    # sorted by suit, then rank, jokers last: ``key=_sort_key``, which is the cards' own order
    hand = sorted(state.hands[seat]) if seat is not None else None
    return {
        "game": "onecard",
        "config": dict(_config_json(state.config)),
        "seat": seat,
        "hand": [CODES[c] if 0 <= c < 54 else code(c) for c in hand] if hand is not None else None,
        "counts": [len(h) for h in state.hands],
        "top": code(top),
        "discard": len(state.discard),
        "stock": len(state.stock),
        "turn": state.turn,
        "turns": state.turns,
        "direction": state.direction,
        "suit": SUIT_CODES[state.suit] if state.suit >= 0 else None,
        "named": _named_suit(state),
        "attack": state.attack,
        "target": state.turn if state.attack else None,
        "called": list(state.called),
        "exposed": list(state.exposed),
        "timeouts": list(state.timeouts),
        "voids": [list(VOIDS[v & 15]) for v in state.voids],
        "seen": {"K": state.seen[13], "A": state.seen[14], "2": state.seen[2],
                 "JK": state.seen[0]},
        "log": _shown(state),
        "actors": actors(state),
        "legal": [_json(m) for m in legal_moves(state, seat)] if seat is not None else [],
        "result": state.result,
    }  # fmt: skip


@cache
def _config_json(config: Config) -> JSON:
    """``config_json``, once per set of options (every view writes them)."""
    return config_json(config)


_JSON: Final = {
    id(m): m.to_json()
    for m in (*PLAYS, *(m for ms in SEVENS.values() for m in ms), DRAW, CALL, *CATCHES)
}
"""The JSON of every move ``legal_moves`` gives (they are these very objects), by ``id``."""


def _json(m: Move) -> JSON:
    """``m.to_json()``, from :data:`_JSON` (a copy) for the moves that are there."""
    found = _JSON.get(id(m))
    return found.copy() if found is not None else m.to_json()


def _named_suit(state: State) -> str | None:
    """The suit to follow when it is not the top card's own (a 7 named it): the page shows it."""
    s, top = state.suit, state.discard[-1]
    if s < 0 or (top < 52 and top % 13 != 5 and top // 13 == s):
        return None
    return SUIT_CODES[s]


def _shown(state: State) -> list[JSON]:
    """The log as the page shows it: a Q that turned the direction round says so (with two
    players a Q changes nothing)."""
    if len(state.hands) < 3:
        return list(state.log)
    return [{**e, "reverse": True} if e.get("card") in _QUEENS else e for e in state.log]


_QUEENS: Final = frozenset(code(c) for c in range(52) if rank_of(c) == 12)


def _sort_key(c: int) -> tuple[int, int]:
    return (4, c) if c >= 52 else (c // 13, c % 13)


# --- positions ---------------------------------------------------------------------------


def dump(state: State) -> JSON:
    """The position as JSON; ``load(dump(s))`` is the same hand. (``POSITIONS.encode``
    without its pass turning tuples into lists: a position holds none, and that pass costs
    three times the rest.)"""
    out: JSON = msgspec.to_builtins(
        Position(
            config=config_json(state.config),
            hands=[fmt(h) for h in state.hands],
            stock=fmt(state.stock),
            discard=fmt(state.discard),
            turn=state.turn,
            direction=1 if state.direction == 1 else -1,
            suit=FOLLOW_CODES[state.suit],
            attack=state.attack,
            called=state.called,
            exposed=state.exposed,
            turns=state.turns,
            timeouts=state.timeouts,
            voids=state.voids,
            seen=state.seen,
            log=state.log,
            rng=state.rng.state,
            result=state.result,
        )
    )
    return out


def load(data: JSON) -> State:
    """Read a position (:class:`Position`): the stock defaults to empty, the suit to the top
    card's, the turn to seat 0; a bad field is ``IllegalMove("bad_move", field=…)``."""
    p = POSITIONS.decode(data)
    hands = [pile_cards(h) for h in p.hands]
    n = len(hands)
    config = parse_config(p.config)
    if config.players != n:
        config = parse_config({**config_json(config), "players": n})
    discard = pile_cards(p.discard)
    if not discard:
        raise IllegalMove("bad_move", field="discard")
    return State(
        config=config,
        hands=hands,
        stock=pile_cards(p.stock),
        discard=discard,
        rng=Rng(p.rng),
        turn=p.turn,
        direction=p.direction,
        suit=suit_of(discard[-1]) if p.suit is None else FOLLOW[p.suit],
        attack=p.attack,
        called=[False] * n if p.called is None else p.called,
        exposed=p.exposed,
        turns=p.turns,
        timeouts=[0] * n if p.timeouts is None else p.timeouts,
        voids=[0] * n if p.voids is None else p.voids,
        seen=[0] * 15 if p.seen is None else p.seen,
        log=p.log,
        result=p.result,
    )


def all_cards(state: State) -> list[int]:
    return [c for h in state.hands for c in h] + state.stock + state.discard


def clocks(state: State) -> list[tuple[str, int, Any]]:
    """The clocks the room should run now: ``(kind, seat, instance)``. ``turn`` runs for the
    player to move (instance: the turn number); ``window`` for each catch window."""
    if state.result is not None:
        return []
    out: list[tuple[str, int, Any]] = [("turn", state.turn, state.turns)]
    out += [("window", s, None) for s in state.exposed]
    return out


def clock_move(kind: str, seat: int) -> Move:
    """The move the room applies when a clock of :func:`clocks` runs out."""
    if kind == "window":
        return WINDOWS[seat]
    if kind == "turn":
        return TIMEOUT
    raise ValueError(f"no clock {kind!r}")
