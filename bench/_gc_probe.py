"""``tapete serve`` with two signals that say what the process leaves to the collector
(``bench/rooms_load.py --gc-probe``; run it with ``--gc-policy off``).

SIGUSR1 marks: a full collection, everything alive frozen, the collector off. SIGUSR2
reports into ``gc-<pid>.json`` in the folder ``TAPETE_GC_PROBE`` names (JSON): everything
made since the mark that only reference cycles kept (found by one collection with
``DEBUG_SAVEALL``), counted and sized by type; and the objects alive now that were not at
the mark, by type (what grows without being garbage). Then the collector is on again.
With ``TAPETE_GC_PROBE_TRACE`` set, Python's allocations are traced from the start
(``tracemalloc``, 8 frames): the report adds the memory allocated since the mark and still
held, by the line of Tapete's code (or the first line outside the standard library) that
asked for it — bytes and strings included, which the collector does not track.

Both run in the main thread between two bytecodes: the event loop's thread, between two
of its callbacks.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import sys
import tracemalloc
from collections import Counter
from typing import Any

_alive: Counter[str] = Counter()
_snapshot: list[tracemalloc.Snapshot] = []
_at_mark: dict[str, int] = {}


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _kind(o: object) -> str:
    t = type(o)
    return f"{t.__module__}.{t.__qualname__}"


def _count_alive() -> Counter[str]:
    return Counter(_kind(o) for o in gc.get_objects())


def _mark(_signum: int, _frame: Any) -> None:
    gc.collect()
    _alive.clear()
    _alive.update(_count_alive())
    if tracemalloc.is_tracing():
        _snapshot[:] = [tracemalloc.take_snapshot()]
        _at_mark["traced"] = tracemalloc.get_traced_memory()[0]
    _at_mark["rss"] = _rss()
    gc.freeze()
    gc.disable()


def _report(_signum: int, _frame: Any) -> None:
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        garbage = list(gc.garbage)
        gc.garbage.clear()
    finally:
        gc.set_debug(0)
    counts: Counter[str] = Counter()
    sizes: Counter[str] = Counter()
    for o in garbage:
        k = _kind(o)
        counts[k] += 1
        sizes[k] += sys.getsizeof(o, 0)
    del garbage
    gc.unfreeze()
    grown = _count_alive() - _alive
    out: dict[str, Any] = {
        "garbage": {k: [counts[k], sizes[k]] for k, _ in counts.most_common()},
        "grown": dict(grown.most_common(60)),
    }
    out["rss"] = [_at_mark["rss"], _rss()]
    out["closed_tables"] = _closed_tables()
    if _snapshot:
        out["held"] = _held_since(_snapshot[0], tracemalloc.take_snapshot())
        out["traced"] = [_at_mark["traced"], tracemalloc.get_traced_memory()[0]]
    with open(os.path.join(os.environ["TAPETE_GC_PROBE"], f"gc-{os.getpid()}.json"), "w") as f:
        json.dump(out, f)
    gc.enable()


def _closed_tables() -> dict[str, Any]:
    """Tables closed (their task gone) that something still holds: how many, and what holds
    them (the referrers' types, counted)."""
    from tapete.rooms.table import Table

    tables = [o for o in gc.get_objects() if type(o) is Table]
    closed = [t for t in tables if t._task is None]
    held_by: Counter[str] = Counter()
    for t in closed[:200]:
        for r in gc.get_referrers(t):
            if r is tables or r is closed:
                continue
            kind = _kind(r)
            if isinstance(r, dict):
                owners = [o for o in gc.get_referrers(r) if hasattr(o, "__dict__")]
                kind += " of " + ",".join(sorted({_kind(o) for o in owners[:3]}))
            held_by[kind] += 1
    return {"tables": len(tables), "closed": len(closed), "held_by": dict(held_by)}


def _where(frames: Any) -> str:
    """The innermost frame of Tapete's code that asked (and the innermost frame of all, where
    that is elsewhere): tracemalloc lists frames from the oldest to the most recent."""
    inner = frames[-1] if len(frames) else None
    here = next((f for f in reversed(frames) if "/tapete/" in f.filename), None)
    text = _short(here) if here is not None else "?"
    if inner is not None and inner is not here:
        text += f" ← {_short(inner)}"
    return text


def _short(frame: Any) -> str:
    name = str(frame.filename)
    for cut in ("/tapete/", "site-packages/", "/lib/python3.11/"):
        if cut in name:
            name = name.split(cut, 1)[1]
            break
    return f"{name}:{frame.lineno}"


def _held_since(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot) -> dict[str, int]:
    """Bytes held now that were not at ``before``, by where they were asked for."""
    held: Counter[str] = Counter()
    for diff in after.compare_to(before, "traceback"):
        held[_where(diff.traceback)] += diff.size_diff
    return {k: v for k, v in held.most_common(40) if v > 0}


def main() -> int:
    if os.environ.get("TAPETE_GC_PROBE_TRACE"):
        tracemalloc.start(8)
    signal.signal(signal.SIGUSR1, _mark)
    signal.signal(signal.SIGUSR2, _report)
    from tapete.cli import main as tapete

    return tapete(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
