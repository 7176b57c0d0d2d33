"""Whether «Recuperar mi cuenta» answers as fast for an unknown address as for a known one.

Run from the project root (dev extras: ``httpx``)::

    python bench/recovery_timing.py [--requests 80] [--rounds 3]

It makes a database with ``--requests`` accounts, each with its own linked address, starts
``tapete serve`` on it (no SMTP server: the mail would go to the log, which is quiet at
``warning``; the limits per client lifted: every request comes from one browser), and asks
for a recovery code ``--requests`` times for a known address and as many for an unknown one,
interleaved (each address once: no request meets the limits per address). It prints, for
each round, the median and the 90th percentile of the answer's time seen by the client, for
each kind, the difference of the medians, and the median of the differences within each
pair of neighbouring requests (known − unknown: what a drift of the machine's load leaves
out). Results go in ``bench/RESULTS.md``; a timing
is never a test (``tests/server/test_recovery.py`` checks that both paths make the same
store calls and build the message off the answer's path).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import httpx
from rooms_load import free_port, start_server

from tapete.store import Store, default_url, migrate


async def accounts(url: str, n: int, round_: int) -> list[str]:
    """``n`` accounts with an address each; their addresses."""
    store = Store(url)
    try:
        out = []
        for i in range(n):
            guest = f"bench{round_:02d}{i:06d}".ljust(16, "0")
            email = f"known{round_}.{i}@example.com"
            await store.ensure_guest(guest)
            assert await store.accounts.link(guest, email)
            out.append(email)
        return out
    finally:
        await store.close()


def up(base: str) -> None:
    for _ in range(400):
        try:
            if httpx.get(base + "/salud", timeout=0.5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    raise RuntimeError("the server did not start")


def timed(client: httpx.Client, email: str) -> float:
    t0 = time.perf_counter()
    r = client.post("/api/cuenta/recuperar", json={"email": email})
    elapsed = time.perf_counter() - t0
    assert r.status_code == 202, r.text
    return elapsed * 1000


def run(n: int, round_: int, work: Path) -> tuple[list[float], list[float]]:
    db = work / f"recovery{round_}.db"
    url = default_url(db)
    migrate(url)
    known = asyncio.run(accounts(url, n, round_))
    port = free_port()
    lifted = "mail_codes_per_guest=1000000 mail_codes_per_address=1000000"
    proc, _ = start_server(work, port, ["--limit", lifted], db=str(db))
    base = f"http://127.0.0.1:{port}"
    try:
        up(base)
        with httpx.Client(base_url=base, timeout=10) as client:
            client.get("/")
            for i in range(20):  # warm up (unknown addresses of their own)
                timed(client, f"warm{round_}.{i}@example.com")
            a: list[float] = []
            b: list[float] = []
            for i in range(n):
                pair = [(a, known[i]), (b, f"nobody{round_}.{i}@example.com")]
                for out, email in pair if i % 2 == 0 else pair[::-1]:
                    out.append(timed(client, email))
        return a, b
    finally:
        proc.terminate()
        proc.wait(30)


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--requests", type=int, default=80)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="tapete-recovery-"))
    print("round  known median / p90 ms  unknown median / p90 ms  medians  pairs (median)")
    for r in range(args.rounds):
        known, unknown = run(args.requests, r, work)
        mk, mu = statistics.median(known), statistics.median(unknown)
        pairs = statistics.median(k - u for k, u in zip(known, unknown, strict=True))
        print(
            f"{r + 1:>5}  {mk:>8.2f} / {p90(known):>6.2f}      {mu:>8.2f} / {p90(unknown):>6.2f}"
            f"      {mk - mu:+.2f}    {pairs:+.2f} ms",
            flush=True,
        )


if __name__ == "__main__":
    main()
