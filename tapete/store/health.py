"""Whether the database can write: which of its errors mean that nothing can be written now
(a full disk, an I/O error, a database made read-only), and a probe that writes.

The hall counts these (:class:`tapete.server.state.WriteHealth`): ``/salud`` says 503 while
writes fail; an HTTP write that meets one answers ``503 unavailable``, a move ``unavailable``.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, insert

from tapete.store.models import Setting

if TYPE_CHECKING:
    from tapete.store.transactions import Transactions

SQLITE_CANNOT_WRITE = frozenset({8, 10, 13})
"""SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL (the low byte of an extended code)."""
POSTGRES_CANNOT_WRITE = frozenset({"53100", "53200", "58030", "25006"})
"""disk_full, out_of_memory, io_error, read_only_sql_transaction."""


def cannot_write(exc: BaseException) -> bool:
    """Whether ``exc`` (the driver's, or SQLAlchemy's around it) says the database cannot
    write now, rather than that this statement was wrong."""
    for err in (exc, getattr(exc, "orig", None), exc.__cause__):
        if err is None:
            continue
        code: Any = getattr(err, "sqlite_errorcode", None)
        if isinstance(code, int) and code & 0xFF in SQLITE_CANNOT_WRITE:
            return True
        state: Any = getattr(err, "sqlstate", None) or getattr(err, "pgcode", None)
        if isinstance(state, str) and state in POSTGRES_CANNOT_WRITE:
            return True
    return False


async def probe(tx: Transactions) -> None:
    """Write something and take it back, each in a transaction of its own (a row of half a
    kilobyte: enough to need room the database may not have). Raises the database's error
    if it cannot."""
    key = f"probe:{secrets.token_hex(6)}"
    await tx.run(lambda s: s.execute(insert(Setting).values(key=key, value="." * 500)))
    await tx.run(lambda s: s.execute(delete(Setting).where(Setting.key == key)))
