"""The shop over HTTP: cosmetics bought with the daily coins, and worn.

- ``GET /tienda`` → the page; ``GET /api/tienda`` → ``{"coins", "slots": [...]}``;
- ``POST /api/tienda/comprar`` ``{"item"}`` → ``200 {"coins", "owned"}``; ``404``
  ``unknown_item``; ``409`` ``owned_already`` or ``not_enough_coins`` (nothing paid);
- ``POST /api/tienda/equipar`` ``{"item"}`` → ``200 {"equipped"}``; ``404``; ``409``
  ``not_owned``.

Errors are ``{"error": code, "message": text in the player's language}``.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tapete.cosmetics import ITEMS, SLOTS, Item, worn
from tapete.i18n import N_, SHARED, text
from tapete.i18n.errors import describe
from tapete.server.account.account import PAGE_STRINGS, AccountApi, Refused
from tapete.server.pages.render import lang_of
from tapete.server.state import guest_of
from tapete.store.accounts import Account

MESSAGES = {
    "unknown_item": N_("Eso no está en la tienda."),
    "owned_already": N_("Ya tienes «{item}»."),
    "not_enough_coins": N_("Te faltan {missing} monedas para «{item}»."),
    "not_owned": N_("Primero hay que comprar «{item}»."),
}


def owns(account: Account, item: Item) -> bool:
    return item.price == 0 or item.key in account.owned


class Shop:
    def __init__(self, accounts: AccountApi) -> None:
        self.api = accounts
        self.hall = accounts.hall
        self.pages = accounts.pages

    def refusal(self, code: str, lang: str, status: int, **params: Any) -> JSONResponse:
        words = describe(code, lang, SHARED, MESSAGES, **params)
        return JSONResponse({"error": code, "message": words, **params}, status_code=status)

    def catalog(self, account: Account, lang: str) -> dict[str, Any]:
        wearing = worn(account.equipped)
        return {
            "coins": account.coins,
            "slots": [
                {
                    "slot": slot,
                    "title": text(SHARED, lang, title),
                    "items": [
                        {
                            "key": i.key,
                            "name": text(SHARED, lang, i.name),
                            "price": i.price,
                            "owned": owns(account, i),
                            "equipped": wearing[slot] == i.key,
                        }
                        for i in ITEMS.values()
                        if i.slot == slot
                    ],
                }
                for slot, title in SLOTS.items()
            ],
        }

    async def _item(self, request: Request) -> Item | None:
        try:
            body = await self.api.read_body(request)
        except Refused:  # (not JSON: no item)
            return None
        key = body.get("item")
        return ITEMS.get(key) if isinstance(key, str) else None

    async def page(self, request: Request) -> Response:
        guest, lang = guest_of(request), lang_of(request)
        assert guest is not None
        account = await self.api.account_of(guest)
        return self.pages.render(
            request,
            "shop.html",
            shop=self.catalog(account, lang),
            me=self.api.summary(account),
            strings={k: text(SHARED, lang, v) for k, v in PAGE_STRINGS.items()},
        )

    async def get(self, request: Request) -> Response:
        guest = guest_of(request)
        assert guest is not None
        account = await self.api.account_of(guest)
        return JSONResponse(self.catalog(account, lang_of(request)))

    async def buy(self, request: Request) -> Response:
        guest, lang = guest_of(request), lang_of(request)
        assert guest is not None
        item = await self._item(request)
        if item is None:
            return self.refusal("unknown_item", lang, 404)
        name = text(SHARED, lang, item.name)
        account = await self.api.account_of(guest)
        if owns(account, item):
            return self.refusal("owned_already", lang, 409, item=name)
        done = await self.api.accounts.buy(guest, item.key, item.price, self.api.now())
        if done != "ok":
            if done == "owned":
                return self.refusal("owned_already", lang, 409, item=name)
            now = await self.api.account_of(guest)
            return self.refusal(
                "not_enough_coins", lang, 409, item=name, missing=item.price - now.coins
            )
        account = await self.api.account_of(guest)
        return JSONResponse({"coins": account.coins, "owned": account.owned})

    async def equip(self, request: Request) -> Response:
        guest, lang = guest_of(request), lang_of(request)
        assert guest is not None
        item = await self._item(request)
        if item is None:
            return self.refusal("unknown_item", lang, 404)
        account = await self.api.account_of(guest)
        if not owns(account, item):
            return self.refusal("not_owned", lang, 409, item=text(SHARED, lang, item.name))
        await self.api.accounts.equip(guest, item.slot, item.key)
        account = await self.api.account_of(guest)
        return JSONResponse({"equipped": worn(account.equipped), "coins": account.coins})
