"""One Card: one test per rule sentence of the seed (``seeds/004_…``) and of RULES.md.

Every test starts from an explicit position (``onecard.load``). In One Card positions the
top card of a pile is the LAST code: ``"discard": "4C 5D"`` has the 5♦ on top, and
``"stock": "4S 4D"`` gives the 4♦ to the next player who draws. RULES.md is written in
English; its sentences are quoted here in Spanish, marked «RULES.md».
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tapete.games import onecard
from tapete.games.onecard import SUIT_CODES, Call, Catch, CloseWindow, Draw, Play, Timeout
from tapete.games.protocol import Event, IllegalMove
from tapete.rng import Rng

# --- helpers ---------------------------------------------------------------------------


def pos(*hands: str, discard: str, stock: str = "", turn: int = 0, **fields: Any) -> onecard.State:
    """A position: hands as text, the discard and the stock with their top card LAST.
    Keyword fields that are options go into ``config``, the others into the position."""
    options = {"two_attack", "jokers", "king_again", "three_blocks", "no_special_finish"}
    config = {k: v for k, v in fields.items() if k in options or k == "penalty"}
    rest = {k: v for k, v in fields.items() if k not in config}
    data = {"hands": list(hands), "discard": discard, "stock": stock, "turn": turn}
    return onecard.load({**data, **rest, "config": config})


def mv(text: str, suit: str | None = None) -> Play:
    """``mv("7H", "S")``: play the 7♥ naming picas; ``mv("KD")``."""
    c = onecard.card(text)
    return Play(c, SUIT_CODES.index(suit)) if suit is not None else Play(c)


def play(state: onecard.State, seat: int, text: str, suit: str | None = None) -> list[Event]:
    return onecard.apply(state, seat, mv(text, suit))


def draw(state: onecard.State, seat: int) -> list[Event]:
    return onecard.apply(state, seat, Draw())


def hands(state: onecard.State) -> list[str]:
    return [onecard.fmt(h) for h in state.hands]


def legal(state: onecard.State, seat: int) -> list[str]:
    return [str(m) for m in onecard.legal_moves(state, seat)]


def turn_moves(state: onecard.State, seat: int) -> list[str]:
    """The legal plays and draw of ``seat`` (without calls and catches)."""
    return [str(m) for m in onecard.legal_moves(state, seat) if isinstance(m, (Play, Draw))]


def refused(state: onecard.State, seat: int, move: Any, code: str) -> IllegalMove:
    """``move`` raises IllegalMove with ``code`` and leaves the position exactly as it was."""
    before = copy.deepcopy(onecard.dump(state))
    with pytest.raises(IllegalMove) as info:
        onecard.apply(state, seat, move)
    assert info.value.code == code
    assert onecard.dump(state) == before
    return info.value


def kinds(events: list[Event]) -> list[str]:
    return [e["t"] for e in events]


# --- preparation and deal --------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_seven_each_rest_is_stock(players: int) -> None:
    """«Entre 2 y 4 jugadores reciben siete cartas cada uno y el resto queda boca abajo
    como mazo para robar.»"""
    for seed in range(30):
        s = onecard.new(onecard.parse_config({"players": players}), seed)
        assert [len(h) for h in s.hands] == [7] * players
        assert len(s.discard) == 1
        assert len(s.stock) == 52 - 7 * players - 1
        assert 0 <= s.turn < players
        assert s.attack == 0 and s.direction == 1 and s.result is None


def test_deck_is_52_cards_without_jokers() -> None:
    """«Se usa una baraja francesa sin comodines: cuatro palos (corazones, diamantes,
    tréboles y picas) con trece cartas cada uno, del as al rey.»"""
    s = onecard.new(onecard.Config(), 1)
    assert sorted(onecard.all_cards(s)) == list(range(52))
    codes = {onecard.code(c) for c in range(52)}
    assert {"AH", "KD", "10C", "2S"} <= codes and len(codes) == 52


def _original_deck(config: onecard.Config, seed: int) -> list[int]:
    """The shuffled deck of ``new`` (the seed decides the deal: the game replays)."""
    return Rng.from_seed(seed).shuffled(list(range(54 if config.jokers else 52)))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_first_discard_is_first_normal_card_of_the_stock(players: int) -> None:
    """«Se da la vuelta a una carta para empezar la pila de descarte. Playfulo siempre empieza
    con una carta numérica normal para que no se active ningún efecto antes de la primera
    jugada.» RULES.md: «la primera carta del descarte es la primera del mazo que no es
    especial (2–6, 8–10)»."""
    config = onecard.parse_config({"players": players})
    skipped = 0
    for seed in range(200):
        s = onecard.new(config, seed)
        deck = _original_deck(config, seed)
        n = 7 * players
        assert s.hands == [deck[i : i + 7] for i in range(0, n, 7)]
        stock = deck[n:]  # the top is the end
        normal = [i for i, c in enumerate(stock) if onecard.rank_of(c) in (2, 3, 4, 5, 6, 8, 9, 10)]
        i = normal[-1]
        assert s.discard == [stock[i]]
        assert s.stock == stock[:i] + stock[i + 1 :]
        assert s.suit == onecard.suit_of(stock[i])
        skipped += i != len(stock) - 1
    assert skipped > 0  # some deals had a special card on top of the stock


@pytest.mark.parametrize(
    ("option", "ranks"),
    [("two_attack", {2}), ("three_blocks", {3}), ("jokers", {0}), ("king_again", set())],
)
def test_first_discard_excludes_house_rule_specials(option: str, ranks: set[int]) -> None:
    """RULES.md: «la primera carta del descarte no es especial» — con las reglas caseras,
    tampoco el 2 que ataca, el 3 que bloquea ni el comodín."""
    config = onecard.parse_config({"players": 4, option: True})
    firsts = set()
    for seed in range(300):
        s = onecard.new(config, seed)
        assert len(onecard.all_cards(s)) == (54 if option == "jokers" else 52)
        first = s.discard[0]
        firsts.add(onecard.rank_of(first))
        assert not config.special(first)
    assert firsts == {2, 3, 4, 5, 6, 8, 9, 10} - ranks


def test_jokers_house_rule_deals_54_cards() -> None:
    """«Hay quien […] añade comodines como gran ataque» — la baraja tiene 54 cartas."""
    s = onecard.new(onecard.parse_config({"jokers": True}), 3)
    assert sorted(onecard.all_cards(s)) == list(range(54))


def test_new_game_replays_from_its_seed() -> None:
    """DESIGN.md: «Con (opciones, semilla, jugadas) una partida se reproduce exactamente.»"""
    config = onecard.parse_config({"players": 3})
    assert onecard.dump(onecard.new(config, 42)) == onecard.dump(onecard.new(config, 42))
    assert onecard.dump(onecard.new(config, 42)) != onecard.dump(onecard.new(config, 43))


# --- matching --------------------------------------------------------------------------


def test_play_matches_suit_or_number() -> None:
    """«En tu turno echas una carta que coincida con la de arriba del descarte en palo o en
    número. Sobre un 5 de corazones puedes echar cualquier corazón o cualquier 5.»"""
    s = pos("2H 9H 5C 5S 6D 8C", "3C 4C", discard="9D 5H")
    assert legal(s, 0) == ["2H", "9H", "5C", "5S"]
    refused(s, 0, mv("6D"), "no_match")
    events = play(s, 0, "5S")
    assert events == [{"t": "play", "seat": 0, "card": "5S"}]
    assert onecard.code(s.top) == "5S" and s.suit == 3 and s.turn == 1
    assert hands(s)[0] == "2H 9H 5C 6D 8C"


def test_no_match_message_names_what_fits() -> None:
    """«hay que echar una carta que coincida en palo o número» — el error lo explica."""
    s = pos("6D 8C", "3C", discard="5H")
    e = refused(s, 0, mv("6D"), "no_match")
    words = onecard.SPEC.describe(e, "es")
    assert "corazones" in words and "cinco" in words


def test_seven_names_the_next_suit() -> None:
    """«Si alguien ha cambiado el palo con un 7, hay que seguir el palo elegido.»
    «7: eliges el palo siguiente (corazones, diamantes, tréboles o picas).»"""
    s = pos("7H 9C", "2S 3H 7D 9S", discard="5H")
    events = play(s, 0, "7H", "S")
    assert events[0] == {"t": "play", "seat": 0, "card": "7H", "suit": "S"}
    assert s.suit == SUIT_CODES.index("S") and s.turn == 1
    # spades or another 7; not a heart (the 7's own suit) nor a 9
    assert turn_moves(s, 1) == ["7D/H", "7D/D", "7D/C", "7D/S", "2S", "9S"]
    refused(s, 1, mv("3H"), "no_match")
    play(s, 1, "7D", "C")
    assert s.suit == SUIT_CODES.index("C")
    assert turn_moves(s, 0) == ["9C"]


def test_seven_may_name_its_own_suit() -> None:
    """«7: eliges el palo siguiente» — cualquiera de los cuatro, también el suyo."""
    s = pos("7H 9C", "2H 3S", discard="5H")
    play(s, 0, "7H", "H")
    assert turn_moves(s, 1) == ["2H"]


def test_seven_must_match_too() -> None:
    """«Las cartas especiales también tienen que coincidir en palo o número. El 7 no es un
    comodín que se pueda echar en cualquier momento: va sobre su palo o sobre otro 7.»"""
    s = pos("7S 4C", "2C", discard="5H")
    assert turn_moves(s, 0) == ["draw"]
    refused(s, 0, mv("7S", "H"), "no_match")
    s = pos("7S 4C", "2C", discard="7H", suit="D")
    assert turn_moves(s, 0) == ["7S/H", "7S/D", "7S/C", "7S/S"]


def test_seven_needs_a_suit() -> None:
    """RULES.md: «elegir el palo es parte de la jugada» — un 7 sin palo no se acepta."""
    s = pos("7H 9C", "2S", discard="5H")
    refused(s, 0, Play(onecard.card("7H")), "seven_needs_suit")
    refused(s, 0, Play(onecard.card("7H"), 4), "seven_needs_suit")
    with pytest.raises(IllegalMove) as info:
        onecard.parse_move({"type": "play", "card": "7H"})
    assert info.value.code == "seven_needs_suit"
    with pytest.raises(IllegalMove) as info:
        onecard.parse_move({"type": "play", "card": "7H", "suit": "X"})
    assert info.value.code == "seven_needs_suit"


def test_special_cards_must_match() -> None:
    """«Las cartas especiales también tienen que coincidir en palo o número.»"""
    s = pos("JS QS KS AS 3C", "2C", discard="5H")
    assert legal(s, 0) == ["draw"]
    for text in ("JS", "QS", "KS", "AS"):
        refused(s, 0, mv(text), "no_match")


# --- drawing ---------------------------------------------------------------------------


def test_draw_when_nothing_fits_and_turn_passes() -> None:
    """«Si no puedes jugar, robas una carta y el turno pasa al siguiente»."""
    s = pos("2C 3S", "9H 4D", discard="5H", stock="8C 9D")
    assert turn_moves(s, 0) == ["draw"]
    events = draw(s, 0)
    assert events == [{"t": "draw", "seat": 0, "n": 1, "secret": ["9D"]}]
    assert hands(s) == ["2C 3S 9D", "9H 4D"]
    assert onecard.fmt(s.stock) == "8C" and s.turn == 1 and s.turns == 2


def test_drawn_card_playable_from_next_turn() -> None:
    """«la carta robada se puede usar desde tu próximo turno.» RULES.md: «robar termina el
    turno»."""
    s = pos("2C 3S", "9H 4D", discard="5H", stock="5C")
    draw(s, 0)
    assert "5C" in hands(s)[0]
    refused(s, 0, mv("5C"), "not_your_turn")
    assert legal(s, 0) == []
    play(s, 1, "9H")
    assert turn_moves(s, 0) == ["draw"]  # 5C on 9H does not fit: the next turn is a normal turn
    s = pos("2C 3S", "5D 4D", discard="5H", stock="5C")
    draw(s, 0)
    play(s, 1, "5D")
    assert turn_moves(s, 0) == ["5C"]
    play(s, 0, "5C")


def test_no_drawing_while_a_card_fits() -> None:
    """«En Playfulo el botón de robar no funciona mientras tengas una carta válida, así que no
    se puede ganar tiempo robando a propósito.»"""
    s = pos("2C 5S", "9H", discard="5H", stock="8C")
    assert turn_moves(s, 0) == ["5S"]
    refused(s, 0, Draw(), "must_play")
    e = refused(s, 0, Draw(), "must_play")
    assert "no se puede robar" in onecard.SPEC.describe(e, "es")


def test_stock_runs_out_discard_reshuffled() -> None:
    """«Cuando se acaba el mazo, todas las cartas bajo la última del descarte se barajan y
    forman un mazo nuevo.»"""
    s = pos("2H 3H", "9S", discard="4C 5C 6C 8D", stock="", rng=12345)
    draw(s, 0)
    assert onecard.fmt(s.discard) == "8D"
    drawn = s.hands[0][2]
    assert onecard.code(drawn) in {"4C", "5C", "6C"}
    assert sorted([*s.stock, drawn]) == sorted(onecard.cards("4C 5C 6C"))
    assert sorted(onecard.all_cards(s)) == sorted(onecard.cards("2H 3H 9S 4C 5C 6C 8D"))


def test_a_hand_ends_at_the_turn_limit_fewest_cards_winning() -> None:
    """Tapete's call (RULES.md is silent): a hand still going after 1,000 turns ends; fewest
    cards wins, the others ranked by cards left."""
    s = pos("2H 3H 4C", "9S 8S 7S", "5D 6D 7C 9C", discard="5H", stock="JD QD", turns=1000)
    events = onecard.apply(s, 0, mv("2H"))
    assert s.turns == 1001
    assert [e["t"] for e in events][-2:] == ["turn_limit", "end"]
    assert s.result == {"winner": 0, "left": [2, 3, 4], "ranks": [1, 2, 3], "limit": 1000}
    assert onecard.actors(s) == []
    refused(s, 1, mv("9S"), "game_over")


def test_at_the_turn_limit_a_tie_goes_to_the_next_to_play() -> None:
    s = pos("2H 3H 4C", "9S 8S", "5D 6D", discard="5H", stock="JD QD", turns=1000)
    onecard.apply(s, 0, mv("2H"))  # seats 0, 1 and 2 all hold two cards; seat 1 is next
    assert s.result is not None and s.result["winner"] == 1


def test_before_the_turn_limit_the_hand_goes_on() -> None:
    s = pos("2H 3H 4C", "9S 8S", discard="5H", stock="JD QD", turns=999)
    onecard.apply(s, 0, mv("2H"))
    assert s.result is None and s.turns == 1000


def test_reshuffled_attack_cards_count_as_unseen_again() -> None:
    """The attack cards a bot counts as played (``seen``) go back among the unseen when the
    discard under the top card becomes the new stock: they can be drawn again."""
    seen = [0] * 15
    seen[13], seen[14] = 2, 1  # two kings and an ace played, all under the top card
    s = pos("2H 3H", "9S", discard="KC KD AS 8D", stock="", seen=seen, rng=7)
    assert onecard.view(s, 0)["seen"] == {"K": 2, "A": 1, "2": 0, "JK": 0}
    draw(s, 0)
    assert onecard.view(s, 0)["seen"] == {"K": 0, "A": 0, "2": 0, "JK": 0}


def test_the_first_discard_is_seen() -> None:
    s = onecard.new(onecard.Config(players=2), 3)
    first = s.discard[0]
    assert s.seen[onecard.rank_of(first)] == 1 and sum(s.seen) == 1


def test_stock_runs_out_in_the_middle_of_a_draw() -> None:
    """«Cuando se acaba el mazo, todas las cartas bajo la última del descarte se barajan»,
    también a mitad de un robo de ataque."""
    s = pos("2H 3H", "9S", discard="4C 5C KH", stock="6D", attack=2, turn=0)
    events = draw(s, 0)
    assert events[0]["n"] == 2 and events[0]["secret"][0] == "6D"
    assert events[0]["secret"][1] in {"4C", "5C"}
    assert onecard.fmt(s.discard) == "KH" and len(s.stock) == 1
    assert s.attack == 0


def test_nothing_to_draw_turn_passes() -> None:
    """RULES.md: «Si no hay nada que robar, el jugador roba lo que haya y el turno pasa.»"""
    s = pos("2H 3H", "9S", discard="8D")
    events = draw(s, 0)
    assert events == [{"t": "draw", "seat": 0, "n": 0, "secret": []}]
    assert hands(s) == ["2H 3H", "9S"] and s.turn == 1
    s = pos("2H 3H", "9S", discard="4C KH", stock="6D", attack=4)
    events = draw(s, 0)
    assert events[0]["n"] == 2 and s.attack == 0 and s.turn == 1
    assert hands(s)[0] == "2H 3H 6D 4C"
    assert s.stock == [] and onecard.fmt(s.discard) == "KH"


# --- winning ---------------------------------------------------------------------------


def test_last_card_wins_at_once() -> None:
    """«Gana al instante quien se queda sin cartas.»"""
    s = pos("9H", "2C 3C 4C", "5S", discard="5H", players=3)
    events = play(s, 0, "9H")
    assert kinds(events) == ["play", "end"]
    assert s.result == {"winner": 0, "left": [0, 3, 1], "ranks": [1, 3, 2]}
    assert onecard.outcome(s) == s.result
    assert onecard.actors(s) == []
    assert all(onecard.legal_moves(s, seat) == [] for seat in range(3))


@pytest.mark.parametrize(("last", "suit"), [("KH", None), ("AH", None), ("7H", "C"), ("JH", None)])
def test_finishing_on_a_special_card_wins(last: str, suit: str | None) -> None:
    """«En Playfulo también vale terminar con una carta especial.» RULES.md: «Jugar la
    última carta gana al momento, también si es especial.»"""
    s = pos(last, "2C 3C", discard="5H", stock="4S 4D")
    events = play(s, 0, last, suit)
    assert events[-1] == {"t": "end", "winner": 0, "left": [0, 2], "ranks": [1, 2]}
    assert hands(s) == ["", "2C 3C"]
    assert onecard.fmt(s.stock) == "4S 4D"  # a final attack makes nobody draw


def test_the_others_ranked_by_cards_left() -> None:
    """RULES.md: «La mano termina con el primero que se queda sin cartas; los demás se
    ordenan por las cartas que les quedan (menos primero).»"""
    s = pos("5H", "2C 3C", "4S 5S 6S", "2D 3D", discard="9H", turn=0)
    events = play(s, 0, "5H")
    assert events[-1]["left"] == [0, 2, 3, 2]
    assert s.result is not None and s.result["ranks"] == [1, 2, 4, 2]
    assert s.result["winner"] == 0


def test_no_move_after_the_end() -> None:
    """«Gana al instante quien se queda sin cartas» — después ya no se juega."""
    s = pos("9H", "2C 5H", discard="5H", stock="3S")
    play(s, 0, "9H")
    for seat, move in [(1, mv("5H")), (1, Draw()), (1, Call()), (0, Timeout()), (1, Timeout())]:
        refused(s, seat, move, "game_over")
    refused(s, 1, Catch(0), "game_over")
    refused(s, 1, CloseWindow(0), "game_over")


# --- J and Q ---------------------------------------------------------------------------


def test_jack_skips_the_next_player() -> None:
    """«J: salta al siguiente jugador.»"""
    s = pos("JH 2C", "3C", "4C", discard="5H")
    events = play(s, 0, "JH")
    assert events[0]["skips"] == 1
    assert s.turn == 2
    s = pos("JH 2C", "3C", "4C", "6C", discard="5H", turn=0, direction=-1)
    play(s, 0, "JH")
    assert s.turn == 2  # counterclockwise: 3 is skipped


def test_jack_with_two_players_you_play_again() -> None:
    """«En partidas de dos, vuelves a jugar tú.» «En partidas de dos, la J es un turno extra.
    Prepara la carta siguiente para soltar dos seguidas.»"""
    s = pos("JH 2H 9C", "3C", discard="5H")
    turns = s.turns
    play(s, 0, "JH")
    assert s.turn == 0 and s.turns == turns + 1
    assert turn_moves(s, 0) == ["2H"]
    play(s, 0, "2H")
    assert s.turn == 1


@pytest.mark.parametrize("players", [3, 4])
def test_queen_reverses_direction(players: int) -> None:
    """«Q: invierte el sentido del turno. Se nota con tres o cuatro jugadores»."""
    others = ["3C 4C"] * (players - 1)
    s = pos("QH 2C", *others, discard="5H", turn=0)
    play(s, 0, "QH")
    assert s.direction == -1 and s.turn == players - 1
    s.hands[players - 1] = onecard.cards("QC 8S")
    play(s, players - 1, "QC")
    assert s.direction == 1 and s.turn == 0


def test_queen_with_two_players_changes_nothing() -> None:
    """«con dos no cambia nada.»"""
    s = pos("QH 2C", "3C 4C", discard="5H")
    play(s, 0, "QH")
    assert s.direction == 1 and s.turn == 1


# --- attacks ---------------------------------------------------------------------------


def test_king_attacks_plus_two() -> None:
    """«K: ataque de +2 cartas.»"""
    s = pos("KH 2C", "3C 4D", "4C", discard="5H", stock="6S 7S 8S")
    events = play(s, 0, "KH")
    assert events[0] == {"t": "play", "seat": 0, "card": "KH", "attack": 2, "target": 1}
    assert s.attack == 2 and s.turn == 1
    assert turn_moves(s, 1) == ["draw"]
    events = draw(s, 1)
    assert events[0] == {"t": "draw", "seat": 1, "n": 2, "secret": ["8S", "7S"], "attack": True}
    assert hands(s)[1] == "3C 4D 8S 7S"


def test_ace_attacks_plus_three() -> None:
    """«A: ataque de +3 cartas.»"""
    s = pos("AH 2C", "3C 4D", discard="5H", stock="6S 7S 8S 9S")
    play(s, 0, "AH")
    assert s.attack == 3
    draw(s, 1)
    assert hands(s)[1] == "3C 4D 9S 8S 7S" and s.attack == 0


def test_king_on_king_passes_plus_four() -> None:
    """«Otro rey lo acumula y lo pasa al siguiente.» «Si te atacan con un rey, puedes echar tu
    propio rey para que el siguiente reciba +4, o robar dos cartas con el botón de robar.»"""
    s = pos("KH 2C", "KS 4D", "3S 9D", discard="5H", stock="2D 3D 4H 5D 6D")
    play(s, 0, "KH")
    assert turn_moves(s, 1) == ["KS"]
    events = play(s, 1, "KS")
    assert events[0]["attack"] == 4 and events[0]["target"] == 2
    assert s.attack == 4 and s.turn == 2
    draw(s, 2)
    assert len(s.hands[2]) == 6 and s.attack == 0 and s.turn == 0


def test_aces_grow_three_six_nine() -> None:
    """«Los ases crecen igual: +3, luego +6, luego +9.» «Otro as lo acumula y lo pasa al
    siguiente.»"""
    s = pos("AH 2C", "AS 4D", "AD 9D", "3H 3S", discard="5H")
    assert play(s, 0, "AH")[0]["attack"] == 3
    assert play(s, 1, "AS")[0]["attack"] == 6
    assert play(s, 2, "AD")[0]["attack"] == 9
    assert s.attack == 9 and s.turn == 3


def test_attack_passes_only_with_the_same_value() -> None:
    """«Cuando te atacan, solo puedes responder con el mismo valor: un ataque de rey solo se
    pasa con un rey y uno de as solo con un as.»"""
    s = pos("2H 9H 5H AH", "3C", discard="KH", attack=2)
    assert legal(s, 0) == ["draw"]
    e = refused(s, 0, mv("9H"), "must_answer_attack")
    assert "+2" in onecard.SPEC.describe(e, "es")
    refused(s, 0, mv("AH"), "must_answer_attack")


def test_kings_and_aces_do_not_block_each_other() -> None:
    """«Reyes y ases no se bloquean entre sí. Si te atacan con un as y solo tienes reyes,
    robas tres cartas.»"""
    s = pos("KH KS", "3C", discard="2C AH", stock="4D 5D 6D 8D", attack=3)
    assert turn_moves(s, 0) == ["draw"]
    refused(s, 0, mv("KH"), "must_answer_attack")
    draw(s, 0)
    assert len(s.hands[0]) == 5 and s.attack == 0
    s = pos("AH AS", "3C", discard="KH", attack=2)
    assert turn_moves(s, 0) == ["draw"]
    refused(s, 0, mv("AH"), "must_answer_attack")


def test_no_drawing_while_holding_a_card_that_passes() -> None:
    """«Y como el botón de robar se desactiva mientras tengas una carta de ataque del mismo
    valor, lo normal es pasar el ataque.»"""
    s = pos("KS 2C", "3C", discard="KH", stock="4D 5D", attack=2)
    assert turn_moves(s, 0) == ["KS"]
    refused(s, 0, Draw(), "must_pass_attack")


def test_drawing_the_attack_ends_attack_and_turn() -> None:
    """«Cuando alguien roba las cartas, el ataque termina y se sigue jugando con
    normalidad.» RULES.md: «quien no puede pasar el ataque roba la suma entera, lo que
    termina el ataque y el turno; se sigue desde la misma carta de arriba, que ya no es un
    ataque.»"""
    s = pos("KH 2C", "3C 4D", "5H KS 9S", discard="8H", stock="6S 7S 8S 9C")
    play(s, 0, "KH")
    draw(s, 1)
    assert s.attack == 0 and s.turn == 2 and onecard.code(s.top) == "KH"
    # no longer an attack: any heart or king fits
    assert turn_moves(s, 2) == ["5H", "KS"]
    play(s, 2, "5H")
    assert s.attack == 0 and s.turn == 0


def test_king_after_a_drawn_attack_starts_a_new_one() -> None:
    """«se sigue jugando con normalidad»: un rey echado después empieza un nuevo +2."""
    s = pos("KH 2C", "3C 4D", "5H KS 9S", discard="8H", stock="6S 7S 8S 9C")
    play(s, 0, "KH")
    draw(s, 1)
    events = play(s, 2, "KS")
    assert events[0]["attack"] == 2 and s.attack == 2 and s.turn == 0


def test_attack_follows_the_direction_and_skips_nobody() -> None:
    """«Otro rey lo acumula y lo pasa al siguiente»: el siguiente en el sentido del turno."""
    s = pos("KH 2C", "3C", "4C", "KS 6C", discard="5H", direction=-1)
    events = play(s, 0, "KH")
    assert events[0]["target"] == 3 and s.turn == 3
    play(s, 3, "KS")
    assert s.turn == 2 and s.attack == 4


# --- One Card call and catch -----------------------------------------------------------


def test_call_with_two_cards() -> None:
    """«Cuando te queda una sola carta hay que avisar diciendo One Card. En Playfulo puedes
    pulsar el botón One Card cuando tienes dos cartas»."""
    s = pos("5H 9H", "3C 4C 8D", discard="5D", turn=1)
    assert onecard.actors(s) == [0, 1]
    assert legal(s, 0) == ["call"]  # not the turn of seat 0, but it may call
    events = onecard.apply(s, 0, Call())
    assert events == [{"t": "call", "seat": 0}]
    assert s.called == [True, False] and s.turn == 1
    assert onecard.actors(s) == [1]
    refused(s, 0, Call(), "cannot_call")


def test_call_holds_until_more_than_two_cards() -> None:
    """RULES.md: «un aviso hecho con dos cartas vale hasta que vuelva a tener más de dos».
    «No pulsar One Card con dos cartas y que te toquen» es un error común."""
    s = pos("5H 9H", "3C 4C 8D", discard="5D", stock="2S 3S 4S")
    onecard.apply(s, 0, Call())
    events = play(s, 0, "5H")
    assert kinds(events) == ["play"] and s.exposed == []
    refused(s, 1, Catch(0), "nothing_to_catch")
    # back to two cards: the call still holds; to three: it is gone
    s = pos("2C", "3C", discard="5H", stock="8D 3S 4S", called=[True, False])
    draw(s, 0)
    assert hands(s)[0] == "2C 4S" and s.called == [True, False]
    draw(s, 1)
    draw(s, 0)
    assert hands(s)[0] == "2C 4S 8D" and s.called == [False, False]


def test_call_right_after_the_play_that_left_one() -> None:
    """«[puedes pulsar el botón One Card] justo después de la jugada que te deja con una.»"""
    s = pos("5H 9C", "3C 4C 8D", discard="5D")
    events = play(s, 0, "5H")
    assert events[1] == {"t": "window", "seat": 0}
    assert s.exposed == [0]
    assert legal(s, 0) == ["call"]
    assert onecard.apply(s, 0, Call()) == [{"t": "call", "seat": 0}]
    assert s.exposed == [] and s.called[0]
    refused(s, 1, Catch(0), "nothing_to_catch")


def test_call_refused_otherwise() -> None:
    """RULES.md: se puede avisar con dos cartas o justo después de quedarse con una; en otro
    caso no."""
    s = pos("5H 9C 2S", "3C 4C", discard="5D")
    refused(s, 0, Call(), "cannot_call")  # three cards
    s = pos("9C", "3C 4C", discard="5D")
    refused(s, 0, Call(), "cannot_call")  # one card, the window has closed
    s = pos("5H 9C", "3C 4C 8D", discard="5D")
    play(s, 0, "5H")
    onecard.apply(s, 1, CloseWindow(0))
    refused(s, 0, Call(), "cannot_call")


def test_forgetting_to_call_any_other_player_catches() -> None:
    """«Si se te olvida, durante unos segundos cualquier otro jugador puede tocarte, y si lo
    hace robas dos cartas de penalización.»"""
    s = pos("5H 9C", "3C 4C", "8D 8S 2D", discard="5D", stock="2S 3S 4S")
    play(s, 0, "5H")
    assert s.exposed == [0] and s.turn == 1
    assert onecard.actors(s) == [0, 1, 2]
    assert legal(s, 2) == ["catch/0"]
    assert legal(s, 1) == ["draw", "call", "catch/0"]
    events = onecard.apply(s, 2, Catch(0))  # seat 2, not the one to play, catches
    assert events == [{"t": "caught", "seat": 0, "by": 2, "n": 2, "secret": ["4S", "3S"]}]
    assert hands(s)[0] == "9C 4S 3S"
    assert s.exposed == [] and s.turn == 1
    refused(s, 1, Catch(0), "nothing_to_catch")  # the window closed on the catch


def test_a_rival_left_with_one_card_can_be_caught() -> None:
    """«si un rival se queda con una carta sin avisar, tócalo rápido antes de que se cierre
    el plazo.»"""
    s = pos("3C 4C", "5H 9C", discard="5D", stock="2S 3S", turn=1)
    play(s, 1, "5H")
    assert legal(s, 0)[-1] == "catch/1"
    onecard.apply(s, 0, Catch(1))
    assert len(s.hands[1]) == 3 and s.called == [False, False]


def test_cannot_catch_yourself_or_someone_safe() -> None:
    """«cualquier otro jugador puede tocarte» — solo otro, y solo a quien no avisó."""
    s = pos("5H 9C", "3C 4C", discard="5D", stock="2S 3S")
    play(s, 0, "5H")
    refused(s, 0, Catch(0), "nothing_to_catch")
    refused(s, 0, Catch(1), "nothing_to_catch")
    s = pos("9C", "3C 4C", discard="5D", stock="2S 3S")
    refused(s, 1, Catch(0), "nothing_to_catch")


def test_window_closes_when_it_runs_out() -> None:
    """RULES.md: «El plazo se cierra cuando se acaba o cuando ese jugador avisa.»"""
    s = pos("5H 9C", "3C 4C", discard="5D", stock="2S 3S")
    play(s, 0, "5H")
    events = onecard.apply(s, 1, CloseWindow(0))
    assert events == [{"t": "window_closed", "seat": 0}]
    assert s.exposed == [] and onecard.actors(s) == [1]
    refused(s, 1, Catch(0), "nothing_to_catch")
    refused(s, 1, CloseWindow(0), "no_window")


def test_window_clock_is_reported() -> None:
    """RULES.md: «hasta que se cierra el plazo (3 s en línea; un ajuste)» — la sala lleva
    el reloj; el motor dice qué relojes corren."""
    s = pos("5H 9C", "3C 4C", discard="5D", stock="2S 3S")
    assert onecard.clocks(s) == [("turn", 0, 1)]
    play(s, 0, "5H")
    assert onecard.clocks(s) == [("turn", 1, 2), ("window", 0, None)]


def test_exposed_player_who_draws_is_safe() -> None:
    """«Cuando te queda una sola carta hay que avisar» — con dos cartas ya no hay nada que
    pillar."""
    s = pos("5H 9C", "JD 4C", discard="5D", stock="2S 3S")
    play(s, 0, "5H")  # 9C left, no call
    draw(s, 1)  # JD and 4C do not fit the 5H
    draw(s, 0)
    assert s.exposed == [] and len(s.hands[0]) == 2


def test_catch_with_an_empty_stock_draws_what_there_is() -> None:
    """RULES.md: «si no hay nada que robar, se roba lo que haya»."""
    s = pos("5H 9C", "3C 4C", discard="5D")
    play(s, 0, "5H")
    events = onecard.apply(s, 1, Catch(0))
    assert events[0]["n"] == 1 and events[0]["secret"] == ["5D"]
    assert hands(s)[0] == "9C 5D" and onecard.fmt(s.discard) == "5H"


# --- the online clock -----------------------------------------------------------------


def test_timeout_draws_when_drawing_is_allowed() -> None:
    """RULES.md: «Al agotarse el tiempo: se roba si robar está permitido»."""
    s = pos("2C 3S", "9H", discard="5H", stock="8C")
    events = onecard.apply(s, 0, Timeout())
    assert events == [{"t": "draw", "seat": 0, "n": 1, "secret": ["8C"], "timeout": True}]
    assert s.turn == 1 and s.timeouts == [1, 0]


def test_timeout_takes_the_attack() -> None:
    """RULES.md: «(o se recibe el ataque)»."""
    s = pos("2C 3S", "9H", discard="KH", stock="8C 9C 10C", attack=2)
    events = onecard.apply(s, 0, Timeout())
    assert events[0]["attack"] is True and events[0]["n"] == 2
    assert s.attack == 0 and s.turn == 1


def test_timeout_plays_the_first_legal_card() -> None:
    """RULES.md: «si no, se juega la primera carta legal»."""
    s = pos("9H 5C KH 3H", "9S", discard="5H", stock="8C")
    first = onecard.legal_moves(s, 0)[0]
    assert str(first) == "3H"
    events = onecard.apply(s, 0, Timeout())
    assert events == [{"t": "play", "seat": 0, "card": "3H", "timeout": True}]
    assert hands(s)[0] == "9H 5C KH" and s.timeouts == [1, 0]


def test_timeout_passes_the_attack_when_drawing_is_not_allowed() -> None:
    """RULES.md: se roba solo si robar está permitido; con un rey en la mano no lo está."""
    s = pos("2C KS", "9H", discard="KH", stock="8C", attack=2)
    events = onecard.apply(s, 0, Timeout())
    assert events[0]["card"] == "KS" and s.attack == 4


def test_timeout_seven_names_the_suit_held_most() -> None:
    """RULES.md: «(un 7 nombra el palo que más tiene)»."""
    s = pos("7H 2S 3S 4D", "9C", discard="5H")
    events = onecard.apply(s, 0, Timeout())
    assert events[0] == {"t": "play", "seat": 0, "card": "7H", "suit": "S", "timeout": True}
    assert s.suit == SUIT_CODES.index("S")


def test_timeouts_count_in_a_row_and_reset_on_a_real_move() -> None:
    """RULES.md: «Tras tres tiempos agotados seguidos, un bot de nivel normal juega por ese
    asiento hasta que su jugador vuelva a actuar.» — el motor cuenta los seguidos."""
    s = pos("2C 3S 4S", "9H 9D 9S 9C", discard="5H", stock="8C 8D 8S 10C 10D")
    for n in (1, 2, 3):
        onecard.apply(s, 0, Timeout())
        assert s.timeouts[0] == n
        onecard.apply(s, 1, Timeout())  # seat 1 plays 9H, then 9D...
    assert s.timeouts == [3, 3]
    # a real move resets the count
    onecard.apply(s, 0, onecard.legal_moves(s, 0)[0])
    assert s.timeouts[0] == 0 and s.timeouts[1] == 3
    assert onecard.view(s, 1)["timeouts"] == [0, 3]


def test_timeout_only_for_the_seat_to_play() -> None:
    """RULES.md: «30 s por turno» — el reloj es del turno."""
    s = pos("2C 3S", "9H", discard="5H", stock="8C")
    refused(s, 1, Timeout(), "not_your_turn")


# --- house rules -----------------------------------------------------------------------


def test_house_rules_off_by_default() -> None:
    """RULES.md: «Reglas caseras, desactivadas por defecto, con los nombres de la última
    sección de la semilla»."""
    config = onecard.parse_config({})
    assert onecard.config_json(config) == {
        "players": 2, "penalty": 2, "two_attack": False, "jokers": False,
        "king_again": False, "three_blocks": False, "no_special_finish": False,
    }  # fmt: skip
    s = pos("2H 2S", "3C", discard="5H")
    play(s, 0, "2H")
    assert s.attack == 0
    s = pos("3H 2S", "3C", discard="KH", attack=2)
    refused(s, 0, mv("3H"), "must_answer_attack")


def test_two_attack_house_rule() -> None:
    """«Hay quien usa el 2 como ataque de +2» (regla casera ``two_attack``)."""
    s = pos("2H 9S", "2C 4D", "3S 5S", discard="5H", stock="6S 7S 8S 9C", two_attack=True)
    events = play(s, 0, "2H")
    assert events[0]["attack"] == 2
    assert turn_moves(s, 1) == ["2C"]
    refused(s, 1, Draw(), "must_pass_attack")
    play(s, 1, "2C")
    assert s.attack == 4 and s.turn == 2
    draw(s, 2)
    assert len(s.hands[2]) == 6
    # a 2 does not pass a king's attack, nor a king a 2's
    s = pos("2H 9S", "3C", discard="KH", attack=2, two_attack=True)
    assert turn_moves(s, 0) == ["draw"]


def test_jokers_house_rule() -> None:
    """«Hay quien […] añade comodines como gran ataque» (regla casera ``jokers``): se echan
    sobre cualquier carta y atacan con +5; solo otro comodín lo pasa."""
    s = pos("JK1 9S", "JK2 4D", "3S 5S", discard="5H", stock="2C 3C 4C", jokers=True)
    assert turn_moves(s, 0) == ["JK1"]
    events = play(s, 0, "JK1")
    assert events[0]["attack"] == 5 and s.suit == onecard.ANY_SUIT
    assert turn_moves(s, 1) == ["JK2"]
    play(s, 1, "JK2")
    assert s.attack == 10 and s.turn == 2
    assert turn_moves(s, 2) == ["draw"]
    draw(s, 2)
    assert s.attack == 0
    # after the attack any card goes on a joker
    assert turn_moves(s, 0) == ["9S"]


def test_joker_passes_any_attack() -> None:
    """Regla casera ``jokers``: el comodín se echa sobre cualquier carta, también sobre un
    ataque, y lo suma."""
    s = pos("JK1 9S", "4D", discard="KH", attack=2, jokers=True)
    assert turn_moves(s, 0) == ["JK1"]
    play(s, 0, "JK1")
    assert s.attack == 7


def test_king_again_house_rule() -> None:
    """«Hay quien […] usa el rey para volver a jugar» (regla casera ``king_again``)."""
    s = pos("KH 2H 9C", "3C 4C", discard="5H", king_again=True)
    events = play(s, 0, "KH")
    assert "attack" not in events[0] and s.attack == 0 and s.turn == 0
    play(s, 0, "2H")
    assert s.turn == 1
    s = pos("AH 2H 9C", "3C 4C", discard="5H", king_again=True)
    play(s, 0, "AH")
    assert s.attack == 3 and s.turn == 1  # the ace still attacks


def test_three_blocks_house_rule() -> None:
    """«Hay quien […] deja bloquear ataques con un 3» (regla casera ``three_blocks``): un 3
    del palo de arriba para el ataque."""
    s = pos("3H 3S 9C", "2C 4C", discard="KH", attack=2, three_blocks=True)
    assert turn_moves(s, 0) == ["3H"]
    refused(s, 0, mv("3S"), "must_answer_attack")
    events = play(s, 0, "3H")
    assert events[0]["blocked"] is True
    assert s.attack == 0 and s.turn == 1
    assert onecard.fmt(s.hands[1]) == "2C 4C"  # nobody draws
    # without an attack a 3 is an ordinary card
    s = pos("3H 9C", "2C 4C", discard="5H", three_blocks=True)
    events = play(s, 0, "3H")
    assert "blocked" not in events[0]


def test_no_special_finish_house_rule() -> None:
    """«Hay quien […] prohíbe terminar con una carta especial» (regla casera
    ``no_special_finish``)."""
    s = pos("KH", "3C 4C", discard="5H", stock="2S", no_special_finish=True)
    assert turn_moves(s, 0) == ["draw"]
    refused(s, 0, mv("KH"), "special_finish")
    draw(s, 0)
    assert hands(s)[0] == "KH 2S"
    s = pos("9H", "3C 4C", discard="5H", no_special_finish=True)
    play(s, 0, "9H")
    assert s.result is not None and s.result["winner"] == 0
    # a special card may still be played while it is not the last one
    s = pos("KH 9C", "3C 4C", discard="5H", no_special_finish=True)
    play(s, 0, "KH")
    assert s.attack == 2


def test_no_special_finish_timeout_draws() -> None:
    """Regla casera ``no_special_finish``: con solo una especial, el tiempo agotado roba."""
    s = pos("7H", "3C 4C", discard="5H", stock="2S", no_special_finish=True)
    events = onecard.apply(s, 0, Timeout())
    assert events[0]["t"] == "draw" and hands(s)[0] == "7H 2S"


@pytest.mark.parametrize("penalty", [1, 3, 5])
def test_penalty_house_rule(penalty: int) -> None:
    """«acordad antes del reparto […] cuánto se paga por no avisar» (``penalty``, 2 por
    defecto)."""
    s = pos("5H 9C", "3C 4C", discard="5D", stock="2S 3S 4S 5S 6S 8S", penalty=penalty)
    play(s, 0, "5H")
    events = onecard.apply(s, 1, Catch(0))
    assert events[0]["n"] == penalty and len(s.hands[0]) == 1 + penalty


# --- illegal moves leave everything unchanged ------------------------------------------


@pytest.mark.parametrize(
    ("seat", "move", "code"),
    [
        (1, mv("5S"), "not_your_turn"),
        (1, Draw(), "not_your_turn"),
        (1, Timeout(), "not_your_turn"),
        (2, mv("5H"), "not_your_turn"),
        (-1, Draw(), "not_your_turn"),
        (0, mv("AS"), "not_in_hand"),
        (0, mv("5S"), "not_in_hand"),
        (0, mv("6S"), "no_match"),
        (0, mv("7C", "H"), "no_match"),
        (0, Draw(), "must_play"),
        (0, Call(), "cannot_call"),
        (1, Catch(0), "nothing_to_catch"),
        (1, CloseWindow(0), "no_window"),
    ],
)
def test_illegal_move_changes_nothing(seat: int, move: Any, code: str) -> None:
    """DESIGN.md: «Una entrada mala recibe un error claro y no cambia nada»."""
    s = pos("5H 6S 7C 9H", "5S 3C", discard="2C 5D", stock="4S 4D")
    e = refused(s, seat, move, code)
    assert str(e) and not str(e).startswith("error.")


def test_illegal_under_attack_changes_nothing() -> None:
    """«Cuando te atacan, solo puedes responder con el mismo valor»."""
    s = pos("KS 5H", "3C", discard="KH", stock="4S 4D", attack=2)
    refused(s, 0, mv("5H"), "must_answer_attack")
    refused(s, 0, Draw(), "must_pass_attack")
    refused(s, 0, mv("AH"), "not_in_hand")


def test_unknown_move_refused() -> None:
    """DESIGN.md: «Una entrada mala recibe un error claro y no cambia nada»."""
    s = pos("5H", "3C", discard="5D")
    refused(s, 0, "play 5H", "unknown_move")


# --- parsing moves and options ---------------------------------------------------------


def test_parse_move_round_trip() -> None:
    """DESIGN.md: «Una jugada es un dato: un valor pequeño e inmutable con un códec JSON.»"""
    moves: list[Any] = [
        mv("5H"), mv("10S"), mv("AS"), mv("7D", "C"), Play(52), Draw(), Call(),
        Catch(3), CloseWindow(1), Timeout(),
    ]  # fmt: skip
    for m in moves:
        data = json.loads(json.dumps(m.to_json()))
        assert onecard.parse_move(data) == m
    assert onecard.parse_move({"type": "play", "card": "10♥"}) == mv("10H")
    assert onecard.parse_move({"type": "play", "card": "7h", "suit": "s"}) == mv("7H", "S")
    assert str(mv("7D", "C")) == "7D/C" and str(Catch(2)) == "catch/2"


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ("play", "bad_move"),
        ([], "bad_move"),
        ({}, "bad_move"),
        ({"type": 3}, "bad_move"),
        ({"type": "jump"}, "unknown_move"),
        ({"type": "play"}, "bad_move"),
        ({"type": "play", "card": 5}, "bad_move"),
        ({"type": "play", "card": "ZZ"}, "bad_move"),
        ({"type": "play", "card": "1"}, "bad_move"),
        ({"type": "play", "card": "11H"}, "bad_move"),
        ({"type": "play", "card": "5X"}, "bad_move"),
        ({"type": "play", "card": "5H", "suit": "S"}, "bad_move"),
        ({"type": "play", "card": "5H", "extra": 1}, "bad_move"),
        ({"type": "play", "card": "7H"}, "seven_needs_suit"),
        ({"type": "play", "card": "7H", "suit": 1}, "seven_needs_suit"),
        ({"type": "draw", "n": 1}, "bad_move"),
        ({"type": "call", "seat": 0}, "bad_move"),
        ({"type": "timeout", "seat": 0}, "bad_move"),
        ({"type": "catch"}, "bad_move"),
        ({"type": "catch", "target": "1"}, "bad_move"),
        ({"type": "catch", "target": True}, "bad_move"),
        ({"type": "catch", "target": 4}, "bad_move"),
        ({"type": "catch", "target": -1}, "bad_move"),
        ({"type": "catch", "target": 1, "by": 0}, "bad_move"),
        ({"type": "close_window", "target": 1.0}, "bad_move"),
    ],
)
def test_parse_move_refusals(data: Any, code: str) -> None:
    """DESIGN.md: «Una entrada mala recibe un error claro […]: un mensaje mal formado»."""
    with pytest.raises(IllegalMove) as info:
        onecard.parse_move(data)
    assert info.value.code == code
    assert not str(info.value).startswith("error.")


@pytest.mark.parametrize(
    "data",
    [
        "players",
        None,
        {"players": 1},
        {"players": 5},
        {"players": "2"},
        {"players": True},
        {"players": 2.0},
        {"penalty": 0},
        {"penalty": 6},
        {"penalty": True},
        {"penalty": "2"},
        {"jokers": 1},
        {"two_attack": "yes"},
        {"king_again": None},
        {"colour": "red"},
        {"players": 2, "Jokers": True},
    ],
)
def test_parse_config_refusals(data: Any) -> None:
    """RULES.md: «2–4 jugadores»; la penalización que acuerda la mesa (1–5)."""
    with pytest.raises(IllegalMove) as info:
        onecard.parse_config(data)
    assert info.value.code == "bad_config"


def test_parse_config_accepts_every_option() -> None:
    """RULES.md: las reglas caseras y la penalización son opciones de la mesa."""
    data = {
        "players": 4, "penalty": 5, "two_attack": True, "jokers": True, "king_again": True,
        "three_blocks": True, "no_special_finish": True,
    }  # fmt: skip
    config = onecard.parse_config(data)
    assert onecard.config_json(config) == data
    assert onecard.seats(config) == 4
    for players in (2, 3, 4):
        assert onecard.parse_config({"players": players}).players == players


# --- legal moves, views, positions -----------------------------------------------------


def test_legal_moves_order() -> None:
    """DESIGN.md: «legal_moves(state, seat) en un orden fijo»: jugadas por carta (un 7
    una vez por palo), luego robar, luego avisar, luego pillar."""
    s = pos("AH 7H 2H 5C", "3C 4C", "9S 9D", discard="5H", exposed=[], turn=0)
    assert legal(s, 0) == ["2H", "7H/H", "7H/D", "7H/C", "7H/S", "AH", "5C"]
    s = pos("2C 3C", "9C", "5S 6S", discard="5H", exposed=[1], turn=0)
    assert legal(s, 0) == ["draw", "call", "catch/1"]
    assert legal(s, 2) == ["call", "catch/1"]
    assert legal(s, 1) == ["call"]


def test_view_shows_own_hand_and_only_counts_of_others() -> None:
    """DESIGN.md: «view(state, seat): lo que ese asiento puede ver; lo oculto se corta aquí».
    «Fíjate en cuándo roban los rivales»: los robos se ven, la carta robada no."""
    s = pos("KH 5H 2C", "9D 3S", discard="4H 5D", stock="8C 9C")
    play(s, 0, "5H")
    events = draw(s, 1)
    assert events[0]["secret"] == ["9C"]
    v = onecard.view(s, 1)
    assert v["hand"] == ["9D", "9C", "3S"]
    assert v["counts"] == [2, 3] and v["stock"] == 1 and v["discard"] == 3
    assert v["top"] == "5H" and v["suit"] == "H" and v["voids"] == [[], ["H"]]
    text = json.dumps(onecard.view(s, 0))
    for hidden in ("9D", "3S", "9C", "8C"):
        assert f'"{hidden}"' not in text
    assert all("secret" not in entry for entry in v["log"])
    spectator = onecard.view(s, None)
    assert spectator["hand"] is None and spectator["legal"] == []
    assert onecard.view(s, 0)["legal"] == [{"type": "play", "card": "KH"}, {"type": "call"}]


def test_view_of_a_seven_and_an_attack() -> None:
    """«7: eliges el palo siguiente»; «K: ataque de +2 cartas» — se ven en la mesa."""
    s = pos("7H 2C 3C", "KS 3S", discard="5H")
    play(s, 0, "7H", "S")
    v = onecard.view(s, 1)
    assert v["top"] == "7H" and v["suit"] == "S"
    play(s, 1, "KS")
    v = onecard.view(s, 0)
    assert v["attack"] == 2 and v["target"] == 0
    assert v["seen"] == {"K": 1, "A": 0, "2": 0, "JK": 0}


def test_dump_load_round_trip() -> None:
    """DESIGN.md: «dump(state) / load(data): el formato de posiciones […] para montar
    cualquier posición en un test.» `load(dump(s))` es la misma partida, con el mismo
    futuro."""
    config = onecard.parse_config({"players": 3, "jokers": True, "penalty": 3})
    s = onecard.new(config, 7)
    for _ in range(40):
        if s.result is not None:
            break
        onecard.apply(s, s.turn, onecard.legal_moves(s, s.turn)[0])
    data = json.loads(json.dumps(onecard.dump(s)))
    t = onecard.load(data)
    assert onecard.dump(t) == data
    for seat in [0, 1, 2, None]:
        assert onecard.view(t, seat) == onecard.view(s, seat)
    for _ in range(200):
        if s.result is not None:
            break
        move = onecard.legal_moves(s, s.turn)[-1]
        assert onecard.apply(s, s.turn, move) == onecard.apply(t, t.turn, move)
    assert onecard.dump(t) == onecard.dump(s)


def test_load_defaults() -> None:
    """docs/positions.md: «load da a cada campo que falta su valor por defecto»."""
    s = onecard.load({"hands": ["5H 9C KD", "5S 2D 3D"], "discard": "4C 5D"})
    assert s.config == onecard.Config() and s.stock == [] and s.turn == 0
    assert s.suit == onecard.SUIT_CODES.index("D") and s.attack == 0 and s.direction == 1
    assert s.called == [False, False] and s.exposed == [] and s.turns == 1
    assert s.timeouts == [0, 0] and s.voids == [0, 0] and s.seen == [0] * 15
    assert s.log == [] and s.result is None and s.rng.state == 0
    assert onecard.code(s.top) == "5D"
    s = onecard.load({"hands": ["5H", "5S", "2D"], "discard": "JK1", "config": {"jokers": True}})
    assert s.config.players == 3 and s.suit == onecard.ANY_SUIT
    assert onecard.dump(s)["suit"] == "*"


def test_load_accepts_card_forms() -> None:
    """docs/positions.md: el códec de cartas acepta símbolos, minúsculas, T y 1."""
    s = onecard.load({"hands": ["10♥ th 1D as", "k♠"], "discard": "5D", "stock": "JK2"})
    assert hands(s) == ["10H 10H AD AS", "KS"]
    assert onecard.fmt(s.stock) == "JK2"
