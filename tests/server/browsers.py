"""What the HTTP tests of one running hall share: its ``Hall``, the guest a test client is,
and another browser (a guest of its own) on the same hall."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient


def hall(client: TestClient) -> Any:
    """The running hall behind ``client``."""
    return client.app.state.hall  # type: ignore[attr-defined]


def guest(client: TestClient) -> str:
    """The guest this browser is (its signed cookie, read as the hall reads it)."""
    found = hall(client).guests.read(client.cookies.get("tapete_guest"))
    assert isinstance(found, str)
    return found


def browser(client: TestClient, lang: str = "es") -> TestClient:
    """Another browser on the same running hall (its own guest)."""
    other = TestClient(client.app)
    other.portal = client.portal
    other.get("/", params={"lang": lang})
    return other
