"""The guard against a stale compiled module (tapete/compiled.py): the source runs when it is
not the one the build compiled, the extension when it is, and nothing changes for a module
that was never compiled. The extension is stood in for by a spec whose origin is a ``.so``
path (the real one is tested in tests/games/test_onecard_compiled.py)."""

from __future__ import annotations

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
    """A package with a module ``rules.py`` (``SPEED = "source"``) that reads ``cards.py``,
    and beside them the extension a build leaves, ``rules.cpython-….so`` (never really
    loaded here); the tests write the build's stamp (``compiled.stamp``)."""
    root = tmp_path / "tapete_guard_probe"
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "rules.py").write_text('SPEED = "source"\n')
    (root / "cards.py").write_text("ACE = 14\n")
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


def test_the_extension_of_this_very_source_runs(package: Path) -> None:
    compiled.stamp(package / "rules.py", ["cards.py"])
    assert compiled.fresh(NAME) is True
    assert NAME not in sys.modules  # (left to the import system: the extension)


def test_a_source_edited_since_the_build_runs_instead(
    package: Path, caplog: pytest.LogCaptureFixture
) -> None:
    compiled.stamp(package / "rules.py", ["cards.py"])
    (package / "rules.py").write_text('SPEED = "source"  # edited\n')
    assert compiled.fresh(NAME) is False
    module = sys.modules[NAME]
    assert module.SPEED == "source" and module.__file__ == str(package / "rules.py")
    assert "not compiled from" in caplog.text
    import tapete_guard_probe.rules as imported  # type: ignore[import-not-found]

    assert imported is module


def test_a_module_it_read_edited_since_runs_the_source_too(package: Path) -> None:
    compiled.stamp(package / "rules.py", ["cards.py"])
    (package / "cards.py").write_text("ACE = 1\n")  # (its constants may be in the extension)
    assert compiled.fresh(NAME) is False
    assert sys.modules[NAME].SPEED == "source"


def test_no_stamp_is_stale_too(package: Path) -> None:
    assert compiled.fresh(NAME) is False
    assert sys.modules[NAME].SPEED == "source"


def test_a_module_never_compiled_is_left_alone() -> None:
    assert compiled.fresh("tapete.rng") is False
