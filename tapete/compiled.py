"""Modules a build may compile (``setup.py``: One Card's rules, by mypyc), and the guard that
keeps a stale build from running.

Python imports an extension module before the source of the same name. After an edit of
the source (or a checkout of another commit) without a new build, that would be the old
rules: :func:`fresh` compares the source with the SHA-256 the build wrote beside it
(``_compiled.py``) and, when they differ, imports the source instead (and logs it once).
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import sys
from pathlib import Path

log = logging.getLogger(__name__)


def fresh(name: str) -> bool:
    """Make ``name`` (a module that a build may have compiled) import its current source:
    True when the compiled module is of that very source (it is the one that runs), False
    when there is none or it is stale (the source is imported now, in its place).

    Call it before anything imports ``name``; an import already made stays as it is.
    """
    found = sys.modules.get(name)
    spec = found.__spec__ if found is not None else importlib.util.find_spec(name)
    origin = spec.origin if spec is not None else None
    if origin is None or not origin.endswith((".so", ".pyd")):
        return False
    package, _, leaf = name.rpartition(".")
    source = Path(origin).with_name(f"{leaf}.py")
    if not source.exists():  # (a build that ships no source: trust it)
        return True
    stamp = Path(origin).with_name("_compiled.py")
    built = _stamp(stamp)
    if built == hashlib.sha256(source.read_bytes()).hexdigest():
        return True
    if found is None:
        log.warning("%s: the compiled module is older than %s; running the source", name, source)
        loaded = importlib.util.spec_from_file_location(name, source)
        assert loaded is not None and loaded.loader is not None
        module = importlib.util.module_from_spec(loaded)
        sys.modules[name] = module
        loaded.loader.exec_module(module)
        if package in sys.modules:
            setattr(sys.modules[package], leaf, module)
    return False


def _stamp(path: Path) -> str | None:
    """The ``SOURCE`` line the build wrote (read as text: importing it is not needed)."""
    try:
        text = path.read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("SOURCE = "):
            return line.split('"')[1]
    return None
