"""Incremental revalidation of a one-node replace on an already valid spec.

`CachedValidation(spec)` validates once and keeps what the global rules need (node, image and
byte totals, pager ids and references) from that one walk. `replace(path, node)` then walks
only the new subtree and re-checks the global rules from those totals. Whenever the fast path
cannot prove the patched spec valid (an error, repeats or components involved, a limit reached),
it runs a full `validate` of the patched spec, so the answer is always exactly what a full
validation gives.
"""

from __future__ import annotations

from typing import Any

from studio.spec import rules as R
from studio.spec import tree
from studio.spec.coderules import Pagers, state_type_errors
from studio.spec.extensions import PlatformCatalog
from studio.spec.platform_rules import platform_errors
from studio.spec.size import NotJSON, measure
from studio.spec.structure import Ctx, UseNode, node_check
from studio.spec.tree import replace_node
from studio.spec.validator import VALID, ValidationResult, check, validate

__all__ = ["CachedValidation", "validate_replace", "validate_replaced"]

Raw = dict[str, Any]


def _js_bytes(value: Any) -> int | None:
    """UTF-8 bytes of `JSON.stringify(value)` (exact); None when it is not JSON, or holds a lone
    surrogate, which a full validation reports."""
    try:
        size = measure(value, exact=True)
    except NotJSON:
        return None
    return None if size.lone else size.bytes


def _no_path(kind: str, index: int) -> str:
    return ""


class CachedValidation:
    """A validated spec and the totals a one-node replace is checked against."""

    def __init__(self, spec: Raw, *, catalog: PlatformCatalog | None = None) -> None:
        self.spec = spec
        self.catalog = catalog
        checked = check(spec, catalog=catalog)
        self.result = checked.result
        self._fast = False
        ctx = checked.ctx
        if not self.result.ok or "components" in spec or ctx is None or checked.size is None:
            return
        if ctx.repeats or ctx.templated:
            return  # repeat templates bind across nodes: always revalidate fully
        self._fast = True
        self.nodes = len(ctx.nodes)
        self.images = ctx.images
        self.bytes = checked.size
        self.pagers = Pagers.of(ctx)

    @property
    def incremental(self) -> bool:
        """True when replaces are checked incrementally (a valid spec without repeat templates
        or components); otherwise each replace is a full validation."""
        return self._fast

    def replace(self, path: str, node: Raw) -> ValidationResult:
        """Exactly `validate(spec with the node at path replaced by node)`; ValueError when
        `path` does not address a node of the spec."""
        patched, _ = replace_node(self.spec, path, node)
        return self.check(patched, path)

    def check(self, patched: Raw, path: str) -> ValidationResult:
        """Exactly `validate(patched)`, for `patched` made from this spec by replacing the
        node at `path` (as `tree.replace_node` does). The object checked is `patched` itself,
        the one the caller keeps; when it differs from the spec anywhere else, or `path` names
        no node, it is validated in full."""
        old, node = tree.node_at(self.spec, path), tree.node_at(patched, path)
        if (
            self._fast
            and old is not None
            and node is not None
            and _only_at(self.spec, patched, path)
            and self._fast_ok(patched, path.count("."), old, node)
        ):
            return VALID
        return validate(patched, catalog=self.catalog)

    def _fast_ok(self, patched: Raw, depth: int, old: Raw, node: Raw) -> bool:
        check_node = node_check("quick")  # valid or not is all that counts; doubt revalidates
        new = Ctx()
        try:
            if not check_node(node, new, depth):
                return False
        except UseNode:
            return False
        if new.repeats or new.templated:
            return False
        before = Ctx()
        check_node(old, before, depth)
        if self.nodes - len(before.nodes) + len(new.nodes) > R.MAX_NODES:
            return False
        if self.images - before.images + new.images > R.MAX_IMAGES:
            return False
        old_bytes, new_bytes = _js_bytes(old), _js_bytes(node)
        if old_bytes is None or new_bytes is None:
            return False
        if self.bytes - old_bytes + new_bytes > R.MAX_SPEC_BYTES:
            return False
        if not (self.pagers - Pagers.of(before) + Pagers.of(new)).ok:
            return False
        if state_type_errors(patched, new, _no_path, None) is not None:
            return False
        return platform_errors(patched, new.actions, _no_path, self.catalog) is None


def _only_at(spec: Raw, patched: Raw, path: str) -> bool:
    """True when `patched` shares every object with `spec` except along `path` (what
    `tree.replace_node` builds): one look at each ancestor's fields, no walk."""
    old: Any = spec
    new: Any = patched
    steps: list[tree.Step | None] = [None, *tree.path_steps(path)]
    for depth, step in enumerate(steps):
        key = "root" if step is None else ("child" if step == "child" else "children")
        if type(old) is not dict or type(new) is not dict or old.keys() != new.keys():
            return False
        if any(old[k] is not new[k] for k in old if k != key):
            return False
        old, new = old.get(key), new.get(key)
        if isinstance(step, int):
            if type(old) is not list or type(new) is not list or len(old) != len(new):
                return False
            if any(a is not b for i, (a, b) in enumerate(zip(old, new, strict=True)) if i != step):
                return False
            old, new = old[step], new[step]
        if depth == len(steps) - 1:
            return True
    return True


def _cached(spec: Raw, catalog: PlatformCatalog | None) -> CachedValidation:
    global _LAST
    if _LAST is None or _LAST.spec is not spec or _LAST.catalog is not catalog:
        _LAST = CachedValidation(spec, catalog=catalog)
    return _LAST


def validate_replace(
    spec: Raw, address_path: str, new_node: Raw, *, catalog: PlatformCatalog | None = None
) -> ValidationResult:
    """`validate` of `spec` with one node replaced; reuses a cache of the last spec object seen
    (the spec must not be mutated in between; keep a `CachedValidation` to control this)."""
    return _cached(spec, catalog).replace(address_path, new_node)


def validate_replaced(
    spec: Raw, patched: Raw, path: str, *, catalog: PlatformCatalog | None = None
) -> ValidationResult:
    """`validate(patched)` for a one-node replace of `spec` at `path`, checking the very object
    the caller keeps (see `CachedValidation.check`); the cache is as `validate_replace`'s."""
    return _cached(spec, catalog).check(patched, path)


_LAST: CachedValidation | None = None
