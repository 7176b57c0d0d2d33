"""What a client sends on the game socket, as typed values: one tagged union, decoded once
at the edge (:func:`decode`), whatever process the message ends up handled in.

Every message is a JSON object whose ``type`` says what it is (docs/protocol.md, «Client →
server»); a private room's actions (``"type": "lobby"``) carry an ``action`` that says which
(:data:`RoomAction`). A message that is not JSON, not an object, of an unknown type, or with
a field of the wrong shape is refused with a :class:`Refusal`, a code and its parameters,
before anyone sees it: reading it never touches a table or a room. A field the message does
not have is ignored. Moves and drafts stay raw JSON here (``msgspec.Raw``): only the table
knows which game reads them.

>>> decode('{"type": "join", "game": "a1b2", "version": 7}')
Join(game='a1b2', version=7)
>>> decode('{"type": "lobby", "action": "bot", "seat": 2, "level": "dificil", "version": 3}')
Lobby(action=AddBot(seat=2, level='dificil', version=3), ref=None)
>>> decode('{"type": "dance"}')
Traceback (most recent call last):
tapete.rooms.messages.Refusal: unknown_type (type=dance)
>>> decode('{"type": "ping", "ref": "\\\\ud800"}')
Traceback (most recent call last):
tapete.rooms.messages.Refusal: bad_json
"""

from __future__ import annotations

from typing import Annotated, Any, Final

import msgspec

MAX_MESSAGE: Final = 4096
"""The largest message a client may send, in bytes."""

Ref = Annotated[str, msgspec.Meta(max_length=64)] | int | None
"""What a client tags a message with, to know its answer (echoed in it)."""


class Refusal(ValueError):
    """A message refused before anyone handles it: a shared error code and its parameters
    (``bad_json``, ``bad_message`` with the ``detail``, ``unknown_type`` with the ``type``)."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        details = ", ".join(f"{k}={v}" for k, v in params.items())
        super().__init__(f"{code} ({details})" if details else code)


class ClientMessage(msgspec.Struct, tag_field="type", frozen=True, kw_only=True):
    """A message a client sends on the socket."""


class Ping(ClientMessage, frozen=True, tag="ping"):
    """Answered by ``pong`` with the same ``ref``: the socket is alive."""

    ref: Ref = None


class Join(ClientMessage, frozen=True, tag="join"):
    """Follow a game (its id): one's own seat, or (a game among friends) as a spectator.
    With the last ``version`` seen, the reply (``joined``) lists what was missed since."""

    game: str
    version: int | None = None


class Enter(ClientMessage, frozen=True, tag="enter"):
    """Be in a private room (its six-digit code): the reply is its state (``lobby``), then
    every change. Wrong codes are counted (docs/security.md, «Room codes»)."""

    room: str


class Move(ClientMessage, frozen=True, tag="move"):
    """Play ``move`` (the game's move JSON, e.g. ``{"type": "turn"}``, read by the table) on
    ``version``, the last one seen; ``ref`` is echoed in an error."""

    move: msgspec.Raw
    version: int | None = None
    ref: Ref = None


class Check(ClientMessage, frozen=True, tag="check"):
    """A game with drafts (Rummy): check ``table`` (a table in the making) without playing
    it; the reply is ``checked``."""

    table: msgspec.Raw
    ref: Ref = None


class Hint(ClientMessage, frozen=True, tag="hint"):
    """A game with hints (Rummy): what its hint level would play now; the reply is
    ``hint``."""


class Sync(ClientMessage, frozen=True, tag="sync"):
    """Ask for the whole view again (the reply is ``sync``)."""


class Handover(ClientMessage, frozen=True, tag="handover"):
    """A game on one device passed round: it is in the hands of ``seat`` now («Soy Ana»);
    the reply is ``joined`` with that seat's view (docs/protocol.md, «One device»)."""

    seat: int


# --- a private room's actions ----------------------------------------------------------


class RoomAction(msgspec.Struct, tag_field="action", frozen=True, kw_only=True):
    """Something a player does in a private room: ``version`` is the room's as they last saw
    it (an action that changes the seats or options on a stale one is refused)."""

    version: int | None = None


class Take(RoomAction, frozen=True, tag="take"):
    """Sit in the first empty seat, or, seated already, take a new name; refused with
    ``removed`` to one the host removed."""

    name: str | None = None


class Leave(RoomAction, frozen=True, tag="leave"):
    """Leave the room (in the middle of a game a bot plays the seat to its end)."""


class Remove(RoomAction, frozen=True, tag="remove"):
    """The host empties ``seat``; a player removed may not sit again until the host lets
    them back."""

    seat: int


class Readmit(RoomAction, frozen=True, tag="readmit"):
    """The host lets the removed player ``removed[index]`` (of the room's state) sit again
    («Dejar volver»)."""

    index: int


class AddBot(RoomAction, frozen=True, tag="bot"):
    """The host puts a bot of ``level`` in ``seat``."""

    seat: int
    level: str


class SetOptions(RoomAction, frozen=True, tag="options"):
    """The host sets the room's options: ``config`` (the game's), ``clock`` (seconds or
    null) and optionally ``seats`` (the number of seats, which the game turns into its
    options)."""

    options: dict[str, Any]


class Start(RoomAction, frozen=True, tag="start"):
    """The host starts the game; between games, the next one without waiting for the
    rematch («Empezar ya»)."""


class Rematch(RoomAction, frozen=True, tag="rematch"):
    """Ask for the next game with the same seats, once a game is over: it begins when
    every player here has asked (those away count as having asked)."""


class React(RoomAction, frozen=True, tag="react"):
    """Show the room one of its reactions (``key``: a phrase or an emoji of the list;
    throttled), stored nowhere."""

    key: str


RoomActionType = Take | Leave | Remove | Readmit | AddBot | SetOptions | Start | Rematch | React
"""Every action of a private room, by its ``action``."""

CHANGES: Final = frozenset({Leave, Remove, Readmit, AddBot, SetOptions, Start})
"""The actions that change the seats or options, refused on a stale ``version``."""
HOST_ONLY: Final = frozenset({Remove, Readmit, AddBot, SetOptions, Start})
"""The actions only the host may take."""


class _LobbyHead(ClientMessage, frozen=True, tag="lobby"):
    """A private room's action as the socket first reads it: its action is read on its own
    (:data:`RoomActionType`, tagged by ``action``), from the same object."""

    action: str
    ref: Ref = None


class Lobby(msgspec.Struct, frozen=True, kw_only=True):
    """An action in the private room the socket has entered (``"type": "lobby"``)."""

    action: RoomActionType
    ref: Ref = None


ClientMessageType = Ping | Join | Enter | Move | Check | Hint | Sync | Handover | Lobby
"""Every message a client may send, as :func:`decode` gives it."""

TABLE_MESSAGES: Final = (Move, Check, Hint, Sync, Handover)
"""The messages for the table the socket has joined."""


class _Head(msgspec.Struct):
    type: str
    action: str | None = None


_MESSAGES = msgspec.json.Decoder(
    Ping | Join | Enter | Move | Check | Hint | Sync | Handover | _LobbyHead
)
_ACTIONS = msgspec.json.Decoder(RoomActionType)
_HEAD = msgspec.json.Decoder(_Head)
TYPES: Final = frozenset(
    str(t.__struct_config__.tag)
    for t in (Ping, Join, Enter, Move, Check, Hint, Sync, Handover, _LobbyHead)
)
ACTIONS: Final = frozenset(str(t.__struct_config__.tag) for t in RoomActionType.__args__)


def decode(text: str | bytes) -> ClientMessageType:
    """The message in ``text``, or :class:`Refusal`: ``bad_message`` past
    :data:`MAX_MESSAGE` bytes or a field of the wrong shape (its ``detail``), ``bad_json``
    for what is not JSON (a lone surrogate such as ``"\\ud800"`` included: no answer could
    carry it), ``unknown_type`` for a ``type`` (or a room's ``action``) nobody knows."""
    if len(text) > MAX_MESSAGE:
        raise Refusal("bad_message", detail=f"> {MAX_MESSAGE} bytes")
    try:
        message: Ping | Join | Enter | Move | Check | Hint | Sync | Handover | _LobbyHead
        message = _MESSAGES.decode(text)
        if isinstance(message, _LobbyHead):
            return Lobby(action=_ACTIONS.decode(text), ref=message.ref)
        return message
    except msgspec.ValidationError as exc:
        raise _why(text, exc) from None
    except msgspec.DecodeError:
        raise Refusal("bad_json") from None
    except RecursionError:
        raise Refusal("bad_message", detail="too deep") from None


def _why(text: str | bytes, exc: msgspec.ValidationError) -> Refusal:
    """Why a message that is JSON is refused: its ``type`` (or ``action``) unknown, or a
    field's shape (read again, on this rare path, to tell them apart)."""
    try:
        head = _HEAD.decode(text)
    except (msgspec.ValidationError, RecursionError):  # (a ValidationError is a DecodeError)
        return Refusal("bad_message", detail="type")
    except msgspec.DecodeError:
        return Refusal("bad_json")
    if head.type not in TYPES:
        return Refusal("unknown_type", type=head.type[:40])
    if head.type == "lobby" and head.action is not None and head.action not in ACTIONS:
        return Refusal("unknown_type", type=head.action[:40])
    return Refusal("bad_message", detail=_field(exc))


def _field(exc: msgspec.ValidationError) -> str:
    """The field a validation error is about: ``$.action.seat`` → ``seat``."""
    text = str(exc)
    if "missing required field `" in text:
        return text.split("missing required field `", 1)[1].split("`", 1)[0]
    at = text.rfind("`$")
    return text[at + 2 :].strip("`").lstrip(".").split(".")[-1] or "type" if at >= 0 else "type"


def raw_json(raw: msgspec.Raw) -> Any:
    """A raw field (a move, a draft) as plain JSON values, for the game's codec to read."""
    return msgspec.json.decode(raw)


# --- the protocol's documentation, from these types (docs/protocol.md) ------------------


def _type_words(t: Any) -> str:
    """A field's type as docs/protocol.md says it."""
    import msgspec.inspect as mi

    if isinstance(t, mi.Metadata):
        return _type_words(t.type)
    if isinstance(t, mi.UnionType):
        words = [_type_words(x) for x in t.types if not isinstance(x, mi.NoneType)]
        nullable = any(isinstance(x, mi.NoneType) for x in t.types)
        return " or ".join(words) + (" or null" if nullable else "")
    names = {
        mi.IntType: "int",
        mi.StrType: "string",
        mi.RawType: "JSON",
        mi.DictType: "object",
        mi.AnyType: "JSON",
    }
    return next((v for k, v in names.items() if isinstance(t, k)), type(t).__name__)


def _fields(struct: type) -> str:
    import msgspec.inspect as mi

    info = mi.type_info(struct)
    assert isinstance(info, mi.StructType)
    parts = []
    for f in info.fields:
        optional = "" if f.required else ", optional"
        parts.append(f"`{f.encode_name}` ({_type_words(f.type)}{optional})")
    return ", ".join(parts) or "—"


def _what(struct: type) -> str:
    return " ".join((struct.__doc__ or "").split()).replace("``", "`")


def document() -> str:
    """The tables of docs/protocol.md made from these types: every message a client may
    send, and every action of a private room (``tests/test_protocol_doc.py`` checks the
    docs against it)."""
    lines = ["| type | fields | what |", "|---|---|---|"]
    for struct in (Join, Move, Sync, Check, Hint, Handover, Ping, Enter):
        tag = struct.__struct_config__.tag
        lines.append(f"| `{tag}` | {_fields(struct)} | {_what(struct)} |")
    lines.append(
        f"| `lobby` | `action` (string), `ref` (string or int, optional), and the action's "
        f"fields (below) | {_what(Lobby)} |"
    )
    lines += ["", "| action | fields | what |", "|---|---|---|"]
    for struct in RoomActionType.__args__:
        tag = struct.__struct_config__.tag
        lines.append(f"| `{tag}` | {_fields(struct)} | {_what(struct)} |")
    return "\n".join(lines) + "\n"
