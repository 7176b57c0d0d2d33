"""Sending e-mail: through a real SMTP server, or to the log when none is set.

``TAPETE_SMTP_URL`` names the server::

    smtp://host[:port]                 plain (port 25), for a relay on the same network
    smtp+starttls://user:pass@host     STARTTLS (port 587)
    smtps://user:pass@host             TLS from the first byte (port 465)

User and password are percent-encoded in the URL. ``TAPETE_MAIL_FROM`` is the sender.
Without an SMTP URL, :class:`LogMailer` writes each message to the log, whole, the way
Django's console backend does: enough to try the e-mail steps on a laptop.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Protocol
from urllib.parse import parse_qs, unquote, urlsplit

import aiosmtplib

log = logging.getLogger(__name__)

DEFAULT_FROM = "Tapete <no-reply@tapete.localhost>"


class Mailer(Protocol):
    sender: str

    async def send(self, message: EmailMessage) -> None: ...


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int
    tls: bool
    """TLS from the first byte (``smtps``)."""
    starttls: bool
    user: str | None
    password: str | None
    timeout: float = 20.0

    @classmethod
    def parse(cls, url: str) -> SmtpSettings:
        """The settings in ``url``; ValueError names what is wrong with it."""
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme not in ("smtp", "smtp+starttls", "smtps"):
            raise ValueError(f"TAPETE_SMTP_URL: unknown scheme {parts.scheme!r}")
        if not parts.hostname:
            raise ValueError("TAPETE_SMTP_URL: no host")
        query = parse_qs(parts.query)
        starttls = scheme == "smtp+starttls" or query.get("starttls", [""])[0] in ("1", "true")
        default = {"smtp": 25, "smtp+starttls": 587, "smtps": 465}[scheme]
        return cls(
            host=parts.hostname,
            port=parts.port or (587 if starttls and scheme == "smtp" else default),
            tls=scheme == "smtps",
            starttls=starttls,
            user=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
        )

    def describe(self) -> str:
        """For the log: where mail goes, without the password."""
        how = "TLS" if self.tls else "STARTTLS" if self.starttls else "plain"
        who = f"{self.user}@" if self.user else ""
        return f"{who}{self.host}:{self.port} ({how})"


class SmtpMailer:
    """One connection a message (the hall sends a few a minute at most)."""

    def __init__(self, settings: SmtpSettings, sender: str = DEFAULT_FROM) -> None:
        self.settings = settings
        self.sender = sender

    async def send(self, message: EmailMessage) -> None:
        s = self.settings
        if "From" not in message:
            message["From"] = self.sender
        await aiosmtplib.send(
            message,
            hostname=s.host,
            port=s.port,
            username=s.user,
            password=s.password,
            use_tls=s.tls,
            start_tls=s.starttls,
            timeout=s.timeout,
        )


class LogMailer:
    """No SMTP server set: each message goes to the log instead (and is kept in ``sent``,
    the last few, for whoever runs the hall by hand)."""

    def __init__(self, sender: str = DEFAULT_FROM) -> None:
        self.sender = sender
        self.sent: list[EmailMessage] = []

    async def send(self, message: EmailMessage) -> None:
        if "From" not in message:
            message["From"] = self.sender
        body = message.get_body(("plain",))
        text = body.get_content() if body is not None else ""
        log.info(
            "e-mail not sent (no TAPETE_SMTP_URL): to %s, subject %r\n%s",
            message["To"],
            message["Subject"],
            text,
        )
        self.sent = [*self.sent[-19:], message]


def mailer(url: str | None, sender: str | None) -> Mailer:
    """The mailer the settings ask for."""
    if url:
        return SmtpMailer(SmtpSettings.parse(url), sender or DEFAULT_FROM)
    return LogMailer(sender or DEFAULT_FROM)
