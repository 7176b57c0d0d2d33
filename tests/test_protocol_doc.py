"""docs/protocol.md's tables of what a client sends are the message types themselves
(tapete/rooms/messages.py): made from them, and checked here, so neither can change alone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tapete.rooms import messages

DOC = Path(__file__).resolve().parents[1] / "docs" / "protocol.md"


def generated_blocks(text: str) -> list[str]:
    return re.findall(r"<!-- generated: [^>]+ -->\n(.*?)<!-- end -->", text, flags=re.S)


def test_the_docs_tables_are_the_message_types() -> None:
    blocks = generated_blocks(DOC.read_text())
    assert len(blocks) == 2, "docs/protocol.md lost a generated table's markers"
    assert "\n".join(b.strip("\n") for b in blocks) + "\n" == messages.document().replace(
        "\n\n", "\n"
    ), "docs/protocol.md is stale: paste tapete.rooms.messages.document() into its tables"


def test_every_message_and_action_is_in_the_docs() -> None:
    text = DOC.read_text()
    for tag in messages.TYPES | messages.ACTIONS:
        assert f"| `{tag}` |" in text, tag


def test_a_changed_type_makes_the_docs_stale(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a field the docs do not have is seen."""
    real = messages.document

    def with_a_new_field() -> str:
        return real().replace("`room` (string)", "`room` (string), `secret` (int)")

    monkeypatch.setattr(messages, "document", with_a_new_field)
    blocks = generated_blocks(DOC.read_text())
    assert "\n".join(b.strip("\n") for b in blocks) + "\n" != messages.document().replace(
        "\n\n", "\n"
    )
