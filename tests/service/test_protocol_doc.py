"""docs/service.md is the protocol's reference: every client message with each of its fields,
every server event, every error code and the terminal events are on the page, and the page
names no message or event the server does not have."""

from __future__ import annotations

import re
import typing
from pathlib import Path

from studio.service import protocol

DOC = Path(__file__).resolve().parents[2] / "docs" / "service.md"


def _table_rows(text: str, heading: str) -> dict[str, str]:
    section = text.split(heading, 1)[1].split("\n### ", 1)[0]
    rows = re.findall(r"^\| `([a-z_]+)` \|(.*)$", section, flags=re.M)
    return dict(rows)


def test_every_message_and_its_fields_are_documented() -> None:
    rows = _table_rows(DOC.read_text(encoding="utf-8"), "### Client messages")
    assert set(rows) == set(protocol.MESSAGES)
    for kind, fields in protocol.MESSAGES.items():
        for name in fields:
            assert f"`{name}`" in rows[kind], f"{kind}: field {name!r} is not documented"


def test_every_event_and_error_code_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    rows = _table_rows(text, "### Server events")
    assert set(rows) == set(protocol.EVENTS)
    for code in typing.get_args(protocol.ErrorCode):
        assert f"`{code}`" in text.split("### Errors and closing", 1)[1], code
    for end in protocol.TERMINAL:
        assert f"`{end}`" in text.split("A turn:", 1)[1].split("\n\n", 1)[0]
