"""The host side of a `platform` action: check, ask consent, run, and hand the result back.

`PlatformHost.handle(request)` takes a runtime `PlatformRequest` and returns `(status, result)`
for `Runtime.resolve_platform`: `("ok", result)`, `("denied", None)` or `("error", message)`
with a one-line message. A denied call runs nothing.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
from collections.abc import Iterable, Mapping
from typing import Any, Literal, Protocol

from studio.platform.consent import ConsentBroker, ConsentRequest
from studio.platform.module import CallContext, PlatformError
from studio.platform.registry import PlatformRegistry, unknown_call_message

log = logging.getLogger(__name__)

Status = Literal["ok", "denied", "error"]
MAX_AUDIT = 256


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
    ):
        self.registry = registry
        self.broker = broker
        self.prototype_id = prototype_id
        self.max_timeout = max_timeout
        #: What ran: call, status, message, and module metadata (op, bytes); never args or results.
        self.audit: collections.deque[dict[str, Any]] = collections.deque(maxlen=MAX_AUDIT)
        self._tasks: set[asyncio.Task[None]] = set()

    async def handle(self, request: PlatformRequestLike) -> tuple[Status, Any]:
        call = str(request.call)
        context = CallContext(prototype_id=self.prototype_id)
        status: Status
        result: Any
        try:
            status, result = await self._handle(call, request.args, context)
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
        if spec.sensitive or spec.side_effect:
            decision = await self.broker.request(
                ConsentRequest(
                    prototype_id=self.prototype_id,
                    module=module.name,
                    call=call,
                    resolved_args=checked,
                    sensitive=spec.sensitive,
                    side_effect=spec.side_effect,
                )
            )
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
        """Handle `request` and write the outcome into `runtime`."""
        status, result = await self.handle(request)
        runtime.resolve_platform(request, status, result)

    def dispatch(self, runtime: RuntimeLike, requests: Iterable[PlatformRequestLike]) -> None:
        """Start `run` for each request (what `Runtime.run_actions` returned); tasks are kept
        and cancelled by `aclose`."""
        for request in requests:
            task = asyncio.get_running_loop().create_task(self.run(runtime, request))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def drain(self) -> None:
        """Wait for every dispatched call to finish."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def aclose(self) -> None:
        """Cancel every call still running (the prototype was closed)."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _one_line(message: str, limit: int = 300) -> str:
    line = " ".join(message.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
