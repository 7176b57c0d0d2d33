"""Modules a build may compile (``setup.py``: One Card's rules, by mypyc), and the guard that
keeps a stale build from running.

Python imports an extension module before the source of the same name. After an edit of
the source (or a checkout of another commit) without a new build, that would be the old
rules: :func:`fresh` compares the source, and the modules beside it that the compiler read
for their types and constants, with the SHA-256 the build wrote (``_compiled.py``,
:func:`stamp`) and, when they differ, imports the source instead (and logs it once).

Only the standard library here: ``setup.py`` loads this file on its own, before the package
is installed.
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
    built = _read_stamp(source.with_name(STAMP))
    if built is not None and built[0][0] == source.name:
        try:
            if built[1] == digest([source.with_name(n) for n in built[0]]):
                return True
        except OSError:  # (a file it read is gone)
            pass
    if found is None:
        log.warning("%s: not compiled from %s as it is now; running the source", name, source)
        loaded = importlib.util.spec_from_file_location(name, source)
        assert loaded is not None and loaded.loader is not None
        module = importlib.util.module_from_spec(loaded)
        sys.modules[name] = module
        loaded.loader.exec_module(module)
        if package in sys.modules:
            setattr(sys.modules[package], leaf, module)
    return False


STAMP = "_compiled.py"
"""The file a build writes beside the module it compiled."""


def digest(paths: list[Path]) -> str:
    """The SHA-256 of these files, one after the other (each one's name and size first)."""
    h = hashlib.sha256()
    for path in paths:
        data = path.read_bytes()
        h.update(f"{path.name}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


def stamp(module: Path, read: list[str]) -> None:
    """Write beside ``module`` (a source about to be compiled) what :func:`fresh` checks:
    its name and those of the modules beside it that the compiler ``read`` (their types and
    constants shape the compiled code), and the :func:`digest` of them all."""
    names = [module.name, *read]
    text = (
        '"""Written by setup.py: the sources of the module mypyc compiled here."""\n\n'
        f'SOURCES = "{" ".join(names)}"\n'
        f'SOURCE = "{digest([module.with_name(n) for n in names])}"\n'
    )
    module.with_name(STAMP).write_text(text)


def _read_stamp(path: Path) -> tuple[list[str], str] | None:
    """The names and the digest a build wrote (read as text: importing it is not needed)."""
    try:
        text = path.read_text()
    except OSError:
        return None
    found = {}
    for line in text.splitlines():
        key, _, value = line.partition(" = ")
        if key in ("SOURCES", "SOURCE") and value.startswith('"'):
            found[key] = value.strip('"')
    if "SOURCES" not in found or "SOURCE" not in found:
        return None
    return found["SOURCES"].split(), found["SOURCE"]
