"""API keys: from the OS keychain (service "proto-studio") or env PROTO_STUDIO_API_KEY.

Without a usable keychain the key is kept for this session only, with a clear warning. Every key
read here is registered with the global masker, so it never reaches a log, trace or snapshot.
The keychain can block (a locked keyring, a D-Bus round trip), so the event loop (the studio's GUI
thread) uses `aget`/`aset`/`adelete`, which run the keyring call in a worker thread; `get`/`set`/
`delete` are for the CLI and scripts.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal

import keyring
import keyring.errors

from studio.agent.trace import GLOBAL_MASKER, Masker
from studio.concurrency import off_loop  # a private thread pool (not asyncio.to_thread)

SERVICE = "proto-studio"
ENV = "PROTO_STUDIO_API_KEY"
Source = Literal["env", "session", "keychain"]


@dataclass(frozen=True)
class KeyLookup:
    """A key and where it came from; `no_keychain` when the OS keychain could not be used
    (`warning` says why in one line, with what to do instead)."""

    key: str | None
    source: Source | None
    warning: str | None = None
    no_keychain: bool = False

    def __repr__(self) -> str:  # never shows the key
        return (
            f"KeyLookup(source={self.source!r}, warning={self.warning!r}, "
            f"no_keychain={self.no_keychain!r})"
        )


class KeyStore:
    """Reads and stores API keys per account (a provider profile name or host)."""

    def __init__(self, masker: Masker = GLOBAL_MASKER) -> None:
        self._session: dict[str, str] = {}
        self._masker = masker

    # -- blocking (CLI, scripts) ------------------------------------------------------------

    def get(self, account: str) -> KeyLookup:
        """The env var wins (explicit for this process), then a session key, then the keychain."""
        known = self._without_keychain(account)
        if known is not None:
            return known
        try:
            key = keyring.get_password(SERVICE, account)
        except keyring.errors.KeyringError as exc:
            return KeyLookup(None, None, _no_keychain(exc), no_keychain=True)
        return self._from_keychain(key)

    def set(self, account: str, key: str) -> KeyLookup:
        """Store in the keychain; without one, keep it for this session and say so."""
        self._masker.add(key)
        try:
            keyring.set_password(SERVICE, account, key)
        except keyring.errors.KeyringError as exc:
            return self._session_only(account, key, exc)
        return self._stored(account, key)

    def delete(self, account: str) -> None:
        self._session.pop(account, None)
        try:
            keyring.delete_password(SERVICE, account)
        except keyring.errors.KeyringError:
            pass  # nothing stored, or no keychain: either way no key is left

    # -- for the event loop: the keyring call runs in a worker thread -----------------------

    async def aget(self, account: str) -> KeyLookup:
        """`get` without blocking the event loop."""
        known = self._without_keychain(account)
        if known is not None:
            return known
        try:
            key = await off_loop(keyring.get_password, SERVICE, account)
        except keyring.errors.KeyringError as exc:
            return KeyLookup(None, None, _no_keychain(exc), no_keychain=True)
        return self._from_keychain(key)

    async def aset(self, account: str, key: str) -> KeyLookup:
        """`set` without blocking the event loop."""
        self._masker.add(key)
        try:
            await off_loop(keyring.set_password, SERVICE, account, key)
        except keyring.errors.KeyringError as exc:
            return self._session_only(account, key, exc)
        return self._stored(account, key)

    async def adelete(self, account: str) -> None:
        """`delete` without blocking the event loop."""
        self._session.pop(account, None)
        try:
            await off_loop(keyring.delete_password, SERVICE, account)
        except keyring.errors.KeyringError:
            pass  # nothing stored, or no keychain: either way no key is left

    # -- shared steps -----------------------------------------------------------------------

    def _without_keychain(self, account: str) -> KeyLookup | None:
        env = os.environ.get(ENV)
        if env:
            self._masker.add(env)
            return KeyLookup(env, "env")
        if account in self._session:
            return KeyLookup(self._session[account], "session")
        return None

    def _from_keychain(self, key: str | None) -> KeyLookup:
        if key:
            self._masker.add(key)
            return KeyLookup(key, "keychain")
        return KeyLookup(None, None)

    def _session_only(self, account: str, key: str, exc: Exception) -> KeyLookup:
        self._session[account] = key
        return KeyLookup(key, "session", _no_keychain(exc), no_keychain=True)

    def keep_for_session(self, account: str, key: str) -> KeyLookup:
        """Keep `key` in memory until the studio quits (where there is no OS keychain)."""
        self._masker.add(key)
        self._session[account] = key
        return KeyLookup(key, "session")

    def forget_session(self, account: str) -> None:
        """Drop a key kept for this session (the keychain is not touched)."""
        self._session.pop(account, None)

    def _stored(self, account: str, key: str) -> KeyLookup:
        self._session.pop(account, None)
        return KeyLookup(key, "keychain")


def _no_keychain(exc: Exception) -> str:
    """One line: why the keychain cannot be used and what to do instead (the backend's own
    message is long and names Python packages; it is left out)."""
    if isinstance(exc, keyring.errors.NoKeyringError):
        why = "no Secret Service or other keychain is running"
    elif isinstance(exc, keyring.errors.KeyringLocked):
        why = "the keychain is locked"
    else:
        detail = " ".join(str(exc).split())
        why = f"{type(exc).__name__}: {detail[:80]}" if detail else type(exc).__name__
    return (
        f"No usable OS keychain ({why}): the API key can be kept for this session only, or set "
        f"{ENV} before starting the studio."
    )
