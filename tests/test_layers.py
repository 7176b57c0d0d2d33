"""The generic layers never name a game: they iterate over the registry's descriptors.

import-linter checks the imports (``lint-imports``, in the lint step and here); this checks
the strings: a game's key written in ``rooms/``, ``store/`` or ``server/*.py`` means a
descriptor is missing a field.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tapete.registry import REGISTRY

ROOT = Path(__file__).resolve().parents[1]
GENERIC = ["tapete/rooms", "tapete/store", "tapete/server"]


def test_no_game_is_named_in_the_generic_layers() -> None:
    keys = "|".join(REGISTRY)
    named = re.compile(rf"[\"']({keys})[\"']")
    found = []
    for folder in GENERIC:
        base = ROOT / folder
        files = base.rglob("*.py") if folder != "tapete/server" else base.glob("*.py")
        for path in files:
            for n, line in enumerate(path.read_text().splitlines(), 1):
                if named.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "\n".join(found)


def test_the_layer_contracts_hold() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout
