"""A real SMTP server for tests (aiosmtpd, on loopback, in a thread of its own), and the
messages it received."""

from __future__ import annotations

import contextlib
import re
import socket
import time
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller


class Inbox:
    """The SMTP server's side: every message it received, parsed."""

    def __init__(self) -> None:
        self.url = ""
        """The server's ``smtp://`` URL, once it runs."""
        self.messages: list[EmailMessage] = []
        self.envelopes: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.envelopes.append(envelope)
        parsed = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        self.messages.append(parsed)
        return "250 OK"

    def wait(self, n: int, seconds: float = 10.0) -> EmailMessage:
        """The ``n``-th message (1-based), once it arrived."""
        deadline = time.monotonic() + seconds
        while len(self.messages) < n:
            assert time.monotonic() < deadline, f"only {len(self.messages)} message(s) arrived"
            time.sleep(0.02)
        return self.messages[n - 1]

    def code(self, n: int) -> str:
        body = self.wait(n).get_body(("plain",))
        assert body is not None
        found = re.search(r"\b(\d{6})\b", body.get_content())
        assert found is not None
        return found.group(1)


@contextlib.contextmanager
def mail_server() -> Iterator[tuple[str, Inbox]]:
    """A running SMTP server: its URL (``smtp://127.0.0.1:port``) and its inbox."""
    inbox = Inbox()
    with socket.socket() as s:  # (aiosmtpd checks its own port: it must be a real one)
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield f"smtp://127.0.0.1:{port}", inbox
    finally:
        controller.stop()
