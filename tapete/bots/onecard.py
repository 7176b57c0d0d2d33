"""One Card bots at the seed's three levels, ``facil``, ``normal``, ``dificil``, and
``maestro`` above them.

A bot reads only a seat's ``view`` (the JSON dict of :func:`tapete.games.onecard.view`)
and answers with one move taken from ``view["legal"]`` plus a delay in seconds: how long
the room should wait before applying it ("thinking" for a turn, a reaction time for a
One Card call or a catch). The same view and level always give the same answer: the
randomness comes from a generator seeded with stable fields of the view.

What each level does:

* **fácil** plays a random legal card (a 7 names a random suit); it calls One Card only
  half the time, and slowly, right after the play that leaves it one card; it catches
  slowly (1.5–4 s, so often after the 3 s window has closed).
* **normal** passes attacks, plays the card that leaves the most cards able to follow,
  keeps its 7s for when nothing else fits and names the suit it holds most; it calls
  right after the play that leaves it one card (nine times in ten, 0.4–1.2 s) and
  catches in 0.8–2.5 s.
* **difícil** follows the seed's five strategy points: it estimates, from the unseen
  cards, the opponents' counts and the suits they were seen to lack (``voids``), how
  likely the next player is to be blocked, and picks the card (and the 7's suit) that
  blocks the player who matters; it dumps short suits and keeps its longest; it holds
  kings and aces until an opponent is down to two or three cards, and counts the attack
  cards seen (``seen``: an attack nobody can return is worth more); it keeps a 7 as an
  exit; it plays a J in a two-player game only with a card to follow it; with three or
  four players it uses the Q (and the J) to delay a player about to finish. Heads-up it
  also searches: the best few plays by that evaluation are tried in playouts of the
  engine on deals of the unseen cards consistent with the view (a fixed number of
  simulated moves, so the answer does not depend on the machine's speed), the evaluation
  settling close calls. It calls One Card as soon as it holds two cards (0.3–0.8 s), so
  it is never left open to a catch, and catches in 0.3–1.0 s.
* **maestro**, heads-up, tries every sensible play in playouts to the end of the game on
  many deals of the unseen cards consistent with its view (60,000 simulated moves or 150 ms
  a decision, in a loop of its own: :class:`Sim`), difícil's evaluation breaking ties; with
  three or four players it plays as difícil. It calls and catches as difícil does.

>>> from tapete.games import onecard
>>> s = onecard.load({"hands": ["5H 9C", "5S 2D 3D"], "discard": "5D"})
>>> move, delay = choose(onecard.view(s, 0), "dificil")
>>> move, 0.3 <= delay <= 0.8
({'type': 'call'}, True)
>>> choose(onecard.view(s, 1), "normal") is None  # not its turn, nothing to call or catch
True
"""

from __future__ import annotations

import math
import random
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from tapete.bots import BotSpec, Level
from tapete.games import onecard
from tapete.i18n import N_
from tapete.rng import Rng

JSON = dict[str, Any]
Choice = tuple[JSON, float]

MAESTRO: Final = "maestro"
"""The searching level above difícil: its decisions run in the rooms' search processes
(``BotSpec.searching``, ``Settings.search_workers``)."""
LEVELS: Final = ("facil", "normal", "dificil", MAESTRO)
_ALIASES: Final = {"fácil": "facil", "difícil": "dificil", "easy": "facil", "hard": "dificil"}

CARD: Final[dict[str, int]] = {onecard.code(c): c for c in range(54)}
SUIT: Final[dict[str, int]] = {s: i for i, s in enumerate(onecard.SUIT_CODES)}
ANY: Final = -1
WINDOW: Final = 3.0
"""Seconds a catch window stays open online (RULES.md); the bench uses it too."""

# (probability of calling, fastest, slowest reaction) once left with one card uncalled
CALL_TIMES: Final[dict[str, tuple[float, float, float]]] = {
    "facil": (0.5, 1.5, 3.5),
    "normal": (0.9, 0.4, 1.2),
    "dificil": (1.0, 0.3, 0.8),
    "maestro": (1.0, 0.3, 0.8),
}
CATCH_TIMES: Final[dict[str, tuple[float, float]]] = {
    "facil": (1.5, 4.0),
    "normal": (0.8, 2.5),
    "dificil": (0.3, 1.0),
    "maestro": (0.3, 1.0),
}
THINK_TIMES: Final[dict[str, tuple[float, float]]] = {
    "facil": (0.6, 1.2),
    "normal": (0.5, 1.1),
    "dificil": (0.5, 1.0),
    "maestro": (0.5, 1.0),
}


def level_name(level: str) -> str:
    """``"difícil"`` → ``"dificil"``; raises ValueError on an unknown level."""
    name = _ALIASES.get(level, level)
    if name not in LEVELS:
        raise ValueError(f"unknown One Card bot level {level!r}")
    return name


def choose(view: JSON, level: str = "normal", seconds: float | None = None) -> Choice | None:
    """The move this seat makes now and the delay before the room applies it, or None;
    ``seconds``: how long maestro may search (:data:`MASTER_SECONDS` by default; the rooms
    give it ``Settings.search_seconds``).

    In order: call One Card when left open to a catch; catch an opponent left open;
    (difícil) call while holding two cards; the turn's move. A call or a catch is
    returned before the turn's move, so a bot that is to play and may catch catches
    first and is asked again.
    """
    level = level_name(level)
    legal: list[JSON] = view.get("legal") or []
    if not legal:
        return None
    seat: int = view["seat"]
    hand: list[str] = view["hand"] or []
    has_call = any(m["type"] == "call" for m in legal)
    exposed = seat in view.get("exposed", ())
    my_turn = view.get("turn") == seat and any(m["type"] in ("play", "draw") for m in legal)

    # 1. One Card, when a catch is possible (left with one card and not called)
    if has_call and exposed:
        win = _winning_play(legal) if my_turn and len(hand) == 1 else None
        if win is not None:  # to play again (a J heads-up) with the last card: just win
            lo, hi = THINK_TIMES[level]
            return dict(win), _rng(view, level, "win").uniform(lo, (lo + hi) / 2)
        p, lo, hi = CALL_TIMES[level]
        rng = _exposure_rng(view, level)
        if rng.random() < p:
            return {"type": "call"}, rng.uniform(lo, hi)
    # 2. catch an opponent who did not call
    catches = [m for m in legal if m["type"] == "catch"]
    if catches:
        lo, hi = CATCH_TIMES[level]
        return dict(catches[0]), _rng(view, level, "catch").uniform(lo, hi)
    # 3. difícil (and maestro) call as soon as they hold two cards: never open to a catch
    if has_call and level in ("dificil", "maestro"):
        lo, hi = CALL_TIMES[level][1:]
        return {"type": "call"}, _rng(view, level, "call").uniform(lo, hi)
    # 4. the turn
    if not my_turn:
        return None
    moves = [m for m in legal if m["type"] in ("play", "draw")]
    rng = _rng(view, level, "turn")
    lo, hi = THINK_TIMES[level]
    delay = rng.uniform(lo, hi)
    if len(moves) == 1:
        return dict(moves[0]), delay
    if level == "facil":
        move = _random_move(moves, rng)
    else:
        table = Table.read(view)
        if level == "normal":
            move = _normal_move(table, moves, rng)
        elif level == "dificil":
            move = _hard_move(table, moves, view)
        else:
            limit = MASTER_SECONDS if seconds is None else seconds
            move = _master_move(table, moves, view, MASTER_MOVES, limit)
    return dict(move), delay


def _winning_play(legal: list[JSON]) -> JSON | None:
    return next((m for m in legal if m["type"] == "play"), None)


def _rng(view: JSON, level: str, purpose: str) -> random.Random:
    """A generator seeded from stable fields of the view (never ``hash()``, which Python
    randomizes per process)."""
    key = "|".join(
        (
            level,
            purpose,
            str(view.get("seat")),
            str(view.get("turns")),
            str(len(view.get("log") or ())),
            str(view.get("top")),
            " ".join(view.get("hand") or ()),
            ",".join(str(c) for c in view.get("counts") or ()),
        )
    )
    return random.Random(zlib.crc32(key.encode()))


def _exposure_rng(view: JSON, level: str) -> random.Random:
    """A generator for the decision to call once left open to a catch, the same however
    many times the seat is asked while the window stays open (the others' moves change
    the view, not the decision): seeded from the turn of the play that left one card."""
    seat = view.get("seat")
    log = view.get("log") or []
    turn = int(view.get("turns") or 0)
    for e in reversed(log):
        if e.get("t") == "play" and e.get("seat") == seat:
            break
        if e.get("t") in ("play", "draw"):
            turn -= 1
    key = f"{level}|exposed|{seat}|{turn}|{' '.join(view.get('hand') or ())}"
    return random.Random(zlib.crc32(key.encode()))


# --- fácil -----------------------------------------------------------------------------


def _random_move(moves: list[JSON], rng: random.Random) -> JSON:
    """A random legal card (each card once, however many suits a 7 may name)."""
    plays = [m for m in moves if m["type"] == "play"]
    if not plays:
        return moves[0]
    cards = sorted({m["card"] for m in plays})
    pick = rng.choice(cards)
    return rng.choice([m for m in plays if m["card"] == pick])


# --- what a bot reads from the view ----------------------------------------------------


def rank(c: int) -> int:
    return 0 if c >= 52 else c % 13 + 2


_RANK: Final = [rank(c) for c in range(54)]


@dataclass(slots=True)
class Table:
    """The view, with cards as ints (see :mod:`tapete.games.onecard`)."""

    seat: int
    n: int
    hand: list[int]
    counts: list[int]
    top: int
    suit: int
    attack: int
    direction: int
    voids: list[int]
    seen: dict[str, int]
    config: onecard.Config
    stock: int
    log: list[JSON]

    @classmethod
    def read(cls, view: JSON) -> Table:
        counts = list(view["counts"])
        return cls(
            seat=view["seat"],
            n=len(counts),
            hand=[CARD[c] for c in view["hand"]],
            counts=counts,
            top=CARD[view["top"]],
            suit=ANY if view.get("suit") is None else SUIT[view["suit"]],
            attack=int(view.get("attack") or 0),
            direction=int(view.get("direction", 1)),
            voids=[sum(1 << SUIT[s] for s in v) for v in view.get("voids") or [[]] * len(counts)],
            seen=dict(view.get("seen") or {}),
            config=onecard.parse_config(view.get("config") or {"players": len(counts)}),
            stock=int(view.get("stock", 0)),
            log=list(view.get("log") or ()),
        )

    def after(self, seat: int, steps: int = 1, direction: int | None = None) -> int:
        d = self.direction if direction is None else direction
        return (seat + d * steps) % self.n


def fits(config: onecard.Config, c: int, top: int, suit: int, attack: int) -> bool:
    """May ``c`` go on ``top`` (suit to follow ``suit``, ``attack`` pending)? The engine's
    own answer (:func:`tapete.games.onecard.fit_row`)."""
    return bool(onecard.fit_row(top, suit, bool(attack), config.three_blocks)[c])


def _play_of(move: JSON) -> tuple[int, int]:
    """``(card, suit named or -1)`` of a play move."""
    s = move.get("suit")
    return CARD[move["card"]], (SUIT[s] if s is not None else -1)


def _suit_counts(hand: list[int]) -> list[int]:
    out = [0, 0, 0, 0]
    for c in hand:
        if c < 52:
            out[c // 13] += 1
    return out


# --- normal ----------------------------------------------------------------------------


def _normal_move(t: Table, moves: list[JSON], rng: random.Random) -> JSON:
    """Pass attacks; otherwise the card that leaves the most cards able to follow it,
    keeping 7s for when nothing else fits; a 7 names the suit held most."""
    plays = [m for m in moves if m["type"] == "play"]
    if not plays:
        return moves[0]
    best: JSON = plays[0]
    best_score = -1e9
    for m in plays:
        c, s7 = _play_of(m)
        rest = [x for x in t.hand if x != c]
        r = rank(c)
        if not rest:
            return m
        score = 0.0
        if r == 7:
            counts = _suit_counts(rest)
            if counts[s7] != max(counts):
                continue
            score += counts[s7] - 10.0  # a 7 only when nothing else fits
        elif c >= 52:
            score -= 8.0  # a joker goes on anything: keep it for when nothing else fits
        else:
            suit = c // 13
            score += sum(1 for x in rest if fits(t.config, x, c, suit, 0))
            if r == 11 and t.n == 2 and any(fits(t.config, x, c, suit, 0) for x in rest):
                score += 2.0
        score += rng.random() * 0.5
        if score > best_score:
            best, best_score = m, score
    return best


# --- difícil ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Weights:
    """The difícil bot's evaluation; figures tuned with ``bench/onecard_bots.py``."""

    block: float = 2.0
    """A blocked next player draws instead of playing: about two cards' swing."""
    urgency: float = 3.0
    """How much more a card of a player close to finishing counts: ``1 + urgency/count``."""
    follow: float = 6.0
    """Being able to play again next turn."""
    suits: float = 0.35
    """Per distinct suit left in hand (dump short suits, keep the longest)."""
    suit_share: float = 0.6
    """Share of the hand in the suit to follow after the play."""
    keep7: float = 2.5
    """A 7 kept as an exit."""
    hold: float = 8.0
    """An attack card kept for when an opponent is down to two or three cards."""
    hold_above: int = 3
    attack: float = 1.0
    again: float = 2.0
    """J (two players) or the king that plays again, with a card to follow it."""
    dead_again: float = 1.5
    skip: float = 1.5
    """A player close to finishing made to wait (J, or Q with three or four players)."""
    void_keep: float = 0.15
    """What remains of a suit a player was seen to lack (they have drawn since)."""
    keep_joker: float = 1.5
    special_finish: float = 3.0


W = Weights()


class Unseen:
    """Where the cards this seat has not seen may be: a weight per card (its chance of
    being in a given unseen place, times the number of unseen cards). The attack ranks are
    counted from ``seen``; the other cards played are known only from the log."""

    __slots__ = ("mass",)

    def __init__(self, t: Table) -> None:
        cfg = t.config
        deck = 54 if cfg.jokers else 52
        known = set(t.hand)
        known.add(t.top)
        for e in t.log:
            if e.get("t") == "play":
                known.add(CARD[e["card"]])
        total = float(sum(t.counts) - t.counts[t.seat] + t.stock)
        mass = [0.0] * 54
        tracked: dict[int, list[int]] = {0: [], 2: [], 13: [], 14: []}
        rest: list[int] = []
        for c in range(deck):
            if c in known:
                continue
            r = rank(c)
            if r in tracked:
                tracked[r].append(c)
            else:
                rest.append(c)
        left_tracked = 0.0
        for r, cs in tracked.items():
            if not cs:
                continue
            key = {0: "JK", 2: "2", 13: "K", 14: "A"}[r]
            full = 2 if r == 0 else 4
            mine = sum(1 for c in t.hand if rank(c) == r)
            left = max(0.0, min(float(len(cs)), full - t.seen.get(key, 0) - mine))
            for c in cs:
                mass[c] = left / len(cs)
            left_tracked += left
        if rest:
            each = max(0.0, total - left_tracked) / len(rest)
            for c in rest:
                mass[c] = each
        self.mass = mass

    def rank_left(self, r: int) -> float:
        return sum(self.mass[c] for c in range(54) if rank(c) == r)

    def p_none(self, t: Table, seat: int, match: list[bool]) -> float:
        """Chance that ``seat`` holds none of the cards marked in ``match``."""
        void = t.voids[seat]
        n = m = 0.0
        mass = self.mass
        for c in range(54):
            w = mass[c]
            if not w:
                continue
            if c < 52 and void >> (c // 13) & 1:
                w *= W.void_keep
            n += w
            if match[c]:
                m += w
        h = t.counts[seat]
        p = 1.0
        for i in range(h):
            if n - i <= 0:
                break
            p *= max(0.0, n - m - i) / (n - i)
            if p <= 0.0:
                break
        return p


def _matching(t: Table, top: int, suit: int, attack: int) -> list[bool]:
    return [bool(x) for x in onecard.fit_row(top, suit, bool(attack), t.config.three_blocks)]


def _urgency(count: int) -> float:
    return 1.0 + W.urgency / max(1, count)


def _hard_move(t: Table, moves: list[JSON], view: JSON | None = None) -> JSON:
    """Rank the plays by the evaluation below; heads-up, with a view to search from, try
    the best few in playouts (with three or four players the playouts measured no better
    than the evaluation alone, at several times the cost)."""
    plays = [m for m in moves if m["type"] == "play" and _sensible_suit(t, m)]
    if not plays:
        return moves[0]
    unseen = Unseen(t)
    scored = sorted(
        ((_hard_score(t, unseen, m), i) for i, m in enumerate(plays)), key=lambda x: (-x[0], x[1])
    )
    if view is None or t.n > 2 or scored[0][0] >= 1e11:
        return plays[scored[0][1]]
    candidates: list[JSON] = []
    priors: list[float] = []
    sevens: dict[str, int] = {}
    for score, i in scored:
        m = plays[i]
        if "suit" in m:
            if sevens.get(m["card"], 0) >= 2:
                continue
            sevens[m["card"]] = sevens.get(m["card"], 0) + 1
        candidates.append(m)
        priors.append(score)
        if len(candidates) == SEARCH_CANDIDATES:
            break
    if len(candidates) == 1:
        return candidates[0]
    return _search(t, view, candidates, priors)


def _sensible_suit(t: Table, move: JSON) -> bool:
    """A 7 names the suit held most, or one the next player was seen to lack."""
    if "suit" not in move:
        return True
    c, named = _play_of(move)
    counts = _suit_counts([x for x in t.hand if x != c])
    return counts[named] == max(counts) or bool(t.voids[t.after(t.seat)] >> named & 1)


def _follow_chance(rest: list[int], suit: int) -> float:
    """How likely this hand can play next turn if ``suit`` is to follow now: the next
    player keeps the suit about half the time, or changes it."""
    if any(c >= 52 for c in rest):
        return 1.0
    have = [False, False, False, False]
    for c in rest:
        have[c // 13] = True
    if suit == ANY:
        return sum(have) / 4
    others = (sum(have) - have[suit]) / 3
    return 0.55 * have[suit] + 0.45 * others


def _hard_score(t: Table, unseen: Unseen, move: JSON) -> float:
    """The evaluation of a play, in rough "cards of swing": the chance the player to move
    next is blocked (or cannot pass the attack on), weighted by how close they are to
    finishing; the hand left (able to follow next turn, few suits, the suit to follow held);
    the 7s, jokers and attack cards kept for later."""
    cfg = t.config
    c, s7 = _play_of(move)
    rest = list(t.hand)
    rest.remove(c)
    if not rest:
        return 1e12
    r = rank(c)
    value = cfg.attack_value(c)
    suit = s7 if r == 7 else (ANY if c >= 52 else c // 13)
    attack = t.attack + value
    if r == 3 and cfg.three_blocks and t.attack:
        attack = 0
    again = (r == 11 and t.n == 2) or (r == 13 and cfg.king_again)
    direction = -t.direction if r == 12 and t.n > 2 else t.direction
    nxt = t.seat if again else t.after(t.seat, 2 if r == 11 else 1, direction)
    score = 0.0

    if again:
        follow = [x for x in rest if fits(cfg, x, c, suit, attack)]
        if cfg.no_special_finish and len(rest) == 1 and follow and cfg.special(rest[0]):
            follow = []
        if follow:
            score += W.again
            if len(rest) == 1:
                return 1e11
        else:
            score -= W.dead_again
    elif attack:
        match = _matching(t, c, suit, attack)
        q = unseen.p_none(t, nxt, match)
        score += W.attack * q * (attack + 1) * _urgency(t.counts[nxt])
        mine_back = sum(1 for x in rest if fits(cfg, x, c, suit, attack))
        if not mine_back:
            back = attack + value
            score -= W.attack * (1 - q) * back * _urgency(len(rest)) * 0.5
        nearest = min(t.counts[s] for s in range(t.n) if s != t.seat)
        if t.attack == 0 and value and nearest > W.hold_above and len(rest) > 2:
            # keep it for later; one nobody can return shields from nothing: keep it less
            score -= W.hold * (0.5 if unseen.rank_left(r) < 0.5 else 1.0)
    else:
        match = _matching(t, c, suit, 0)
        pb = unseen.p_none(t, nxt, match)
        score += W.block * pb * _urgency(t.counts[nxt])
        if t.attack == 0 and r == 11 and t.n > 2:
            score += W.skip * (_urgency(t.counts[t.after(t.seat)]) - 1.0)
        if r == 12 and t.n > 2:
            before = t.after(t.seat)
            score += W.skip * (_urgency(t.counts[before]) - _urgency(t.counts[nxt]))

    # the hand left
    score += W.follow * _follow_chance(rest, suit)
    counts = _suit_counts(rest)
    score -= W.suits * sum(1 for x in counts if x)
    if suit != ANY:
        score += W.suit_share * counts[suit] / len(rest)
    if r == 7 and t.attack == 0:
        score -= W.keep7
    if c >= 52 and not t.attack:
        score -= W.keep_joker
    if cfg.no_special_finish and len(rest) == 1 and cfg.special(rest[0]):
        score -= W.special_finish
    return score


# --- difícil's search ------------------------------------------------------------------

SEARCH_MOVES: Final = 1500
"""Engine moves a difícil decision may simulate: a fixed count, not a clock, so the same
view always gets the same answer (about 9 ms a decision, 40 ms at most, on a 2-core x86-64
with CPython 3.11; see ``bench/RESULTS.md``)."""
SEARCH_DEPTH: Final = 20
"""Moves a playout runs before the position is judged by the cards in hand."""
SEARCH_CANDIDATES: Final = 5
PRIOR: Final = 0.05
"""Win chance a point of the evaluation is worth next to the playouts' estimate."""
JUDGE_SLOPE: Final = 0.45
"""An unfinished playout: a seat's chance is taken as ``exp(-slope * cards)``, shared."""
_TRACKED: Final = ((0, "JK", 2), (2, "2", 4), (13, "K", 4), (14, "A", 4))


@dataclass(slots=True)
class Dealt:
    """A deal of the unseen cards consistent with a view (:func:`_deal`): every hand (the
    seat's own as it is), the stock (top last), the discard (top last), the attack cards
    counted as seen by rank, and the state of the generator that reshuffles the stock."""

    hands: list[list[int]]
    stock: list[int]
    discard: list[int]
    seen: list[int]
    rng: int


def _deal(t: Table, rng: random.Random) -> Dealt:
    """A position consistent with the view: the unseen cards dealt at random to the other
    hands (each avoiding the suits it was seen to lack, as far as the cards allow) and the
    stock; the attack cards counted out in ``seen`` and the cards played in the log are
    in the discard."""
    cfg = t.config
    deck = 54 if cfg.jokers else 52
    hand = set(t.hand)
    played: list[int] = []
    for e in t.log:
        if e.get("t") == "play":
            c = CARD[e["card"]]
            if c != t.top and c not in hand and c not in played:
                played.append(c)
    gone = set(played)
    pool = [c for c in range(deck) if c not in hand and c != t.top and c not in gone]
    buried: list[int] = []
    for r, key, full in _TRACKED:
        same = [c for c in pool if _RANK[c] == r]
        if not same:
            continue
        left = max(0, full - t.seen.get(key, 0) - sum(1 for c in t.hand if _RANK[c] == r))
        if len(same) > left:
            rng.shuffle(same)
            out = set(same[left:])
            buried += same[left:]
            pool = [c for c in pool if c not in out]
    need = sum(t.counts) - t.counts[t.seat] + t.stock
    rng.shuffle(pool)
    if len(pool) > need:  # older plays, out of the log: some unseen cards are in the discard
        extra = len(pool) - need
        buried += pool[:extra]
        pool = pool[extra:]
    elif len(pool) < need:  # the discard was shuffled back into the stock
        back = played + buried
        rng.shuffle(back)
        pool += back[: need - len(pool)]
        taken = set(pool)
        played = [c for c in played if c not in taken]
        buried = [c for c in buried if c not in taken]
    hands: list[list[int]] = []
    for seat in range(t.n):
        if seat == t.seat:
            hands.append(list(t.hand))
            continue
        want, void = t.counts[seat], t.voids[seat]
        take: list[int] = []
        keep: list[int] = []
        for c in pool:
            if len(take) < want and (c >= 52 or not void >> (c // 13) & 1):
                take.append(c)
            else:
                keep.append(c)
        while len(take) < want and keep:
            take.append(keep.pop())
        hands.append(take)
        pool = keep
    discard = played + buried
    rng.shuffle(discard)
    discard.append(t.top)
    seen = [0] * 15
    for r, key, _ in _TRACKED:
        seen[r] = t.seen.get(key, 0)
    return Dealt(hands, pool, discard, seen, rng.getrandbits(64))


def _dealt_state(t: Table, d: Dealt) -> onecard.State:
    """A dealt position as the engine's state (what ``onecard.load`` of it would give:
    every seat has called, no one is exposed, the first turn of a hand)."""
    return onecard.State(
        config=t.config,
        hands=[list(h) for h in d.hands],
        stock=list(d.stock),
        discard=list(d.discard),
        rng=Rng(d.rng),
        turn=t.seat,
        direction=t.direction,
        suit=t.suit,
        attack=t.attack,
        called=[True] * t.n,
        turns=1,
        timeouts=[0] * t.n,
        voids=list(t.voids),
        seen=list(d.seen),
    )


def _playout_move(state: onecard.State, seat: int) -> onecard.Move:
    """The playouts' policy, for every seat: play from the longest suit, a 7 (naming the
    suit held most) or a joker only when nothing else fits. (The legal plays, as
    ``legal_moves`` gives them, from the engine's own integers: this is the search's hot
    loop.)"""
    cards = onecard.playable(state, seat)
    if not cards:
        return onecard.DRAW
    counts = [0, 0, 0, 0, 0]
    for c in state.hands[seat]:
        counts[c // 13 if c < 52 else 4] += 1
    top_suit = max(range(4), key=counts.__getitem__)
    best: onecard.Move = onecard.DRAW
    best_score = -99
    for c in sorted(cards):
        if c >= 52:
            score, move = -20, onecard.PLAYS[c]
        elif c % 13 == 5:
            score, move = -10 + counts[top_suit], onecard.SEVENS[c][top_suit]
        else:
            score, move = counts[c // 13], onecard.PLAYS[c]
        if score > best_score:
            best, best_score = move, score
    return best


def _judge(state: onecard.State, seat: int) -> float:
    """1 for a win, 0 for a loss; an unfinished playout by the cards in hand."""
    if state.result is not None:
        return 1.0 if state.result["winner"] == seat else 0.0
    weights = [math.exp(-JUDGE_SLOPE * len(h)) for h in state.hands]
    return weights[seat] / sum(weights)


Policy = Callable[[onecard.State, int], onecard.Move]


def _playout(
    state: onecard.State, seat: int, move: onecard.Move, depth: int, policy: Policy
) -> tuple[float, int]:
    """``move`` made by ``seat`` on a dealt position (changed in place), then every seat
    playing ``policy`` for at most ``depth`` moves: how it went for ``seat``
    (:func:`_judge`) and the engine moves it took."""
    onecard.apply(state, seat, move)
    steps = 0
    while state.result is None and steps < depth:
        turn = state.turn
        onecard.apply(state, turn, policy(state, turn))
        steps += 1
    return _judge(state, seat), steps + 1


Playout = Callable[["Table", "Dealt", int, onecard.Move, int], tuple[float, int]]
"""A playout from a deal (:func:`_quick_playout`, :func:`_fast_playout`): the table, the
deal, the seat, its move, the depth; how it went for the seat and the moves it took."""


def _quick_playout(
    t: Table, d: Dealt, seat: int, move: onecard.Move, depth: int
) -> tuple[float, int]:
    """difícil's playouts: the engine itself, every seat playing :func:`_playout_move`."""
    return _playout(_dealt_state(t, d), seat, move, depth, _playout_move)


def _sample(
    t: Table,
    rng: random.Random,
    moves: list[onecard.Move],
    depth: int,
    playout: Playout,
    budget: int,
    least: int = 0,
    most: int | None = None,
    deadline: float | None = None,
) -> tuple[list[float], int, int]:
    """Every one of ``moves`` played out (``playout``) on the same fresh deals of the
    unseen cards (:func:`_deal`): at least ``least`` deals, then more while fewer than
    ``budget`` engine moves were used, fewer than ``most`` deals made and ``deadline``
    (:func:`time.perf_counter`) not reached. Each move's summed results, the deals, the
    engine moves used."""
    results = [0.0] * len(moves)
    deals = used = 0
    while deals < least or (
        used < budget
        and (most is None or deals < most)
        and (deadline is None or time.perf_counter() < deadline)
    ):
        dealt = _deal(t, rng)
        for i, move in enumerate(moves):
            won, steps = playout(t, dealt, t.seat, move, depth)
            used += steps
            results[i] += won
        deals += 1
    return results, deals, used


def _search(t: Table, view: JSON, candidates: list[JSON], priors: list[float]) -> JSON:
    """Determinized playouts: deal the unseen cards at random (consistently with the view),
    try every candidate on the same deals, and keep the one that wins most often, the
    evaluation (``priors``) settling close calls."""
    rng = _rng(view, "dificil", "search")
    moves = [onecard.parse_move(m) for m in candidates]
    totals, deals, _ = _sample(
        t, rng, moves, SEARCH_DEPTH, _quick_playout, SEARCH_MOVES, least=4, most=200
    )
    top = max(priors)
    best = max(range(len(moves)), key=lambda i: (totals[i] / deals + PRIOR * (priors[i] - top), -i))
    return candidates[best]


# --- maestro ---------------------------------------------------------------------------

MASTER_MOVES: Final = 60000
"""Moves a maestro decision may simulate in its own loop (:class:`Sim`; a count, so that
the same view gets the same answer on any machine that is fast enough): about 95 ms on a
2-core x86-64 with CPython 3.11 (``bench/onecard_bots.py``)."""
MASTER_SECONDS: Final = 0.15
"""A maestro decision stops searching after this long, whatever is left of its count (a
slow or loaded machine then plays on what it has: the budget is never overrun). The rooms
give it ``Settings.search_seconds`` instead (``choose``'s ``seconds``)."""
MASTER_DEPTH: Final = 200
"""Moves a maestro playout runs at most (a game is nearly always over well before)."""
MASTER_PRIOR: Final = 0.005
"""Win chance a point of difícil's evaluation is worth next to maestro's playouts: a
tie-breaker (difícil's own search lets it weigh ten times as much)."""


def _master_playout_move(state: onecard.State, seat: int) -> onecard.Move:
    """maestro's playouts' policy, for every seat: :func:`_playout_move`'s (the longest
    suit; a 7, naming the suit held most, or a joker when nothing else fits), and what a
    good player does with attack cards: kept while every opponent holds more than three
    cards, thrown at one who is about to finish."""
    cards = onecard.playable(state, seat)
    if not cards:
        return onecard.DRAW
    hands = state.hands
    counts = [0, 0, 0, 0, 0]
    for c in hands[seat]:
        counts[c // 13 if c < 52 else 4] += 1
    top_suit = max(range(4), key=counts.__getitem__)
    nearest = min(len(h) for s, h in enumerate(hands) if s != seat)
    pressed = nearest <= 3 or state.attack > 0
    value = state.config.attack_value
    best: onecard.Move = onecard.DRAW
    best_score = -99
    for c in sorted(cards):
        if c >= 52:
            score, move = (10 if pressed else -20), onecard.PLAYS[c]
        elif c % 13 == 5:
            score, move = -10 + counts[top_suit], onecard.SEVENS[c][top_suit]
        else:
            score, move = counts[c // 13], onecard.PLAYS[c]
            if value(c) and not state.attack:
                score += 8 if pressed else -6
        if score > best_score:
            best, best_score = move, score
    return best


_PLAIN_FIT, _ATTACK_FIT, _BLOCK_FIT = onecard.FIT_TABLES
_RULES: dict[onecard.Config, tuple[tuple[int, ...], tuple[bool, ...]]] = {}


def _rules(config: onecard.Config) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """Each card's attack value and whether it is special, for ``config`` (looked up by
    :func:`_fast_playout`'s loop)."""
    found = _RULES.get(config)
    if found is None:
        found = _RULES[config] = (
            tuple(config.attack_value(c) for c in range(54)),
            tuple(config.special(c) for c in range(54)),
        )
    return found


class Sim:
    """A dealt game as maestro's own loop (:func:`_run`) plays it: the rules of
    :func:`tapete.games.onecard.apply` for plays and draws, without the events, the log,
    the clocks and what only a view needs (its seats have all called and no one catches).
    A test plays it against the engine on thousands of deals: the same games."""

    __slots__ = (
        "attack", "direction", "discard", "hands", "king_again", "last_plain", "moves", "rng",
        "seed", "special", "stock", "suit", "suits", "three", "turn", "values", "winner",
    )  # fmt: skip

    def __init__(self, t: Table, d: Dealt) -> None:
        config = t.config
        self.values, self.special = _rules(config)
        self.three = config.three_blocks
        self.last_plain = config.no_special_finish
        self.king_again = config.king_again
        self.hands = hands = [list(h) for h in d.hands]
        self.suits = [[0, 0, 0, 0, 0] for _ in hands]  # each hand's cards by suit, jokers last
        for h, counts in zip(hands, self.suits, strict=True):
            for x in h:
                counts[x // 13 if x < 52 else 4] += 1
        self.stock, self.discard = list(d.stock), list(d.discard)
        self.turn, self.direction, self.suit, self.attack = t.seat, t.direction, t.suit, t.attack
        self.seed = d.rng
        self.rng: Rng | None = None  # the engine's, made at the first reshuffle
        self.winner = -1
        self.moves = 0

    def fitting(self) -> list[int]:
        """The cards the seat to move may play (``onecard.playable``, in the hand's order)."""
        hand = self.hands[self.turn]
        i = self.discard[-1] * 5 + self.suit + 1
        if self.attack:
            fits = _ATTACK_FIT[i]
            cards = [x for x in hand if fits[x]]
            if self.three:
                blocks = _BLOCK_FIT[i]
                cards += [x for x in hand if blocks[x]]
        else:
            fits = _PLAIN_FIT[i]
            cards = [x for x in hand if fits[x]]
        if self.last_plain and len(hand) == 1 and cards and self.special[cards[0]]:
            return []
        return cards

    def named(self) -> int:
        """The suit a 7 of the seat to move names: the one it holds most."""
        counts = self.suits[self.turn]
        return max(range(4), key=counts.__getitem__)

    def judge(self, seat: int) -> float:
        """:func:`_judge`: 1 for a win, 0 for a loss; unfinished, by the cards in hand."""
        if self.winner >= 0:
            return 1.0 if self.winner == seat else 0.0
        weights = [math.exp(-JUDGE_SLOPE * len(h)) for h in self.hands]
        return weights[seat] / sum(weights)


def _run(sim: Sim, first: tuple[int, int] | None, limit: int) -> None:
    """Play ``first`` (a card and the suit a 7 names; card -1: draw) if given, then the
    policy of :func:`_master_playout_move` for every seat, until the game is over or
    ``limit`` moves were made. The hot loop of maestro and the coach: the state lives in
    locals while it runs."""
    values, special, three = sim.values, sim.special, sim.three
    last_plain, king_again = sim.last_plain, sim.king_again
    hands, suits, stock, discard = sim.hands, sim.suits, sim.stock, sim.discard
    n = len(hands)
    turn, direction, suit, attack = sim.turn, sim.direction, sim.suit, sim.attack
    top = discard[-1]
    rng = sim.rng
    steps = 0
    c = named = -1
    if first is not None:
        c, named = first
    while steps < limit and sim.winner < 0:
        hand = hands[turn]
        if steps or first is None:  # the policy, :func:`_master_playout_move`
            i = top * 5 + suit + 1
            if attack:
                fits = _ATTACK_FIT[i]
                cards = [x for x in hand if fits[x]]
                if three:
                    blocks = _BLOCK_FIT[i]
                    cards += [x for x in hand if blocks[x]]
            else:
                fits = _PLAIN_FIT[i]
                cards = [x for x in hand if fits[x]]
            if last_plain and len(hand) == 1 and cards and special[cards[0]]:
                cards = []
            if not cards:
                c = -1
            elif len(cards) == 1 and (cards[0] >= 52 or cards[0] % 13 != 5):
                c = cards[0]
            else:
                counts = suits[turn]
                named = max(range(4), key=counts.__getitem__)
                if attack:
                    pressed = True
                elif n == 2:
                    pressed = len(hands[1 - turn]) <= 3
                else:
                    pressed = min(len(h) for h in hands if h is not hand) <= 3
                c, best_score = 99, -99
                for x in cards:  # the best score; of equals, the lowest card
                    if x >= 52:
                        score = 10 if pressed else -20
                    elif x % 13 == 5:
                        score = -10 + counts[named]
                    else:
                        score = counts[x // 13]
                        if values[x] and not attack:
                            score += 8 if pressed else -6
                    if score > best_score or (score == best_score and x < c):
                        c, best_score = x, score
        steps += 1
        if c < 0:  # draw: the attack, or one card
            want = attack or 1
            attack = 0
            counts = suits[turn]
            for _ in range(want):
                if not stock:
                    if len(discard) <= 1:
                        break
                    stock, discard = discard[:-1], discard[-1:]
                    if rng is None:
                        rng = Rng(sim.seed)
                    rng.shuffle(stock)
                x = stock.pop()
                hand.append(x)
                counts[x // 13 if x < 52 else 4] += 1
            turn = (turn + direction) % n
        else:
            hand.remove(c)
            discard.append(c)
            top = c
            if c >= 52:
                r, suit = 0, -1
                suits[turn][4] -= 1
            else:
                r = c % 13 + 2
                suits[turn][c // 13] -= 1
                suit = named if r == 7 else c // 13
            v = values[c]
            if v:
                attack += v
            elif r == 3 and three and attack:
                attack = 0
            if not hand:
                sim.winner = turn
                break
            if r == 11:
                turn = (turn + 2 * direction) % n
            elif r == 12:
                if n > 2:
                    direction = -direction
                turn = (turn + direction) % n
            elif not (r == 13 and king_again):
                turn = (turn + direction) % n
    sim.stock, sim.discard, sim.rng = stock, discard, rng
    sim.turn, sim.direction, sim.suit, sim.attack = turn, direction, suit, attack
    sim.moves += steps


def _fast_playout(
    t: Table, d: Dealt, seat: int, move: onecard.Move, depth: int
) -> tuple[float, int]:
    """:func:`_playout` of :func:`_master_playout_move` on :func:`_dealt_state`, the same
    game move for move and the same answer, played by :class:`Sim`."""
    sim = Sim(t, d)
    _run(
        sim, (int(move.card), int(move.suit)) if type(move) is onecard.Play else (-1, -1), depth + 1
    )
    return sim.judge(seat), sim.moves


def maestro_turn(view: JSON, budget: int = MASTER_MOVES, seconds: float = MASTER_SECONDS) -> JSON:
    """The play (or draw) maestro makes on its turn in ``view``, searching at most
    ``budget`` engine moves and ``seconds`` (the same view and an unspent clock: the same
    answer). Only the seat's view is read, like every bot's."""
    legal = [m for m in view.get("legal") or () if m["type"] in ("play", "draw")]
    if not legal:
        raise ValueError("not maestro's turn")
    return dict(_master_move(Table.read(view), legal, view, budget, seconds))


def _master_move(t: Table, moves: list[JSON], view: JSON, budget: int, seconds: float) -> JSON:
    """maestro: every sensible play (a 7 naming each suit worth naming) tried in playouts
    to the end of the game on deals of the unseen cards consistent with the view — the
    same deals for every play — halving the plays still tried after each round, so that
    most of the budget goes to the close calls; difícil's evaluation breaks ties. With three
    or four players, difícil's move: there the playouts measured worse (23.7 % as one
    against three difícil, 25 % being parity; ``bench/RESULTS.md``)."""
    if t.n > 2:
        return _hard_move(t, moves, view)
    plays = [m for m in moves if m["type"] == "play" and _sensible_suit(t, m)]
    if not plays:
        return moves[0]
    unseen = Unseen(t)
    priors = [_hard_score(t, unseen, m) for m in plays]
    best_prior = max(range(len(plays)), key=lambda i: (priors[i], -i))
    if len(plays) == 1 or priors[best_prior] >= 1e11:
        return plays[best_prior]
    return _master_search(t, view, plays, priors, budget, seconds)


def _master_search(
    t: Table, view: JSON, candidates: list[JSON], priors: list[float], budget: int, seconds: float
) -> JSON:
    rng = _rng(view, "maestro", "search")
    moves = [onecard.parse_move(m) for m in candidates]
    alive = list(range(len(moves)))
    wins = [0.0] * len(moves)
    tries = [0] * len(moves)
    rounds = max(1, math.ceil(math.log2(len(moves))))
    deadline = time.perf_counter() + seconds
    top = max(priors)

    def mean(i: int) -> float:
        return wins[i] / tries[i] + MASTER_PRIOR * (priors[i] - top) if tries[i] else -1e9

    for _ in range(rounds):
        tried = [moves[i] for i in alive]
        results, deals, _ = _sample(
            t, rng, tried, MASTER_DEPTH, _fast_playout, budget // rounds,
            deadline=deadline,
        )  # fmt: skip
        for i, won in zip(alive, results, strict=True):
            wins[i] += won
            tries[i] += deals
        if len(alive) > 2:
            alive.sort(key=lambda i: (-mean(i), i))
            alive = alive[: max(2, (len(alive) + 1) // 2)]
    return candidates[max(alive, key=lambda i: (mean(i), -i))]


# --- the coach -------------------------------------------------------------------------

COACH_WORDS: Final = {
    "better_play": N_(
        "{card} era mejor: ganaba el {chance_best}\u00a0% de las veces; la tuya, el "
        "{chance_made}\u00a0%."
    ),
    "best_play": N_("La mejor jugada posible."),
}
"""What the coach says, by code (``BotSpec.coach_words``)."""
COACH_MOVES: Final = 160000
"""Moves the coach simulates (:class:`Sim`) for one move judged, about 0.25 s (off the
table: no one waits; a count, not a clock, so that a game's analysis is the same on any
machine). A play's chance so estimated varies by about 2 points from one set of deals to
another (3.4 points at 40,000: 30 positions, two seeds, ``bench/RESULTS.md``)."""
COACH_NOISE: Final = 3
"""Win chances closer than this (percentage points) are taken as equal: the playouts'
own uncertainty at :data:`COACH_MOVES` (the plays compared on the same deals)."""


def coach(view: JSON, move: JSON) -> JSON | None:
    """The play maestro's playouts rate best from ``view`` (every sensible play, and the
    one made), next to ``move``: each one's chance to win the game, in percent, on the same
    deals of the unseen cards; ``loss``: the points of chance the move made gave away
    (differences under :data:`COACH_NOISE` are none). None where there was no choice (one
    legal move, or not the seat's turn: calls and catches are a race, not a choice).

    >>> from tapete.games import onecard
    >>> s = onecard.load({"hands": ["JH 5H", "2S 4D 6C 8D 9S"], "discard": "3H",
    ...                   "called": [True, True]})
    >>> advice = coach(onecard.view(s, 0), {"type": "play", "card": "5H"})
    >>> advice["best"], advice["code"], advice["params"]["chance_best"]
    ({'type': 'play', 'card': 'JH'}, 'better_play', 100)
    """
    if view.get("turn") != view.get("seat") or move.get("type") not in ("play", "draw"):
        return None
    legal = [m for m in view.get("legal") or () if m["type"] in ("play", "draw")]
    if len(legal) < 2 or move not in legal:
        return None
    t = Table.read(view)
    candidates = [m for m in legal if m["type"] == "play" and _sensible_suit(t, m)]
    if move not in candidates:
        candidates.append(move)
    chances = [round(100 * p) for p in _chances(t, view, candidates, COACH_MOVES)]
    best = max(range(len(candidates)), key=lambda i: (chances[i], -i))
    made = candidates.index(move)
    loss = chances[best] - chances[made]
    if loss < COACH_NOISE:
        best, loss = made, 0
    return {
        "best": dict(candidates[best]),
        "loss": loss,
        "unit": "percent",
        "code": "better_play" if loss else "best_play",
        "params": {
            "card": candidates[best].get("card"),
            "chance_best": chances[best],
            "chance_made": chances[made],
        },
    }


def _chances(t: Table, view: JSON, candidates: list[JSON], budget: int) -> list[float]:
    """Each candidate's chance to win, by playouts to the end on the same deals."""
    if len(t.hand) == 1:  # the last card: whichever fits wins
        return [1.0] * len(candidates)
    rng = _rng(view, "coach", "search")
    moves = [onecard.parse_move(m) for m in candidates]
    wins, deals, _ = _sample(t, rng, moves, MASTER_DEPTH, _fast_playout, budget, least=8)
    return [w / deals for w in wins]


BOTS: Final = BotSpec(
    choose=choose,
    levels=(
        Level("facil", N_("Fácil")),
        Level("normal", N_("Normal")),
        Level("dificil", N_("Difícil")),
        Level(MAESTRO, N_("Maestro")),
    ),
    names=("Ana", "Luis", "Marta"),
    searching=frozenset({MAESTRO}),
    instant=frozenset({"facil", "normal"}),  # (difícil looks further: up to tens of ms)
    timed=choose,
    coach=coach,
    coach_words=COACH_WORDS,
)
"""One Card's bots, as the seed names their levels."""
