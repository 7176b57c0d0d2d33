"""No page error goes unnoticed: the guard every browser test runs under (conftest.py).

Every page of every browser context a browser test opens (pytest-playwright's ``page``, the
``desktop`` and ``phone`` fixtures, the contexts a test makes with ``browser.new_context``)
reports here its uncaught exceptions (``pageerror``) and its ``console.error`` messages; a
test during which any arrived fails, with each one's page, message and stack.

A console error a test provokes on purpose (a page it expects to answer 404, a request it
expects refused) is allowed for that test alone with the ``console_errors`` mark: patterns
searched in ``"<message> @ <where>"`` (where: the URL of the resource or script that
logged it), as narrow as the test can make them. An uncaught exception never is.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass
from typing import Any

import pytest

MARK = "console_errors"
MARK_HELP = (
    f"{MARK}(*patterns): console.error messages this browser test provokes on purpose "
    "(regular expressions, searched in '<message> @ <url>'); any other fails it"
)


@dataclass(frozen=True)
class Problem:
    kind: str
    """``pageerror`` (an uncaught exception) or ``console.error``."""
    url: str
    """The page's."""
    message: str
    stack: str
    """An exception's stack; a console message's ``at <url>:<line>``."""
    where: str = ""
    """A console message's source: the resource or script that logged it."""

    def __str__(self) -> str:
        head = f"{self.kind} on {self.url}: {self.message}"
        return f"{head}\n{self.stack}" if self.stack and self.stack != self.message else head

    @property
    def allowable(self) -> str:
        """What a ``console_errors`` pattern is searched in."""
        return f"{self.message} @ {self.where}"


class PageErrors(AssertionError):
    """The pages of a browser test reported errors."""


PROBLEMS: list[Problem] = []
"""What the pages of the running test reported, in order (emptied as each test starts)."""
_reported = 0
"""How many of :data:`PROBLEMS` have been checked already."""
_watched: weakref.WeakSet[Any] = weakref.WeakSet()


def watch_page(page: Any) -> None:
    """Record ``page``'s uncaught exceptions and console errors (once per page)."""
    if page in _watched:
        return
    _watched.add(page)

    def on_error(error: Any) -> None:
        message = str(getattr(error, "message", error))
        stack = str(getattr(error, "stack", None) or "")
        PROBLEMS.append(Problem("pageerror", page.url, message, stack))

    def on_console(msg: Any) -> None:
        if msg.type != "error":
            return
        location = msg.location or {}
        where = str(location.get("url") or "")
        at = f"at {where or '?'}:{location.get('lineNumber', '?')}"
        PROBLEMS.append(Problem("console.error", page.url, msg.text, at, where))

    page.on("pageerror", on_error)
    page.on("console", on_console)


def watch_context(context: Any) -> Any:
    """Watch every page ``context`` has and will have; returns ``context``."""
    context.on("page", watch_page)
    for page in context.pages:
        watch_page(page)
    return context


def watch_browser(browser: Any) -> Any:
    """Make ``browser.new_context`` and ``browser.new_page`` watch what they make; returns
    a function that undoes it."""
    new_context, new_page = browser.new_context, browser.new_page

    def watched_context(*args: Any, **kwargs: Any) -> Any:
        return watch_context(new_context(*args, **kwargs))

    def watched_page(*args: Any, **kwargs: Any) -> Any:
        page = new_page(*args, **kwargs)
        watch_context(page.context)
        return page

    browser.new_context, browser.new_page = watched_context, watched_page

    def undo() -> None:
        browser.new_context, browser.new_page = new_context, new_page

    return undo


def start() -> None:
    """A test begins: nothing reported yet."""
    global _reported
    PROBLEMS.clear()
    _reported = 0


def unexpected(item: pytest.Item, problems: list[Problem]) -> list[Problem]:
    """The ``problems`` test ``item`` does not allow (its ``console_errors`` patterns)."""
    allowed = [re.compile(p) for mark in item.iter_markers(MARK) for p in mark.args]
    return [
        p
        for p in problems
        if p.kind == "pageerror" or not any(a.search(p.allowable) for a in allowed)
    ]


def check(item: pytest.Item, cause: BaseException | None = None) -> None:
    """Raise :class:`PageErrors` (from ``cause``, the test's own failure) if the pages
    reported anything ``item`` does not allow since the last check."""
    __tracebackhide__ = True
    global _reported
    new, _reported = PROBLEMS[_reported:], len(PROBLEMS)
    bad = unexpected(item, new)
    if bad:
        words = "\n\n".join(str(p) for p in bad)
        raise PageErrors(f"the pages reported {len(bad)} error(s):\n\n{words}") from cause
