"""API keys: from the OS keychain (service "proto-studio") or env PROTO_STUDIO_API_KEY.

Without a usable keychain the key is kept for this session only, with a clear warning. Every key
read here is registered with the global masker, so it never reaches a log, trace or snapshot.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal

import keyring
import keyring.errors

from studio.agent.trace import GLOBAL_MASKER, Masker

SERVICE = "proto-studio"
ENV = "PROTO_STUDIO_API_KEY"
Source = Literal["env", "session", "keychain"]


@dataclass(frozen=True)
class KeyLookup:
    key: str | None
    source: Source | None
    warning: str | None = None

    def __repr__(self) -> str:  # never shows the key
        return f"KeyLookup(source={self.source!r}, warning={self.warning!r})"


class KeyStore:
    """Reads and stores API keys per account (a provider profile name or host)."""

    def __init__(self, masker: Masker = GLOBAL_MASKER) -> None:
        self._session: dict[str, str] = {}
        self._masker = masker

    def get(self, account: str) -> KeyLookup:
        """The env var wins (explicit for this process), then a session key, then the keychain."""
        env = os.environ.get(ENV)
        if env:
            self._masker.add(env)
            return KeyLookup(env, "env")
        if account in self._session:
            return KeyLookup(self._session[account], "session")
        try:
            key = keyring.get_password(SERVICE, account)
        except keyring.errors.KeyringError as exc:
            return KeyLookup(None, None, _no_keychain(exc))
        if key:
            self._masker.add(key)
            return KeyLookup(key, "keychain")
        return KeyLookup(None, None)

    def set(self, account: str, key: str) -> KeyLookup:
        """Store in the keychain; without one, keep it for this session and say so."""
        self._masker.add(key)
        try:
            keyring.set_password(SERVICE, account, key)
        except keyring.errors.KeyringError as exc:
            self._session[account] = key
            return KeyLookup(key, "session", _no_keychain(exc))
        self._session.pop(account, None)
        return KeyLookup(key, "keychain")

    def delete(self, account: str) -> None:
        self._session.pop(account, None)
        try:
            keyring.delete_password(SERVICE, account)
        except keyring.errors.KeyringError:
            pass


def _no_keychain(exc: Exception) -> str:
    return (
        f"No usable OS keychain ({type(exc).__name__}: {exc}); the API key is kept for this session "
        f"only. Set {ENV} or install a keychain backend to keep it."
    )
