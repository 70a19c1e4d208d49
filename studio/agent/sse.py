"""Server-sent events parsing over an async byte stream (the framing quirks model servers show).

Hand-written rather than httpx-sse: we need `data:` with or without a space, CRLF, `:` keep-alive
comments, JSON split across reads and no event on a bare blank line, a bound on one line's length,
and it must be fast for 100k chunks (one `split` per network read instead of per-character
decoding; a line longer than one read is collected in parts and joined once, never re-copied).
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator
from dataclasses import dataclass

MAX_LINE = 8 * 1024 * 1024
"""The longest SSE line accepted (a whole patch of a 1 MiB spec fits many times over)."""


class SSELineTooLong(ValueError):
    """A line passed `max_line` bytes without a newline."""


@dataclass(frozen=True, slots=True)
class SSEMessage:
    event: str | None
    data: str


def _message(event: bytes | None, data: list[bytes]) -> SSEMessage:
    raw = data[0] if len(data) == 1 else b"\n".join(data)
    return SSEMessage(
        event.decode("utf-8", "replace") if event else None, raw.decode("utf-8", "replace")
    )


async def iter_sse(
    chunks: AsyncIterable[bytes], max_line: int = MAX_LINE
) -> AsyncIterator[SSEMessage]:
    """Yield one SSEMessage per dispatched event (data lines joined with "\\n")."""
    parts: list[bytes] = []  # an unfinished line, in the pieces it arrived in
    size = 0
    data: list[bytes] = []
    event: bytes | None = None
    async for chunk in chunks:
        if b"\n" not in chunk:
            if chunk:
                parts.append(chunk)
                size += len(chunk)
                if size > max_line:
                    raise SSELineTooLong(f"an event-stream line passed {max_line} bytes")
            continue
        if parts:
            parts.append(chunk)
            chunk = b"".join(parts)
            parts = []
        lines = chunk.split(b"\n")
        last = lines.pop()
        if last:
            parts.append(last)
        size = len(last)
        for line in lines:
            if line.endswith(b"\r"):
                line = line[:-1]
            if not line:
                if data:
                    yield _message(event, data)
                    data = []
                    event = None
                continue
            if line[0] == 58:  # ":" comment / keep-alive
                continue
            if len(line) > max_line:
                raise SSELineTooLong(f"an event-stream line passed {max_line} bytes")
            name, _, value = line.partition(b":")
            if value[:1] == b" ":
                value = value[1:]
            if name == b"data":
                data.append(value)
            elif name == b"event":
                event = value
    pending = b"".join(parts)
    if pending.endswith(b"\r"):
        pending = pending[:-1]
    if pending and pending[0] != 58:
        name, _, value = pending.partition(b":")
        if name == b"data":
            data.append(value[1:] if value[:1] == b" " else value)
    if data:
        yield _message(event, data)
