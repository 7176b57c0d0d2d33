"""Rummy de fichas: turns, the five checks of a play, the end of a hand, matches.

A play is the whole table as it should stand after the turn (a list of sets, each in the
order laid down). :func:`check` reports on a draft without applying anything; :func:`apply`
refuses an illegal play with the first rule it breaks.

>>> s = load({"racks": ["10R 10A 10N 2O", "1R 2R"], "pool": "5N 6N"})
>>> _ = apply(s, 0, move({"type": "play", "table": [["10R", "10A", "10N"]]}))
>>> s.melded[0], [fmt(list(x)) for x in s.table], s.turn
(True, ['10R 10A 10N'], 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal

import msgspec
from msgspec import Meta

from tapete.games.protocol import JSON, Codec, Event, IllegalMove, Move, Options
from tapete.games.rummy.sets import Meaning, analyze, reason, tidy
from tapete.i18n import N_
from tapete.rng import Rng
from tapete.tiles import COLOURS, Tile, Tiles, fmt, full_set, points, text

RACK_SIZE: Final = 14
MELD_POINTS: Final = 30
HANDS: Final = (1, 3, 5)

Layout = tuple[tuple[int, ...], ...]


class Config(Options, frozen=True):
    players: Annotated[int, Meta(ge=2, le=4, title=N_("Jugadores"))] = 2
    hands: Annotated[Literal[1, 3, 5], Meta(title=N_("Manos"))] = 1
    """A match of 1, 3 or 5 hands."""


CONFIG: Final = Codec[Config](Config, error="bad_config")
parse_config = CONFIG.decode
config_json = CONFIG.encode


def seats(config: Config) -> int:
    return config.players


# --- moves -----------------------------------------------------------------------------

if TYPE_CHECKING:  # the engine builds plays from its ints; a Tile is an int
    TableSet = tuple[int, ...]
else:  # on the wire each tile is its code
    TableSet = Annotated[tuple[Tile, ...], Meta(min_length=1, max_length=13)]
Table = Annotated[tuple[TableSet, ...], Meta(max_length=60)]


class Play(Move, frozen=True, tag="play"):
    """Lay down: the whole table as it should stand after the turn, each set in order."""

    table: Table

    def __post_init__(self) -> None:
        # a play built from the engine's ints writes them as codes too
        if any(type(t) is not Tile for s in self.table for t in s):
            tidied = tuple(tuple(Tile(t) for t in s) for s in self.table)
            msgspec.structs.force_setattr(self, "table", tidied)

    def __str__(self) -> str:
        return "play " + " | ".join(fmt(list(s)) for s in self.table)


class Draw(Move, frozen=True, tag="draw"):
    """Draw the pool's next tile."""


class Pass(Move, frozen=True, tag="pass"):
    """Pass (only with the pool empty)."""


class Next(Move, frozen=True, tag="next"):
    """Seen the end of the hand: deal the next one (once every seat has said so)."""


class Timeout(Move, frozen=True, tag="timeout"):
    """Clock move: the draft is discarded; draw one, or pass with the pool empty (at the
    end of a hand: as ``next``)."""


Moves = Play | Draw | Pass | Next | Timeout
DRAW: Final = Draw()
PASS: Final = Pass()
NEXT: Final = Next()
TIMEOUT: Final = Timeout()
CLOCK_MOVES: Final = frozenset({"timeout"})
MOVES: Final = Codec[Moves](Moves)
parse_move = move = MOVES.decode
"""A move from JSON; ``move(repr)`` round-trips: ``move({'type': 'draw'})``."""
_LAYOUT: Final = Codec[Play](Play)


def parse_layout(data: Any) -> Layout:
    """A draft's table (a play's ``table``), read as a play's is."""
    return _LAYOUT.decode({"type": "play", "table": data}).table


# --- state ---------------------------------------------------------------------------


@dataclass(slots=True)
class State:
    config: Config
    racks: list[list[int]]
    pool: list[int]
    """The next tile drawn is the end of the list."""
    table: list[tuple[int, ...]]
    melded: list[bool]
    rng: Rng
    turn: int = 0
    passes: int = 0
    """Passes in a row with the pool empty."""
    turns: int = 0
    """Turns begun in this match, to tell one turn's clock from the next."""
    hand: int = 1
    starter: int = 0
    scores: list[int] = field(default_factory=list)
    last_hand: JSON | None = None
    """The summary of the hand that just ended (who gained and lost what)."""
    log: list[JSON] = field(default_factory=list)
    result: JSON | None = None
    waiting: list[int] = field(default_factory=list)
    """A hand is over and the match goes on: the seats yet to say they have seen it
    (:class:`Next`). The racks and the table stay as the hand ended until the last one has."""


def new(config: Config, seed: int) -> State:
    rng = Rng.from_seed(seed)
    n = config.players
    state = State(
        config=config, racks=[[] for _ in range(n)], pool=[], table=[], melded=[False] * n,
        rng=rng, scores=[0] * n,
    )  # fmt: skip
    state.starter = rng.below(n)
    _deal(state)
    return state


def _deal(state: State) -> None:
    bag = full_set()
    state.rng.shuffle(bag)
    n = len(state.racks)
    state.racks = [sorted(bag[i * RACK_SIZE : (i + 1) * RACK_SIZE]) for i in range(n)]
    state.pool = bag[n * RACK_SIZE :]
    state.table = []
    state.melded = [False] * n
    state.turn = state.starter
    state.passes = 0
    state.turns += 1


def actors(state: State) -> list[int]:
    if state.result is not None:
        return []
    return list(state.waiting) if state.waiting else [state.turn]


def legal_moves(state: State, seat: int) -> list[Moves]:
    """Draw or pass (plays are not enumerated: :func:`check` validates a proposed table);
    between hands, ``next``."""
    if state.result is not None:
        return []
    if state.waiting:
        return [NEXT] if seat in state.waiting else []
    if seat != state.turn:
        return []
    return [DRAW] if state.pool else [PASS]


# --- checking a play -------------------------------------------------------------------


def check(state: State, seat: int, layout: Sequence[Sequence[int]]) -> JSON:
    """Report on a draft table without applying it.

    Returns ``{"ok", "sets": [{"valid", "kind", "value", "reason", "tidy"}], "errors":
    [{"code", "params"}], "new_tiles", "meld_points", "meld_needed", "meld_enough",
    "melded"}``. ``errors`` lists the turn's broken rules in the order of RULES.md (1 valid
    sets … 5 jokers), each a code and its parameters (tile codes, numbers), as a refusal
    has them; a set's ``reason`` is why it is not valid (``{"code", "params"}``, None if it
    is), and ``tidy`` the set in the order the page should show it (None if it is so).
    """
    after = [tuple(s) for s in layout]
    infos = [analyze(s) for s in after]
    errors: list[JSON] = []
    reasons = [reason(i) for i in infos]
    for s, why in zip(after, reasons, strict=True):
        if why is not None:
            errors.append(
                {"code": "invalid_set", "params": {"reason": why}, "set": [text(t) for t in s]}
            )
    before_flat = Counter(t for s in state.table for t in s)
    after_flat = Counter(t for s in after for t in s)
    missing = before_flat - after_flat
    if missing:
        t = next(iter(sorted(missing)))
        errors.append({"code": "table_tile_missing", "params": {"tile": text(t)}})
    new = after_flat - before_flat
    rack = Counter(state.racks[seat])
    foreign = new - rack
    if foreign:
        t = next(iter(sorted(foreign)))
        errors.append({"code": "not_in_rack", "params": {"tile": text(t)}})
    if not new and not missing:
        errors.append({"code": "no_new_tile", "params": {}})
    meld_points = 0
    melded = state.melded[seat]
    before_sets = Counter(state.table)
    after_sets = Counter(after)
    new_sets = after_sets - before_sets
    for s, k in new_sets.items():
        info = analyze(s)
        if info.valid and not (Counter(s) - rack):
            meld_points += info.value * k
    if not melded:
        if before_sets - after_sets:
            errors.append({"code": "meld_touch", "params": {}})
        elif new and not foreign and meld_points < MELD_POINTS:
            errors.append(
                {"code": "meld_short", "params": {"points": meld_points, "needed": MELD_POINTS}}
            )
    if not errors:
        options = _jokers(state.table, after)
        if options:
            errors.append({"code": "joker_unbacked", "params": {"tiles": options}})
    sets = []
    for s, i, why in zip(after, infos, reasons, strict=True):
        tidied = tidy(s)
        sets.append({
            "valid": i.valid, "kind": i.kind, "value": i.value, "reason": why,
            "tidy": [text(t) for t in tidied] if tidied != s else None,
        })  # fmt: skip
    return {
        "ok": not errors,
        "sets": sets,
        "errors": errors,
        "new_tiles": sum(new.values()),
        "meld_points": meld_points,
        "meld_needed": MELD_POINTS,
        "meld_enough": meld_points >= MELD_POINTS,
        "melded": melded,
    }


def joker_meanings(layout: list[tuple[int, ...]]) -> dict[int, Meaning]:
    """What each joker on a (valid) table stands for."""
    out: dict[int, Meaning] = {}
    for s in layout:
        info = analyze(s)
        for i, meaning in info.meanings.items():
            out[s[i]] = meaning
    return out


def _jokers(before: list[tuple[int, ...]], after: list[tuple[int, ...]]) -> list[str] | None:
    """Rule 5: each joker retrieved (standing for something else now) needs a real tile of
    what it stood for on the table, one tile per joker. None if every one has it; else the
    tiles (codes) one of which is missing."""
    start = joker_meanings(before)
    if not start:
        return None
    end = joker_meanings(after)
    retrieved = [(j, m) for j, m in start.items() if not (end.get(j, frozenset()) & m)]
    if not retrieved:
        return None
    real = Counter((t // 13, t % 13 + 1) for s in after for t in s if t < 52)

    def cover(i: int, left: Counter[tuple[int, int]]) -> bool:
        if i == len(retrieved):
            return True
        for face in sorted(retrieved[i][1]):
            if left[face] > 0:
                left[face] -= 1
                if cover(i + 1, left):
                    return True
                left[face] += 1
        return False

    if cover(0, Counter(real)):
        return None
    hopeless = [m for _, m in retrieved if not any(real[face] for face in m)]
    options = sorted(hopeless[0] if hopeless else retrieved[0][1])
    return [f"{n}{COLOURS[c]}" for c, n in options]


# --- applying --------------------------------------------------------------------------


def apply(state: State, seat: int, move: Moves) -> list[Event]:
    if state.result is not None:
        raise IllegalMove("game_over")
    if state.waiting:
        if not isinstance(move, Next | Timeout):
            raise IllegalMove("hand_over")
        if seat not in state.waiting:
            raise IllegalMove("already_ready")
        return _ready(state, seat)
    if isinstance(move, Next):
        raise IllegalMove("hand_not_over")
    if seat != state.turn:
        raise IllegalMove("not_your_turn")
    if isinstance(move, Play):
        report = check(state, seat, move.table)
        if not report["ok"]:
            first = report["errors"][0]
            raise IllegalMove(first["code"], **first["params"])
        return _play(state, seat, move.table, report)
    if isinstance(move, Draw):
        if not state.pool:
            raise IllegalMove("pool_empty")
        return _draw(state, seat, timeout=False)
    if isinstance(move, Pass):
        if state.pool:
            raise IllegalMove("must_draw")
        return _pass(state, seat, timeout=False)
    if isinstance(move, Timeout):
        return _draw(state, seat, timeout=True) if state.pool else _pass(state, seat, timeout=True)
    raise IllegalMove("unknown_move")


def _play(state: State, seat: int, layout: Layout, report: JSON) -> list[Event]:
    new = Counter(t for s in layout for t in s) - Counter(t for s in state.table for t in s)
    rack = state.racks[seat]
    for t, k in new.items():
        for _ in range(k):
            rack.remove(t)
    first_meld = not state.melded[seat]
    state.melded[seat] = True
    state.table = [tuple(int(t) for t in s) for s in layout]
    state.passes = 0
    placed = sorted(new.elements())
    event: Event = {
        "t": "play", "seat": seat, "tiles": [text(t) for t in placed],
        "points": sum(points(t) if t < 52 else 0 for t in placed),
    }  # fmt: skip
    if first_meld:
        event["meld"] = report["meld_points"]
    events = [event]
    _log(state, event)
    if not rack:
        _end_hand(state, seat, events)
    else:
        _next(state)
    return events


def _draw(state: State, seat: int, *, timeout: bool) -> list[Event]:
    t = state.pool.pop()
    state.racks[seat].append(t)
    state.passes = 0
    event: Event = {"t": "draw", "seat": seat, "secret": [text(t)]}
    if timeout:
        event["timeout"] = True
    _log(state, event)
    _next(state)
    return [event]


def _pass(state: State, seat: int, *, timeout: bool) -> list[Event]:
    state.passes += 1
    event: Event = {"t": "pass", "seat": seat}
    if timeout:
        event["timeout"] = True
    _log(state, event)
    events = [event]
    if state.passes >= len(state.racks):
        _end_hand(state, None, events)
    else:
        _next(state)
    return events


def _next(state: State) -> None:
    state.turn = (state.turn + 1) % len(state.racks)
    state.turns += 1


def _log(state: State, event: Event) -> None:
    state.log.append({k: v for k, v in event.items() if k != "secret"})
    if len(state.log) > 12:
        del state.log[0]


def hand_scores(racks: list[list[int]], winner: int | None) -> tuple[list[int], list[int]]:
    """Points each seat gains (+) or loses (−) at the end of a hand, and who won it.

    With a winner (empty rack): the others lose their rack points; the winner gains their
    sum. Blocked (``winner`` None): the lowest rack total wins; the others lose their points
    minus that minimum and the winners share the sum equally, rounded down.
    """
    totals = [sum(points(t) for t in r) for r in racks]
    n = len(racks)
    delta = [0] * n
    if winner is not None:
        for s in range(n):
            if s != winner:
                delta[s] = -totals[s]
        delta[winner] = sum(totals[s] for s in range(n) if s != winner)
        return delta, [winner]
    low = min(totals)
    winners = [s for s in range(n) if totals[s] == low]
    pot = 0
    for s in range(n):
        if totals[s] != low:
            delta[s] = -(totals[s] - low)
            pot += totals[s] - low
    for s in winners:
        delta[s] = pot // len(winners)
    return delta, winners


def _end_hand(state: State, winner: int | None, events: list[Event]) -> None:
    """Score the hand. The last hand ends the match; after another, the table waits for
    every seat to have seen it (``next``) before the next deal."""
    delta, winners = hand_scores(state.racks, winner)
    for s, d in enumerate(delta):
        state.scores[s] += d
    summary = {
        "hand": state.hand,
        "winners": winners,
        "blocked": winner is None,
        "delta": delta,
        "racks": [fmt(r) for r in state.racks],
        "scores": list(state.scores),
    }
    state.last_hand = summary
    events.append({"t": "hand_end", **summary})
    if state.hand >= state.config.hands:
        best = max(state.scores)
        state.result = {
            "winners": [s for s, v in enumerate(state.scores) if v == best],
            "scores": list(state.scores),
            "hands": state.hand,
        }
        events.append({"t": "end", **state.result})
        return
    state.waiting = list(range(len(state.racks)))


def _ready(state: State, seat: int) -> list[Event]:
    """A seat has seen the end of the hand; the last one deals the next hand, started by
    the seat after the one that started this one."""
    state.waiting.remove(seat)
    events: list[Event] = [{"t": "ready", "seat": seat}]
    if not state.waiting:
        state.hand += 1
        state.starter = (state.starter + 1) % len(state.racks)
        _deal(state)
        events.append({"t": "hand_start", "hand": state.hand, "starter": state.starter})
    return events


def outcome(state: State) -> JSON | None:
    return state.result


def view(state: State, seat: int | None) -> JSON:
    """Your rack; the others' counts; the table; never another rack nor the pool's order.
    Between hands (``waiting``), the table and racks as the hand ended (``last_hand`` has
    every rack) until every seat has seen it."""
    return {
        "game": "rummy",
        "config": config_json(state.config),
        "seat": seat,
        "rack": [text(t) for t in sorted(state.racks[seat])] if seat is not None else None,
        "counts": [len(r) for r in state.racks],
        "pool": len(state.pool),
        "table": [[text(t) for t in s] for s in state.table],
        "melded": list(state.melded),
        "meld_needed": MELD_POINTS,
        "turn": state.turn,
        "turns": state.turns,
        "passes": state.passes,
        "hand": state.hand,
        "hands": state.config.hands,
        "scores": list(state.scores),
        "last_hand": state.last_hand,
        "waiting": list(state.waiting),
        "log": list(state.log),
        "actors": actors(state),
        "legal": [m.to_json() for m in legal_moves(state, seat)] if seat is not None else [],
        "result": state.result,
    }


# --- positions -------------------------------------------------------------------------


class Position(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A position as ``dump`` writes it and ``load`` reads it (docs/positions.md): tiles as
    codes, several in one string; what ``load`` may leave out has a default (``None``:
    derived from the racks or the turn)."""

    game: str = "rummy"
    config: dict[str, Any] = {}
    racks: list[Tiles]
    pool: Tiles = msgspec.field(default_factory=lambda: Tiles([]))
    table: list[Tiles] = []
    melded: list[bool] | None = None
    turn: int = 0
    passes: int = 0
    turns: int = 1
    hand: int = 1
    starter: int | None = None
    scores: list[int] | None = None
    last_hand: JSON | None = None
    log: list[JSON] = []
    rng: int = 0
    result: JSON | None = None
    waiting: list[int] = []
    """Only while a hand is over and the match goes on (written only then)."""


POSITION: Final = Codec[Position](Position, error="bad_position")


def dump(state: State) -> JSON:
    data = POSITION.encode(
        Position(
            config=config_json(state.config), racks=[Tiles(r) for r in state.racks],
            pool=Tiles(state.pool), table=[Tiles(list(s)) for s in state.table],
            melded=list(state.melded), turn=state.turn, passes=state.passes,
            turns=state.turns, hand=state.hand, starter=state.starter,
            scores=list(state.scores), last_hand=state.last_hand, log=list(state.log),
            rng=state.rng.state, result=state.result, waiting=list(state.waiting),
        )
    )  # fmt: skip
    if not state.waiting:
        del data["waiting"]
    return data


def load(data: JSON) -> State:
    """Read a position; only ``racks`` is required (the table and pool default to empty,
    nobody has melded unless ``melded`` says so, seat 0 to play). A field of the wrong
    type, or text that is not tiles, raises ``IllegalMove("bad_position", field=...)``."""
    p = POSITION.decode(data)
    n = len(p.racks)
    config = parse_config({**p.config, "players": n})
    return State(
        config=config,
        racks=[r.tiles for r in p.racks],
        pool=p.pool.tiles,
        table=[tuple(s.tiles) for s in p.table],
        melded=list(p.melded) if p.melded is not None else [False] * n,
        rng=Rng(p.rng),
        turn=p.turn,
        passes=p.passes,
        turns=p.turns,
        hand=p.hand,
        starter=p.starter if p.starter is not None else p.turn,
        scores=list(p.scores) if p.scores is not None else [0] * n,
        last_hand=p.last_hand,
        log=list(p.log),
        result=p.result,
        waiting=list(p.waiting),
    )


def all_tiles(state: State) -> list[int]:
    return [t for r in state.racks for t in r] + state.pool + [t for s in state.table for t in s]


def clocks(state: State) -> list[tuple[str, int, Any]]:
    """The turn's clock; between hands, one for each seat yet to see the hand's end (when
    it runs out, the seat is taken to have seen it)."""
    if state.result is not None:
        return []
    if state.waiting:
        return [("turn", seat, state.turns) for seat in state.waiting]
    return [("turn", state.turn, state.turns)]


def clock_move(kind: str, seat: int) -> Moves:
    if kind == "turn":
        return TIMEOUT
    raise ValueError(f"no clock {kind!r}")
