"""What the documents say of the code's constants is what the code holds: a number written in
a doc is read back from it and compared with the constant it names."""

from __future__ import annotations

import re
from pathlib import Path

from tapete.rooms.stream import HISTORY

DOCS = Path(__file__).parent.parent / "docs"


def test_the_protocol_names_the_moves_a_room_keeps_as_the_code_does() -> None:
    text = " ".join((DOCS / "protocol.md").read_text().split())
    said = re.findall(r"the room keeps the last (\d+) moves", text)
    assert said, "docs/protocol.md no longer says how many moves a room keeps for `missed`"
    assert {int(n) for n in said} == {HISTORY}


def test_the_architecture_names_the_moves_a_room_keeps_as_the_code_does() -> None:
    text = " ".join((DOCS / "architecture.md").read_text().split())
    said = re.findall(r"a room keeps its last (\d+) moves", text)
    assert said and {int(n) for n in said} == {HISTORY}
