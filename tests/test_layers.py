"""The generic layers never name a game: they iterate over the registry's descriptors.

import-linter checks the imports (``lint-imports``, in the lint step and here); this checks
the strings: a game's key written in ``rooms/``, ``store/`` or ``server/`` — in Python, or
in a template or an ES module that is not the game's own — means a descriptor is missing a
field. (Whether the linter's list of game modules is the registry's: ``test_registry.py``.)
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tapete.catalogs import domain_of
from tapete.i18n import SHARED
from tapete.registry import REGISTRY

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "tapete"
GENERIC = ["rooms", "store", "server"]


def named_games(path: Path, keys: list[str]) -> list[str]:
    """The lines of ``path`` that name a game: in Python a key as a string (``"peaje"``);
    in a template or an ES module, a key in a string or a path (``"peaje"``,
    ``"/peaje/guia"``, ``"./onecard.js"``, ``"peaje_words.html"``), not the word in a
    sentence («La guerra»)."""
    alternatives = "|".join(map(re.escape, keys))
    if path.suffix == ".py":
        named = re.compile(rf"[\"']({alternatives})[\"']")
    else:
        named = re.compile(rf"[\"'`/.]({alternatives})(?![a-z])")
    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    return [
        f"{where}:{n}: {line.strip()}"
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if named.search(line)
    ]


def generic_files(keys: list[str]) -> list[Path]:
    """Every Python file, template and ES module of the generic layers that is not a game's
    own (a game's own files are those the catalogs give its domain: a part of the path
    starts with its key, ``templates/peaje_guide/…``, ``js/peaje_setup.js``)."""
    return [
        path
        for folder in GENERIC
        for path in sorted((PACKAGE / folder).rglob("*"))
        if path.suffix in (".py", ".html", ".js")
        and domain_of(path.relative_to(PACKAGE), keys) == SHARED
    ]


def test_no_game_is_named_in_the_generic_layers() -> None:
    keys = list(REGISTRY)
    files = generic_files(keys)
    assert any(p.suffix == ".html" for p in files) and any(p.suffix == ".js" for p in files)
    found = [line for path in files for line in named_games(path, keys)]
    assert not found, "\n".join(found)


def test_a_game_named_in_a_shared_template_module_or_python_file_is_found(
    tmp_path: Path,
) -> None:
    keys = list(REGISTRY)
    lines = {
        "room.py": 'if spec.key == "peaje":\n    kind = "La guerra"\n',
        "hall.html": (
            '<a href="/reglas/rummy">…</a>\n<p>La guerra</p>\n{% include "peaje_words.html" %}\n'
        ),
        "table.js": 'import { felt } from "./onecard.js";\n// La guerra turns together\n',
    }
    found = []
    for name, source in lines.items():
        path = tmp_path / name
        path.write_text(source)
        found += named_games(path, keys)
    assert found == [
        'room.py:1: if spec.key == "peaje":',
        'hall.html:1: <a href="/reglas/rummy">…</a>',
        'hall.html:3: {% include "peaje_words.html" %}',
        'table.js:1: import { felt } from "./onecard.js";',
    ]
    assert domain_of(Path("server/templates/peaje_guide/index.html"), keys) == "peaje"
    assert all(domain_of(p.relative_to(PACKAGE), keys) == SHARED for p in generic_files(keys))


@pytest.mark.processes  # (lint-imports; make check runs it as lint)
def test_the_layer_contracts_hold() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout
