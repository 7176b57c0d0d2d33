"""The build: setuptools reads ``pyproject.toml`` for everything but this — One Card's rules
(``tapete/games/onecard/game.py``, the bots' and the rooms' hottest loop) compiled to a C
extension by mypyc, where a C compiler is at hand.

The compiled module is the same source, typed: without a compiler (or with
``TAPETE_PURE=1``) the build goes on without it and the plain Python runs, alike in every
answer (``tests/games/test_onecard_compiled.py`` plays both). Next to the extension the
build writes ``tapete/games/onecard/_compiled.py``, the SHA-256 of the sources it compiled
(:func:`tapete.compiled.stamp`): :func:`tapete.compiled.fresh` imports the source instead
when they differ (an edit since the last build), so a stale extension never runs.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Any

from setuptools import setup

ROOT = Path(__file__).resolve().parent
COMPILED: dict[str, list[str]] = {"tapete/games/onecard/game.py": ["pieces.py", "structs.py"]}
"""Each module compiled, and the modules beside it that mypyc reads for their types and
constants (an edit of one of them calls for a new build too)."""


def _guard() -> Any:
    """``tapete/compiled.py``, loaded on its own (the package is not installed yet)."""
    spec = importlib.util.spec_from_file_location("tapete_compiled", ROOT / "tapete/compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def extensions() -> list[Any]:
    if os.environ.get("TAPETE_PURE"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:  # (mypy is in pyproject.toml's build requirements)
        return []
    guard = _guard()
    for source, read in COMPILED.items():
        guard.stamp(ROOT / source, read)
    # mypy's own defaults, not the project's strict settings (the build is isolated, without
    # the runtime packages: what it cannot import is typed Any), and no error reported
    # from the modules it reads for their types (`make lint` checks them, strictly)
    options = ["--config-file=", "--follow-imports=silent", "--ignore-missing-imports"]
    found = mypycify([*options, *COMPILED], opt_level="3")
    for ext in found:
        ext.optional = True  # no C compiler: the build goes on, the plain Python runs
    return list(found)


setup(ext_modules=extensions())
