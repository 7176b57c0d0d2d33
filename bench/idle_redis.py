"""Redis commands a hall of N idle processes sends per second (the matchmaker's lease claims
and queue reads four times a second, the nodes' heartbeats): ``INFO commandstats`` before and
after a minute with nobody playing. Figures go in ``bench/RESULTS.md``.

Run from the project root::

    python bench/idle_redis.py [N]          # N processes, 2 by default
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import redis

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rooms_load import free_port, start_postgres, start_redis, start_server, wait_up

SECONDS = 60.0


def calls(client: Any) -> dict[str, int]:
    """Each command's calls so far, by name."""
    stats = client.info("commandstats")
    return {name.removeprefix("cmdstat_"): int(v["calls"]) for name, v in stats.items()}


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    work = Path(tempfile.mkdtemp(prefix="tapete-idle-"))
    db, stop_pg = start_postgres(work, synchronous=False)
    url, redis_proc = start_redis(work)
    procs: list[subprocess.Popen[bytes]] = []
    try:
        bases = []
        for _ in range(n):
            port = free_port()
            proc, _log = start_server(work, port, ["--redis", url], db=db)
            procs.append(proc)
            bases.append(f"http://127.0.0.1:{port}")
        for base in bases:
            wait_up(base)
        time.sleep(10)  # (the leases settled)
        client = redis.Redis.from_url(url)
        before, t0 = calls(client), time.monotonic()
        time.sleep(SECONDS)
        after, seconds = calls(client), time.monotonic() - t0
        sent = {k: v - before.get(k, 0) for k, v in after.items() if k != "info"}
        sent = {k: v for k, v in sorted(sent.items(), key=lambda kv: -kv[1]) if v > 0}
        each = ", ".join(f"{k} {v / seconds:.1f}/s" for k, v in sent.items())
        print(f"{n} idle processes: {sum(sent.values()) / seconds:.1f} Redis commands/s ({each})")
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(30)
        redis_proc.terminate()
        redis_proc.wait(10)
        subprocess.run(stop_pg, capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
