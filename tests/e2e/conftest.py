"""Browser tests: a real `tapete serve` and Debian's Chromium (its headless shell, and the
browser itself where it differs) driven by Playwright.

The server runs once per session on a free port with a throwaway SQLite file. Each test
gets its own browser context from pytest-playwright, so each test is a new guest.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.mailbox import Inbox, mail_server

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
"""Debian's Chromium, the browser a player has: the app's install test and the flags' tests
run in it (``full_chromium``)."""
HEADLESS_SHELL = os.environ.get("CHROMIUM_HEADLESS_SHELL_PATH", "/usr/bin/chromium-headless-shell")
"""Debian's build of Chromium's headless shell: the same Blink, V8 and Skia as CHROMIUM (one
source package, one version: test_browser_flags_browser checks it) without the browser's
own windows, tabs and address bar; what Playwright itself runs headless tests in. Every other
browser test runs in it: a new context and its first page cost half the CPU (0.20 vs 0.41 s),
a test about a fifth less (bench/RESULTS.md, «The test suite's time»)."""
PLAYWRIGHT_DISABLED_FEATURES = [
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
]
"""The features Playwright's own `--disable-features` turns off (its chromiumSwitches.ts).
Chromium reads only the last `--disable-features` of a command line, so ours repeats them
(test_browser_flags_browser.py fails when a Playwright upgrade adds one)."""
OMNIBOX_WEBUI = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"]
"""Chromium 156 gives every window (so every context of headless Chromium) an address bar
whose suggestions popup is a page of its own, loaded at once in a renderer of its own
(`--top-chrome-webui`) though a test never types in it: 0.3 of the 0.75 CPU seconds a new
context and its first page cost here (bench/RESULTS.md, «The test suite's time»)."""
ARGS = [
    "--disable-features=" + ",".join(PLAYWRIGHT_DISABLED_FEATURES + OMNIBOX_WEBUI),
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the test modules import the shared helpers of browser.py
import pageerrors  # noqa: E402  (from HERE, as the test modules import it)
from servers import serve  # noqa: E402

# The JSON API may start games from a seed or a set position (the tests of the newer games
# need it), and bots think at 15 % of their usual pace so a test does not wait on them.
# One Card's catch window is 30 s, not 3: a test that catches a bot clicks once the table is
# drawn, however long a loaded machine takes to draw it (the window runs from the game's
# start); no test waits for a window to close, and a bot's call or catch comes at its own
# pace, within the 3 s either way.
# A player who drops keeps the seat for an hour, not 45 s: the server is the whole session's,
# and a room game its test left behind (every player's browser closed) would otherwise be
# played on by bots standing in, behind the later tests; the test that waits a grace out
# has a server of its own (test_room_rematch_browser).
SERVER_FLAGS = [
    "--test-api",
    "--bot-pace",
    "0.15",
    "--window",
    "30",
    "--grace-seconds",
    "3600",
    "--limit",
    "games_per_minute_address=100000",
    "--limit",
    "mail_codes_per_address=1000",
]
"""The whole browser suite plays from one address (127.0.0.1), faster than any real one."""

# pytest-playwright's session `base_url` fixture is an instance method, which pytest 9 warns
# about at the first test's setup. The message is two lines with `base_url` on the second, so
# the `.*base_url.*` filter in pyproject.toml does not match it (`.` stops at the newline),
# and a command-line `-W error` outranks the ini filters anyway. A `filterwarnings` mark
# outranks both, so every browser test carries this one, narrow, ignore.
BASE_URL_WARNING = r"ignore:(?s).*'base_url' fixture:DeprecationWarning"


def _is_browser_test(item: pytest.Item) -> bool:
    return HERE in item.path.resolve().parents


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Playwright's sync API runs its event loop in a greenlet and leaves it registered as the
    # thread's running loop for as long as the session-scoped `playwright` fixture lives.
    # An `async def` test (pytest-asyncio) run after it fails with "Cannot run the event loop
    # while another loop is running". So the browser tests go last, after every other test.
    # The long ones (marked slow: whole games in several browsers) start first, so that on
    # two workers the suite does not end on one of them while the other worker waits.
    browser = [item for item in items if _is_browser_test(item)]
    browser.sort(key=lambda item: item.get_closest_marker("slow") is None)
    others = [item for item in items if not _is_browser_test(item)]
    items[:] = others + browser
    for item in browser:
        item.add_marker(pytest.mark.filterwarnings(BASE_URL_WARNING))


@pytest.fixture(scope="session")
def browser(browser: Any) -> Iterator[Any]:
    """pytest-playwright's browser, whose every new context and page is watched for page
    errors (pageerrors.py): the fixtures' contexts and a test's own come from here."""
    undo = pageerrors.watch_browser(browser)
    try:
        yield browser
    finally:
        undo()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", pageerrors.MARK_HELP)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Any:
    pageerrors.start()
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    """A browser test fails if its pages reported an error (pageerrors.py)."""
    if not _is_browser_test(item):
        return (yield)
    try:
        result = yield
    except BaseException as exc:  # the test failed: its pages' errors may well be why
        pageerrors.check(item, exc)
        raise
    pageerrors.check(item)
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    result = yield
    if _is_browser_test(item):
        pageerrors.check(item)  # (what reached us as its contexts closed)
    return result


def installed(path: str, package: str, variable: str) -> str:
    """``path``, or the test fails: a missing browser is a failure, not a skip (these tests
    must not pass silently)."""
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        pytest.fail(
            f"{path!r} not found: install it (apt-get install -y {package}) or set {variable}",
            pytrace=False,
        )
    return path


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    shell = installed(HEADLESS_SHELL, "chromium-headless-shell", "CHROMIUM_HEADLESS_SHELL_PATH")
    return {**browser_type_launch_args, "executable_path": shell, "args": ARGS}


@pytest.fixture(scope="session")
def full_chromium(playwright: Any) -> Iterator[Any]:
    """Debian's Chromium itself (``browser`` is its headless shell), watched for page errors
    as ``browser`` is."""
    found = playwright.chromium.launch(
        executable_path=installed(CHROMIUM, "chromium", "CHROMIUM_PATH"), args=ARGS
    )
    undo = pageerrors.watch_browser(found)
    try:
        yield found
    finally:
        undo()
        found.close()


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    """A Spanish-speaking browser: the hall follows Accept-Language on a first visit. Its
    pages run without the service worker (the app's own tests run it: test_app_browser), so
    a test's routes see every request and no context spends its first second filling a
    cache."""
    return {**browser_context_args, "locale": "es-ES", "service_workers": "block"}


@pytest.fixture(scope="session")
def mail() -> Iterator[Inbox]:
    """The SMTP server `tapete serve` sends its e-mail to (TAPETE_SMTP_URL): what arrived."""
    with mail_server() as (url, inbox):
        inbox.url = url
        yield inbox


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory, mail: Inbox) -> Iterator[str]:
    """`tapete serve` on a free port with a fresh database, its e-mail going to ``mail``; its
    base URL, no trailing slash."""
    work = tmp_path_factory.mktemp("tapete-e2e")
    with serve(work, SERVER_FLAGS, {"TAPETE_SMTP_URL": mail.url}) as url:
        yield url


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """Where tests save PNGs: artifacts/screenshots/ under the repo root (gitignored), with
    ``TAPETE_SCREENSHOTS=1`` (``make screenshots``; browser.SCREENSHOTS)."""
    path = REPO / "artifacts" / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def desktop(browser: Any) -> Iterator[Any]:
    """A page on a 1280×800 screen, in its own context (a guest of its own)."""
    from browser import TIMEOUT

    context = browser.new_context(
        locale="es-ES", viewport={"width": 1280, "height": 800}, service_workers="block"
    )
    context.set_default_timeout(TIMEOUT)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A page on a 390×844 touch screen, in its own context (a guest of its own)."""
    from browser import PHONE, TIMEOUT

    context = browser.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, locale="es-ES", service_workers="block"
    )
    context.set_default_timeout(TIMEOUT)
    try:
        yield context.new_page()
    finally:
        context.close()
