"""La guerra: seeded random playouts through the public protocol, checking invariants.

A thousand games mixing every option (players, length, cards face down, as bajo,
sums, order of won cards), the seat that turns chosen at random among the actors.

After every move of every game, the same 52 card objects are all somewhere and none is
in two places. After every move of one game in ``FULL_CHECK_EVERY``, and every
``SAMPLE``-th move of the others (the split keeps the file near 5 s of CPU, its share of
`make test`'s six minutes):

- the 52 cards, compared by value, are all there once;
- every seat the table waits for has a card to turn and may turn (``legal_moves``); a
  seat that is out has no cards; a duel starts only among seats with a card;
- the views of all seats are the same table (only ``seat`` and ``legal`` differ), and
  no view holds the code of a face-down card of any seat (pile or war): the only card
  codes a view shows are the face-up cards on the table and, in ``last``, the cards
  turned face up in the duel just finished.

Once per game, at a random move, a view does not change when every pile is reordered (a
view never reveals pile order). In one game in ``DUMP_EVERY`` a mid-game dump, loaded
back, plays on to exactly the same end. Every game ends, within its duel limit (corta 80,
media 200; hasta el final within a safety cap no game comes near).
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from tapete.cards import Card, format_cards, full_deck
from tapete.games import guerra

GAMES = 1000
"""Games per run (about one in twenty hasta el final)."""
FULL_CHECK_EVERY = 20
"""One game in this many gets every check after every move; the others get the cheap
ones (cards conserved) after every move and the full ones every ``SAMPLE`` moves."""
SAMPLE = 32
DUMP_EVERY = 10
"""One game in this many is dumped, loaded and played on to the same end."""
CAP = 20_000
"""Safety cap for "hasta el final" games; no game of the sample comes near it."""

DECK = frozenset(full_deck())
CODE = re.compile(r'"((?:10|[2-9JQKA])[HDCS])"')
REASONS = {"all_cards", "limit", "draw_limit", "draw_war", "loop"}


def random_config(r: random.Random) -> guerra.Config:
    return guerra.parse_config(
        {
            "players": r.choice((2, 2, 2, 3, 4)),
            "length": r.choices(("corta", "media", "final"), weights=(18, 1, 1))[0],
            "down": r.choice((3, 3, 1)),
            "ace_low": r.random() < 0.2,
            "sums": r.random() < 0.25,
            "order": r.choices(("random", "fixed"), weights=(4, 1))[0],
        }
    )


Codes = dict[int, str]
"""The code of each card object of one game, by ``id`` (cheaper than hashing cards)."""


def face_down_codes(state: guerra.State, codes: Codes) -> set[str]:
    """Every card nobody may see: the piles and the face-down cards of a war."""
    cards = [c for pile in state.piles for c in pile]
    for step in state.steps:
        for placed in step.placed.values():
            cards += placed.down
    return set(map(codes.__getitem__, map(id, cards)))


def face_up_codes(state: guerra.State, codes: Codes) -> set[str]:
    return {codes[id(c)] for step in state.steps for p in step.placed.values() for c in p.up}


def check_cards(state: guerra.State) -> None:
    """The 52 cards, each in one place (compared by value)."""
    cards = guerra.all_cards(state)
    assert len(cards) == 52
    assert set(cards) == DECK


def check_card_objects(state: guerra.State, ids: set[int]) -> None:
    """The cheap form of :func:`check_cards` for every move: the engine only moves the
    card objects dealt by ``new``/``load``, so the same 52 objects, each once."""
    cards = guerra.all_cards(state)
    assert len(cards) == 52
    assert set(map(id, cards)) == ids


def check_table(state: guerra.State) -> None:
    config = state.config
    actors = guerra.actors(state)
    for seat in actors:
        assert state.piles[seat], "a seat with no card is asked to turn"
        assert not state.out[seat]
    for seat, out in enumerate(state.out):
        if out:
            assert not state.piles[seat]
    if state.steps:
        duel = state.steps[0]
        assert not duel.war
        for placed in duel.placed.values():
            # a duel starts only among seats with a card to turn
            assert placed.up and not placed.down
            assert len(placed.up) <= config.up
        for step in state.steps:
            for seat, placed in step.placed.items():
                assert seat in step.contenders
                assert len(placed.down) <= (config.down if step.war else 0)
    limit = config.limit
    assert state.duels <= (limit if limit is not None else CAP)


def check_views(state: guerra.State, codes: Codes, last_shown: set[str]) -> None:
    n = config_seats = guerra.seats(state.config)
    actors = guerra.actors(state)
    views = [guerra.view(state, seat) for seat in range(n)] + [guerra.view(state, None)]
    for seat, v in enumerate(views[:config_seats]):
        assert v["seat"] == seat
        assert v["legal"] == ([{"type": "turn"}] if seat in actors else [])
    assert views[-1]["legal"] == []
    table = [{k: val for k, val in v.items() if k not in ("seat", "legal")} for v in views]
    assert all(t == table[0] for t in table[1:])
    shown = dict(table[0])
    last = shown.pop("last")
    text = json.dumps(shown)
    found = set(CODE.findall(text))
    hidden = face_down_codes(state, codes)
    assert not found & hidden, found & hidden
    assert found <= face_up_codes(state, codes)
    if last is not None:
        assert set(CODE.findall(json.dumps(last))) <= last_shown
    assert shown["counts"] == [len(p) for p in state.piles]


def check_pile_order_hidden(state: guerra.State, r: random.Random) -> None:
    data = guerra.dump(state)
    shuffled = []
    for text in data["piles"]:
        cards = text.split()
        r.shuffle(cards)
        shuffled.append(" ".join(cards))
    other = guerra.load({**data, "piles": shuffled})
    for seat in [*range(guerra.seats(state.config)), None]:
        assert guerra.view(other, seat) == guerra.view(state, seat)


def check_end(state: guerra.State) -> None:
    result = guerra.outcome(state)
    assert result is not None, f"not finished after {state.duels} duels"
    assert result["reason"] in REASONS
    assert result["counts"] == [len(p) for p in state.piles]
    assert guerra.actors(state) == []
    limit = state.config.limit
    if limit is not None:
        assert state.duels <= limit
    if result["reason"] in ("limit", "draw_limit"):
        assert state.duels == limit
    if result["reason"] == "loop":
        assert state.config.order == "fixed" and limit is None
    if result["reason"] == "all_cards":
        assert len(state.piles[result["winner"]]) == 52
    if result["winner"] is not None:
        assert not state.out[result["winner"]]


def play(index: int) -> dict[str, Any]:
    """Play game ``index``; return its summary for the whole-run checks."""
    r = random.Random(index * 7919 + 13)
    config = random_config(r)
    state = guerra.new(config, seed=index)
    full = index % FULL_CHECK_EVERY == 0
    codes = {id(c): c.code for c in guerra.all_cards(state)}
    ids = set(codes)
    dump_at = r.randrange(1, 150) if index % DUMP_EVERY == 0 else -1
    order_at = r.randrange(1, 150)
    copy: guerra.State | None = None
    after: list[int] = []
    shown: set[str] = set()
    last_shown: set[str] = set()
    moves = 0
    check_cards(state)
    check_table(state)
    while state.result is None:
        actors = guerra.actors(state)
        assert actors
        seat = r.choice(actors)
        assert guerra.legal_moves(state, seat) == [guerra.Turn()]
        duels = state.duels
        events = guerra.apply(state, seat, guerra.Turn())
        moves += 1
        for e in events:
            if e["t"] == "turn":
                shown.update(e["up"])
        if state.duels != duels or state.result is not None:
            last_shown, shown = shown, set()
        check_card_objects(state, ids)
        if moves % SAMPLE == 0:
            check_cards(state)
        if full or moves % SAMPLE == 0:
            check_table(state)
            check_views(state, codes, last_shown)
        if moves == order_at and state.result is None:
            check_pile_order_hidden(state, r)
        if copy is not None:
            after.append(seat)
        if moves == dump_at and state.result is None:
            data = json.loads(json.dumps(guerra.dump(state)))
            copy = guerra.load(data)
            assert guerra.dump(copy) == data
    check_cards(state)
    check_end(state)
    if copy is not None:
        for seat in after:
            guerra.apply(copy, seat, guerra.Turn())
        assert guerra.dump(copy) == guerra.dump(state)
    assert state.result is not None
    return {"config": config, "reason": state.result["reason"], "duels": state.duels}


@pytest.mark.slow  # (long random playouts)
def test_random_playouts_keep_every_invariant() -> None:
    summaries = [play(i) for i in range(GAMES)]
    reasons = {s["reason"] for s in summaries}
    # the sample is large enough to see the ordinary endings
    assert {"all_cards", "limit"} <= reasons
    finals = [s for s in summaries if s["config"].length == "final"]
    assert len(finals) >= GAMES // 20
    assert all(s["reason"] in ("all_cards", "draw_war", "loop") for s in finals)
    for s in summaries:
        limit = s["config"].limit
        assert s["duels"] <= (limit if limit is not None else CAP)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_same_seed_same_game(players: int) -> None:
    """The seed is the whole game: two runs give the same events and the same end."""

    def run() -> tuple[list[Any], Any]:
        state = guerra.new(guerra.parse_config({"players": players, "length": "final"}), seed=99)
        log: list[Any] = []
        while state.result is None:
            log += guerra.apply(state, guerra.actors(state)[0], guerra.Turn())
        return log, guerra.dump(state)

    assert run() == run()


def test_face_down_war_cards_never_in_any_view() -> None:
    """A direct look at the war moment: the face-down cards of both seats stay hidden."""
    state = guerra.load({"piles": ["KS 2C 3C 4C 4D 9S", "KH 3D 4S 5S QD 9H"]})
    guerra.apply(state, 0, guerra.Turn())
    guerra.apply(state, 1, guerra.Turn())
    guerra.apply(state, 1, guerra.Turn())
    down: list[Card] = [c for p in state.steps[-1].placed.values() for c in p.down]
    assert format_cards(down) == "3♦ 4♠ 5♠"
    for seat in (0, 1, None):
        text = json.dumps(guerra.view(state, seat))
        assert not set(CODE.findall(text)) & {c.code for c in down}
