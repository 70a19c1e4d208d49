"""What a platform module is: its calls (typed args, result shape, flags), events and permissions."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from studio.platform.credentials import ModuleCredentials

JSON = dict[str, Any]


class PlatformError(Exception):
    """A call failed in a way the user should read: one line, naming the call and the cause."""


class PlatformCancelled(PlatformError):
    """The user cancelled the call midway (e.g. closed the share file picker): the host answers
    `cancelled`, and nothing happened."""


@dataclass
class CallContext:
    """What a call may know about who runs it. `prototype_id` is the host's id of the open
    prototype (never read from the spec); `audit` collects metadata the module reports about the
    call (e.g. `{"op": "copy", "bytes": 12}`, never the text itself)."""

    prototype_id: str = ""
    audit: dict[str, Any] = field(default_factory=dict)
    #: Set by the host once the user allowed this call: the registry refuses a sensitive or
    #: side-effecting call without it, so no code path can skip the consent broker by mistake.
    approved_call: str | None = None
    #: Set by the registry to the running module's keychain entries (None if it declares none).
    credentials: ModuleCredentials | None = None


Handler = Callable[[JSON, CallContext], Awaitable[Any]]
#: Raises one event with its payload (the host checks it against the event's schema).
Emit = Callable[[JSON], None]
#: Waits that many seconds (`asyncio.sleep`, or a test's fake).
Sleep = Callable[[float], Awaitable[None]]
#: Raises an event while enabled: `source(emit, sleep)` runs as a host task until cancelled.
EventSource = Callable[[Emit, Sleep], Awaitable[None]]


@dataclass(frozen=True)
class ResultLink:
    """A link from a call's result to another call (Pocket's ToolResultAction, seed 004 §5.2):
    the generated result view offers a button that opens `call`'s form with `args` set, each
    linked argument name mapped to a JSON pointer into this call's result ("" is the whole
    result). Checked against both schemas when the registry is built."""

    call: str
    label: str
    args: Mapping[str, str]


@dataclass(frozen=True)
class PlatformCall:
    """One operation of a module. `args` is a JSON Schema (draft 2020-12, an object schema with
    `additionalProperties: false`), `result` the JSON Schema of what the call writes to `into`.
    `sensitive` (reads private data) and `side_effect` (writes, sends or spends) calls always go
    through the consent broker."""

    name: str
    description: str
    args: JSON
    result: JSON
    handler: Handler
    sensitive: bool = False
    side_effect: bool = False
    #: Seconds the host lets the call run (longer for calls that wait on the user, e.g. a picker).
    timeout: float = 10.0
    #: What the call will do, in plain words, as the consent dialog says it after "This
    #: prototype" (e.g. "will put this text on your clipboard"). Required for calls that ask.
    consent: str = ""
    #: Arguments whose values are secrets (a PIN, a token): the consent dialog masks them until
    #: the user reveals them. Only the module says so, never the spec.
    secret_args: frozenset[str] = frozenset()
    #: Links from this call's result to other calls, with arguments filled from the result.
    links: tuple[ResultLink, ...] = ()


@dataclass(frozen=True)
class PlatformEvent:
    """An event a module may raise into a prototype (e.g. `test.tick`), with its payload schema."""

    name: str
    description: str
    payload: JSON
    #: What raises it on its own while the prototype runs (e.g. a timer), or None when only
    #: the host raises it (`PlatformHost.emit_event`).
    source: EventSource | None = None


@dataclass(frozen=True)
class PlatformModule:
    """A module: calls, events, and the permissions it needs on a device (none for most)."""

    name: str
    description: str
    calls: Mapping[str, PlatformCall]
    events: Mapping[str, PlatformEvent] = field(default_factory=dict)
    permissions: tuple[str, ...] = ()
    #: Names of the keychain entries the module reads (see `studio.platform.credentials`).
    credentials: tuple[str, ...] = ()
    version: int = 1

    @property
    def capability(self) -> str:
        """The capability a target advertises when it has this module (decision 2)."""
        return f"prototype_platform_{self.name}_v{self.version}"


def object_schema(
    properties: Mapping[str, JSON], required: list[str] | None = None, **extra: Any
) -> JSON:
    """A strict object schema (`additionalProperties: false`); `required` defaults to every property."""
    schema: JSON = {
        "type": "object",
        "properties": dict(properties),
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
    }
    schema.update(extra)
    return schema


#: Text that holds a decimal number ("12", "-0.5", "1e3"), what a textField bound to a number holds.
NUMERIC_TEXT = r"^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$"


def numeric(description: str, **extra: Any) -> JSON:
    """A number argument that also accepts numeric text: form fields (textField) hold strings,
    and the registry turns such text into a number before the call runs."""
    return {
        "type": ["number", "string"],
        "pattern": NUMERIC_TEXT,
        "description": description,
        **extra,
    }
