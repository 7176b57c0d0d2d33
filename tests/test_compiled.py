"""The guard against a stale compiled module (tapete/compiled.py): the source runs when it is
not the one the build compiled, the extension when it is, and nothing changes for a module
that was never compiled. The extension is stood in for by a spec whose origin is a ``.so``
path (the real one is tested in tests/games/test_onecard_compiled.py)."""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tapete import compiled

NAME = "tapete_guard_probe.rules"


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A package with a module ``rules.py`` (``SPEED = "source"``) and, beside it, what a
    build leaves: ``rules.cpython-….so`` (never really loaded here) and ``_compiled.py``."""
    root = tmp_path / "tapete_guard_probe"
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "rules.py").write_text('SPEED = "source"\n')
    (root / "rules.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF")
    monkeypatch.syspath_prepend(str(tmp_path))
    real = importlib.util.find_spec

    def find_spec(name: str, package: str | None = None) -> Any:
        if name == NAME:  # (what Python finds first: the extension)
            origin = str(root / "rules.cpython-311-x86_64-linux-gnu.so")
            return importlib.machinery.ModuleSpec(name, None, origin=origin)
        return real(name, package)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    yield root
    for name in (NAME, "tapete_guard_probe"):
        sys.modules.pop(name, None)


def stamp(root: Path, source: bytes) -> None:
    digest = hashlib.sha256(source).hexdigest()
    (root / "_compiled.py").write_text(f'SOURCE = "{digest}"\n')


def test_the_extension_of_this_very_source_runs(package: Path) -> None:
    stamp(package, (package / "rules.py").read_bytes())
    assert compiled.fresh(NAME) is True
    assert NAME not in sys.modules  # (left to the import system: the extension)


def test_a_source_edited_since_the_build_runs_instead(
    package: Path, caplog: pytest.LogCaptureFixture
) -> None:
    stamp(package, b'SPEED = "old"\n')
    assert compiled.fresh(NAME) is False
    module = sys.modules[NAME]
    assert module.SPEED == "source" and module.__file__ == str(package / "rules.py")
    assert "older than" in caplog.text
    import tapete_guard_probe.rules as imported  # type: ignore[import-not-found]

    assert imported is module


def test_no_stamp_is_stale_too(package: Path) -> None:
    assert compiled.fresh(NAME) is False
    assert sys.modules[NAME].SPEED == "source"


def test_a_module_never_compiled_is_left_alone() -> None:
    assert compiled.fresh("tapete.rng") is False
