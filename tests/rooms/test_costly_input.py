"""A malformed move costs the room nothing: it is read before the gate touches the state,
refused with a code, and neither replays the log nor logs a traceback."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from tapete.games.protocol import Codec, IllegalMove, Move
from tapete.rooms import Settings
from tests.lives import Lives

G0 = "a" * 24


@pytest.mark.parametrize(
    "move",
    [
        {"type": [0]},
        {"type": {"a": 1}},
        {"type": None},
        [{"type": "turn"}],
        {"type": "turn", "x": [0]},
        {"type": "skip"},  # a clock's move: only the room may send it
    ],
)
async def test_a_malformed_move_is_refused_without_a_replay_or_a_traceback(
    lives: Lives, move: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    live = lives(Settings(bot_delay=30.0))
    room = await live.tables.create("guerra", {}, G0)
    replays: list[int] = []
    real = room._replay_log

    async def spy() -> None:
        replays.append(room.version)
        await real()

    monkeypatch.setattr(room, "_replay_log", spy)
    reply = await room.submit(G0, 0, move)
    assert reply is not None and reply["code"] in {"bad_move", "unknown_move", "bad_message"}
    assert room.version == 0 and replays == []
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


class Word(str):
    @classmethod
    def from_wire(cls, obj: Any) -> Word:
        return cls(obj.lower())  # fails with AttributeError on anything but a string


class Say(Move, tag="say"):  # type: ignore[misc]
    word: Word


def test_a_field_reader_that_fails_its_own_way_is_a_refusal() -> None:
    codec: Codec[Say] = Codec(Say)
    assert codec.decode({"type": "say", "word": "HOLA"}).word == "hola"
    for bad in ([0], 1, None, {"a": 1}):
        with pytest.raises(IllegalMove) as refused:
            codec.decode({"type": "say", "word": bad})
        assert refused.value.code == "bad_move" and refused.value.params == {"field": "word"}


def test_a_check_that_fails_its_own_way_is_a_refusal() -> None:
    def check(value: Say) -> None:
        raise KeyError(value.word)

    with pytest.raises(IllegalMove) as refused:
        Codec(Say, check=check).decode({"type": "say", "word": "x"})
    assert refused.value.code == "bad_move"
