"""The host side of a `platform` action: check, ask consent, run, and hand the result back.

`PlatformHost.handle(request)` takes a runtime `PlatformRequest` and returns `(status, result)`
for `Runtime.resolve_platform`: `("ok", result)`, `("denied", None)`, `("cancelled", None)` (the
user cancelled midway, e.g. closed the share picker) or `("error", message)` with a one-line
message. A denied call runs nothing. The consent question is built from the registry (what the
call will do, argument labels, secret arguments), never from the spec.

While a consent question is open the prototype is paused: one question at a time (a second
call queues behind it), no other call starts or writes its result, and event sources hold their
next event until the answer (`paused`).

Events go the other way: `emit_event(runtime, "test.tick", payload)` checks the payload against
the event's schema and pushes it with `Runtime.platform_event`; `start_events(runtime)` runs the
event sources of the modules the spec requires (e.g. `test.tick` every N ms). Every task the
host starts is kept by a `studio.concurrency.TaskOwner`; `stop_events` and `aclose` cancel them.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
from collections.abc import Iterable, Mapping
from functools import partial
from typing import Any, Literal, Protocol

from studio.concurrency import TaskOwner
from studio.platform.consent import ConsentBroker, ConsentRequest
from studio.platform.module import (
    JSON,
    CallContext,
    EventSource,
    PlatformCall,
    PlatformCancelled,
    PlatformError,
    Sleep,
)
from studio.platform.registry import PlatformRegistry, unknown_call_message
from studio.platform.requires import required_modules

log = logging.getLogger(__name__)

Status = Literal["ok", "denied", "cancelled", "error"]
MAX_AUDIT = 256
#: Events a source that does not wait between them may raise while the prototype is paused
#: (the oldest go first when more come).
MAX_HELD_EVENTS = 64


class PlatformRequestLike(Protocol):
    """The runtime's `PlatformRequest` as the host reads it."""

    @property
    def call(self) -> str: ...

    @property
    def args(self) -> Mapping[str, Any]: ...

    @property
    def request_id(self) -> str: ...


class RuntimeLike(Protocol):
    def resolve_platform(self, request: Any, status: Status, result: Any = None) -> None: ...


class EventRuntimeLike(Protocol):
    """The runtime as the host's event sources read it (`studio.runtime.Runtime`)."""

    @property
    def spec(self) -> Mapping[str, Any]: ...

    @property
    def active(self) -> bool: ...

    def platform_event(self, module: str, name: str, payload: Any = None) -> None: ...


class _Closed(Exception):
    """The prototype an event source raises into was dismissed: the source stops."""


class PlatformHost:
    """Runs the platform calls of one open prototype. `prototype_id` is the host's id for it
    (the library entry), never taken from the spec, so a spec cannot borrow another's grants."""

    def __init__(
        self,
        registry: PlatformRegistry,
        broker: ConsentBroker,
        *,
        prototype_id: str,
        max_timeout: float = 600.0,
        sleep: Sleep = asyncio.sleep,
    ):
        self.registry = registry
        self.broker = broker
        self.prototype_id = prototype_id
        self.max_timeout = max_timeout
        #: What ran: call, status, message, and module metadata (op, bytes); never args or results.
        self.audit: collections.deque[dict[str, Any]] = collections.deque(maxlen=MAX_AUDIT)
        self._owner = TaskOwner(f"platform host {prototype_id}")
        #: `sleep` for event sources (a test injects a fake clock: no real waiting).
        self._sleep = sleep
        self._event_tasks: dict[str, asyncio.Task[None | None]] = {}
        #: Set while the prototype runs; cleared while a consent question is open.
        self._running = asyncio.Event()
        self._running.set()
        self._asking = asyncio.Lock()
        self._held: collections.deque[tuple[EventRuntimeLike, str, Any]] = collections.deque(
            maxlen=MAX_HELD_EVENTS
        )

    @property
    def paused(self) -> bool:
        """True while a consent question of this prototype is open."""
        return not self._running.is_set()

    async def _until_running(self) -> None:
        await self._running.wait()

    def _resume(self) -> None:
        self._running.set()
        held, self._held = list(self._held), collections.deque(maxlen=MAX_HELD_EVENTS)
        for runtime, key, payload in held:  # in the order they were raised
            if runtime.active:
                self.emit_event(runtime, key, payload)

    async def handle(self, request: PlatformRequestLike) -> tuple[Status, Any]:
        call = str(request.call)
        context = CallContext(prototype_id=self.prototype_id)
        status: Status
        result: Any
        try:
            status, result = await self._handle(call, request.args, context)
        except PlatformCancelled:
            status, result = "cancelled", None
        except PlatformError as exc:
            status, result = "error", _one_line(str(exc))
        except Exception as exc:  # a module bug: the prototype sees a clean error
            log.exception("%s failed", call)
            status, result = "error", _one_line(f"{call}: {type(exc).__name__}: {exc}")
        entry: dict[str, Any] = {"time": time.time(), "call": call, "status": status}
        if status == "error":
            entry["message"] = result
        entry.update(context.audit)
        self.audit.append(entry)
        return status, result

    async def _handle(
        self, call: str, args: Mapping[str, Any], context: CallContext
    ) -> tuple[Status, Any]:
        found = self.registry.lookup(call)
        if found is None:
            raise PlatformError(unknown_call_message(self.registry, call))
        module, spec = found
        checked = self.registry.check_args(call, dict(args))
        await self._until_running()  # queued behind an open question
        if spec.sensitive or spec.side_effect:
            request = _consent_request(self.prototype_id, module.name, call, spec, checked)
            async with self._asking:  # one question at a time; the prototype waits meanwhile
                await self._until_running()
                self._running.clear()
                try:
                    decision = await self.broker.request(request)
                finally:
                    self._resume()
            if not decision.allowed:
                return "denied", None
            context.approved_call = call
        timeout = min(spec.timeout, self.max_timeout)
        try:
            result = await asyncio.wait_for(
                self.registry.execute(call, checked, context=context), timeout
            )
        except TimeoutError as exc:
            raise PlatformError(f"{call}: timed out after {timeout:g} s") from exc
        return "ok", result

    async def run(self, runtime: RuntimeLike, request: PlatformRequestLike) -> None:
        """Handle `request` and write the outcome into `runtime` (never while paused: a call
        that finished during another's question writes after the answer)."""
        status, result = await self.handle(request)
        await self._until_running()
        runtime.resolve_platform(request, status, result)

    def dispatch(self, runtime: RuntimeLike, requests: Iterable[PlatformRequestLike]) -> None:
        """Start `run` for each request (what `Runtime.run_actions` returned); tasks are kept
        and cancelled by `aclose`."""
        for request in requests:
            self._owner.spawn(self.run(runtime, request), label=str(request.call))

    async def drain(self) -> None:
        """Wait for every dispatched call to finish."""
        await self._owner.idle()

    # -- module events ------------------------------------------------------------------------
    def emit_event(self, runtime: EventRuntimeLike, event: str, payload: Any = None) -> None:
        """Push `event` ("module.name", declared by the module) into `runtime`; `PlatformError`
        when the event is unknown or the payload does not fit its schema."""
        checked = self.registry.check_event(event, payload)
        module, _, name = event.partition(".")
        runtime.platform_event(module, name, checked)

    @property
    def running_events(self) -> list[str]:
        """The events whose sources run now, sorted."""
        return sorted(self._event_tasks)

    def start_events(
        self, runtime: EventRuntimeLike, modules: Iterable[str] | None = None
    ) -> list[str]:
        """Start the event sources of `modules` (default: the spec's `requires.platform`) that
        do not run yet; returns the events started. Tasks are kept until `stop_events`/`aclose`;
        a source stops by itself once the prototype is dismissed."""
        names = required_modules(runtime.spec) if modules is None else list(modules)
        started: list[str] = []
        for module_name in names:
            module = self.registry.module(module_name)
            for event in module.events.values() if module else ():
                key = f"{module_name}.{event.name}"
                if event.source is None or key in self._event_tasks:
                    continue
                task = self._owner.spawn(
                    self._run_source(runtime, key, event.source), label=key, track=False
                )
                self._event_tasks[key] = task
                task.add_done_callback(partial(self._source_done, key))
                started.append(key)
        return started

    async def _run_source(self, runtime: EventRuntimeLike, key: str, source: EventSource) -> None:
        def emit(payload: JSON) -> None:
            if not runtime.active:
                raise _Closed
            if self.paused:  # held until the question is answered
                self.registry.check_event(key, payload)
                self._held.append((runtime, key, payload))
                return
            self.emit_event(runtime, key, payload)

        async def sleep(seconds: float) -> None:
            await self._sleep(seconds)
            await self._until_running()  # a paused prototype's clock stops

        try:
            await source(emit, sleep)
        except _Closed:
            pass
        except Exception as exc:  # a module bug ends its source, never the app
            log.exception("%s source failed", key)
            message = str(exc) if isinstance(exc, PlatformError) else f"{key}: {exc!r}"
            self.audit.append(
                {
                    "time": time.time(),
                    "event": key,
                    "status": "error",
                    "message": _one_line(message),
                }
            )

    def _source_done(self, key: str, task: asyncio.Task[None | None]) -> None:
        if self._event_tasks.get(key) is task:
            del self._event_tasks[key]

    async def stop_events(self) -> None:
        """Cancel every running event source and wait until they have stopped."""
        tasks = list(self._event_tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._event_tasks.clear()

    async def aclose(self) -> None:
        """Cancel every call still running and every event source (the prototype was closed)."""
        await self._owner.aclose()
        self._event_tasks.clear()
        self._held.clear()


def _consent_request(
    prototype_id: str, module: str, call: str, spec: PlatformCall, args: JSON
) -> ConsentRequest:
    """The question for `call`: everything in it but the resolved values is the registry's."""
    properties = spec.args.get("properties", {})
    labels = {
        name: str(schema.get("description") or name)
        for name, schema in properties.items()
        if isinstance(schema, Mapping)
    }
    return ConsentRequest(
        prototype_id=prototype_id,
        module=module,
        call=call,
        resolved_args=args,
        sensitive=spec.sensitive,
        side_effect=spec.side_effect,
        what=spec.consent,
        secret_args=frozenset(spec.secret_args),
        labels=labels,
    )


def _one_line(message: str, limit: int = 300) -> str:
    line = " ".join(message.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
