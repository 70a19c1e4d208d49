"""Errors of the spec core, each one line that names the place."""

from __future__ import annotations


class SpecError(ValueError):
    """A spec was rejected: `path` in AutoMobile's syntax (`root.children[0].stateKey`, `$`)."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


class SpecInputError(ValueError):
    """Input that is not a spec at all (unreadable file, not JSON, too large...), one line."""
