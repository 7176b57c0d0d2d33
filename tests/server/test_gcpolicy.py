"""The collector policy of ``tapete serve``: what survives a full collection is frozen;
cycles left among frozen objects are freed by the thorough sweep; the collector starts no
full collection of its own. (In a process of its own:
freezing is for the whole process.)"""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.processes  # (it starts Python: freezing is for the whole process)

SCRIPT = r"""
import asyncio, gc, weakref
from tapete.server.ops.gcpolicy import GcPolicy

class Node:
    pass

async def main():
    policy = GcPolicy(thorough_seconds=3600)
    policy.start()
    assert gc.get_freeze_count() > 0                  # start-up is frozen
    a, b = Node(), Node()
    a.other, b.other = b, a                           # a cycle, alive for now
    gone = weakref.ref(a)
    gc.collect(2)                                     # a full collection...
    await asyncio.sleep(0)
    assert policy.freezes == 1                        # ...then what survived it is frozen
    del a, b                                          # the cycle is garbage now, but frozen:
    gc.collect(2)
    await asyncio.sleep(0)
    assert gone() is not None                         # no collection walks it
    policy.sweep()                                    # the thorough sweep frees it
    assert gone() is None and policy.sweeps == 1
    assert gc.get_freeze_count() > 0                  # and freezes what lives again
    await policy.stop()
    ticking = GcPolicy(thorough_seconds=3600, freeze_seconds=0.05)
    ticking.start()
    young = [Node() for _ in range(1000)]             # a crowd that just arrived...
    before = gc.get_freeze_count()
    await asyncio.sleep(0.2)
    assert gc.get_freeze_count() >= before + 1000     # ...frozen without a full collection
    assert ticking.freezes >= 1
    full = []
    def counted(phase, info):
        if phase == "stop" and info["generation"] >= 1:
            full.append(info["generation"])
    gc.callbacks.append(counted)
    churn = []
    for i in range(300_000):                          # many young collections...
        churn.append([i])
        if len(churn) > 5000:
            churn.clear()
    assert full == []                                 # ...and no older one of its own
    before = gc.get_threshold()
    await ticking.stop()
    assert gc.get_threshold()[1:] != before[1:]       # Python's own rule is back
    print("ok")

asyncio.run(main())
"""


def test_survivors_are_frozen_and_the_sweep_frees_frozen_cycles() -> None:
    run = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "ok"
