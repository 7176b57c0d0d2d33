"""Every package Tapete imports at run time is among its runtime dependencies.

The dev extras install more than ``pip install -e .`` does (Playwright brings greenlet, for
one); a runtime import satisfied only by them passes every test and breaks ``tapete serve``
on a fresh machine. ``.ci/run`` proves the run command on a clean clone; this catches the
fault earlier, by reading the imports.
"""

from __future__ import annotations

import ast
import importlib.metadata as metadata
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]

HIDDEN: dict[str, str] = {"sqlalchemy.ext.asyncio": "greenlet"}
"""Modules that import a package only when used (so the scan cannot see it)."""


def runtime_closure() -> set[str]:
    """The distributions ``pip install -e .`` installs: the runtime requirements of
    pyproject.toml and, recursively, theirs (with the extras asked for)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    todo = [Requirement(r) for r in project["dependencies"]]
    seen: dict[str, set[str]] = {}
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        extras = set(req.extras)
        if name in seen and extras <= seen[name]:
            continue
        seen.setdefault(name, set()).update(extras)
        for raw in metadata.requires(req.name) or []:
            sub = Requirement(raw)
            if sub.marker is None:
                todo.append(sub)
                continue
            envs = [{"extra": e} for e in seen[name]] or [{"extra": ""}]
            if any(sub.marker.evaluate(env) for env in envs):
                todo.append(sub)
    return set(seen)


def imported_modules() -> set[str]:
    """Every absolute module name ``tapete/`` imports, at module level or inside functions."""
    names: set[str] = set()
    for path in (ROOT / "tapete").rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
    return names


def test_every_runtime_import_is_a_runtime_dependency() -> None:
    closure = runtime_closure()
    owners = metadata.packages_distributions()
    missing: dict[str, list[str]] = {}
    modules = imported_modules()
    for module in sorted(modules):
        top = module.split(".")[0]
        if top == "tapete" or top in sys.stdlib_module_names or top == "__future__":
            continue
        dists = {canonicalize_name(d) for d in owners.get(top, [])}
        assert dists, f"{module}: no installed distribution provides it"
        if not dists & closure:
            missing.setdefault(module, sorted(dists))
    for module, needed in HIDDEN.items():
        used = any(m == module or m.startswith(module + ".") for m in modules)
        if used and canonicalize_name(needed) not in closure:
            missing[module] = [needed]
    assert not missing, f"imported at run time but not a runtime dependency: {missing}"


def test_the_closure_sees_extras() -> None:
    """The check itself: sqlalchemy's asyncio extra is what brings greenlet."""
    assert "greenlet" in runtime_closure()
    assert "pytest" not in runtime_closure()
