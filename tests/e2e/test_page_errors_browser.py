"""The guard every browser test runs under (pageerrors.py, wired in conftest.py): an
uncaught exception or a console error in any page of any context a test opens fails it,
with its message and stack. Here each error is provoked on purpose, seen, and taken back
so that this test itself passes."""

from __future__ import annotations

from typing import Any

import pageerrors
import pytest
from browser import TIMEOUT
from playwright.sync_api import Page

THROW = "() => { setTimeout(() => { throw new TypeError('a deliberate ' + 'failure'); }, 0); }"


def provoke(page: Page, server_url: str) -> pageerrors.Problem:
    """An uncaught exception in ``page``: what the guard recorded of it."""
    if page.url == "about:blank":
        page.goto(server_url + "/")
    before = len(pageerrors.PROBLEMS)
    with page.expect_event("pageerror"):
        page.evaluate(THROW)
    new = pageerrors.PROBLEMS[before:]
    assert [p.kind for p in new] == ["pageerror"], new
    return new[0]


def fails_the_test(request: pytest.FixtureRequest, needle: str) -> None:
    """The check at the end of the test raises, naming ``needle``; then it is forgotten."""
    with pytest.raises(pageerrors.PageErrors) as raised:
        pageerrors.check(request.node)
    assert needle in str(raised.value)


@pytest.mark.parametrize("fixture", ["page", "desktop", "phone"])
def test_an_uncaught_exception_in_a_fixtures_page_fails_the_test(
    fixture: str, request: pytest.FixtureRequest, server_url: str
) -> None:
    page = request.getfixturevalue(fixture)
    problem = provoke(page, server_url)
    assert problem.message == "a deliberate failure"
    assert "TypeError: a deliberate failure" in problem.stack
    assert problem.url == server_url + "/"
    fails_the_test(request, "TypeError: a deliberate failure")


def test_every_page_of_a_context_made_in_the_test_is_watched(
    browser: Any, request: pytest.FixtureRequest, server_url: str
) -> None:
    context = browser.new_context(locale="es-ES")
    context.set_default_timeout(TIMEOUT)
    try:
        first, second = context.new_page(), context.new_page()  # (the second: the "page" event)
        for page in (first, second):
            assert provoke(page, server_url).message == "a deliberate failure"
        fails_the_test(request, "pageerror on")
        lone = browser.new_page()  # a page with a context of its own
        try:
            assert provoke(lone, server_url).message == "a deliberate failure"
        finally:
            lone.close()
        fails_the_test(request, "a deliberate failure")
    finally:
        context.close()


def test_a_console_error_fails_the_test_unless_the_test_allows_it(
    page: Page, request: pytest.FixtureRequest, server_url: str
) -> None:
    page.goto(server_url + "/")
    with page.expect_console_message(lambda m: m.type == "error"):
        page.evaluate("() => console.error('something ' + 'went wrong')")
    fails_the_test(request, "console.error on")


@pytest.mark.console_errors(
    r"^expected trouble @ ", r"status of 404 \(Not Found\) @ http://[\d.:]+/no-such-file\.js$"
)
def test_a_console_error_the_test_provokes_on_purpose_is_allowed_by_its_mark(
    page: Page, request: pytest.FixtureRequest, server_url: str
) -> None:
    page.goto(server_url + "/")
    with page.expect_console_message(lambda m: m.type == "error"):
        page.evaluate("() => console.error('expected ' + 'trouble')")
    with page.expect_console_message(lambda m: m.type == "error") as missing:
        page.evaluate("() => fetch('/no-such-file.js')")
    assert missing.value.location["url"] == server_url + "/no-such-file.js"
    pageerrors.check(request.node)  # allowed: no failure
    with page.expect_console_message(lambda m: m.type == "error"):
        page.evaluate("() => fetch('/no-such-page.js')")
    fails_the_test(request, "no-such-page.js")  # the mark names the resource: not this one
    with page.expect_console_message(lambda m: m.type == "error"):
        page.evaluate("() => console.error('unexpected ' + 'trouble')")
    fails_the_test(request, "unexpected trouble")  # the mark allows that one message only
    provoke(page, server_url)
    fails_the_test(request, "a deliberate failure")  # never an uncaught exception
