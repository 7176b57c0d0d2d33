"""No player-facing sentence is written outside the catalog: not in a template's text or
labels outside ``{% trans %}``/``_()``, not in a Python string of the rules, bots, rooms or
server (docstrings aside), not in an ES module's string outside ``_()``/``ngettext()``.

What is allowed to stay as it is: markup, symbols, numbers, and the few words listed in
``ALLOWED`` (the brand, the PEAJE tag the route draws)."""

from __future__ import annotations

import ast
import itertools
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from jinja2 import Environment

ROOT = Path(__file__).resolve().parents[1] / "tapete"
TEMPLATES = sorted((ROOT / "server" / "templates").rglob("*.html"))
PYTHON = sorted(
    p
    for folder in ("games", "bots", "rooms", "server", "store")
    for p in (ROOT / folder).rglob("*.py")
    if "migrations" not in p.parts
)
SCRIPTS = sorted((ROOT / "server" / "static" / "js").glob("*.js"))
ALLOWED = {"Tapete", "PEAJE", "JOKER", "English", "Español", "One", "Card"}
"""Words that are the same in every language here."""
LABELS = ("aria-label", "title", "placeholder", "alt", "content")
WORD = re.compile(r"(?<![-\w])[^\W\d_]{2,}(?![-\w])")
"""A word (not a CSS class like ``table-body``)."""
SPANISH = re.compile(r"[ñáéíóúü¿¡«»]", re.IGNORECASE)


def _wordy(text: str) -> bool:
    return any(w not in ALLOWED for w in WORD.findall(text))


class _Literals(HTMLParser):
    """Text nodes and labels of a template's literal markup (scripts and styles aside)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in LABELS and name != "content" and value and _wordy(value):
                self.found.append(f'{name}="{value}"')
        described = tag == "meta" and dict(attrs).get("name") == "description"
        content = dict(attrs).get("content")
        if described and content and _wordy(content):
            self.found.append(f'content="{content}"')

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and _wordy(data):
            self.found.append(data.strip())


def template_literals(source: str) -> list[str]:
    """The words a template writes outside the catalog: its literal text, with every Jinja2
    tag, expression and ``{% trans %}`` block cut out."""
    env = Environment(extensions=["jinja2.ext.i18n"])
    kept: list[str] = []
    in_trans = 0
    pending: list[str] = []
    for _lineno, kind, value in env.lex(source):
        if kind == "name" and pending and pending[-1] == "block_begin":
            if value == "trans":
                in_trans += 1
            elif value == "endtrans":
                in_trans -= 1
        if kind != "whitespace":
            pending.append(kind)
        if kind == "data":
            # a placeholder keeps the markup around an expression well formed
            kept.append("" if in_trans else value)
        elif kind in ("variable_begin", "block_begin"):
            kept.append(" ")
    parser = _Literals()
    parser.feed("".join(kept).replace('=" "', '="x"'))
    return [f for f in parser.found if f not in ('aria-label="x"', 'title="x"')]


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_templates_write_no_words_outside_the_catalog(path: Path) -> None:
    found = template_literals(path.read_text())
    assert not found, f"{path.relative_to(ROOT)}:\n" + "\n".join(found[:30])


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
        # an attribute's docstring: a string expression after an assignment
        for field in ("body",):
            stmts = getattr(node, field, None)
            if isinstance(stmts, list):
                for a, b in itertools.pairwise(stmts):
                    if (
                        isinstance(a, ast.Assign | ast.AnnAssign)
                        and isinstance(b, ast.Expr)
                        and isinstance(b.value, ast.Constant)
                    ):
                        ids.add(id(b.value))
    return ids


def _marked(tree: ast.AST) -> set[int]:
    """Strings given to the catalog's markers (N_, _, ngettext…)."""
    ids = set()
    for node in ast.walk(tree):
        marker = isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        if marker and node.func.id in ("N_", "_", "gettext", "ngettext", "pgettext"):  # type: ignore[attr-defined]
            for arg in node.args:  # type: ignore[attr-defined]
                for sub in ast.walk(arg):
                    ids.add(id(sub))
    return ids


@pytest.mark.parametrize("path", PYTHON, ids=lambda p: str(p.relative_to(ROOT)))
def test_python_writes_no_sentences_outside_the_catalog(path: Path) -> None:
    tree = ast.parse(path.read_text())
    skip = _docstrings(tree) | _marked(tree)
    found = [
        f"{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and SPANISH.search(node.value)
        and (" " in node.value.strip() or "«" in node.value)  # a sentence, not a name
    ]
    assert not found, f"{path.relative_to(ROOT)}:\n" + "\n".join(found[:30])


JS_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`')
JS_MARK = re.compile(r"(?:\b_|\bngettext)\(\s*$")


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_scripts_write_no_sentences_outside_the_catalog(path: Path) -> None:
    source = path.read_text()
    source = re.sub(r"^\s*//.*$", "", source, flags=re.MULTILINE)  # comments
    found = []
    for m in JS_STRING.finditer(source):
        text = m.group(1) if m.group(1) is not None else re.sub(r"\$\{[^}]*\}", "", m.group(2))
        if not SPANISH.search(text):
            continue
        before = source[max(0, m.start() - 200) : m.start()]
        # the first argument of _( or ngettext(, or ngettext's plural (after the singular)
        if JS_MARK.search(before) or re.search(r'ngettext\(\s*"(?:[^"\\]|\\.)*",\s*$', before):
            continue
        line = source.count("\n", 0, m.start()) + 1
        found.append(f"{line}: {m.group(0)[:80]}")
    assert not found, f"{path.name}:\n" + "\n".join(found[:30])


TEMPLATE_LITERAL = re.compile(r"`(?:[^`\\]|\\.)*`", re.DOTALL)
CATALOG_CALL = re.compile(r"\$\{[^}]*\b(?:_|ngettext)\(")


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_no_catalog_call_hides_in_a_template_literal(path: Path) -> None:
    """Babel's extractor reads a template literal as one token: a ``_("…")`` inside its
    ``${…}`` never reaches the catalog (the page shows Spanish in English)."""
    source = re.sub(r"^\s*//.*$", "", path.read_text(), flags=re.MULTILINE)
    found = [
        f"{source.count(chr(10), 0, m.start()) + 1}: {m.group(0)[:80]}"
        for m in TEMPLATE_LITERAL.finditer(source)
        if CATALOG_CALL.search(m.group(0))
    ]
    assert not found, f"{path.name}:\n" + "\n".join(found)
