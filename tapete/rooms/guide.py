"""A guided first game: a scripted deal (``GameSpec.guided``, docs/positions.md «Guided
first games») where the table tells its player, step by step, what to do and why («Sobre el
cinco de corazones puedes echar cualquier corazón o un cinco»), and the player makes every
move. The game's own rules say which step it is from the state (:attr:`Guided.step`); the
words are the game's catalog's, in the player's language. The seat guided is marked in the
game's seats (``"guided": true``); only that seat's connections are told."""

from __future__ import annotations

from typing import Any

from tapete.games.protocol import JSON, GameSpec
from tapete.i18n.errors import describe

Step = tuple[str, JSON]


def guided_seat(spec: GameSpec[Any, Any, Any], seats: list[dict[str, Any]]) -> int | None:
    """The seat a game guides (None: not a guided game)."""
    if spec.guided is None:
        return None
    return next((i for i, s in enumerate(seats) if s.get("guided") is True), None)


def step_of(spec: GameSpec[Any, Any, Any], state: Any, seat: int) -> Step | None:
    """What the table says to ``seat`` now (None: nothing)."""
    assert spec.guided is not None
    return spec.guided.step(state, seat)


def words(spec: GameSpec[Any, Any, Any], step: Step | None, lang: str) -> JSON | None:
    """A step as the page shows it: ``{"key", "text"}`` (``key``: the step's message id,
    the same in every language) in ``lang``, its parameters named as refusals' are."""
    if step is None:
        return None
    msgid, params = step
    text = describe("guide", lang, spec.key, {"guide": msgid}, spec.params, **params)
    return {"key": msgid, "text": text}
