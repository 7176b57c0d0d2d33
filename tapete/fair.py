"""The commitment to a game's deal (docs/fairness.md): pure functions, no state.

>>> len(commitment("g1", 42, salt("secret", "g1")))
64
>>> commitment("g1", 42, salt("secret", "g1")) == commitment("g1", 43, salt("secret", "g1"))
False
"""

from __future__ import annotations

import hashlib
import hmac


def salt(secret: str, game_id: str) -> str:
    """The game's salt: an HMAC of its id under the hall's secret (nothing to store)."""
    return hmac.new(secret.encode(), f"fair:{game_id}".encode(), hashlib.sha256).hexdigest()


def preimage(game_id: str, seed: int, salted: str) -> str:
    return f"{game_id}:{seed}:{salted}"


def commitment(game_id: str, seed: int, salted: str) -> str:
    """``SHA-256("<game id>:<seed>:<salt>")`` in hex: shown from the game's first view."""
    return hashlib.sha256(preimage(game_id, seed, salted).encode()).hexdigest()
