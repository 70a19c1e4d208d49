"""Credentials a platform module needs, kept in the OS keychain (keyring) and nowhere else.

A credential is never an argument, never in /data and never in the model's context: the
registry refuses arguments and results that contain one of the module's stored secrets.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import keyring
from keyring.errors import PasswordDeleteError

from studio.concurrency import off_loop

SERVICE_PREFIX = "proto-studio.platform."


class ModuleCredentials:
    """The keychain entries of one module (`service = proto-studio.platform.<module>`)."""

    def __init__(self, module: str, names: Iterable[str] = ()):
        self.module = module
        self.names = tuple(names)
        self.service = SERVICE_PREFIX + module

    # keyring talks to the OS keychain (D-Bus, Keychain, Credential Manager): blocking calls,
    # so the async API runs them off the event loop.
    async def get(self, name: str) -> str | None:
        return await off_loop(keyring.get_password, self.service, name)

    async def set(self, name: str, secret: str) -> None:
        await off_loop(keyring.set_password, self.service, name, secret)

    async def delete(self, name: str) -> None:
        try:
            await off_loop(keyring.delete_password, self.service, name)
        except PasswordDeleteError:
            pass

    async def secrets(self) -> list[str]:
        """Every stored secret of the declared names (to check that none leaks)."""
        values = [await self.get(name) for name in self.names]
        return [v for v in values if v]


def strings_in(value: Any) -> Iterator[str]:
    """Every string (keys included) anywhere in a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from strings_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings_in(item)


def carries_secret(value: Any, secrets: Iterable[str]) -> bool:
    """True when any string in `value` contains one of `secrets`."""
    found = [s for s in secrets if s]
    return bool(found) and any(s in text for text in strings_in(value) for s in found)
