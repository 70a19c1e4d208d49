"""The `clipboard` module: copy, paste and hasText, through a clipboard the host injects.

Text is bounded to 65,536 UTF-8 bytes; a paste longer than that is cut at a character
boundary and reported as `{text, truncated: true}`. Audit metadata holds only the op and the
byte count, never the text.
"""

from __future__ import annotations

from typing import Any, Protocol

from studio.platform.module import JSON, CallContext, PlatformCall, PlatformError, PlatformModule
from studio.platform.module import object_schema as obj

MAX_BYTES = 65_536


class Clipboard(Protocol):
    """The system clipboard as the host sees it (the Qt adapter lives in the UI)."""

    async def set_text(self, text: str, *, sensitive: bool) -> None: ...

    async def text(self) -> str | None: ...


class MemoryClipboard:
    """An in-memory clipboard (tests, headless runs). Keeps the sensitive flag of the last copy."""

    def __init__(self, text: str | None = None):
        self.value = text
        self.sensitive = False

    async def set_text(self, text: str, *, sensitive: bool) -> None:
        self.value = text
        self.sensitive = sensitive

    async def text(self) -> str | None:
        return self.value


def utf8_size(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def truncate_utf8(text: str, limit: int = MAX_BYTES) -> tuple[str, bool]:
    """`text` cut to at most `limit` UTF-8 bytes at a character (Unicode scalar) boundary."""
    raw = text.encode("utf-8", "surrogatepass")
    if len(raw) <= limit:
        return text, False
    # Dropping a partial trailing sequence keeps only whole characters.
    return raw[:limit].decode("utf-8", "ignore"), True


def module(clipboard: Clipboard) -> PlatformModule:
    async def copy(args: JSON, context: CallContext) -> Any:
        text: str = args["text"]
        size = utf8_size(text)
        if size > MAX_BYTES:
            raise PlatformError(f"clipboard.copy: text is {size} bytes, the limit is {MAX_BYTES}")
        await clipboard.set_text(text, sensitive=bool(args.get("sensitive", False)))
        context.audit.update(op="copy", bytes=size)
        return {"copied": True, "bytes": size}

    async def paste(args: JSON, context: CallContext) -> Any:
        current = await clipboard.text()
        text, truncated = truncate_utf8(current or "")
        context.audit.update(op="paste", bytes=utf8_size(text))
        return {"text": text, "truncated": truncated}

    async def has_text(args: JSON, context: CallContext) -> Any:
        present = bool(await clipboard.text())
        context.audit.update(op="hasText", bytes=0)
        return {"hasText": present}

    calls = {
        "copy": PlatformCall(
            name="copy",
            description=f"Copies text to the clipboard (at most {MAX_BYTES} UTF-8 bytes); "
            "`sensitive` hides it from clipboard history where the system supports it.",
            args=obj(
                {
                    "text": {"type": "string", "maxLength": MAX_BYTES, "description": "Text"},
                    "sensitive": {
                        "type": "boolean",
                        "default": False,
                        "description": "Sensitive content",
                    },
                },
                required=["text"],
            ),
            result=obj({"copied": {"type": "boolean"}, "bytes": {"type": "integer"}}),
            handler=copy,
            side_effect=True,
            consent="will put this text on your clipboard",
        ),
        "paste": PlatformCall(
            name="paste",
            description=f"Reads the clipboard text (cut to {MAX_BYTES} UTF-8 bytes).",
            args=obj({}),
            result=obj(
                {
                    "text": {"type": "string", "description": "Text"},
                    "truncated": {"type": "boolean", "description": "Truncated"},
                }
            ),
            handler=paste,
            sensitive=True,
            consent="will read the text on your clipboard",
        ),
        "hasText": PlatformCall(
            name="hasText",
            description="Whether the clipboard holds text (does not read it).",
            args=obj({}),
            result=obj({"hasText": {"type": "boolean", "description": "Has text"}}),
            handler=has_text,
        ),
    }
    return PlatformModule(
        name="clipboard", description="The system clipboard (text only).", calls=calls
    )
