"""Rummy de fichas: turns, the five checks of a play, the end of a hand, matches.

A play is the whole table as it should stand after the turn (a list of sets, each in the
order laid down). :func:`check` reports on a draft without applying anything; :func:`apply`
refuses an illegal play with the first rule it breaks.

>>> s = load({"racks": ["10R 10A 10N 2O", "1R 2R"], "pool": "5N 6N"})
>>> _ = apply(s, 0, Play(((tile("10R"), tile("10A"), tile("10N")),)))
>>> s.melded[0], [fmt(list(x)) for x in s.table], s.turn
(True, ['10R 10A 10N'], 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Final, Literal

from msgspec import Meta

from tapete.games.protocol import JSON, BareMove, Codec, Event, IllegalMove, Options
from tapete.games.rummy.sets import Meaning, analyze
from tapete.i18n import N_
from tapete.rng import Rng
from tapete.tiles import fmt, full_set, name, points, text, tile, tiles

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


@dataclass(frozen=True, slots=True)
class Play:
    table: Layout

    def to_json(self) -> JSON:
        return {"type": "play", "table": [[text(t) for t in s] for s in self.table]}

    def __str__(self) -> str:
        return "play " + " | ".join(fmt(list(s)) for s in self.table)


@dataclass(frozen=True, slots=True)
class Draw(BareMove):
    TYPE = "draw"


@dataclass(frozen=True, slots=True)
class Pass(BareMove):
    TYPE = "pass"


@dataclass(frozen=True, slots=True)
class Timeout(BareMove):
    """Clock move: the draft is discarded; draw one, or pass with the pool empty."""

    TYPE = "timeout"


Move = Play | Draw | Pass | Timeout
DRAW: Final = Draw()
PASS: Final = Pass()
TIMEOUT: Final = Timeout()
CLOCK_MOVES: Final = frozenset({"timeout"})


def parse_layout(data: Any) -> Layout:
    if not isinstance(data, list) or len(data) > 60:
        raise IllegalMove("bad_move", detail="«table» es una lista de combinaciones")
    out = []
    for s in data:
        if not isinstance(s, list) or not s or len(s) > 13:
            raise IllegalMove("bad_move", detail="cada combinación es una lista de fichas")
        try:
            out.append(tuple(tile(x) if isinstance(x, str) else _bad_tile(x) for x in s))
        except ValueError as exc:
            raise IllegalMove("bad_move", detail=str(exc)) from None
    return tuple(out)


def _bad_tile(x: Any) -> int:
    raise ValueError(f"no es una ficha: {x!r}")


def parse_move(data: JSON) -> Move:
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise IllegalMove("bad_move", detail="falta «type»")
    kind = data["type"]
    if kind == "play":
        if set(data) != {"type", "table"}:
            raise IllegalMove("bad_move", detail="play necesita «table»")
        return Play(parse_layout(data["table"]))
    simple: dict[str, Move] = {"draw": DRAW, "pass": PASS, "timeout": TIMEOUT}
    if kind in simple:
        if set(data) != {"type"}:
            raise IllegalMove("bad_move", detail="campos de más")
        return simple[kind]
    raise IllegalMove("unknown_move")


# --- state -----------------------------------------------------------------------------


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
    return [] if state.result is not None else [state.turn]


def legal_moves(state: State, seat: int) -> list[Move]:
    """Draw or pass (plays are not enumerated: :func:`check` validates a proposed table)."""
    if state.result is not None or seat != state.turn:
        return []
    return [DRAW] if state.pool else [PASS]


# --- checking a play -------------------------------------------------------------------


def check(state: State, seat: int, layout: Sequence[Sequence[int]]) -> JSON:
    """Report on a draft table without applying it.

    Returns ``{"ok", "sets": [{"valid", "kind", "value", "reason"}], "errors": [{"code",
    "message"}], "new_tiles", "meld_points", "melded"}``; ``errors`` lists the turn's broken
    rules in the order of RULES.md (1 valid sets … 5 jokers).
    """
    after = [tuple(s) for s in layout]
    infos = [analyze(s) for s in after]
    errors: list[JSON] = []
    for s, info in zip(after, infos, strict=True):
        if not info.valid:
            errors.append(
                {"code": "invalid_set", "message": info.reason, "set": [text(t) for t in s]}
            )
    before_flat = Counter(t for s in state.table for t in s)
    after_flat = Counter(t for s in after for t in s)
    missing = before_flat - after_flat
    if missing:
        t = next(iter(sorted(missing)))
        message = f"Falta en la mesa {_the(t)}: lo que estaba no puede volver al atril."
        errors.append({"code": "table_tile_missing", "message": message})
    new = after_flat - before_flat
    rack = Counter(state.racks[seat])
    foreign = new - rack
    if foreign:
        t = next(iter(sorted(foreign)))
        errors.append({"code": "not_in_rack", "message": f"No tienes {_the(t)} en tu atril."})
    if not new and not missing:
        errors.append({"code": "no_new_tile",
                       "message": "Tienes que poner al menos una ficha de tu atril."})  # fmt: skip
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
            message = (
                "Antes de tu bajada inicial no puedes tocar la mesa: "
                "solo combinaciones nuevas de tu atril."
            )
            errors.append({"code": "meld_touch", "message": message})
        elif new and not foreign and meld_points < MELD_POINTS:
            errors.append({"code": "meld_short", "message": f"Tu bajada suma {meld_points}: "
                           f"hacen falta {MELD_POINTS} o más."})  # fmt: skip
    if not errors:
        joker_error = _jokers(state.table, after)
        if joker_error:
            errors.append({"code": "joker_unbacked", "message": joker_error})
    return {
        "ok": not errors,
        "sets": [
            {"valid": i.valid, "kind": i.kind, "value": i.value, "reason": i.reason or None}
            for i in infos
        ],
        "errors": errors,
        "new_tiles": sum(new.values()),
        "meld_points": meld_points,
        "melded": melded,
    }


def _the(t: int) -> str:
    return "el comodín" if t >= 52 else f"el {name(t)}"


def joker_meanings(layout: list[tuple[int, ...]]) -> dict[int, Meaning]:
    """What each joker on a (valid) table stands for."""
    out: dict[int, Meaning] = {}
    for s in layout:
        info = analyze(s)
        for i, meaning in info.meanings.items():
            out[s[i]] = meaning
    return out


def _jokers(before: list[tuple[int, ...]], after: list[tuple[int, ...]]) -> str | None:
    """Rule 5: each joker retrieved (standing for something else now) needs a real tile of
    what it stood for on the table, one tile per joker."""
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
    what = " o ".join(f"el {n} {('rojo', 'azul', 'negro', 'naranja')[c]}" for c, n in options)
    return f"Para retirar el comodín hace falta dejar en la mesa {what}."


# --- applying --------------------------------------------------------------------------


def apply(state: State, seat: int, move: Move) -> list[Event]:
    if state.result is not None:
        raise IllegalMove("game_over")
    if seat != state.turn:
        raise IllegalMove("not_your_turn")
    if isinstance(move, Play):
        report = check(state, seat, move.table)
        if not report["ok"]:
            first = report["errors"][0]
            raise IllegalMove(first["code"], detail=first["message"])
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
    state.table = [tuple(s) for s in layout]
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
    state.hand += 1
    state.starter = (state.starter + 1) % len(state.racks)
    _deal(state)
    events.append({"t": "hand_start", "hand": state.hand, "starter": state.starter})


def outcome(state: State) -> JSON | None:
    return state.result


def view(state: State, seat: int | None) -> JSON:
    """Your rack; the others' counts; the table; never another rack nor the pool's order."""
    return {
        "game": "rummy",
        "config": config_json(state.config),
        "seat": seat,
        "rack": [text(t) for t in sorted(state.racks[seat])] if seat is not None else None,
        "counts": [len(r) for r in state.racks],
        "pool": len(state.pool),
        "table": [[text(t) for t in s] for s in state.table],
        "melded": list(state.melded),
        "turn": state.turn,
        "turns": state.turns,
        "passes": state.passes,
        "hand": state.hand,
        "hands": state.config.hands,
        "scores": list(state.scores),
        "last_hand": state.last_hand,
        "log": list(state.log),
        "actors": actors(state),
        "legal": [m.to_json() for m in legal_moves(state, seat)] if seat is not None else [],
        "result": state.result,
    }


def dump(state: State) -> JSON:
    return {
        "game": "rummy",
        "config": config_json(state.config),
        "racks": [fmt(r) for r in state.racks],
        "pool": fmt(state.pool),
        "table": [fmt(list(s)) for s in state.table],
        "melded": list(state.melded),
        "turn": state.turn,
        "passes": state.passes,
        "turns": state.turns,
        "hand": state.hand,
        "starter": state.starter,
        "scores": list(state.scores),
        "last_hand": state.last_hand,
        "log": list(state.log),
        "rng": state.rng.state,
        "result": state.result,
    }


def load(data: JSON) -> State:
    """Read a position; only ``racks`` is required (the table and pool default to empty,
    nobody has melded unless ``melded`` says so, seat 0 to play)."""
    racks = [tiles(r) if isinstance(r, str) else list(r) for r in data["racks"]]
    config = parse_config({**data.get("config", {}), "players": len(racks)})
    n = len(racks)
    table = [tuple(tiles(s)) if isinstance(s, str) else tuple(s) for s in data.get("table", [])]
    pool = data.get("pool", "")
    return State(
        config=config,
        racks=racks,
        pool=tiles(pool) if isinstance(pool, str) else list(pool),
        table=table,
        melded=list(data.get("melded", [False] * n)),
        rng=Rng(int(data.get("rng", 0))),
        turn=int(data.get("turn", 0)),
        passes=int(data.get("passes", 0)),
        turns=int(data.get("turns", 1)),
        hand=int(data.get("hand", 1)),
        starter=int(data["starter"] if data.get("starter") is not None else data.get("turn", 0)),
        scores=list(data.get("scores", [0] * n)),
        last_hand=data.get("last_hand"),
        log=list(data.get("log", [])),
        result=data.get("result"),
    )


def all_tiles(state: State) -> list[int]:
    return [t for r in state.racks for t in r] + state.pool + [t for s in state.table for t in s]


def clocks(state: State) -> list[tuple[str, int, Any]]:
    if state.result is not None:
        return []
    return [("turn", state.turn, state.turns)]


def clock_move(kind: str, seat: int) -> Move:
    if kind == "turn":
        return TIMEOUT
    raise ValueError(f"no clock {kind!r}")
