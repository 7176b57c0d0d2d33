"""Text a player types (a name, El Peaje's toll), made safe to show anywhere.

No control characters (C0, DEL, C1: NUL, ESC, …), no bidirectional controls (which would
turn the rest of a line around: U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C) nor other
invisible formatting, except the zero-width joiner inside emoji; any run of white space is
one space; NFC; at most ``limit`` characters.
"""

from __future__ import annotations

import unicodedata

BIDI_CONTROLS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
)
KEEP = frozenset("\u200d")
"""Format characters that stay: the zero-width joiner (👩‍👧)."""


def clean_text(value: str, limit: int) -> str:
    """``value`` as it may be shown; empty if nothing is left.

    >>> clean_text("\\x1bAna\\u202e  Lu\\u0301z\\x00", 24)
    'Ana Lúz'
    """
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", value):
        if ch.isspace():
            out.append(" ")
            continue
        category = unicodedata.category(ch)
        if ch in BIDI_CONTROLS or category in ("Cc", "Cs", "Co", "Cn"):
            continue
        if category == "Cf" and ch not in KEEP:
            continue
        out.append(ch)
    text = " ".join("".join(out).split())
    return unicodedata.normalize("NFC", text)[:limit].strip()
