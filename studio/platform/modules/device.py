"""The `device` module: `device.info`, read-only facts about the host and a connected phone."""

from __future__ import annotations

import os
import platform
from typing import Any, Protocol

from studio.platform.module import JSON, CallContext, PlatformCall, PlatformError, PlatformModule
from studio.platform.module import object_schema as obj


class DeviceInfoSource(Protocol):
    """A connected phone's state (the device helper provides one): `None` when no phone is
    connected, else `{"model", "batteryPercent", "charging", "connectivity"}`."""

    async def phone_info(self) -> dict[str, Any] | None: ...


def _memory_bytes() -> int | None:
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):  # not POSIX (Windows), or not reported
        return None


def host_info() -> dict[str, Any]:
    """The host's OS, CPU and memory, from the standard library only."""
    return {
        "os": platform.system() or "unknown",
        "release": platform.release() or "unknown",
        "machine": platform.machine() or "unknown",
        "cpus": os.cpu_count() or 1,
        "memoryBytes": _memory_bytes(),
    }


PHONE_SCHEMA: JSON = obj(
    {
        "model": {"type": "string", "description": "Model"},
        "batteryPercent": {
            "type": ["integer", "null"],
            "minimum": 0,
            "maximum": 100,
            "description": "Battery",
        },
        "charging": {"type": ["boolean", "null"], "description": "Charging"},
        "connectivity": {
            "type": "string",
            "enum": ["wifi", "cellular", "ethernet", "none", "unknown"],
            "description": "Connectivity",
        },
    }
)


def module(source: DeviceInfoSource | None) -> PlatformModule:
    async def info(args: JSON, context: CallContext) -> Any:
        phone = None
        if source is not None:
            try:
                phone = await source.phone_info()
            except PlatformError:
                raise
            except Exception as exc:  # a device that went away mid-call is a clean error
                raise PlatformError(f"device.info: cannot read the phone: {exc}") from exc
        return {"host": host_info(), "phone": phone}

    call = PlatformCall(
        name="info",
        description="Read-only: the host's OS, CPU and memory, and a connected phone's battery "
        "and connectivity (phone is null when none is connected).",
        args=obj({}),
        result=obj(
            {
                "host": obj(
                    {
                        "os": {"type": "string", "description": "OS"},
                        "release": {"type": "string", "description": "Release"},
                        "machine": {"type": "string", "description": "CPU"},
                        "cpus": {"type": "integer", "description": "CPU cores"},
                        "memoryBytes": {"type": ["integer", "null"], "description": "Memory"},
                    }
                ),
                "phone": {"anyOf": [{"type": "null"}, PHONE_SCHEMA]},
            }
        ),
        handler=info,
    )
    return PlatformModule(
        name="device", description="Read-only device state.", calls={"info": call}
    )
