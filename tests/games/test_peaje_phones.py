"""El Peaje across phones (RULES.md, «El Peaje across phones», «Absent players», clocks
online): who acts at which seat, from explicit positions. The rules of the route are the
same as on one phone (test_peaje_rules.py); only who may act changes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tapete.games import peaje
from tapete.games.protocol import IllegalMove

A = peaje.Answer
REVEAL = peaje.Reveal()
HIT = peaje.Mark(True)
CONFIRM_MISS = peaje.ConfirmMiss()
CONFIRM_TOLL = peaje.ConfirmToll()
SKIP = peaje.Skip()


def route(coming: str = "", cards: str = "6H", **fields: Any) -> dict[str, Any]:
    """One route: ``coming`` in the order the cards will be turned."""
    return {"deck": " ".join(reversed(coming.split())), "cards": cards, **fields}


def table(
    *routes: dict[str, Any], current: int = 0, phase: str | None = None, **config: Any
) -> peaje.State:
    data: dict[str, Any] = {"routes": list(routes), "current": current, "config": config}
    if phase is not None:
        data["phase"] = phase
    return peaje.load(data)


def refused(state: peaje.State, seat: int, move: peaje.Move, code: str) -> None:
    before = json.dumps(peaje.dump(state), sort_keys=True)
    with pytest.raises(IllegalMove) as info:
        peaje.apply(state, seat, move)
    assert info.value.code == code
    assert json.dumps(peaje.dump(state), sort_keys=True) == before


# --- options --------------------------------------------------------------------------


def test_practice_is_one_phone_and_one_seat() -> None:
    c = peaje.parse_config({"variant": "cooperativo", "players": 3})
    assert c.phones == 0 and peaje.seats(c) == 1


@pytest.mark.parametrize(
    ("variant", "players", "phones", "ok"),
    [
        ("dos", 2, 2, True),
        ("dos", 2, 1, False),
        ("rapidos", 3, 3, True),
        ("rapidos", 3, 2, False),  # each plays their own route on their own phone
        ("cooperativo", 8, 8, True),
        ("patata", 6, 3, True),  # three answer aloud, recorded on the host's phone
        ("patata", 6, 1, False),
        ("patata", 3, 4, False),
        ("solitario", 1, 1, False),
    ],
)
def test_phones_fit_the_variant(variant: str, players: int, phones: int, ok: bool) -> None:
    data = {"variant": variant, "players": players, "phones": phones}
    if ok:
        assert peaje.seats(peaje.parse_config(data)) == phones
    else:
        with pytest.raises(IllegalMove) as info:
            peaje.parse_config(data)
        assert info.value.code == "bad_config"


def test_a_room_gives_every_player_a_phone_and_solitario_has_none() -> None:
    c = peaje.for_room(peaje.parse_config({"variant": "patata", "players": ["Ana", "", "Luis"]}))
    assert c.phones == 3 and c.names == ("Ana", "", "Luis")
    with pytest.raises(IllegalMove) as info:
        peaje.for_room(peaje.parse_config({}))
    assert (info.value.code, info.value.params) == ("bad_config", {"field": "variant"})


def test_seats_for_a_room() -> None:
    """The room's «Jugadores»: the phones. La patata keeps its participants without one."""
    patata = peaje.parse_config({"variant": "patata", "players": 6, "phones": 6})
    fewer = peaje.with_seats(patata, 3)
    assert (fewer.phones, len(fewer.names)) == (3, 6)
    assert len(peaje.with_seats(fewer, 8).names) == 8
    rapidos = peaje.parse_config({"variant": "rapidos", "players": 2, "phones": 2})
    assert peaje.with_seats(rapidos, 4).names == ("",) * 4
    with pytest.raises(IllegalMove):
        peaje.with_seats(rapidos, 5)  # turnos rápidos: up to four
    assert peaje.seat_range(rapidos) == (2, 4)
    assert peaje.seat_range(patata) == (2, 12)


# --- who acts -------------------------------------------------------------------------


def test_dos_one_phone_answers_aloud_the_other_reveals_and_marks() -> None:
    """RULES.md: «Dos jugadores: one phone answers, the other reveals and marks
    acierto/fallo (the mark counts).»"""
    s = table(route("6D 9C"), variant="dos", players=2, phones=2)
    assert peaje.actors(s) == [1] and peaje.legal_moves(s, 0) == []
    refused(s, 0, REVEAL, "not_your_turn")
    peaje.apply(s, 1, REVEAL)
    assert s.phase == "mark" and peaje.legal_moves(s, 1) == [peaje.Mark(True), peaje.Mark(False)]
    refused(s, 0, HIT, "not_your_turn")
    peaje.apply(s, 1, HIT)  # 6D after 6H is a tie, but the mark counts
    assert s.routes[0].pos == 2


def test_dos_the_validator_confirms_the_miss_and_either_phone_the_toll() -> None:
    s = table(route("2C 9D"), variant="dos", players=2, phones=2)
    peaje.apply(s, 1, REVEAL)
    peaje.apply(s, 1, peaje.Mark(False))
    assert peaje.actors(s) == [1]
    refused(s, 0, CONFIRM_MISS, "not_your_turn")
    peaje.apply(s, 1, CONFIRM_MISS)
    peaje.apply(s, 1, REVEAL)
    peaje.apply(s, 1, HIT)
    assert s.phase == "toll" and peaje.actors(s) == [0, 1]
    peaje.apply(s, 0, CONFIRM_TOLL)
    assert s.phase == "reveal" and s.routes[0].tolls == 1


def test_turnos_rapidos_each_answers_on_their_own_phone() -> None:
    """RULES.md: «Turnos rápidos: each player's route on their own phone.» A hit keeps the
    turn (and the phone); a miss passes it to the next phone."""
    s = table(
        route("9C 2D"), route("KD"), route("QH"),
        variant="rapidos", players=3, phones=3,
    )  # fmt: skip
    assert peaje.actors(s) == [0]
    refused(s, 1, A("mayor"), "not_your_turn")
    peaje.apply(s, 0, A("mayor"))  # 9C > 6H: a hit, then the toll (fácil)
    assert peaje.actors(s) == [0, 1, 2]
    peaje.apply(s, 2, CONFIRM_TOLL)  # anyone at the table sees it paid
    assert peaje.actors(s) == [0]  # the same player answers on
    peaje.apply(s, 0, A("negra"))  # 2D is red: a miss
    assert peaje.actors(s) == [0]
    peaje.apply(s, 0, CONFIRM_MISS)  # back over the toll
    peaje.apply(s, 1, CONFIRM_TOLL)
    assert s.current == 1 and peaje.actors(s) == [1]
    view = peaje.view(s, 2)
    assert view["playing"] == 1 and view["legal"] == [] and view["seats"] == [0, 1, 2]


def test_cooperativo_answers_in_turn_each_on_their_phone() -> None:
    s = table(route("9C 10D"), variant="cooperativo", players=3, phones=3)
    peaje.apply(s, 0, A("mayor"))
    peaje.apply(s, 1, CONFIRM_TOLL)
    assert s.current == 1 and peaje.actors(s) == [1]
    refused(s, 0, A("roja"), "not_your_turn")
    peaje.apply(s, 1, A("roja"))
    assert s.current == 2 and peaje.actors(s) == [2]


def test_la_patata_the_host_phone_records_the_participants_without_one() -> None:
    """RULES.md: «La patata may also include participants without a phone: they answer
    aloud and the host's phone records it.»"""
    s = table(route("9C 10D 3S"), variant="patata", players=4, phones=2, current=1)
    assert peaje.actors(s) == [1]
    peaje.apply(s, 1, A("mayor"))
    peaje.apply(s, 0, CONFIRM_TOLL)
    assert s.current == 2 and peaje.actors(s) == [0]  # number 3 has no phone
    refused(s, 1, A("roja"), "not_your_turn")
    peaje.apply(s, 0, A("roja"))
    assert s.current == 3 and peaje.actors(s) == [0]
    assert peaje.view(s, 0)["seats"] == [0, 1, 0, 0]


# --- away and the clock ---------------------------------------------------------------


def test_an_away_player_s_turn_is_skipped_and_their_route_stays() -> None:
    """RULES.md: «an absent player's turn is skipped after the grace (turnos rápidos,
    cooperativo, La patata)»."""
    s = table(route("9C"), route("KD"), variant="rapidos", players=2, phones=2)
    assert peaje.absent(s, 1, False) is None  # not their turn
    assert peaje.absent(s, 0, False) == SKIP
    events = peaje.apply(s, 0, SKIP)
    assert [e["t"] for e in events] == ["skipped", "turn"]
    assert s.current == 1 and s.routes[0].pos == 1 and len(s.routes[0].deck) == 1


def test_an_away_player_s_miss_is_confirmed_for_them() -> None:
    s = table(route("2C 9D"), route("KD"), variant="rapidos", players=2, phones=2)
    peaje.apply(s, 0, A("mayor"))
    assert s.phase == "miss" and peaje.absent(s, 0, False) == SKIP
    peaje.apply(s, 0, SKIP)
    assert s.current == 1 and s.routes[0].misses == 1


def test_dos_waits_for_both_phones_and_a_toll_for_whoever_is_there() -> None:
    s = table(route("9C"), variant="dos", players=2, phones=2)
    assert peaje.absent(s, 1, False) is None and peaje.absent(s, 1, True) is None
    refused(s, 1, SKIP, "wrong_step")
    c = table(route("9C 3D"), variant="cooperativo", players=2, phones=2)
    peaje.apply(c, 0, A("mayor"))
    assert c.phase == "toll" and peaje.absent(c, 0, False) is None


def test_in_turnos_rapidos_one_who_left_is_out() -> None:
    """RULES.md, leaving: «El Peaje: their route ends, out.» Cooperativo skips them."""
    s = table(route("9C"), route("KD"), route("QH"), variant="rapidos", players=3, phones=3)
    assert peaje.absent(s, 0, True) == peaje.Retire()
    events = peaje.apply(s, 0, peaje.Retire())
    assert [e["t"] for e in events] == ["retired", "turn"]
    assert s.routes[0].out and s.current == 1
    peaje.apply(s, 1, peaje.Retire())
    last = peaje.apply(s, 2, peaje.Retire())
    assert s.result is not None and s.result["reason"] == "all_out" and last[-1]["t"] == "end"
    coop = table(route("9C"), variant="cooperativo", players=2, phones=2)
    assert peaje.absent(coop, 0, True) == SKIP
    refused(coop, 0, peaje.Retire(), "wrong_step")


def test_the_turn_clock_runs_only_among_friends_with_a_phone_each() -> None:
    one_phone = table(route("9C"), variant="cooperativo", players=2)
    assert peaje.clocks(one_phone) == []
    dos = table(route("9C"), variant="dos", players=2, phones=2)
    assert peaje.clocks(dos) == []
    s = table(route("9C 2D"), route("KD"), variant="rapidos", players=2, phones=2)
    [(kind, seat, first)] = peaje.clocks(s)
    assert (kind, seat) == ("turn", 0)
    peaje.apply(s, 0, A("mayor"))
    peaje.apply(s, 1, CONFIRM_TOLL)
    second = peaje.clocks(s)[0][2]
    assert second != first  # a new question: a new clock
    peaje.apply(s, 0, A("negra"))  # 2D is red: a miss, and a clock to confirm it
    [(kind, seat, third)] = peaje.clocks(s)
    assert (kind, seat, s.phase) == ("turn", 0, "miss") and third != second
