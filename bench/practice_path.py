"""The practice table's path in one process, without sockets or HTTP: One Card games of a
human against three normal bots (pace 0, as ``bench/rooms_load.py`` runs them), the human
playing their first legal move whenever it is their turn; what each human move costs —
the move, the bots' replies, their commits to SQLite, each update built and encoded for the
human's one connection — in CPU milliseconds, over every thread of the process.

    python bench/practice_path.py [--tables 200] [--moves 4000] [--level normal] [--profile]

``--profile``: cProfile's top functions by their own time (slower: figures only relative).
Figures in ``bench/RESULTS.md``; a timing is never a test.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import tempfile
import time
from pathlib import Path
from typing import Any

from tapete.rooms import Live, Settings, Table
from tapete.rooms.inbox import encode
from tapete.store import Store, migrate

PLAYERS = 4


class Human:
    """A player's one connection: every message encoded as the socket would send it."""

    def __init__(self) -> None:
        self.version = 0
        self.view: dict[str, Any] | None = None
        self.bytes = 0

    def send(self, message: Any) -> None:
        self.bytes += len(encode(message))
        view = message.get("view")
        if view is not None:
            self.version = message["version"]
            self.view = view


async def new_table(live: Live, n: int, level: str) -> tuple[Table, Human, str]:
    guest = f"guest-{n:06d}-" + "x" * 12
    await live.store.ensure_guest(guest)
    table = await live.tables.create("onecard", {"players": PLAYERS}, guest, level=level)
    human = Human()
    _, joined = table.subscribe(guest, human.send, None)
    human.send(joined)
    return table, human, guest


async def run(tables: int, moves: int, profile: bool, level: str = "normal") -> None:
    work = Path(tempfile.mkdtemp(prefix="tapete-practice-"))
    url = f"sqlite+aiosqlite:///{work / 'p.db'}"
    await asyncio.to_thread(migrate, url)
    store = Store(url)
    live = Live(store, Settings(bot_pace=0.0))
    seats = [await new_table(live, n, level) for n in range(tables)]
    made = tables
    for table, _, _ in seats:
        await table.settled()
    played = games = 0
    profiler = cProfile.Profile() if profile else None
    cpu0, t0 = time.process_time(), time.perf_counter()
    if profiler is not None:
        profiler.enable()
    while played < moves:
        turns = []
        for i, (table, human, guest) in enumerate(seats):
            view = human.view
            if table.finished:
                games += 1
                seats[i] = await new_table(live, made, level)
                made += 1
                continue
            if view is None or view.get("turn") != 0:
                continue
            plays = [m for m in view["legal"] if m["type"] in ("play", "draw")]
            if plays:
                turns.append(table.submit(guest, human.version, plays[0]))
        results = await asyncio.gather(*turns)
        played += sum(1 for r in results if r is None)
        await asyncio.gather(*(t.settled() for t, _, _ in seats))
    if profiler is not None:
        profiler.disable()
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - t0
    print(
        f"{played} human moves ({games} games ended, new ones made) at {tables} tables, "
        f"bots {level}: "
        f"{1000 * cpu / played:.3f} CPU ms a human move (its bots' replies with it), "
        f"{wall:.1f} s"
    )
    await live.close()
    await store.close()
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(35)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--moves", type=int, default=4000)
    parser.add_argument("--level", default="normal", help="the bots' level")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    asyncio.run(run(args.tables, args.moves, args.profile, args.level))


if __name__ == "__main__":
    main()
