"""The browser suite's browsers and flags are what conftest.py says, through upgrades of
Playwright and Chromium: the headless shell most tests run in is the very Chromium a player
has (same version); Playwright's own disabled features stay disabled (Chromium reads only the
last `--disable-features`); and in Chromium itself no context starts the address bar's popup
page in a renderer of its own (0.3 CPU s per context here)."""

from __future__ import annotations

import os
from typing import Any

import pytest
from conftest import OMNIBOX_WEBUI

TOP_CHROME = b"--top-chrome-webui"


def _features(switches: list[str]) -> list[list[str]]:
    prefix = "--disable-features="
    return [s.removeprefix(prefix).split(",") for s in switches if s.startswith(prefix)]


def test_the_headless_shell_is_the_chromium_players_have(browser: Any, full_chromium: Any) -> None:
    assert browser.version == full_chromium.version, (
        f"chromium-headless-shell {browser.version} is not chromium {full_chromium.version}: "
        "upgrade both Debian packages together"
    )


def _ours(binary: bytes) -> tuple[dict[int, list[bytes]], dict[int, int]]:
    """The processes this test process started (through Playwright) from ``binary``, by
    pid, with their command lines; and every process's parent, by pid."""
    parent: dict[int, int] = {}
    command: dict[int, list[bytes]] = {}
    for pid in map(int, filter(str.isdigit, os.listdir("/proc"))):
        try:
            with open(f"/proc/{pid}/stat") as stat:
                parent[pid] = int(stat.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{pid}/cmdline", "rb") as line:
                # (Chromium's helpers rewrite theirs as one string, spaces between)
                command[pid] = line.read().replace(b"\0", b" ").split()
        except OSError:
            continue  # gone meanwhile

    def ours(pid: int) -> bool:
        while pid > 1:
            pid = parent.get(pid, 0)
            if pid == os.getpid():
                return True
        return False

    found = {
        p: line for p, line in command.items() if line and line[0].endswith(binary) and ours(p)
    }
    return found, parent


def _launched(binary: bytes) -> list[str]:
    """The command line of the browser process launched from ``binary``: not one of the
    browser's own processes (no --type), nor a child of another such."""
    found, parent = _ours(binary)
    browsers = {p for p, line in found.items() if not any(a.startswith(b"--type=") for a in line)}
    # (a child the browser has forked and not yet turned into a helper by exec still shows
    # the browser's own command line: seen once)
    lines = [found[p] for p in browsers if parent.get(p) not in browsers]
    assert len(lines) == 1, lines
    return [a.decode() for a in lines[0]]


@pytest.mark.parametrize(
    ("which", "binary"),
    [("browser", b"/chromium-headless-shell"), ("full_chromium", b"/chromium")],
    ids=["headless-shell", "chromium"],
)
def test_the_last_disable_features_keeps_playwrights(
    which: str, binary: bytes, request: pytest.FixtureRequest
) -> None:
    request.getfixturevalue(which)  # (launched)
    switches = _launched(binary)
    lists = _features(switches)
    assert len(lists) >= 2, lists  # Playwright's, then ours
    last = set(lists[-1])
    for earlier in lists[:-1]:
        missing = set(earlier) - last
        assert not missing, (
            f"Playwright now disables {sorted(missing)} too: add them to "
            "PLAYWRIGHT_DISABLED_FEATURES in tests/e2e/conftest.py"
        )
    assert set(OMNIBOX_WEBUI) <= last


def test_no_context_starts_the_address_bars_popup(full_chromium: Any, server_url: str) -> None:
    contexts = [full_chromium.new_context() for _ in range(2)]
    try:
        for context in contexts:
            context.new_page().goto(server_url + "/")
        found, _ = _ours(b"/chromium")
        renderers = [line for line in found.values() if b"--type=renderer" in line]
        assert len(renderers) >= 2, "the pages' own renderers were not found"
        popups = [r for r in renderers if TOP_CHROME in r]
        assert not popups, (
            f"{len(popups)} renderers for Chromium's own pages: the features in OMNIBOX_WEBUI "
            "(tests/e2e/conftest.py) no longer turn the address bar's popup off"
        )
    finally:
        for context in contexts:
            context.close()
