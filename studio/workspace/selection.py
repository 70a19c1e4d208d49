"""The selection: an ordered tuple of node addresses with a primary one (a value; Qt-free)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Selection:
    """Selected nodes, in the order they were selected, and the primary one (the inspector's).
    Empty: nothing selected. Addresses are node ids or paths (`studio.spec.address`)."""

    addresses: tuple[str, ...] = ()
    primary: str | None = None

    @classmethod
    def of(cls, *addresses: str, primary: str | None = None) -> Selection:
        unique = tuple(dict.fromkeys(a for a in addresses if a))
        if primary is not None and primary not in unique:
            unique = (*unique, primary)
        return cls(unique, primary if primary is not None else (unique[-1] if unique else None))

    def __bool__(self) -> bool:
        return bool(self.addresses)

    def keep(self, exists: frozenset[str] | set[str]) -> Selection:
        """Only the addresses that still exist (the primary falls back to the last one left)."""
        kept = tuple(a for a in self.addresses if a in exists)
        if kept == self.addresses:
            return self
        primary = self.primary if self.primary in kept else (kept[-1] if kept else None)
        return Selection(kept, primary)

    def renamed(self, old: str, new: str) -> Selection:
        """The selection after the node at `old` became addressed as `new` (its id changed)."""
        if old == new or old not in self.addresses:
            return self
        return Selection.of(
            *(new if a == old else a for a in self.addresses),
            primary=new if self.primary == old else self.primary,
        )
