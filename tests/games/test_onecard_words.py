"""One Card speaks in codes: moves and positions on derived codecs, refusals with codes for
parameters that the descriptor names in the player's language, and views that say what the
page shows (so the page needs no rule of its own)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tapete.games import onecard
from tapete.games.onecard import Call, Card, Catch, CloseWindow, Draw, Play, Suit, Timeout
from tapete.games.protocol import IllegalMove


def pos(*hands: str, discard: str, **fields: Any) -> onecard.State:
    return onecard.load({"hands": list(hands), "discard": discard, **fields})


def refusal(state: onecard.State, seat: int, move: Any) -> IllegalMove:
    with pytest.raises(IllegalMove) as info:
        onecard.apply(state, seat, move)
    return info.value


def words(e: IllegalMove) -> tuple[str, str]:
    return onecard.SPEC.describe(e, "es"), onecard.SPEC.describe(e, "en")


# --- refusals: codes in the rules, words in the player's language --------------------------


def test_a_card_that_does_not_fit_is_named_in_each_language() -> None:
    s = pos("9C 2D", "3C", discard="5D")
    e = refusal(s, 0, Play(onecard.card("9C")))
    assert (e.code, e.params) == ("no_match", {"card": "9C", "suit": "D", "rank": "5"})
    assert words(e) == (
        "El nueve de tréboles no sirve: hay que echar diamantes o un cinco.",
        "The nine of clubs doesn't fit: play diamonds or a five.",
    )


@pytest.mark.parametrize(
    ("hand", "top", "es", "en"),
    [
        (
            "QS 2H", "8H",
            "La reina de picas no sirve: hay que echar corazones o un ocho.",
            "The queen of spades doesn't fit: play hearts or an eight.",
        ),
        (
            "JC 2H", "AH",
            "La jota de tréboles no sirve: hay que echar corazones o un as.",
            "The jack of clubs doesn't fit: play hearts or an ace.",
        ),
        (
            "10S 2H", "QH",
            "El diez de picas no sirve: hay que echar corazones o una reina.",
            "The ten of spades doesn't fit: play hearts or a queen.",
        ),
    ],
)  # fmt: skip
def test_articles_follow_the_card(hand: str, top: str, es: str, en: str) -> None:
    """«la reina», «una reina», "an eight", "an ace": each word takes its own article."""
    s = pos(hand, "3C", discard=top)
    e = refusal(s, 0, Play(onecard.card(hand.split()[0])))
    assert words(e) == (es, en)


def test_under_attack_the_refusal_names_the_attacking_rank() -> None:
    s = pos("5H 2C", "3C", discard="KH", attack=2)
    e = refusal(s, 0, Play(onecard.card("5H")))
    assert e.params == {"card": "5H", "attack": 2, "attacker": "K"}
    assert words(e) == (
        "Te atacan con +2: solo puedes pasar el ataque con otro rey, o robar.",
        "You're under a +2 attack: pass it on with another king, or draw.",
    )


def test_a_card_not_in_hand_and_the_joker() -> None:
    s = pos("5H", "3C", discard="5D", config={"jokers": True})
    assert words(refusal(s, 0, Play(onecard.card("QD")))) == (
        "No tienes la reina de diamantes.",
        "You don't have the queen of diamonds.",
    )
    assert words(refusal(s, 0, Play(onecard.card("JK1")))) == (
        "No tienes el comodín.",
        "You don't have the joker.",
    )


def test_no_refusal_of_the_rules_carries_a_sentence() -> None:
    """The parameters are codes (``"9C"``, ``"D"``, ``"5"``), never Spanish words."""
    for data in (
        {"hands": ["9C 2D", "3C"], "discard": "5D"},
        {"hands": ["5H 2C", "3C"], "discard": "KH", "attack": 2},
        {"hands": ["5H", "3C"], "discard": "5D"},
    ):
        s = onecard.load(data)
        for c in range(52):
            try:
                onecard.apply(onecard.load(onecard.dump(s)), 0, Play(c, 0 if c % 13 == 5 else -1))
            except IllegalMove as e:
                for v in e.params.values():
                    assert type(v) is int or (isinstance(v, str) and v.isascii() and " " not in v)


def test_every_refusal_reads_in_both_languages() -> None:
    for code in onecard.SPEC.messages:
        e = IllegalMove(code, card="7H", suit="S", rank="A", attack=3, attacker="A")
        es, en = words(e)
        assert "{" not in es and "{" not in en and "?" not in es and "?" not in en
        assert es != en and es[0].isupper() and en[0].isupper()


# --- moves on the wire ----------------------------------------------------------------------


def test_cards_and_suits_are_ints_that_write_their_codes() -> None:
    assert Card.from_wire("10♥") == 8 and Card(8).to_wire() == "10H"
    assert Card.from_wire("jk2") == 53 and Card(53).to_wire() == "JK2"
    assert Suit.from_wire("s") == 3 and Suit(3).to_wire() == "S"
    play = Play(onecard.card("7H"), 3)
    assert type(play.card) is Card and type(play.suit) is Suit
    assert play == onecard.parse_move({"type": "play", "card": "7H", "suit": "S"})


@pytest.mark.parametrize(
    "move",
    [
        Play(onecard.card("KD")), Play(onecard.card("7C"), 0), Play(52), Draw(), Call(),
        Catch(2), CloseWindow(3), Timeout(),
    ],
)  # fmt: skip
def test_every_move_round_trips(move: Any) -> None:
    """``repr`` is ``move({...})``, which reads it back; so does the JSON codec."""
    assert eval(repr(move), {"move": onecard.move}) == move
    assert onecard.MOVES.decode_json(json.dumps(move.to_json())) == move
    assert onecard.SPEC.move_json(move) == move.to_json()


def test_the_engine_keeps_its_moves_interned() -> None:
    s = pos("7H 5H", "3C", discard="5H")
    moves = onecard.legal_moves(s, 0)
    assert moves[0] is onecard.PLAYS[3] and moves[5] is onecard.CALL and len(moves) == 6
    assert all(m is onecard.SEVENS[5][i] for i, m in enumerate(moves[1:5]))
    assert onecard.clock_move("window", 2) is onecard.WINDOWS[2]
    assert onecard.clock_move("turn", 0) is onecard.TIMEOUT


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"type": "play", "card": "7H"}, "seven_needs_suit"),
        ({"type": "play", "card": "7H", "suit": "*"}, "seven_needs_suit"),
        ({"type": "play", "card": "5H", "suit": "S"}, "bad_move"),
        ({"type": "play", "card": "XH"}, "bad_move"),
    ],
)
def test_the_json_codec_refuses_as_the_rules_do(data: Any, code: str) -> None:
    with pytest.raises(IllegalMove) as info:
        onecard.MOVES.decode_json(json.dumps(data))
    assert info.value.code == code


# --- positions ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"hands": ["5H ZZ", "3C"], "discard": "5D"}, "card"),
        ({"hands": ["5H", "3C"], "discard": "5D", "suit": "X"}, "suit"),
        ({"hands": ["5H", "3C"], "discard": "5D", "direction": 2}, "direction"),
        ({"hands": ["5H", "3C"], "discard": ""}, "discard"),
        ({"hands": ["5H", "3C"], "discard": "5D", "attack": -1}, "attack"),
        ({"hands": ["5H", "3C"]}, "discard"),
    ],
)
def test_a_bad_position_says_which_field(data: Any, field: str) -> None:
    with pytest.raises(IllegalMove) as info:
        onecard.load(data)
    assert (info.value.code, info.value.params) == ("bad_move", {"field": field})


def test_a_copy_shares_nothing_a_move_changes() -> None:
    s = pos("5H 9C KD", "5S 2D 3D", discard="5D", stock="4C 4D 4S")
    twin = s.copy()
    assert onecard.dump(twin) == onecard.dump(s)
    onecard.apply(twin, 0, Play(onecard.card("KD")))
    onecard.apply(twin, 1, Draw())
    assert onecard.dump(s) == onecard.dump(
        pos("5H 9C KD", "5S 2D 3D", discard="5D", stock="4C 4D 4S")
    )


# --- what the page shows --------------------------------------------------------------------


def test_the_view_says_which_suit_a_seven_named() -> None:
    s = pos("7H 9C 2C", "2S 3S", discard="5H")
    assert onecard.view(s, 0)["named"] is None  # the top card's own suit
    onecard.apply(s, 0, Play(onecard.card("7H"), 3))
    v = onecard.view(s, 1)
    assert (v["suit"], v["named"]) == ("S", "S")
    s = pos("5H", "3C", discard="JK1", config={"jokers": True})
    assert (onecard.view(s, 0)["suit"], onecard.view(s, 0)["named"]) == (None, None)


@pytest.mark.parametrize(("players", "reverse"), [(2, False), (3, True)])
def test_the_log_says_when_a_queen_turns_the_direction(players: int, reverse: bool) -> None:
    hands = ["QH 2C 3C", "2S 3S 4S", "5S 6S 7S"][:players]
    s = pos(*hands, discard="5H")
    onecard.apply(s, 0, Play(onecard.card("QH")))
    entry = onecard.view(s, 1)["log"][-1]
    assert entry["card"] == "QH" and entry.get("reverse", False) is reverse
    assert "reverse" not in onecard.dump(s)["log"][-1]  # the position stays as it was


def test_a_views_legal_moves_are_its_own() -> None:
    s = pos("5H 9C KD", "5S 2D 3D", discard="5D")
    onecard.view(s, 0)["legal"][0]["card"] = "AS"
    assert onecard.view(s, 0)["legal"][0] == {"type": "play", "card": "5H"}
