"""Errors of the library, each one line that names the place (entry, file, bundle entry, spec path)."""

from __future__ import annotations


class LibraryError(Exception):
    """A library operation was refused; nothing was written."""


class EntryNotFound(LibraryError, KeyError):
    """No prototype with this id in the library (or in its trash, for `restore`)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "no such prototype"


class InvalidSpec(LibraryError):
    """A spec the validator refused: `path` (`root.children[0].stateKey`, `$`) and `message`."""

    def __init__(self, where: str, path: str, message: str):
        super().__init__(f"{where}: {path}: {message}" if where else f"{path}: {message}")
        self.where = where
        self.path = path
        self.message = message


class BundleError(LibraryError):
    """A `.protobundle` refused by the strict reader (or that could not be written)."""


class UnstorableText(LibraryError, ValueError):
    """A value the library cannot write as UTF-8 JSON (a lone surrogate, NaN, too deep), at
    `path` (`root.children[0].text`, `$`). Also a ValueError, as `json.dumps` raises."""

    def __init__(self, message: str, path: str = "$"):
        super().__init__(message)
        self.path = path


class NotEnoughSpace(LibraryError):
    """The disk (or the user's quota) is full: nothing was changed."""


class LibraryBusy(LibraryError):
    """Another process holds the library's lock (it is writing library.json) for too long."""

    def __init__(self, message: str, pid: int | None = None):
        super().__init__(message)
        self.pid = pid
