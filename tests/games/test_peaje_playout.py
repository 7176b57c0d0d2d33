"""El Peaje: seeded random playouts through the public protocol, checking invariants.

A thousand games over every variant (solitario, dos jugadores, turnos rápidos,
cooperativo, La patata) and every difficulty, with random player counts. Most games choose
each move at random among ``legal_moves``; some always answer right and some always wrong
(peeking at the next card), so the sample holds every way a game ends: the route completed,
the deck run out, every player out (turnos rápidos), six misses (cooperativo).

On every route, after every ``CARDS_EVERY``-th move, after the last one, and after every
move of one game in ``FULL_CHECK_EVERY`` (after the others, just the counters):

- its 52 cards (``peaje.all_cards``) are all there, once each;
- no card has been seen twice: the cards turned (``revealed``) are distinct, none of them
  is the initial card or still in the deck, and every card standing on the route beyond
  the initial one was turned on it;
- cards turned = 51 − cards left; the route never runs past its last position; in
  cooperativo never more than six misses.

At the start and every ``SAMPLE``-th move (every move of the fully checked games): the
odds of the current question are exact fractions that add up to exactly 1, and each count
matches a brute count over the cards still in the deck (which, in a real game, are exactly
the cards not yet seen); the view shows those odds.

Once per game at a random move (every move of the fully checked games), shuffling every
route's deck in place leaves the view, of the seat and of a spectator, unchanged: the view
never reveals the deck order.

Every game ends within the moves its decks allow, and its result agrees with the routes. In
one game in ``DUMP_EVERY`` a mid-game dump, loaded back, plays on to exactly the same end.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from tapete.cards import full_deck
from tapete.games import peaje

GAMES = 1000
FULL_CHECK_EVERY = 41
SAMPLE = 16
CARDS_EVERY = 3
DUMP_EVERY = 10

DECK = frozenset(full_deck())
PLAYERS = {"solitario": (1, 1), "dos": (2, 2), "rapidos": (2, 4), "cooperativo": (2, 8),
           "patata": (2, 12)}  # fmt: skip
POLICIES = ("random", "right", "wrong")
REASONS = {"route", "deck", "all_out", "misses"}


def random_config(r: random.Random, game: int) -> peaje.Config:
    variants = list(PLAYERS)
    variant = variants[game % len(variants)]
    difficulty = ("facil", "media", "dificil")[(game // len(variants)) % 3]
    low, high = PLAYERS[variant]
    return peaje.parse_config(
        {
            "variant": variant,
            "difficulty": difficulty,
            "players": r.randint(low, high),
            "toll": r.choice(peaje.TOLL_SUGGESTIONS),
        }
    )


def check_cards(state: peaje.State) -> None:
    for route, cards in zip(state.routes, peaje.all_cards(state), strict=True):
        assert len(cards) == 52 and set(cards) == DECK
        turned = set(route.revealed)
        assert len(turned) == len(route.revealed), "a card seen twice"
        assert route.cards[0] not in turned
        assert turned.isdisjoint(route.deck)
        assert turned.issuperset(route.cards[1:])
        assert len(turned) == 51 - len(route.deck)
        assert route.pos == len(route.cards) <= len(state.config.questions) + 1
        assert not route.done or route.pos == len(state.config.questions) + 1
    if state.config.variant == "cooperativo":
        assert state.routes[0].misses <= peaje.COOP_MISSES


def check_counts(state: peaje.State) -> None:
    for route in state.routes:
        assert len(route.revealed) == 51 - len(route.deck)
        assert len(route.cards) <= len(state.config.questions) + 1


def check_odds(state: peaje.State) -> None:
    if state.result is not None:
        return
    route = peaje.route_of(state)
    q = peaje.question(state)
    o = peaje.odds(route, q)
    assert sorted(peaje.unseen(route)) == sorted(route.deck)
    reference = route.cards[-1]
    brute: Counter[str] = Counter()
    for card in route.deck:
        ok = peaje.right(q, reference, card)
        brute.update(ok or {"tie"})
    answers = list(peaje.QUESTIONS[q]) + (["tie"] if q == "mayor_menor" else [])
    assert list(o) == answers
    total = len(route.deck)
    fractions = []
    for a in answers:
        assert o[a]["count"] == brute[a] and o[a]["total"] == total
        if total:
            f = Fraction(o[a]["fraction"])
            assert f == Fraction(brute[a], total)
            assert o[a]["percent"] == round(float(f) * 100, 1)
            fractions.append(f)
    if total:
        assert sum(fractions) == 1
        assert peaje.view(state, 0)["odds"] == o
    else:
        assert peaje.view(state, 0)["odds"] is None


def check_view_hides_order(state: peaje.State, r: random.Random) -> None:
    before = json.dumps(peaje.view(state, 0), sort_keys=True)
    spectator = json.dumps(peaje.view(state, None), sort_keys=True)
    saved = [list(route.deck) for route in state.routes]
    for route in state.routes:
        r.shuffle(route.deck)
    assert json.dumps(peaje.view(state, 0), sort_keys=True) == before
    assert json.dumps(peaje.view(state, None), sort_keys=True) == spectator
    for route, deck in zip(state.routes, saved, strict=True):
        route.deck[:] = deck


def check_result(state: peaje.State, events: list[dict[str, Any]]) -> None:
    result = state.result
    assert result is not None and state.phase == "over"
    assert [e["t"] for e in events].count("end") == 1 and events[-1]["t"] == "end"
    assert result["reason"] in REASONS
    winner = result["winner"]
    if result["reason"] == "route":
        assert winner is not None
        done = [i for i, route in enumerate(state.routes) if route.done]
        assert done == [winner if state.config.variant == "rapidos" else 0]
    else:
        assert winner is None and not any(route.done for route in state.routes)
    if result["reason"] == "deck":
        assert peaje.route_of(state).deck == []
    if result["reason"] == "all_out":
        assert all(route.out and not route.deck for route in state.routes)
    if result["reason"] == "misses":
        assert state.config.variant == "cooperativo"
        assert state.routes[0].misses == peaje.COOP_MISSES
    assert result["used"] == [len(route.revealed) for route in state.routes]
    assert peaje.legal_moves(state, 0) == [] and peaje.actors(state) == []


def choose(
    state: peaje.State, legal: list[peaje.Move], policy: str, r: random.Random
) -> peaje.Move:
    """A move: at random, or (peeking at the next card, as no player can) always right or
    always wrong, so that the sample also holds won games and decks played to the end."""
    route = peaje.route_of(state)
    if policy == "random" or not route.deck:
        return r.choice(legal)
    if state.phase == "answer":
        ok = peaje.right(peaje.question(state), route.cards[-1], route.deck[-1])
        pick = [
            m
            for m in legal
            if isinstance(m, peaje.Answer) and (m.choice in ok) == (policy == "right")
        ]
        return r.choice(pick or legal)
    if state.phase == "mark":
        return peaje.Mark(policy == "right")
    return r.choice(legal)


def play_one(game: int) -> tuple[peaje.State, list[dict[str, Any]]]:
    r = random.Random(game)
    config = random_config(r, game)
    state = peaje.new(config, seed=game)
    check_cards(state)
    check_odds(state)
    full = game % FULL_CHECK_EVERY == 0
    policy = r.choices(POLICIES, weights=(6, 2, 2))[0]
    cap = 4 * 52 * len(state.routes) + 4  # a reveal, a miss and a toll per card, at most
    dump_at = r.randrange(1, 60) if game % DUMP_EVERY == 0 else -1
    view_at = r.randrange(1, 40)
    saved: dict[str, Any] | None = None
    later: list[peaje.Move] = []
    events: list[dict[str, Any]] = []
    moves = 0
    while state.result is None:
        assert moves < cap, "the game did not end"
        legal = peaje.legal_moves(state, 0)
        assert legal and peaje.actors(state) == [0]
        move = choose(state, legal, policy, r)
        if moves == dump_at:
            saved = json.loads(json.dumps(peaje.dump(state)))
        if saved is not None:
            later.append(move)
        events += peaje.apply(state, 0, move)
        moves += 1
        if full or moves % CARDS_EVERY == 0 or state.result is not None:
            check_cards(state)
        else:
            check_counts(state)
        if full or moves % SAMPLE == 0:
            check_odds(state)
        if full or moves == view_at:
            check_view_hides_order(state, r)
        if config.variant == "patata" and state.toll is not None:
            assert 1 <= state.toll["payer"] <= len(config.names)
    check_result(state, events)
    if saved is not None:
        again = peaje.load(saved)
        for move in later:
            peaje.apply(again, 0, move)
        assert peaje.dump(again) == peaje.dump(state)
    return state, events


@pytest.mark.slow  # (long random playouts)
@pytest.mark.parametrize("part", range(4))
def test_random_playouts(part: int) -> None:
    """Miles de partidas al azar, de cada variante y dificultad: las 52 cartas de cada ruta
    siempre están, ninguna sale dos veces, las probabilidades son exactas y la vista no
    enseña el orden del mazo. Todas terminan."""
    reasons: Counter[str] = Counter()
    for game in range(part, GAMES, 4):
        state, _ = play_one(game)
        assert state.result is not None
        reasons[state.result["reason"]] += 1
    # the sample covers every way a game ends
    assert set(reasons) == REASONS, reasons


def test_every_variant_and_difficulty_is_played() -> None:
    """La muestra recorre todas las combinaciones de variante y dificultad."""
    seen = {
        (c.variant, c.difficulty)
        for c in (random_config(random.Random(g), g) for g in range(GAMES))
    }
    assert seen == {(v, d) for v in PLAYERS for d in peaje.ROUTES}
