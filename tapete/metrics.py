"""What an operator watches (``/metrics``, Prometheus' text format): counters and histograms
the layers above feed as things happen, and gauges read when the page is asked for.

The metric objects are the process's (one set, whatever the number of halls in it);
each hall exposes them in a registry of its own with its gauges (:func:`registry`).
"""

from __future__ import annotations

import gc
import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector

LATENCY_BUCKETS = (
    0.0005,
    0.001,
    0.002,
    0.005,
    0.01,
    0.02,
    0.035,
    0.05,
    0.075,
    0.1,
    0.2,
    0.5,
    1.0,
    2.5,
)

MOVES = Counter("tapete_moves", "Moves committed, by game (players', bots' and clocks').", ["game"])
MOVE_SECONDS = Histogram(
    "tapete_move_seconds",
    "A player's move, from its arrival at the room to every seat's update queued.",
    ["game"],
    buckets=LATENCY_BUCKETS,
    registry=None,
)
COMMIT_BATCH = Histogram(
    "tapete_commit_batch_moves",
    "Moves in each transaction of the move writer (group commit).",
    buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256, 500),
    registry=None,
)
COMMIT_SECONDS = Histogram(
    "tapete_commit_seconds",
    "Each batch's transaction (on the event loop for SQLite, on the writer's thread for "
    "PostgreSQL, waiting for the database's write lock included).",
    buckets=LATENCY_BUCKETS,
    registry=None,
)
WRITER_WAIT_SECONDS = Histogram(
    "tapete_commit_queue_seconds",
    "A move's wait for the writer, from queued to its batch's commit.",
    buckets=LATENCY_BUCKETS,
    registry=None,
)
BATCH_START_SECONDS = Histogram(
    "tapete_commit_start_seconds",
    "A move's wait from queued until the writer begins its batch.",
    buckets=LATENCY_BUCKETS,
    registry=None,
)
WRITE_BUSY = Counter(
    "tapete_write_busy",
    "SQLite: the store's other writes (rooms, logros, accounts…) rolled back and tried again "
    "1 ms later because another connection held the write lock.",
    registry=None,
)
COMMIT_BUSY = Counter(
    "tapete_commit_busy",
    "SQLite: batches put back (and tried again 1 ms later) because another connection held "
    "the write lock.",
    registry=None,
)
BOT_SECONDS = Histogram(
    "tapete_bot_decision_seconds",
    "A bot's decision, from asked to answered (its wait for a thread or a search process "
    "included, its chosen delay not): by game and level.",
    ["game", "level"],
    buckets=LATENCY_BUCKETS,
    registry=None,
)
ERRORS = Counter("tapete_errors", "Refusals sent to clients, by code.", ["code"], registry=None)
SOCKETS_OPENED = Counter("tapete_sockets_opened", "Sockets accepted.", registry=None)

GC_SECONDS = Histogram(
    "tapete_gc_pause_seconds",
    "Pauses of Python's garbage collector, by generation (everything stops meanwhile).",
    ["generation"],
    buckets=LATENCY_BUCKETS,
    registry=None,
)

OWN = (
    MOVES,
    MOVE_SECONDS,
    COMMIT_BATCH,
    COMMIT_SECONDS,
    WRITER_WAIT_SECONDS,
    BATCH_START_SECONDS,
    COMMIT_BUSY,
    WRITE_BUSY,
    BOT_SECONDS,
    ERRORS,
    SOCKETS_OPENED,
    GC_SECONDS,
)

log = logging.getLogger(__name__)

_gc_started: list[float] = []


LONG_GC = 0.05
"""A collector pause this long (seconds) is logged, with what it found."""


def _time_gc(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _gc_started.append(time.perf_counter())
    elif _gc_started:
        seconds = time.perf_counter() - _gc_started.pop()
        generation = info.get("generation")
        GC_SECONDS.labels(str(generation)).observe(seconds)
        if seconds >= LONG_GC:
            log.info(
                "garbage collection of generation %s stopped everything for %.0f ms "
                "(%s unreachable objects; now %s young; thread %s)",
                generation,
                1000 * seconds,
                info.get("collected"),
                gc.get_count(),  # (not gc.get_freeze_count(): it walks every frozen object)
                threading.current_thread().name,
            )


def watch_gc() -> None:
    """Time every collection (once a process)."""
    if _time_gc not in gc.callbacks:
        gc.callbacks.append(_time_gc)


class Gauges(Collector):
    """Gauges read at each scrape from ``read``: name → (help, labels, rows of (label values,
    value))."""

    def __init__(
        self, read: Callable[[], dict[str, tuple[str, list[str], list[tuple[list[str], float]]]]]
    ) -> None:
        self.read = read

    def collect(self) -> Iterable[Metric]:
        for name, (doc, labels, rows) in self.read().items():
            family = GaugeMetricFamily(name, doc, labels=labels)
            for values, value in rows:
                family.add_metric(values, value)
            yield family


def registry(gauges: Gauges) -> CollectorRegistry:
    """A hall's registry: the process's metrics, the hall's gauges, the process's CPU and
    memory."""
    out = CollectorRegistry(auto_describe=True)
    for metric in OWN:
        out.register(metric)
    out.register(gauges)
    watch_gc()
    ProcessCollector(registry=out)
    return out
