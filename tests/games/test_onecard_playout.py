"""One Card: seeded random playouts through the public protocol, checking invariants.

A thousand 2-, 3- and 4-player games, half of them with random house rules. The mover is
usually the seat to play, sometimes any seat of ``actors`` (so calls and catches happen),
sometimes the room's clocks (``Timeout``, ``CloseWindow``). After every move:

- every card of the deck (52, or 54 with jokers) is somewhere, each exactly once;
- the table is sound: turn in range, direction ±1, attack ≥ 0 and only on an attack card,
  the suit to follow matches the top card, exposed seats hold exactly one card and have not
  called, ``actors`` are exactly the seats with a legal move;
- the events carry a drawn card only in ``secret``, and only the cards that seat received.

On a sample of moves (every move in one game in ``FULL_CHECK_EVERY``), for every seat's
``view`` and the spectator's: ``hand`` is exactly that seat's hand, sorted; no other field
lists a card that is in another seat's hand or in the stock (card codes are compared as
whole JSON strings, never as substrings: ``"10H"`` contains ``"0H"``); log entries carry
no drawn card, only the public card of a play; and the view does not change when the stock
is reordered. Sampled illegal moves raise and leave ``dump`` unchanged; a dump loaded
mid-game plays on to exactly the same end. Every game ends within ``CAP`` moves.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from tapete.games import onecard
from tapete.games.onecard import Call, Catch, CloseWindow, Draw, Play, Timeout
from tapete.games.protocol import Event, IllegalMove

GAMES = 1000
FULL_CHECK_EVERY = 20
"""One game in this many gets the view checks after every move; the others every
``SAMPLE`` moves."""
SAMPLE = 40
DUMP_EVERY = 15
"""One game in this many is dumped mid-game, loaded and played on with the same moves."""
PROBE = 0.04
"""The share of moves before which an illegal move is tried (and must change nothing)."""
CAP = 5_000
"""Moves per game; random play ends sooner (about 100 moves on average, under 2,000 at most)."""

ALL_CODES = frozenset(onecard.code(c) for c in range(54))
STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
"""A JSON string literal; its content is compared whole against the card codes."""


def random_config(r: random.Random) -> onecard.Config:
    data: dict[str, Any] = {"players": r.choice((2, 2, 3, 4))}
    if r.random() < 0.5:
        for name in onecard.OPTIONS:
            data[name] = r.random() < 0.35
        data["penalty"] = r.choice((1, 2, 2, 3, 5))
    return onecard.parse_config(data)


# --- checks ----------------------------------------------------------------------------


def check_cards(state: onecard.State) -> None:
    cards = onecard.all_cards(state)
    size = 54 if state.config.jokers else 52
    assert len(cards) == size, len(cards)
    assert set(cards) == set(range(size)), "a card lost or duplicated"


def check_table(state: onecard.State) -> None:
    cfg = state.config
    n = len(state.hands)
    assert n == cfg.players
    assert 0 <= state.turn < n and state.direction in (1, -1)
    assert state.attack >= 0 and all(t >= 0 for t in state.timeouts)
    assert state.discard, "the discard is never empty"
    top = state.top
    if state.attack:
        assert cfg.attack_value(top) > 0, "an attack on a card that does not attack"
    r = onecard.rank_of(top)
    if r == 0:
        assert state.suit == onecard.ANY_SUIT
    elif r == 7:
        assert 0 <= state.suit < 4
    else:
        assert state.suit == onecard.suit_of(top)
    assert len(set(state.exposed)) == len(state.exposed)
    for seat in state.exposed:
        assert len(state.hands[seat]) == 1 and not state.called[seat]
    if state.result is None:
        assert all(state.hands), "an empty hand and the game goes on"
        actors = onecard.actors(state)
        assert state.turn in actors
        with_moves = [s for s in range(n) if onecard.legal_moves(state, s)]
        assert actors == with_moves
    else:
        check_end(state)


def check_end(state: onecard.State) -> None:
    result = onecard.outcome(state)
    assert result is not None
    winner = result["winner"]
    left = [len(h) for h in state.hands]
    if "limit" in result:  # stopped at the turn limit: fewest cards wins
        assert state.turns == onecard.TURN_LIMIT + 1 and left[winner] == min(left) > 0
    else:
        assert left[winner] == 0 and sum(x == 0 for x in left) == 1
    assert result["left"] == left
    assert result["ranks"] == [1 + sum(y < x for y in left) for x in left]
    assert onecard.actors(state) == [] and state.exposed == []
    assert all(onecard.legal_moves(state, s) == [] for s in range(len(left)))


def check_events(
    state: onecard.State, events: list[Event], sizes: list[int], seat: int, move: Any
) -> None:
    """Only ``secret`` carries drawn cards, exactly the ones added to that hand."""
    for e in events:
        kind = e["t"]
        if kind in ("draw", "caught"):
            who = e["seat"]
            got = state.hands[who][sizes[who] :]
            assert e["secret"] == [onecard.code(c) for c in got]
            assert e["n"] == len(got)
            if kind == "caught":
                assert e["by"] == seat and isinstance(move, Catch) and move.target == who
                assert len(got) <= state.config.penalty
        else:
            assert "secret" not in e
        assert not any(has_code(v) for k, v in e.items() if k not in ("secret", "card")), e
        if kind == "play":
            assert e["seat"] == seat
            if isinstance(move, Play):
                assert e["card"] == onecard.code(move.card) and "timeout" not in e


def codes_in(value: Any) -> set[str]:
    """Every JSON string in ``value`` (keys included) that is a whole card code."""
    return set(STRING.findall(json.dumps(value))) & ALL_CODES


def has_code(value: Any) -> bool:
    """Whether ``value`` holds a card code as a whole string (the fast form for the small,
    flat dicts of events and log entries)."""
    if isinstance(value, str):
        return value in ALL_CODES
    if isinstance(value, list):
        return any(map(has_code, value))
    if isinstance(value, dict):
        return any(map(has_code, value.values())) or any(map(has_code, value))
    return False


def sort_key(c: int) -> tuple[int, int]:
    return (4 if c >= 52 else c // 13, c)


def check_views(state: onecard.State, played: set[str], order: bool) -> None:
    n = len(state.hands)
    stock = {onecard.code(c) for c in state.stock}
    for seat in [*range(n), None]:
        v = onecard.view(state, seat)
        assert v["seat"] == seat and v["game"] == "onecard"
        hidden = set(stock)
        for other in range(n):
            if other != seat:
                hidden |= {onecard.code(c) for c in state.hands[other]}
        if seat is None:
            assert v["hand"] is None and v["legal"] == []
            own: set[str] = set()
        else:
            mine = state.hands[seat]
            assert v["hand"] == [onecard.code(c) for c in sorted(mine, key=sort_key)]
            own = set(v["hand"])
            assert {m["card"] for m in v["legal"] if "card" in m} <= own
        assert v["top"] == onecard.code(state.top)
        assert v["counts"] == [len(h) for h in state.hands]
        assert v["stock"] == len(state.stock) and v["discard"] == len(state.discard)
        assert v["actors"] == onecard.actors(state)
        for entry in v["log"]:
            assert "secret" not in entry
            if entry["t"] == "play":
                assert entry["card"] in played
            assert not any(has_code(x) for k, x in entry.items() if k != "card"), entry
        rest = {k: x for k, x in v.items() if k not in ("hand", "legal", "log", "top")}
        shown = codes_in(rest)  # also checks that the view is plain JSON
        assert not shown, shown
        assert v["top"] not in hidden and not own & hidden
    if order:
        check_stock_order_hidden(state)


def check_stock_order_hidden(state: onecard.State) -> None:
    data = onecard.dump(state)
    codes = data["stock"].split()
    if len(codes) < 2:
        return
    random.Random(len(codes)).shuffle(codes)
    other = onecard.load({**data, "stock": " ".join(codes)})
    for seat in [*range(len(state.hands)), None]:
        assert onecard.view(other, seat) == onecard.view(state, seat)


def candidate_moves(state: onecard.State, r: random.Random) -> tuple[int, Any]:
    """A random seat and a random move from every kind, legal or not."""
    n = len(state.hands)
    seat = r.randrange(n)
    kind = r.randrange(5)
    if kind == 0:
        c = r.randrange(54 if state.config.jokers else 52)
        return seat, Play(c, r.randrange(4) if onecard.rank_of(c) == 7 else -1)
    if kind == 1:
        return seat, Draw()
    if kind == 2:
        return seat, Call()
    if kind == 3:
        return seat, Catch(r.randrange(n))
    return seat, Play(r.choice(state.hands[seat]) if state.hands[seat] else 0)


def probe_illegal(state: onecard.State, r: random.Random) -> None:
    """A random move that ``legal_moves`` does not list raises and changes nothing; one it
    lists is accepted (checked on a copy)."""
    seat, move = candidate_moves(state, r)
    if isinstance(move, Play) and onecard.rank_of(move.card) == 7 and move.suit < 0:
        return
    listed = move in onecard.legal_moves(state, seat)
    before = json.dumps(onecard.dump(state))
    if listed:
        twin = onecard.load(json.loads(before))
        onecard.apply(twin, seat, move)
        return
    with pytest.raises(IllegalMove) as info:
        onecard.apply(state, seat, move)
    assert info.value.code
    assert json.dumps(onecard.dump(state)) == before


def choose(state: onecard.State, r: random.Random) -> tuple[int, Any]:
    p = r.random()
    if state.exposed and p < 0.12:
        return state.turn, CloseWindow(r.choice(state.exposed))
    if p < 0.30:
        seat = r.choice(onecard.actors(state))
        moves = onecard.legal_moves(state, seat)
        assert moves, f"actor {seat} without a legal move"
        return seat, r.choice(moves)
    if p < 0.34:
        return state.turn, Timeout()
    return state.turn, r.choice(onecard.legal_moves(state, state.turn))


def play_game(index: int) -> dict[str, Any]:
    r = random.Random(index * 104_729 + 7)
    config = random_config(r)
    state = onecard.new(config, seed=index)
    full = index % FULL_CHECK_EVERY == 0
    dump_at = r.randrange(1, 120) if index % DUMP_EVERY == 0 else -1
    twin: onecard.State | None = None
    later: list[tuple[int, Any]] = []
    played: set[str] = set()
    stats = {"calls": 0, "catches": 0, "closed": 0, "timeouts": 0, "reshuffles": 0,
             "limit": 0}  # fmt: skip
    check_cards(state)
    check_table(state)
    check_views(state, played, order=True)
    moves = 0
    while state.result is None:
        assert moves < CAP, f"game {index} not over after {CAP} moves"
        if moves == dump_at:
            twin = onecard.load(json.loads(json.dumps(onecard.dump(state))))
        if r.random() < PROBE:
            probe_illegal(state, r)
        seat, move = choose(state, r)
        sizes = [len(h) for h in state.hands]
        stock = len(state.stock)
        first = onecard.legal_moves(state, seat)[0] if isinstance(move, Timeout) else None
        turns = state.turns
        events = onecard.apply(state, seat, move)
        moves += 1
        if twin is not None:
            later.append((seat, move))
        for e in events:
            if e["t"] == "play":
                played.add(e["card"])
        if first is not None:  # a timeout draws when it may, else plays the first legal card
            assert events[0]["timeout"] is True
            if isinstance(first, Draw):
                assert events[0]["t"] == "draw"
            else:
                assert isinstance(first, Play) and events[0]["card"] == onecard.code(first.card)
        kind = type(move).__name__
        stats["calls"] += kind == "Call"
        stats["catches"] += kind == "Catch"
        stats["closed"] += kind == "CloseWindow"
        stats["timeouts"] += kind == "Timeout"
        stats["reshuffles"] += len(state.stock) > stock
        assert state.turns >= turns
        check_cards(state)
        check_table(state)
        check_events(state, events, sizes, seat, move)
        if full or moves % SAMPLE == 0:
            check_views(state, played, order=moves % 4 == 0)
    check_views(state, played, order=False)
    if twin is not None:
        for seat, move in later:
            onecard.apply(twin, seat, move)
        assert onecard.dump(twin) == onecard.dump(state)
    stats["limit"] = int("limit" in (state.result or {}))
    return {"players": config.players, "moves": moves, **stats}


@pytest.mark.slow  # (long random playouts)
@pytest.mark.parametrize("chunk", range(4))
def test_random_playouts(chunk: int) -> None:
    """A thousand seeded games; every invariant after every move; every game ends."""
    games = [play_game(i) for i in range(chunk, GAMES, 4)]
    assert {g["players"] for g in games} == {2, 3, 4}
    # the sample exercises what it is meant to
    for key in ("calls", "catches", "closed", "timeouts", "reshuffles"):
        assert sum(g[key] for g in games) > 0, key
    assert max(g["moves"] for g in games) < CAP
    # random play makes long hands; still, few reach the turn limit
    assert sum(g["limit"] for g in games) <= len(games) // 20
