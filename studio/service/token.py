"""The harness server's token: generated once, shown once, kept in the OS keychain.

Not the agent's API key store (`studio.agent.keys`): PROTO_STUDIO_API_KEY must never become the
server's token. Without a usable keychain the token lasts for this run only, and it says so.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import keyring
import keyring.errors

from studio.agent.trace import GLOBAL_MASKER

SERVICE = "proto-studio"
ACCOUNT = "serve-token"


@dataclass(frozen=True)
class Token:
    value: str
    new: bool  # made now: show it (once)
    kept: bool  # in the keychain (False: this run only)
    warning: str | None = None

    def __repr__(self) -> str:  # never shows the token
        return f"Token(new={self.new}, kept={self.kept})"


def server_token(*, renew: bool = False) -> Token:
    """The stored token, or a new one (also when `renew`). Blocking (the keychain)."""
    if not renew:
        try:
            stored = keyring.get_password(SERVICE, ACCOUNT)
        except keyring.errors.KeyringError:
            stored = None
        if stored:
            GLOBAL_MASKER.add(stored)
            return Token(stored, new=False, kept=True)
    # Hex (192 bits): a urlsafe token starts with '-' one time in 64, and `client --token -x…`
    # then reads as an unknown option.
    value = secrets.token_hex(24)
    GLOBAL_MASKER.add(value)
    try:
        keyring.set_password(SERVICE, ACCOUNT, value)
    except keyring.errors.KeyringError as exc:
        return Token(
            value,
            new=True,
            kept=False,
            warning=f"no usable OS keychain ({type(exc).__name__}); this token lasts for this run only",
        )
    return Token(value, new=True, kept=True)


def stored_token() -> str | None:
    """The token in the keychain, for `proto-studio client` on the same machine (None: none)."""
    try:
        value = keyring.get_password(SERVICE, ACCOUNT)
    except keyring.errors.KeyringError:
        return None
    if value:
        GLOBAL_MASKER.add(value)
    return value or None
