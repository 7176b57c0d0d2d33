"""A fingerprint of La guerra's engine: SHA-256 over the dumps, views and events of seeded
games, as ``python bench/guerra.py --fingerprint`` prints it (this runs that very code, so
every game of the registry has its ``bench/<key>_fingerprint.py``)::

    python bench/guerra_fingerprint.py [--games N] [--seed S]

The same figures before and after a change mean the engine plays exactly as before.
"""

from __future__ import annotations

import sys

from guerra import main  # (bench/guerra.py, the script's own folder)


def run(argv: list[str]) -> None:
    main(["--fingerprint", *argv])


if __name__ == "__main__":
    run(sys.argv[1:])
