"""A game is declared once, and nothing of it may be left out: for every game of
:data:`tapete.registry.REGISTRY`, everything a game needs besides its descriptor is there
(``docs/architecture.md``, «Adding a game», lists the same, in the same words), the
import-linter's list of game modules is the registry's, and the tests that list the games
list them all.

Each check returns what is missing, one line per game and thing; a fifth game registered
without them fails with those lines (``test_a_fifth_game_left_out_is_named``).
"""

from __future__ import annotations

import ast
import dataclasses
import pkgutil
import tomllib
import types
from collections.abc import Mapping
from pathlib import Path

import pytest

import tapete.bots
import tapete.games
from tapete import registry
from tapete.bots import BotSpec, Level
from tapete.games.protocol import Hall
from tapete.i18n import SHARED, text
from tapete.registry import REGISTRY, Entry

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "tapete"
TEMPLATES = PACKAGE / "server" / "templates"
STATIC = PACKAGE / "server" / "static"
SHARED_GAME_MODULES = frozenset({"tapete.games.protocol", "tapete.games.names"})
"""The modules of ``games/`` that belong to no game: the protocol, names typed by players."""
ALONE = "a game's parts go in its package; a module all games share, in SHARED_GAME_MODULES"
SOME_GAMES = "# some games"
"""A comment that marks a literal list of game keys as a deliberate subset."""


def entries() -> Mapping[str, Entry]:
    """The registry as it is now (a test may put a fake game in it)."""
    return registry.REGISTRY


# --- what every game has -------------------------------------------------------------------


def game_files(key: str) -> dict[str, Path]:
    """What a game needs besides its descriptor, by name (the checklist's words)."""
    return {
        "setup page template": TEMPLATES / f"{key}_setup.html",
        "table template": TEMPLATES / f"{key}_table.html",
        "summary template": TEMPLATES / f"{key}_summary.html",
        "rules page": TEMPLATES / "rules" / f"{key}.html",
        "keys page": TEMPLATES / "keys" / f"{key}.html",
        "ES module": STATIC / "js" / f"{key}.js",
        "style sheet": STATIC / "css" / f"{key}.css",
        "Spanish catalog": PACKAGE / "locale" / "es" / "LC_MESSAGES" / f"{key}.po",
        "English catalog": PACKAGE / "locale" / "en" / "LC_MESSAGES" / f"{key}.po",
        "fingerprint bench": ROOT / "bench" / f"{key}_fingerprint.py",
        "rules tests": ROOT / "tests" / "games" / f"test_{key}_rules.py",
        "playout test": ROOT / "tests" / "games" / f"test_{key}_playout.py",
    }


def missing_files() -> list[str]:
    return [
        f"{key}: no {what} ({path.relative_to(ROOT)})"
        for key in entries()
        for what, path in game_files(key).items()
        if not path.is_file()
    ]


def module_path(name: str) -> str:
    """Where a module lives: ``tapete/games/rummy/`` (a package) or ``tapete/games/guerra.py``."""
    base = name.replace(".", "/")
    return f"{base}/" if (ROOT / base).is_dir() else f"{base}.py"


def rules_module(e: Entry) -> str:
    """The name of a game's rules module (``SPEC.rules`` is the module itself)."""
    module = e.game.rules
    assert isinstance(module, types.ModuleType), f"{e.key}: SPEC.rules is not a module"
    return module.__name__


def missing_positions() -> list[str]:
    """Each game's section in ``docs/positions.md``: a ``## `` heading with its title and
    where its rules are, «## Rummy de fichas (`tapete/games/rummy/`)»."""
    headings = [
        line
        for line in (ROOT / "docs" / "positions.md").read_text().splitlines()
        if line.startswith("## ")
    ]
    out = []
    for key, e in entries().items():
        want = f"## {e.game.hall.title} (`{module_path(rules_module(e))}`)"
        if want not in headings:
            out.append(f"{key}: no section «{want}» in docs/positions.md")
    return out


def missing_from_blurb() -> list[str]:
    """The app shell's blurb (the installed app's description) names every game, by its
    title, in each language."""
    from tapete.server.pages.app_shell import ABOUT

    out = []
    for key, e in entries().items():
        for lang in ("es", "en"):
            title = text(key, lang, e.game.hall.title)
            if title not in text(SHARED, lang, ABOUT):
                out.append(
                    f"{key}: the app shell's blurb (server/pages/app_shell.py, ABOUT) in {lang} "
                    f"does not name «{title}»"
                )
    return out


# --- the import-linter's list of game modules -----------------------------------------------


def forbidden_modules() -> set[str]:
    """The contract «The generic layers know games only through the registry» of
    ``pyproject.toml``: what ``rooms/``, ``store/`` and ``server/`` may not import."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    (contract,) = [c for c in contracts if c["type"] == "forbidden"]
    assert set(contract["source_modules"]) == {"tapete.rooms", "tapete.store", "tapete.server"}
    return set(contract["forbidden_modules"])


def bot_modules(key: str, e: Entry) -> set[str]:
    """A game's bots: the module of its ``choose``, and every module of ``bots/`` whose name
    starts with the game's key (``bots/rummy_solver.py``: as the catalogs assign files)."""
    found = {f"tapete.bots.{m.name}" for m in pkgutil.iter_modules(tapete.bots.__path__)}
    own = {name for name in found if name.rsplit(".", 1)[1].startswith(key)}
    return own | ({e.bots.choose.__module__} if e.bots is not None else set())


def game_modules() -> dict[str, set[str]]:
    """By game: its rules module (a package holds its parts) and its bots' modules."""
    return {key: {rules_module(e)} | bot_modules(key, e) for key, e in entries().items()}


def package_modules() -> list[str]:
    """Every module directly in ``games/`` and ``bots/``."""
    return [
        f"{package.__name__}.{m.name}"
        for package in (tapete.games, tapete.bots)
        for m in pkgutil.iter_modules(package.__path__)
    ]


def linter_problems(found: list[str] | None = None) -> list[str]:
    """What the contract's list lacks or has too many of, and any module of ``games/`` or
    ``bots/`` (``found``: all of them) that is part of no registered game."""
    listed = forbidden_modules()
    out = []
    owned = game_modules()
    for key, modules in owned.items():
        out += [
            f"{key}: {m} is not in pyproject.toml's forbidden_modules (import-linter)"
            for m in sorted(modules - listed)
        ]
    every = set().union(*owned.values())
    out += [
        f"pyproject.toml's forbidden_modules lists {m}, which is no registered game's"
        for m in sorted(listed - every)
    ]
    for name in package_modules() if found is None else found:
        if name not in SHARED_GAME_MODULES and name not in every:
            out.append(f"{name} is part of no registered game ({ALONE})")
    return out


# --- tests that list the games ---------------------------------------------------------------


def _literals(tree: ast.AST) -> list[tuple[int, list[str]]]:
    """Every list, tuple, set or dict (by its keys) of constant strings in a module."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            items: list[ast.expr | None] = list(node.elts)
        elif isinstance(node, ast.Dict):
            items = list(node.keys)
        else:
            continue
        strings = [i.value for i in items if isinstance(i, ast.Constant) and type(i.value) is str]
        if strings:
            out.append((node.lineno, strings))
    return out


def partial_lists(paths: list[Path]) -> list[str]:
    """Literal collections that name two games or more but not every one of the registry:
    a test (or a bench) that lists the games by hand and would leave a new one out. Derive
    them from the registry instead, or mark a deliberate subset with ``# some games``."""
    keys = set(entries())
    out = []
    for path in paths:
        source = path.read_text()
        lines = source.splitlines()
        for lineno, strings in _literals(ast.parse(source)):
            named = keys.intersection(strings)
            if len(named) < 2 or named == keys or SOME_GAMES in lines[lineno - 1]:
                continue
            where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
            out.append(
                f"{where}:{lineno} lists {', '.join(sorted(named))} "
                f"but not {', '.join(sorted(keys - named))}"
            )
    return out


def listing_files() -> list[Path]:
    here = Path(__file__).resolve()
    tests = [p for p in sorted((ROOT / "tests").rglob("*.py")) if p != here]
    return tests + sorted((ROOT / "bench").glob("*.py"))


# --- the tests -----------------------------------------------------------------------------------


def test_every_game_has_its_templates_module_style_catalogs_bench_and_tests() -> None:
    assert missing_files() == []


def test_every_game_has_its_section_in_the_positions_doc() -> None:
    assert missing_positions() == []


def test_the_app_shell_blurb_names_every_game() -> None:
    assert missing_from_blurb() == []


def test_the_linter_forbids_exactly_the_registered_games_and_their_bots() -> None:
    """The generic layers may import no module of a game: the contract's list is the
    registry's (a game's package covers its parts), and every module of ``games/`` and
    ``bots/`` is a registered game's (or shared)."""
    assert linter_problems() == []


def test_the_tests_that_list_games_list_every_game() -> None:
    assert partial_lists(listing_files()) == []


def test_the_checklist_for_a_new_game_says_what_these_tests_check() -> None:
    """``docs/architecture.md``'s checklist names every file above, in the same words, and
    the other lists this file checks."""
    doc = (ROOT / "docs" / "architecture.md").read_text()
    checklist = doc.split("### Adding a game", 1)[1].split("\n## ", 1)[0]
    for what, path in game_files("<key>").items():
        assert f"{what}: `{path.relative_to(ROOT)}`" in checklist, what
    for words in (
        "`docs/positions.md`",
        "`tapete/server/pages/app_shell.py`",
        "`forbidden_modules`",
        "`tapete/registry.py`",
        "# some games",
    ):
        assert words in checklist, words


# --- a fifth game, left out of everything ---------------------------------------------------


def _fifth_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Registers «El quinto» (key ``quinto``): its rules module ``tapete.games.quinto`` and
    its bots' ``tapete.bots.quinto`` exist nowhere else."""
    rules = types.ModuleType("tapete.games.quinto")
    guerra = REGISTRY["guerra"]

    def choose(view: dict[str, object], level: str) -> None:
        return None

    choose.__module__ = "tapete.bots.quinto"
    hall = Hall(title="El quinto", line="", who="", icon="")
    game = dataclasses.replace(guerra.game, key="quinto", rules=rules, hall=hall)
    bots = BotSpec(choose=choose, levels=(Level("normal", "Normal"),))
    monkeypatch.setattr(registry, "REGISTRY", {**REGISTRY, "quinto": Entry(game, bots)})


def test_a_fifth_game_left_out_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    _fifth_game(monkeypatch)
    files = missing_files()
    assert len(files) == len(game_files("quinto"))
    assert "quinto: no summary template (tapete/server/templates/quinto_summary.html)" in files
    assert "quinto: no keys page (tapete/server/templates/keys/quinto.html)" in files
    assert "quinto: no fingerprint bench (bench/quinto_fingerprint.py)" in files
    assert "quinto: no playout test (tests/games/test_quinto_playout.py)" in files
    assert missing_positions() == [
        "quinto: no section «## El quinto (`tapete/games/quinto.py`)» in docs/positions.md"
    ]
    assert missing_from_blurb() == [
        "quinto: the app shell's blurb (server/pages/app_shell.py, ABOUT) in es does not name "
        "«El quinto»",
        "quinto: the app shell's blurb (server/pages/app_shell.py, ABOUT) in en does not name "
        "«El quinto»",
    ]
    assert linter_problems() == [
        "quinto: tapete.bots.quinto is not in pyproject.toml's forbidden_modules (import-linter)",
        "quinto: tapete.games.quinto is not in pyproject.toml's forbidden_modules (import-linter)",
    ]
    # (each test or bench that still lists the four by hand: test_pages.py, test_deals.py…)
    partial = partial_lists(listing_files())
    assert all(
        line.endswith("lists guerra, onecard, peaje, rummy but not quinto") for line in partial
    ), partial


def test_a_game_part_outside_its_package_is_named() -> None:
    """As ``games/peaje_guide.py`` was: a module of ``games/`` that is no registered game,
    nor in one's package (the contract's list did name it, by hand)."""
    assert "tapete.games.peaje_guide" not in package_modules()
    assert linter_problems([*package_modules(), "tapete.games.peaje_guide"]) == [
        f"tapete.games.peaje_guide is part of no registered game ({ALONE})"
    ]


def test_a_list_of_some_games_is_named_unless_marked(tmp_path: Path) -> None:
    path = tmp_path / "listing.py"
    path.write_text(
        'GAMES = ("guerra", "onecard")\n'
        'HINTS = {"onecard": 1, "rummy": 2}  # some games: those with hints\n'
        'EVERY = {"guerra": 1, "onecard": 2, "rummy": 3, "peaje": 4}\n'
        'DOMAINS = {"tapete", "guerra", "onecard", "rummy"}\n'
    )
    assert partial_lists([path]) == [
        "listing.py:1 lists guerra, onecard but not peaje, rummy",
        "listing.py:4 lists guerra, onecard, rummy but not peaje",
    ]
