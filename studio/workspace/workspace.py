"""`Workspace`: the one owner of what the studio shows (the open document, at most one review of
the agent's draft, the shown spec with its changed addresses, the selection), with typed events.

Qt-free and synchronous: the studio's views, and a headless server, subscribe to its events.

The rule for a user edit while a review is open (docs/ownership.md states it too):

- What is shown (the tree, the inspector, the preview) is the draft.
- An edit of a node inside a subtree the draft changed or added is refused with one line
  ("'submit' is part of the agent's draft: apply or discard the draft to edit it").
- Any other edit (another node, state, theme, undo, redo) goes to the document, and the review
  is rebased: the draft's ops are applied again on the new document spec (outside the draft's
  subtrees the paths are the same in both, since replaceNode never moves anything outside its
  own subtree). If they apply, the rebased draft is shown and the review says it was rebased; if
  one does not, the review is stale: the document is shown, the review says why, and it can only
  be re-run or discarded. Every change of what is shown under a review comes with a
  `ReviewChanged` saying why, emitted before the `ShownChanged`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from studio.document import Document, DocumentChange
from studio.library.revisions import Author, Revision
from studio.spec.address import addresses, node_at, resolve
from studio.spec.validator import VALID, ValidationResult
from studio.workspace.diff import json_equal, with_node, within
from studio.workspace.events import (
    DocumentEdited,
    DocumentOpened,
    ReviewChanged,
    ReviewReason,
    SelectionChanged,
    Shown,
    ShownChanged,
    WorkspaceEvent,
)
from studio.workspace.review import DraftOwner, Review, ReviewConflict, rebase
from studio.workspace.selection import Selection

if TYPE_CHECKING:
    from studio.spec.edit import Edit

JSON = dict[str, Any]
Listener = Callable[[WorkspaceEvent], None]

PART_OF_DRAFT = "{address!r} is part of the agent's draft: apply or discard the draft to edit it"
TOUCHES_DRAFT = (
    "this edit of {address!r} would change {inside!r}, which is part of the agent's draft: "
    "apply or discard the draft to edit it"
)


class Workspace:
    """The open `Document`, at most one `Review`, the `Shown` spec and the `Selection`.

    Listeners get every change as a `WorkspaceEvent`, in order, synchronously. User edits go
    through `edit_node`, `apply_ops`, `replace_spec`, `undo` and `redo`; the agent's run driver
    opens and updates the review with `show_draft` and ends it with `apply_review` or
    `discard_review`. Changes made on the document directly are seen too (the workspace listens
    to it), with the same rebase rule."""

    def __init__(self) -> None:
        self._document: Document | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._review: Review | None = None
        self._owner: DraftOwner | None = None
        self._selection = Selection()
        self._shown = Shown({}, "none")
        self._listeners: list[Listener] = []
        self._highlight_next: tuple[str, ...] | None = None
        self._renaming: tuple[str, str] | None = None
        #: A node shown in place of the committed one without a revision (the inspector's live
        #: edit): (its path, the spec shown with it, the spec it was made on).
        self._pending: tuple[str, JSON, JSON] | None = None
        self._shown_pending: str | None = None  # the live edit's path in what is shown

    # -- reading ------------------------------------------------------------------------------
    @property
    def document(self) -> Document | None:
        return self._document

    @property
    def review(self) -> Review | None:
        return self._review

    @property
    def shown(self) -> Shown:
        return self._shown

    @property
    def selection(self) -> Selection:
        return self._selection

    def node(self, address: str) -> JSON | None:
        """The shown node at `address` (an id or a path), or None."""
        try:
            return resolve(self._shown.spec, address)[1]
        except ValueError:
            return None

    def locked(self, address: str) -> str | None:
        """Why the user cannot edit the shown node at `address` now (None: they can)."""
        review = self._showing_review()
        if review is None:
            return None
        try:
            path, _ = resolve(review.spec, address)
        except ValueError:
            return None
        if any(within(path, owner) for owner in review.owned):
            return PART_OF_DRAFT.format(address=address)
        return None

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    # -- the open document --------------------------------------------------------------------
    def open(self, document: Document | None) -> None:
        """Show `document` (None: no prototype). A review of the previous one closes."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._review is not None:
            self._end_review("closed")
        self._document = document
        if document is not None:
            self._unsubscribe = document.subscribe(self._on_document)
        self._emit(DocumentOpened(document))
        self._show(fresh=True)
        self._set_selection(Selection())

    # -- selection ----------------------------------------------------------------------------
    def select(self, *addresses: str, primary: str | None = None) -> None:
        """Select nodes of the shown spec (none: clear); the last one is primary by default."""
        self._set_selection(Selection.of(*addresses, primary=primary))

    # -- user edits -----------------------------------------------------------------------------
    def edit_node(
        self, address: str, node: JSON, *, summary: str, author: Author = "user"
    ) -> Revision:
        """Replace the shown node at `address` with `node`, as a revision of the document.

        Raises `ReviewConflict` (nothing changes) when the edit would change the agent's draft,
        `studio.spec.PatchError` when the result is invalid. While a draft is shown, an edit of
        an ancestor of the draft's subtrees keeps the document's version of those subtrees."""
        path, _ = resolve(self._committed_spec(), address)
        node_id = node.get("id")
        # The selection follows the node when its id (its address) changes.
        self._renaming = (address, node_id if isinstance(node_id, str) and node_id else path)
        try:
            return self._replace(address, path, node, [], summary=summary, author=author)
        finally:
            self._renaming = None

    def apply_edit(self, edit: Edit, *, author: Author = "user") -> Revision:
        """A structural edit (`studio.spec.edit`: insert, delete, move, wrap, paste, ...) of
        the shown spec as one revision; the nodes it names are selected after. Raises
        `ReviewConflict` when it would change the agent's draft, `studio.spec.PatchError`
        (path and message) when the result is invalid; nothing changes then."""
        node_ops = [op for op in edit.ops if op.get("op") == "replaceNode"]
        other = [op for op in edit.ops if op.get("op") != "replaceNode"]
        if len(node_ops) != 1:
            revision = self._require_document().apply_ops(
                list(edit.ops), author=author, summary=edit.summary
            )
        else:
            op = node_ops[0]
            path = str(op["address"])
            revision = self._replace(
                path, path, op["node"], other, summary=edit.summary, author=author
            )
        known = addresses(self._shown.spec)
        chosen = [known[p] for p in edit.select if p in known]
        if chosen:
            self.select(*chosen)
        return revision

    def _replace(
        self,
        address: str,
        path: str,
        node: JSON,
        other_ops: list[JSON],
        *,
        summary: str,
        author: Author,
    ) -> Revision:
        document = self._require_document()
        shown_spec = self._committed_spec()
        shown_node = node_at(shown_spec, path)
        target = node
        review = self._showing_review()
        if review is not None:
            if any(within(path, owner) for owner in review.owned):
                raise ReviewConflict(PART_OF_DRAFT.format(address=address))
            doc_node = node_at(document.spec, path)
            target = _keep_document_parts(
                address,
                path,
                node,
                shown_node,
                doc_node,
                [o for o in review.owned if within(o, path)],
            )
        self._pending = None
        return document.apply_ops(
            [*other_ops, {"op": "replaceNode", "address": path, "node": target}],
            author=author,
            summary=summary,
        )

    # -- a live edit, shown without a revision -------------------------------------------------
    def preview_node(self, address: str, node: JSON) -> ValidationResult:
        """Show `node` in place of the shown node at `address` without making a revision (the
        inspector's live edit while the user types). The result says whether it is valid; an
        invalid node is not shown (what was shown stays). Any revision, undo, redo, selection
        or review change ends it; `edit_node` commits it."""
        from studio.spec.patch import PatchError, apply_patch

        base = self._committed_spec()
        try:
            path, _ = resolve(base, address)
        except ValueError as exc:
            return ValidationResult(False, address, str(getattr(exc, "message", exc)))
        locked = self.locked(address)
        if locked:
            return ValidationResult(False, path, locked)
        try:
            op = {"op": "replaceNode", "address": path, "node": node}
            result = apply_patch(base, [op], root=True)
        except PatchError as exc:
            self.end_preview()
            return ValidationResult(False, exc.path, exc.message)
        self._pending = (path, result.spec, base)
        self._show(known=result.changed, keep_pending=True)
        return VALID

    def end_preview(self) -> None:
        """Show the committed spec again (the live edit was cancelled or refused)."""
        if self._pending is not None:
            self._pending = None
            self._show()

    @property
    def previewing(self) -> str | None:
        """The path of the node shown with a live edit, or None."""
        return self._pending[0] if self._pending is not None else None

    def _committed_spec(self) -> JSON:
        """What is shown without a live edit: the draft under review or the document."""
        if self._pending is not None:
            return self._pending[2]
        return self._shown.spec

    def apply_ops(
        self, ops: list[JSON], *, summary: str | None = None, author: Author = "user"
    ) -> Revision:
        """Patch ops (state, data, requires, replaceNode) on the document, as one revision."""
        return self._require_document().apply_ops(ops, author=author, summary=summary)

    def replace_spec(self, spec: JSON, *, summary: str, author: Author = "user") -> Revision:
        """A whole-spec revision of the document (window, theme, ...)."""
        return self._require_document().replace_spec(spec, author=author, summary=summary)

    def undo(self) -> Revision | None:
        return self._document.undo() if self._document is not None else None

    def redo(self) -> Revision | None:
        return self._document.redo() if self._document is not None else None

    # -- the review (the agent's run driver) -----------------------------------------------------
    def show_draft(
        self,
        review_id: str,
        base: JSON,
        revisions: Sequence[Revision],
        *,
        owner: DraftOwner | None = None,
    ) -> Review | None:
        """Open or update the review of a draft (`revisions` over `base`). A draft on an older
        document spec is rebased first (the owner is told), or shown stale. No revisions: the
        review closes. Returns the review as shown (None when there is none)."""
        document = self._document
        if document is None:
            return None
        if not revisions:
            if self._review is not None:
                self._end_review("closed")
            return None
        previous = (
            self._review if self._review is not None and self._review.id == review_id else None
        )
        review = Review(
            review_id, base, tuple(revisions), rebased=previous.rebased if previous else False
        )
        reason: ReviewReason = "updated" if previous is not None else "opened"
        known: tuple[str, ...] | None = None
        if not _same(base, document.spec):
            review = rebase(review, document.spec)
            reason = "stale" if review.stale else "rebased"
        elif previous is not None and _extends(previous.revisions, review.revisions):
            known = review.revisions[-1].changed  # one more revision on what was shown
        self._review, self._owner = review, owner
        if reason == "rebased" and owner is not None:
            owner.rebased(review.base, review.revisions)
        self._emit(ReviewChanged(review, reason))
        self._show(known=known)
        return review

    def apply_review(self) -> Revision:
        """Land the review in the document as one revision by the agent (RuntimeError when there
        is none or it is stale: it no longer applies)."""
        review, document = self._review, self._require_document()
        if review is None:
            raise RuntimeError("no draft is under review")
        if review.stale:
            raise RuntimeError(f"the draft no longer applies: {review.problem}")
        revision = Revision(
            spec=review.spec,
            author="agent",
            summary=review.summary(),
            ops=review.ops(),
            instruction=review.instruction(),
            changed=review.changed,
        )
        self._review, self._owner = None, None
        self._emit(ReviewChanged(None, "applied"))
        self._highlight_next = ()
        document.push_revision(revision)
        return revision

    def discard_review(self) -> None:
        if self._review is not None:
            self._end_review("discarded")

    # -- internals ----------------------------------------------------------------------------
    def _require_document(self) -> Document:
        if self._document is None:
            raise RuntimeError("no prototype is open")
        return self._document

    def _showing_review(self) -> Review | None:
        review = self._review
        return review if review is not None and not review.stale else None

    def _end_review(self, reason: ReviewReason) -> None:
        self._review, self._owner = None, None
        self._emit(ReviewChanged(None, reason))
        self._highlight_next = ()
        self._show()

    def _on_document(self, change: DocumentChange) -> None:
        document = self._document
        if document is None:
            return
        self._emit(DocumentEdited(document, change.kind, change.revision))
        review = self._review
        if review is not None:
            review = rebase(review, document.spec)
            self._review = review
            if not review.stale and self._owner is not None:
                self._owner.rebased(review.base, review.revisions)
            self._emit(ReviewChanged(review, "stale" if review.stale else "rebased"))
        highlight = self._highlight_next if self._highlight_next is not None else change.changed
        self._highlight_next = None
        self._show(highlight=highlight, known=change.changed)

    def _show(
        self,
        *,
        fresh: bool = False,
        highlight: tuple[str, ...] = (),
        known: tuple[str, ...] | None = None,
        keep_pending: bool = False,
    ) -> None:
        """Show the review's spec or the document's (with the live edit, when `keep_pending`).
        `known`: what changed, when the caller knows it and the source stays the same (a
        document edit, one more draft revision, a live edit); else the two specs are compared."""
        if not keep_pending:
            self._pending = None
        document, review = self._document, self._showing_review()
        if review is not None:
            shown = Shown(review.spec, "review", highlight=review.changed)
        elif document is not None:
            shown = Shown(document.spec, "document", highlight=highlight)
        else:
            shown = Shown({}, "none")
        pending = self._pending
        if pending is not None:
            shown = Shown(pending[1], shown.source, highlight=self._shown.highlight, pending=True)
        old = self._shown
        # `known` is relative to the committed spec: it holds when the old shown spec was that
        # (or a live edit of the same node on it).
        previous, self._shown_pending = self._shown_pending, pending[0] if pending else None
        same_base = previous is None or (pending is not None and previous == pending[0])
        if fresh:
            changed: tuple[str, ...] = ()
        elif known is not None and old.source == shown.source != "none" and same_base:
            changed = known
        else:
            changed = _changes(old.spec, shown.spec)
        self._shown = Shown(
            shown.spec, shown.source, changed, shown.highlight, fresh, pending=shown.pending
        )
        self._highlight_next = None
        self._emit(ShownChanged(self._shown))
        if pending is not None:
            return  # a live edit never changes the selection (its id may be half typed)
        selection = self._selection
        if self._renaming is not None:
            selection = selection.renamed(*self._renaming)
        if selection:
            selection = selection.keep(set(addresses(shown.spec).values()))
        self._set_selection(selection)

    def _set_selection(self, selection: Selection) -> None:
        if selection != self._selection:
            self._selection = selection
            self._emit(SelectionChanged(selection))

    def _emit(self, event: WorkspaceEvent) -> None:
        for listener in list(self._listeners):
            listener(event)


def _same(a: JSON, b: JSON) -> bool:
    return a is b or json_equal(a, b)


def _extends(old: tuple[Revision, ...], new: tuple[Revision, ...]) -> bool:
    """`new` is `old` plus one revision (the same objects: nothing was rebased in between)."""
    return len(new) == len(old) + 1 and all(a is b for a, b in zip(old, new, strict=False))


def _changes(old: JSON, new: JSON) -> tuple[str, ...]:
    """Addresses (in `new`) of the nodes that differ, or show or bind state that differs."""
    if old is new or not new:
        return ()
    from studio.spec.patch import changed_addresses

    old_state, new_state = old.get("state") or {}, new.get("state") or {}
    keys = (
        {
            k
            for k in set(old_state) | set(new_state)
            if not json_equal(old_state.get(k), new_state.get(k))
        }
        if isinstance(old_state, dict) and isinstance(new_state, dict)
        else set()
    )
    return changed_addresses(old, new, keys)


def _keep_document_parts(
    address: str, path: str, edited: JSON, shown: JSON, document: JSON, inside: list[str]
) -> JSON:
    """The node to write into the document for a user edit of an ancestor of the draft's
    subtrees (`inside`, paths below `path`): the user's node with each draft subtree put back as
    the document has it. ReviewConflict when the user's edit changed one of them."""
    result = edited
    for owner in inside:
        relative = "root" + owner[len(path) :]
        try:
            changed = not json_equal(
                node_at({"root": edited}, relative), node_at({"root": shown}, relative)
            )
        except ValueError:
            changed = True  # the edit removed or moved it
        if changed:
            raise ReviewConflict(
                TOUCHES_DRAFT.format(address=address, inside=_address(shown, path, owner))
            )
        result = with_node(result, "root", relative, node_at({"root": document}, relative))
    return result


def _address(node: JSON, path: str, owner: str) -> str:
    """A readable name for the draft subtree at `owner` (its id, else its path)."""
    found = node_at({"root": node}, "root" + owner[len(path) :])
    node_id = found.get("id")
    return node_id if isinstance(node_id, str) and node_id else owner
