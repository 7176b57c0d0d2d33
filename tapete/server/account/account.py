"""A player's own place over HTTP: the account, an optional e-mail address (linked and
recovered with a six-digit code sent by e-mail), the daily coins.

The contract (outside checks rely on it; extend, don't rename):

- ``GET /api/cuenta`` → ``{"name", "coins", "email_linked", "equipped", ...}``;
- ``POST /api/cuenta/correo`` ``{"email"}`` → ``202``, a code is sent;
  ``POST /api/cuenta/correo/confirmar`` ``{"code"}`` → ``200`` linked, ``400`` wrong,
  ``410`` expired, ``429`` too many tries (and ``409``: the address is another account's);
- ``POST /api/cuenta/recuperar`` ``{"email"}`` → ``202``;
  ``POST /api/cuenta/recuperar/confirmar`` ``{"email", "code"}`` → ``200`` and the cookie of
  the recovered account;
- ``POST /api/monedas/diario`` → ``200 {"coins", "granted", "streak"}``; a second claim the
  same day → ``409`` with the time of the next one (``"next"``).

Errors are ``{"error": code, "message": text in the player's language}``. Asking for a code
to recover an account answers the same whether the address is known or not: a code is kept
(and counted against the address's limit) either way, and mailed only if it is known.
"""

from __future__ import annotations

import asyncio
import functools
import html
import logging
import secrets
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from email.message import EmailMessage
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tapete import public_names
from tapete.accounts import (
    CODE_SECONDS,
    claim_window,
    code_digest,
    local_day,
    new_code,
    normal_email,
    streak_after,
    valid_zone,
    week_strip,
)
from tapete.cosmetics import AVATAR_KEYS, worn
from tapete.i18n import N_, SHARED, text
from tapete.i18n.errors import describe
from tapete.mail import Mailer
from tapete.rooms.private_room import clean_name
from tapete.server.account.guests import guest_cookie
from tapete.server.edge.bodies import read_object
from tapete.server.pages.games import Pages
from tapete.server.pages.render import lang_of
from tapete.server.state import Hall, address_of, guest_of
from tapete.store.accounts import Account, Accounts, Checked

log = logging.getLogger(__name__)

MAIL_GRACE_SECONDS = 1.0
"""On a stop, how long the mails being sent are waited for before they are given up."""

CLIENT_WINDOW = 900.0
"""The window of the per-client limits on codes (``Limits.mail_codes_per_*``), in seconds."""

MESSAGES = {
    "bad_email": N_("Esa dirección de correo no parece válida."),
    "too_many_mails": N_(
        "Hemos enviado varios códigos seguidos a esa dirección: espera unos minutos antes de "
        "pedir otro."
    ),
    "wrong_code": N_("Ese código no es correcto. Revisa el último correo que te enviamos."),
    "code_expired": N_("Ese código ha caducado (duran 10 minutos): pide uno nuevo."),
    "too_many_tries": N_("Demasiados intentos con ese código: pide uno nuevo."),
    "email_taken": N_(
        "Esa dirección ya está vinculada a otra cuenta. Para usar aquella cuenta aquí, "
        "recupérala con «Recuperar mi cuenta»."
    ),
    "claimed_today": N_("Ya has recogido las monedas de hoy: vuelve mañana."),
    "bad_profile": N_("Dato no válido en el perfil: {field}."),
    "confirm_erase": N_("Para borrar la cuenta hay que confirmarlo."),
}
"""The account's refusals → Spanish message ids (the shared ones come from i18n)."""

STATUS = {"wrong": 400, "expired": 410, "too_many": 429}
CHECKED = {"wrong": "wrong_code", "expired": "code_expired", "too_many": "too_many_tries"}

SUBJECT = {
    "link": N_("Tu código de Tapete: {code}"),
    "recover": N_("Recupera tu cuenta de Tapete: {code}"),
}
BODY = {
    "link": N_(
        "Tu código para vincular este correo a tu cuenta de Tapete es {code}. Caduca en "
        "{minutes} minutos."
    ),
    "recover": N_(
        "Tu código para recuperar tu cuenta de Tapete en este navegador es {code}. Caduca en "
        "{minutes} minutos."
    ),
}
NOT_YOU = {
    "link": N_(
        "Si no lo has pedido tú, ignora este correo: sin el código nadie puede vincular tu "
        "dirección."
    ),
    "recover": N_(
        "Si no lo has pedido tú, ignora este correo: sin el código nadie puede entrar en tu cuenta."
    ),
}
GREETING = N_("Hola:")
SIGNATURE = N_("— Tapete")
AVATARS = {
    "sol": N_("Sol"),
    "luna": N_("Luna"),
    "estrella": N_("Estrella"),
    "trebol": N_("Trébol"),
    "corazon": N_("Corazón"),
    "diamante": N_("Diamante"),
    "pica": N_("Pica"),
    "corona": N_("Corona"),
    "ancla": N_("Ancla"),
    "pez": N_("Pez"),
    "gato": N_("Gato"),
    "buho": N_("Búho"),
}
"""Each avatar (:data:`tapete.cosmetics.AVATAR_KEYS`) → its name, for the profile's picker."""
assert tuple(AVATARS) == AVATAR_KEYS


PAGE_STRINGS = {
    "sent": N_(
        "Te hemos enviado un código a {email}. Si no llega en un minuto, mira en la carpeta de "
        "correo no deseado."
    ),
    "network": N_("No hemos podido hablar con el servidor: inténtalo de nuevo."),
}
"""What the profile page's script may have to say itself (the rest comes from the server)."""


class Refused(Exception):
    """A request refused with ``code`` and ``status`` (what :func:`refusing` answers)."""

    def __init__(self, code: str, status: int) -> None:
        super().__init__(code)
        self.code, self.status = code, status


Handler = Callable[[Any, Request], Awaitable[Response]]


def refusing(handler: Handler) -> Handler:
    """The handler, with a :class:`Refused` raised inside it answered as a refusal in the
    player's language."""

    @functools.wraps(handler)
    async def answer(self: Any, request: Request) -> Response:
        try:
            return await handler(self, request)
        except Refused as exc:
            return refusal(exc.code, lang_of(request), exc.status)

    return answer


def refusal(code: str, lang: str, status: int, **params: Any) -> JSONResponse:
    words = describe(code, lang, SHARED, MESSAGES, **params)
    return JSONResponse({"error": code, "message": words}, status_code=status)


def now_utc() -> datetime:
    return datetime.now(UTC)


def code_mail(purpose: str, to: str, code: str, lang: str) -> EmailMessage:
    """The message that carries a code: plain text and HTML, in the player's language."""
    minutes = CODE_SECONDS // 60
    say = {
        k: text(SHARED, lang, v[purpose], code=code, minutes=minutes)
        for k, v in {
            "subject": SUBJECT,
            "body": BODY,
            "not_you": NOT_YOU,
        }.items()
    }
    greeting, signature = text(SHARED, lang, GREETING), text(SHARED, lang, SIGNATURE)
    message = EmailMessage()
    message["To"] = to
    message["Subject"] = say["subject"]
    message.set_content(
        f"{greeting}\n\n{say['body']}\n\n    {code}\n\n{say['not_you']}\n\n{signature}\n"
    )
    e = html.escape
    message.add_alternative(
        f'<!doctype html><html lang="{e(lang)}"><body style="font-family:sans-serif;'
        f'color:#1d2b24">'
        f"<p>{e(greeting)}</p><p>{e(say['body'])}</p>"
        f'<p style="font-size:32px;letter-spacing:6px;font-weight:bold">{e(code)}</p>'
        f"<p>{e(say['not_you'])}</p><p>{e(signature)}</p></body></html>",
        subtype="html",
    )
    message["Content-Language"] = lang  # (after the parts: a Content- header would go down to them)
    return message


class AccountApi:
    def __init__(self, hall: Hall, pages: Pages) -> None:
        self.hall = hall
        self.pages = pages
        limits, counts = hall.limits, hall.counts
        self.by_guest = counts.throttle("mail_guest", limits.mail_codes_per_guest, CLIENT_WINDOW)
        self.by_address = counts.throttle(
            "mail_address", limits.mail_codes_per_address, CLIENT_WINDOW
        )
        self._sending: set[asyncio.Task[None]] = set()
        self.now = now_utc
        """The clock (tests move it)."""

    @property
    def accounts(self) -> Accounts:
        assert self.hall.store is not None
        return self.hall.store.accounts

    @property
    def mailer(self) -> Mailer:
        return self.hall.mailer

    @property
    def secret(self) -> str:
        assert self.hall.secret is not None
        return self.hall.secret

    async def read_body(self, request: Request) -> dict[str, Any]:
        """The request's JSON object (anything else: ``{}``); not JSON: :class:`Refused`."""
        try:
            return await read_object(request, self.hall.limits.json_depth)
        except ValueError:
            raise Refused("bad_json", 400) from None

    @staticmethod
    def email_in(body: dict[str, Any]) -> str:
        """The body's ``email``, normalised; not an address: :class:`Refused`."""
        email = normal_email(body.get("email"))
        if email is None:
            raise Refused("bad_email", 400)
        return email

    async def account_of(self, guest: str) -> Account:
        await self.hall.store_ensure(guest)
        account = await self.accounts.get(guest)
        assert account is not None
        return account

    def summary(self, account: Account) -> dict[str, Any]:
        """What the account page and ``GET /api/cuenta`` show of it."""
        now = self.now()
        opens, _ = window = self.window(account)
        upcoming = streak_after(account.streak, *window, now)
        claimed = upcoming is None
        return {
            "name": account.name,
            "coins": account.coins,
            "email_linked": account.email is not None,
            "email": account.email,
            "avatar": account.avatar,
            "lang": account.lang,
            "tz": account.tz,
            "equipped": worn(account.equipped),
            "owned": account.owned,
            "daily": {
                "claimed_today": claimed,
                "streak": account.streak if upcoming is None else upcoming - 1,
                "next": opens.isoformat() if claimed and opens is not None else None,
                "today": local_day(now, account.tz).isoformat(),
                "week": week_strip(account.streak if upcoming is None else upcoming, claimed),
            },
        }

    @staticmethod
    def window(account: Account) -> tuple[datetime | None, datetime | None]:
        """When the account's next daily claim opens, and until when it continues the
        streak: as its last claim fixed them."""
        return claim_window(
            account.claimed_at, account.daily_opens, account.daily_keeps, account.tz
        )

    # the account

    async def page(self, request: Request) -> Response:
        """``/perfil``: the player's own place."""
        guest, lang = guest_of(request), lang_of(request)
        assert guest is not None
        return self.pages.render(
            request,
            "profile.html",
            me=self.summary(await self.account_of(guest)),
            avatars=list(AVATARS),
            avatar_names={k: text(SHARED, lang, v) for k, v in AVATARS.items()},
            strings={k: text(SHARED, lang, v) for k, v in PAGE_STRINGS.items()},
            public=await self.public_name(guest, lang),
            logros=await self.logros(guest, lang),
        )

    async def logros(self, guest: str, lang: str) -> dict[str, Any]:
        """The profile's line of logros: how many, and the earned ones' icons and titles."""
        every = await self.hall.live.logros.of(guest)
        earned = [
            (x.icon, text(x.domain, lang, x.title))
            for x in every
            if x.progress is not None and x.progress.earned_at is not None
        ]
        return {"earned": earned, "of": len(every)}

    async def public_name(self, guest: str, lang: str) -> dict[str, Any]:
        """The name strangers see and the lists to choose another from, in ``lang``
        (sorted as the language sorts its words)."""
        assert self.hall.store is not None
        chosen = (await self.hall.store.players.public_names([guest]))[guest]
        name = public_names.of(guest, chosen)
        animals = [(k, text(SHARED, lang, v)) for k, v in public_names.ANIMALS.items()]
        adjectives = [(k, text(SHARED, lang, v)) for k, v in public_names.ADJECTIVES.items()]
        return {
            "name": name.words(lang),
            "animal": name.animal,
            "adjective": name.adjective,
            "animals": sorted(animals, key=lambda kv: kv[1]),
            "adjectives": sorted(adjectives, key=lambda kv: kv[1]),
        }

    async def get(self, request: Request) -> Response:
        guest = guest_of(request)
        assert guest is not None
        return JSONResponse(self.summary(await self.account_of(guest)))

    @refusing
    async def set_profile(self, request: Request) -> Response:
        guest, lang = guest_of(request), lang_of(request)
        assert guest is not None
        body = await self.read_body(request)
        changes: dict[str, Any] = {}
        if "name" in body:
            name = clean_name(body["name"])
            if name is None:
                return refusal("bad_profile", lang, 400, field="name")
            changes["name"] = name
        if "avatar" in body:
            if body["avatar"] not in AVATARS:
                return refusal("bad_profile", lang, 400, field="avatar")
            changes["avatar"] = body["avatar"]
        if "lang" in body:
            if body["lang"] not in ("es", "en"):
                return refusal("bad_profile", lang, 400, field="lang")
            changes["lang"] = body["lang"]
        if "tz" in body:
            if not valid_zone(body["tz"]):
                return refusal("bad_profile", lang, 400, field="tz")
            changes["tz"] = body["tz"]
        await self.hall.store_ensure(guest)
        await self.accounts.set_profile(guest, **changes)
        return JSONResponse(self.summary(await self.account_of(guest)))

    # e-mail codes

    async def _client_blocked(self, request: Request) -> bool:
        guest, address = guest_of(request) or "?", address_of(request)
        if await self.by_guest.blocked(guest) or await self.by_address.blocked(address):
            return True
        await self.by_guest.hit(guest)
        await self.by_address.hit(address)
        return False

    async def _issue(
        self, request: Request, purpose: str, email: str, owner: str | None, send: bool
    ) -> Response:
        """Keep a new code for ``email``, asked for by this browser's guest, and mail it
        (``send``), or refuse: too many codes for this address, from this requester or from
        this client. Both ways (``send`` or not) do the same store calls and start the same
        task: the message is built and sent by that task, after the answer, so the answer's
        timing does not say whether the address is known."""
        lang = lang_of(request)
        now = self.now()
        requester = guest_of(request)
        cap = self.hall.limits.mail_codes_per_email
        allowed = await self.accounts.may_send(email, purpose, requester, now, cap)
        if not allowed or await self._client_blocked(request):
            return refusal("too_many_mails", lang, 429)
        code = new_code()
        digest = code_digest(self.secret, purpose, email, code)
        await self.accounts.add_code(purpose, email, owner, digest, now, requester=requester)
        task = asyncio.get_running_loop().create_task(self._mail(purpose, email, code, lang, send))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)
        return JSONResponse({"sent": True, "email": email}, status_code=202)

    async def close(self) -> None:
        """On a stop: the mails being sent get :data:`MAIL_GRACE_SECONDS`, then are given
        up (a mail server that does not answer must not hold the stop)."""
        if not self._sending:
            return
        _, pending = await asyncio.wait(set(self._sending), timeout=MAIL_GRACE_SECONDS)
        for task in pending:
            task.cancel()
        if pending:
            log.warning("stopping: %d code mail(s) not sent", len(pending))
            await asyncio.wait(pending)

    async def _mail(self, purpose: str, to: str, code: str, lang: str, send: bool) -> None:
        """Build the code's message and send it (off the request's path); not ``send`` (an
        unknown address): built the same, and nothing goes out."""
        message = code_mail(purpose, to, code, lang)
        if not send:
            return
        try:
            await self.mailer.send(message)
        except Exception:  # the mail server is down or refused it: said in the log
            log.exception("could not send the code to %s", to)

    @refusing
    async def link(self, request: Request) -> Response:
        guest = guest_of(request)
        assert guest is not None
        body = await self.read_body(request)
        email = self.email_in(body)
        await self.hall.store_ensure(guest)
        return await self._issue(request, "link", email, guest, send=True)

    async def _check(
        self,
        purpose: str,
        code: object,
        *,
        guest: str | None = None,
        email: str | None = None,
        requester: str | None = None,
    ) -> tuple[Checked, str | None]:
        """Try a typed code (six digits, or it is simply wrong) against the live one (of
        ``requester``, when given: a recovery code is for the browser that asked for it)."""
        if not isinstance(code, str) or not code.strip().isdigit():
            return "wrong", None
        return await self.accounts.check_code(
            purpose,
            lambda to: code_digest(self.secret, purpose, to, code),
            self.now(),
            guest=guest,
            email=email,
            requester=requester,
        )

    @refusing
    async def confirm_link(self, request: Request) -> Response:
        guest, lang = guest_of(request), lang_of(request)
        assert guest is not None
        body = await self.read_body(request)
        verdict, email = await self._check("link", body.get("code"), guest=guest)
        if verdict != "ok" or email is None:
            return refusal(CHECKED[verdict], lang, STATUS[verdict])
        if not await self.accounts.link(guest, email):
            return refusal("email_taken", lang, 409)
        return JSONResponse(self.summary(await self.account_of(guest)))

    async def unlink(self, request: Request) -> Response:
        guest = guest_of(request)
        assert guest is not None
        await self.hall.store_ensure(guest)
        await self.accounts.unlink(guest)
        return JSONResponse(self.summary(await self.account_of(guest)))

    @refusing
    async def recover(self, request: Request) -> Response:
        body = await self.read_body(request)
        email = self.email_in(body)
        owner = await self.accounts.by_email(email)
        return await self._issue(request, "recover", email, owner, send=owner is not None)

    @refusing
    async def confirm_recover(self, request: Request) -> Response:
        lang = lang_of(request)
        body = await self.read_body(request)
        email = self.email_in(body)
        verdict, sent_to = await self._check(
            "recover", body.get("code"), email=email, requester=guest_of(request)
        )
        owner = await self.accounts.by_email(sent_to) if sent_to is not None else None
        if verdict != "ok" or owner is None:
            verdict = "wrong" if verdict == "ok" else verdict
            return refusal(CHECKED[verdict], lang, STATUS[verdict])
        guests = self.hall.guests
        assert guests is not None
        response = JSONResponse(self.summary(await self.account_of(owner)))
        secure = request.url.scheme == "https"
        response.headers.append("set-cookie", guest_cookie(guests.sign(owner), secure))
        return response

    # the player's data

    async def export(self, request: Request) -> Response:
        """Everything kept of the player, as a JSON file to download."""
        guest = guest_of(request)
        assert guest is not None
        await self.hall.store_ensure(guest)
        data = await self.accounts.export(guest)
        return JSONResponse(
            data,
            headers={"content-disposition": 'attachment; filename="tapete-mis-datos.json"'},
        )

    @refusing
    async def erase(self, request: Request) -> Response:
        """Delete the account and its data (``{"confirm": true}``); this browser becomes a
        new guest, and so does any other that kept a copy of its cookie (revoked)."""
        guest, lang = guest_of(request), lang_of(request)
        assert guest is not None
        body = await self.read_body(request)
        if body.get("confirm") is not True:
            return refusal("confirm_erase", lang, 400)
        await self.hall.store_ensure(guest)
        await self.accounts.erase(guest, self.now())
        self.hall.revoke(guest)  # (every copy of its cookie, here and on the socket)
        guests = self.hall.guests
        assert guests is not None
        fresh = secrets.token_hex(12)
        response = JSONResponse({"erased": True})
        secure = request.url.scheme == "https"
        response.headers.append("set-cookie", guest_cookie(guests.sign(fresh), secure))
        log.info("account erased at its player's request")
        return response

    # coins

    async def daily(self, request: Request) -> Response:
        guest, lang = guest_of(request), lang_of(request)
        assert guest is not None
        account = await self.account_of(guest)
        claim = await self.accounts.claim_daily(guest, self.now())
        if claim is None:
            account = await self.account_of(guest)  # (as the claim that won fixed it)
            opens, _ = self.window(account)
            assert opens is not None
            body: dict[str, Any] = {
                "error": "claimed_today",
                "message": describe("claimed_today", lang, SHARED, MESSAGES),
                "next": opens.isoformat(),
                "coins": account.coins,
                "streak": account.streak,
            }
            return JSONResponse(body, status_code=409)
        return JSONResponse(
            {"coins": claim.coins, "granted": claim.granted, "streak": claim.streak}
        )
