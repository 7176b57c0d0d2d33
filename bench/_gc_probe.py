"""``tapete serve`` with two signals that say what the process leaves to the collector
(``bench/rooms_load.py --gc-probe``; run it with ``--gc-policy off``).

SIGUSR1 marks: a full collection, everything alive frozen, the collector off. SIGUSR2
reports into ``gc-<pid>.json`` in the folder ``TAPETE_GC_PROBE`` names (JSON): everything
made since the mark that only reference cycles kept (found by one collection with
``DEBUG_SAVEALL``), counted and sized by type; and the objects alive now that were not at
the mark, by type (what grows without being garbage). Then the collector is on again.

Both run in the main thread between two bytecodes: the event loop's thread, between two
of its callbacks.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import sys
from collections import Counter
from typing import Any

_alive: Counter[str] = Counter()


def _kind(o: object) -> str:
    t = type(o)
    return f"{t.__module__}.{t.__qualname__}"


def _count_alive() -> Counter[str]:
    return Counter(_kind(o) for o in gc.get_objects())


def _mark(_signum: int, _frame: Any) -> None:
    gc.collect()
    _alive.clear()
    _alive.update(_count_alive())
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
    out = {
        "garbage": {k: [counts[k], sizes[k]] for k, _ in counts.most_common()},
        "grown": dict(grown.most_common(60)),
    }
    with open(os.path.join(os.environ["TAPETE_GC_PROBE"], f"gc-{os.getpid()}.json"), "w") as f:
        json.dump(out, f)
    gc.enable()


def main() -> int:
    signal.signal(signal.SIGUSR1, _mark)
    signal.signal(signal.SIGUSR2, _report)
    from tapete.cli import main as tapete

    return tapete(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
