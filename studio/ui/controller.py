"""The studio's commands: open, import, export, library edits, undo/redo, thumbnails, platform calls.

The window only wires widgets to this controller. What is shown belongs to the workspace
(`studio.workspace.Workspace`): the controller opens documents in it and forwards its typed
events to the views as Qt signals; it never writes into a view itself. Library reads and writes
run on one lane (`studio.concurrency.Lane`: one worker thread, so they never block the GUI
thread and never overlap); every asyncio task is kept by a `TaskOwner` and cancelled by `aclose()`.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import os
import weakref
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import (
    QBuffer,
    QByteArray,
    QFileSystemWatcher,
    QIODevice,
    QObject,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QGuiApplication, QImage

from studio.concurrency import Lane, TaskOwner
from studio.document import Document
from studio.library.entries import LibraryEntry
from studio.library.errors import LibraryError
from studio.library.revisions import RevisionLog
from studio.library.templates import Template, list_templates
from studio.mcpserver.drafts import clear_outside_draft, load_outside_draft
from studio.mcpserver.review import OutsideReviewer
from studio.ui.scenes import render_steps
from studio.ui.texts import APP_TITLE, one_line
from studio.workspace import (
    DocumentEdited,
    DocumentOpened,
    ReviewChanged,
    SelectionChanged,
    ShownChanged,
    Workspace,
    WorkspaceEvent,
)
from studio.workspace.events import expanded

if TYPE_CHECKING:
    from studio.library.store import Library
    from studio.platform.host import PlatformHost
    from studio.preview.widget import PreviewWidget
    from studio.ui.settings import UiSettings

log = logging.getLogger(__name__)
T = TypeVar("T")

THUMBNAIL_WIDTH = 160
#: Edits in quick succession share one thumbnail render (and one draft write).
THUMBNAIL_DELAY = 0.4
OUTSIDE_DEBOUNCE_MS = 150
PNG_TIMEOUT = 10.0  # s: a render of the preview for Export PNG
SPEC_SUFFIXES = (".json", ".protobundle")
#: Entries without a thumbnail are drawn in the background this long after start-up, ...
BACKFILL_DELAY = 0.5
#: ... one step at a time with this pause between steps (the GUI thread stays responsive).
BACKFILL_STEP = 0.02


def png_bytes(image: QImage) -> bytes:
    """Encode a QImage as PNG in memory (GUI thread; no file I/O)."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # the stubs want bytes; PySide wants str
    buffer.close()
    return bytes(data.data())


def thumbnail_png(image: QImage) -> bytes:
    """A preview grab scaled to the library's thumbnail width, as PNG (any thread: QImage only)."""
    return png_bytes(
        image.scaledToWidth(THUMBNAIL_WIDTH, Qt.TransformationMode.SmoothTransformation)
    )


class StudioController(QObject):
    """Opens documents in the workspace, forwards its events, and drives the library. Methods are
    plain slots that start tracked tasks; `idle()` waits for them (tests, shutdown)."""

    titleChanged = Signal(str)
    statusMessage = Signal(str)
    errorMessage = Signal(str)
    entriesChanged = Signal(list)  # list[LibraryEntry], newest first
    templatesChanged = Signal(list)  # list[Template]
    thumbnailReady = Signal(str, bytes)  # entry id, PNG
    documentOpened = Signal(object)  # Document (another prototype is open)
    workspaceEvent = Signal(object)  # every studio.workspace.WorkspaceEvent, in order
    shownChanged = Signal(object)  # Shown: what the preview and the tree show
    selectionChanged = Signal(object)  # Selection
    reviewChanged = Signal(object)  # Review | None
    inspectorTarget = Signal(object, object)  # Workspace, address | None
    revisionsChanged = Signal(object)  # RevisionLog | None
    documentShown = Signal(dict)  # the open document, expanded (a phone shows the document)
    deleteUndoable = Signal(str)  # name of the prototype that can be restored ("" = no more)
    recentFilesChanged = Signal(list)  # list[str]
    documentClosed = Signal()  # no prototype is open any more (e.g. the open one was deleted)
    # New from description: the instruction the agent sheet runs on the new, unsaved draft
    generateRequested = Signal(str)

    def __init__(
        self,
        library: Library,
        settings: UiSettings,
        workspace: Workspace,
        *,
        host_factory: Callable[[str], PlatformHost] | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.library = library
        self.settings = settings
        self.workspace = workspace
        self._host_factory = host_factory
        self._host: PlatformHost | None = None
        self._preview: PreviewWidget | None = None
        self._lane = Lane("library")
        self._tasks = TaskOwner("studio controller", report=self._report)
        self._thumbnail_task: asyncio.Task[None] | None = None
        self._thumbnail_pending = False  # an edit's thumbnail waits until the document is shown
        self._last_deleted: list[LibraryEntry] = []
        self._closed = False
        self.templates: list[Template] = []
        self.thumbnail_delay = THUMBNAIL_DELAY
        #: Draw missing thumbnails in the background after start-up (tests may turn it off).
        self.backfill_thumbnails = True
        self.backfill_delay = BACKFILL_DELAY
        #: Not waited for by `idle()`; cancelled by `aclose()`.
        self.backfill_task: asyncio.Task[None] | None = None
        self._started = False
        #: New from description: unsaved documents (name, library fields) saved as a new
        #: entry with the source "generated" once the agent's draft is applied.
        self._generating: weakref.WeakKeyDictionary[Document, tuple[str, dict[str, Any]]] = (
            weakref.WeakKeyDictionary()
        )
        self._unsubscribe = workspace.subscribe(self._on_workspace)
        #: A draft an outside agent wrote over MCP (`proto-studio mcp`), under review here.
        self.outside = OutsideReviewer(workspace)
        # The library folder is watched for outside drafts written while a prototype is open
        # (a burst of writes is one check).
        self._watcher: QFileSystemWatcher | None = None
        self._saved: dict[str, tuple[int, int] | None] = {}  # entry -> its spec file as last seen
        self._outside_timer = QTimer(self)
        self._outside_timer.setSingleShot(True)
        self._outside_timer.setInterval(OUTSIDE_DEBOUNCE_MS)
        self._outside_timer.timeout.connect(self._outside_changed)
        from studio.ui.node_edits import NodeEdits

        #: The node edit commands (menus, keys, the tree, the palette, drops).
        self.edits = NodeEdits(workspace, self._error, self)

    @property
    def document(self) -> Document | None:
        """The open prototype (the workspace's)."""
        return self.workspace.document

    # ------------------------------------------------------------------ plumbing

    def attach_preview(self, preview: PreviewWidget) -> None:
        """The preview the controller grabs thumbnails/PNGs from and runs platform calls for."""
        self._preview = preview

    def spawn(self, coro: Coroutine[Any, Any, T], *, label: str = "") -> asyncio.Task[T | None]:
        """Start a tracked task; an exception becomes a one-line error in the status bar."""
        return self._tasks.spawn(coro, label=label)

    def _report(self, label: str, exc: BaseException) -> None:
        """Every command failure is shown, never lost (and logged when it is not the user's)."""
        if not isinstance(exc, (LibraryError, OSError, ValueError)):
            log.error("%s failed", label or "command", exc_info=exc)
        self._error(f"{label}: {one_line(exc)}" if label else one_line(exc))

    async def _io(self, fn: Callable[..., T], *args: Any) -> T:
        """Run blocking library/file work on the library thread."""
        return await self._lane.run(fn, *args)

    async def idle(self) -> None:
        """Wait until every task started so far (and those they start) has finished."""
        await self._tasks.idle()

    async def aclose(self) -> None:
        """Cancel every task and platform call; persist nothing half-way (writes are atomic)."""
        self._closed = True
        self._unsubscribe()
        self._outside_timer.stop()
        if self._watcher is not None:
            self._watcher.directoryChanged.disconnect(self._outside_timer.start)
            self._watcher = None
        await self._tasks.aclose()
        if self._host is not None:
            await self._host.aclose()
            self._host = None
        self._lane.close()

    def _status(self, text: str) -> None:
        self.statusMessage.emit(text)

    def _error(self, text: str) -> None:
        self.errorMessage.emit(" ".join(text.split()))

    # ------------------------------------------------------------------ startup

    def start(self, file: str | None = None) -> asyncio.Task[None]:
        """First load: seed templates, list the library, open FILE or the most recent prototype."""
        path = Path(os.path.abspath(file)) if file else None
        return self.spawn(self._start(path), label="Start")

    async def _start(self, file: Path | None) -> None:
        try:
            await self._start_library(file)
        finally:
            self._started = True
            self._ensure_backfill()

    def _ensure_backfill(self) -> None:
        """(Re)start the background thumbnail renders unless they run or are off."""
        running = self.backfill_task is not None and not self.backfill_task.done()
        if self.backfill_thumbnails and self._started and not self._closed and not running:
            self.backfill_task = self._tasks.spawn(
                self._backfill(), label="Thumbnails", track=False
            )

    async def _start_library(self, file: Path | None) -> None:
        self.templates = await self._io(list_templates)
        self.templatesChanged.emit(self.templates)
        await self._io(self.library.ensure_templates)
        entries = await self._refresh_entries()
        self.recentFilesChanged.emit(self.settings.recent_files())
        for problem in self.library.problems:
            self._error(f"Library: {problem}")
        if file and await self._import_one(file):
            return
        if entries:  # the most recent prototype (also when FILE could not be imported)
            last = self.settings.value("library/last", "")
            chosen = next((e for e in entries if e.id == last), entries[0])
            await self._open(chosen.id)

    async def _refresh_entries(self) -> list[LibraryEntry]:
        entries = await self._io(self.library.list_entries)
        entries.sort(key=lambda e: e.modified, reverse=True)
        self.entriesChanged.emit(entries)
        for entry in entries:
            if entry.thumbnail:
                self.spawn(self._load_thumbnail(entry.id))
        if any(not entry.thumbnail for entry in entries):
            self._ensure_backfill()  # e.g. after an import of several files
        return entries

    async def _load_thumbnail(self, entry_id: str) -> None:
        def read() -> bytes | None:
            path = self.library.thumbnail_path(entry_id)
            return path.read_bytes() if path is not None else None

        try:
            data = await self._io(read)
        except (LibraryError, OSError):
            return  # a missing thumbnail is redrawn on the next edit
        if data:
            self.thumbnailReady.emit(entry_id, data)

    # ------------------------------------------------------------------ opening

    def open_entry(self, entry_id: str) -> None:
        self.spawn(self._open(entry_id), label="Open")

    async def _open(self, entry_id: str) -> None:
        entry = await self._io(self.library.get, entry_id)
        spec = await self._io(self._load_spec, entry_id)
        revisions = await self._io(self.library.load_revisions, entry_id)
        if revisions is None or revisions.current != spec:
            revisions = RevisionLog(spec)
        if self._host is not None:  # its calls and event sources end with the prototype
            await self._host.aclose()
            self._host = None
        self.workspace.open(Document(spec, name=entry.name, entry_id=entry.id, revisions=revisions))
        self.settings.set_value("library/last", entry.id)
        if not entry.thumbnail:
            self._schedule_thumbnail()
        if self._watcher is None and not self._closed:
            self._watcher = QFileSystemWatcher([str(self.library.folder)], self)
            self._watcher.directoryChanged.connect(self._outside_timer.start)
        await self._check_outside_draft()

    # ------------------------------------------------------------------ outside drafts (MCP)

    def check_outside_draft(self) -> None:
        """Show the open prototype's outside draft, as its file is now (written by
        `proto-studio mcp`); one that went away leaves review."""
        self.spawn(self._check_outside_draft(), label="Outside draft")

    def _outside_changed(self) -> None:
        if not self._closed:
            self.spawn(self._adopt_outside_change(), label="Outside change")
            self.check_outside_draft()

    async def _check_outside_draft(self) -> None:
        document = self.document
        if document is None or document.entry_id is None:
            return
        try:
            draft = await self._io(load_outside_draft, self.library, document.entry_id)
        except LibraryError as exc:
            self._error(f"The outside draft of {document.name}: {one_line(exc)}")
            return
        if self.document is document and self.outside.show(draft) is not None and draft:
            self._status(
                f"{draft.client} wrote a draft of {document.name}: "
                f"{len(draft.revisions)} revision(s) to review"
            )

    def apply_outside_draft(self) -> None:
        """Apply the outside draft under review: one agent revision, saved; its file removed."""
        try:
            entry_id, revision = self.outside.apply()
        except RuntimeError as exc:
            self._error(f"Could not apply the draft: {exc}")
            return
        self.spawn(self._clear_outside_draft(entry_id), label="Outside draft")

    def discard_outside_draft(self) -> None:
        try:
            entry_id = self.outside.discard()
        except RuntimeError as exc:
            self._error(f"Could not discard the draft: {exc}")
            return
        self._status("Discarded the outside draft")
        self.spawn(self._clear_outside_draft(entry_id), label="Outside draft")

    async def _clear_outside_draft(self, entry_id: str) -> None:
        try:
            await self._io(clear_outside_draft, self.library, entry_id)
        except LibraryError as exc:
            self._error(f"The outside draft: {one_line(exc)}")

    # ------------------------------------------------------------------ the workspace

    def _on_workspace(self, event: WorkspaceEvent) -> None:
        """Forward the workspace's events to the views, and do what follows from an edit (save,
        thumbnail, the platform modules' event sources)."""
        self.workspaceEvent.emit(event)
        match event:
            case ShownChanged(shown=shown):
                self.shownChanged.emit(shown)
                self.inspectorTarget.emit(self.workspace, self.workspace.selection.primary)
            case SelectionChanged(selection=selection):
                self.selectionChanged.emit(selection)
                self.inspectorTarget.emit(self.workspace, selection.primary)
            case ReviewChanged(review=review, reason=reason):
                self.reviewChanged.emit(review)
                if reason == "stale" and review is not None:
                    self._status(f"The agent's draft no longer applies: {review.problem}")
                if review is None and self._thumbnail_pending:
                    self._schedule_thumbnail()
            case DocumentOpened(document=document):
                if document is None:
                    self.titleChanged.emit(APP_TITLE)
                    self.documentClosed.emit()
                    self.revisionsChanged.emit(None)
                    return
                self.titleChanged.emit(f"{APP_TITLE} — {document.name}")
                self.documentOpened.emit(document)
                self.documentShown.emit(expanded(document.spec))
                self.revisionsChanged.emit(document.revisions)
                self.spawn(self._sync_events(), label="Platform events")
            case DocumentEdited(document=document, kind=kind, revision=revision):
                self.documentShown.emit(expanded(document.spec))
                self.revisionsChanged.emit(document.revisions)
                self.spawn(self._sync_events(), label="Platform events")  # requires may change
                verb = {"revision": "Applied", "undo": "Undid", "redo": "Redid"}[kind]
                self._status(f"{verb}: {revision.summary if revision else ''}")
                self.spawn(self._persist(document), label="Save")
                self._schedule_thumbnail()

    # ------------------------------------------------------------------ document edits

    def select(self, address: str) -> None:
        """From the tree or a click in the preview (edit mode); "" clears."""
        if address:
            self.workspace.select(address)
        else:
            self.workspace.select()

    def select_many(self, addresses: list[str], primary: str) -> None:
        """From the tree's multi-selection (Ctrl/Shift): the nodes, `primary` the inspector's."""
        self.workspace.select(*addresses, primary=primary or None)

    def undo(self) -> None:
        if self.workspace.undo() is None:
            self._status("Nothing to undo")

    def redo(self) -> None:
        if self.workspace.redo() is None:
            self._status("Nothing to redo")

    async def _persist(self, document: Document) -> None:
        """Store the current spec and the revision log (a snapshot taken on the GUI thread)."""
        if document.entry_id is None:
            if document in self._generating:
                await self._save_generated(document)
            return
        log_copy = RevisionLog(
            document.revisions.base, document.revisions.revisions, document.revisions.cursor
        )
        spec = document.spec
        entry_id = document.entry_id

        def write() -> LibraryEntry:
            self.library.save_revisions(entry_id, log_copy)
            entry = self.library.save_spec(entry_id, spec)
            self._saved[entry_id] = self._spec_stat(entry_id)
            return entry

        await self._io(write)

    # -- changes made outside the window (proto-studio serve applied a draft) -------------------
    def _spec_stat(self, entry_id: str) -> tuple[int, int] | None:
        """The spec file's (mtime, size) (library thread only)."""
        try:
            st = (self.library.folder / entry_id / "spec.json").stat()
        except OSError:
            return None
        return st.st_mtime_ns, st.st_size

    def _load_spec(self, entry_id: str) -> dict[str, Any]:
        """The saved spec, remembering which file it was (library thread only)."""
        stat = self._spec_stat(entry_id)
        spec = self.library.load_spec(entry_id)
        self._saved[entry_id] = stat
        return spec

    async def _adopt_outside_change(self) -> None:
        """The open prototype as saved by another process (a draft `proto-studio serve` applied)
        becomes a revision here, by the edit-during-review rule; the window's own saves are
        recognised by their file and cost a stat."""
        document = self.document
        if document is None or document.entry_id is None:
            return
        entry_id, before = document.entry_id, document.spec

        def read() -> tuple[dict[str, Any], RevisionLog | None] | None:
            if self._spec_stat(entry_id) == self._saved.get(entry_id):
                return None
            return self._load_spec(entry_id), self.library.load_revisions(entry_id)

        try:
            found = await self._io(read)
        except LibraryError as exc:
            self._error(f"{document.name} changed outside the studio: {one_line(exc)}")
            return
        if found is None or self.document is not document or document.spec is not before:
            return  # not changed; or the designer edited meanwhile (their save comes next)
        spec, log = found
        if spec == document.spec:
            return
        last = log.applied[-1] if log is not None and log.current == spec and log.applied else None
        summary = (
            f"{last.summary} (saved outside the studio)" if last else "Saved outside the studio"
        )
        self.workspace.replace_spec(spec, summary=summary, author=last.author if last else "user")

    # ------------------------------------------------------------------ thumbnails

    def _schedule_thumbnail(self) -> None:
        if self._thumbnail_task is not None and not self._thumbnail_task.done():
            self._thumbnail_task.cancel()
        self._thumbnail_task = self.spawn(self._render_thumbnail(), label="Thumbnail")

    async def _render_thumbnail(self) -> None:
        # Debounce: wait for the preview to show the edit (and for quick follow-up edits).
        await asyncio.sleep(self.thumbnail_delay)
        document, preview = self.document, self._preview
        if document is None or document.entry_id is None or preview is None:
            return
        if self.workspace.shown.source != "document":
            self._thumbnail_pending = True  # the preview shows a draft: draw it after the review
            return
        self._thumbnail_pending = False
        image = preview.grab_image()
        if image.isNull():
            return
        image = image.scaledToWidth(THUMBNAIL_WIDTH, Qt.TransformationMode.SmoothTransformation)
        # Stored and announced as one task of its own: a newer thumbnail (another prototype
        # opened) cancels this one, and cancelled while the library thread wrote the file, the
        # panel would never hear of a thumbnail the library has (and the backfill skips).
        self.spawn(self._store_thumbnail(document.entry_id, png_bytes(image)), label="Thumbnail")

    async def _store_thumbnail(self, entry_id: str, data: bytes) -> None:
        await self._io(self.library.set_thumbnail, entry_id, data)
        self.thumbnailReady.emit(entry_id, data)

    async def _backfill(self) -> None:
        """Draw the thumbnail of every entry that has none, one at a time, in a headless scene
        built and grabbed on the GUI thread in small steps (awaits between them let input and
        paints through) while no command runs; PNG encoding and the write run on the library
        thread."""
        from studio.preview.render import HeadlessScene
        from studio.spec import expand

        await asyncio.sleep(self.backfill_delay)  # after the first frame
        scene: HeadlessScene | None = None
        failed: set[str] = set()
        try:
            while not self._closed:
                await self._until_commands_idle()
                entries = await self._io(self.library.list_entries)
                open_id = self.document.entry_id if self.document is not None else None
                todo = [e for e in entries if not e.thumbnail and e.id not in failed | {open_id}]
                if not todo:
                    return
                entry = todo[0]
                try:
                    spec = expand(await self._io(self.library.load_spec, entry.id))
                    if scene is None:
                        scene = HeadlessScene()
                        await asyncio.sleep(BACKFILL_STEP)
                    image = await render_steps(scene, spec, "light")
                    if image.isNull():
                        raise ValueError("the scene produced no image")
                    data = await self._io(thumbnail_png, image)
                    await self._io(self.library.set_thumbnail, entry.id, data)
                except Exception as exc:  # one bad entry must not stop the others
                    failed.add(entry.id)
                    log.warning("thumbnail of %s: %s", entry.id, one_line(exc))
                    continue
                self.thumbnailReady.emit(entry.id, data)
                await asyncio.sleep(BACKFILL_STEP)
        finally:
            if scene is not None:
                scene.close()

    async def _until_commands_idle(self) -> None:
        """Wait (without cancelling them) until no command task is running."""
        await self._tasks.idle()

    # ------------------------------------------------------------------ imports

    def import_files(self, paths: Sequence[str | Path]) -> None:
        """Open/import spec JSON or .protobundle files (file dialog, drop, recent, command line)."""
        self.spawn(self._import_files([Path(os.path.abspath(p)) for p in paths]), label="Import")

    async def _import_files(self, paths: list[Path]) -> None:
        for path in paths:
            await self._import_one(path)

    async def _import_one(self, path: Path) -> bool:
        try:
            entry = await self._io(self.library.import_spec_file, path)
        except (LibraryError, OSError) as exc:
            message = one_line(exc)
            if path.name not in message:
                message = f"{path.name}: {message}"
            self._error(f"Import failed: {message}")
            return False
        self.recentFilesChanged.emit(self.settings.add_recent_file(str(path)))
        await self._refresh_entries()
        await self._open(entry.id)
        self._status(f"Imported {path.name}")
        return True

    def import_clipboard(self) -> None:
        """Edit > Paste spec: import the clipboard's text as a new prototype (source "paste")."""
        text = QGuiApplication.clipboard().text()
        if not text.strip():
            self._error("Paste spec: the clipboard holds no text")
            return
        self.spawn(self._import_text(text), label="Paste spec")

    async def _import_text(self, text: str) -> None:
        try:
            entry = await self._io(self.library.import_spec_text, text)
        except LibraryError as exc:
            self._error(f"Paste spec failed: {one_line(exc)}")
            return
        await self._refresh_entries()
        await self._open(entry.id)
        self._status(f"Imported pasted spec as {entry.name}")

    def new_from_template(self, template_id: str) -> None:
        self.spawn(self._new_from_template(template_id), label="New from template")

    async def _new_from_template(self, template_id: str) -> None:
        templates = self.templates or await self._io(list_templates)
        template = next((t for t in templates if t.id == template_id), None)
        if template is None:
            self._error(f"New from template: no template {template_id!r}")
            return
        spec = await self._io(template.load_spec)
        entry = await self._io(
            lambda: self.library.create(
                template.name, spec, "template", extra={"template": template.id}
            )
        )
        await self._refresh_entries()
        await self._open(entry.id)
        self._status(f"New prototype from {template.name}")

    def new_from_description(self, template_id: str, name: str, description: str) -> None:
        """Library > New from description: open an unsaved prototype (the template, or a
        minimal valid spec when `template_id` is "") and have the agent build it on a draft; it
        is saved as a new entry (source "generated") when the draft is applied."""
        self.spawn(self._new_from_description(template_id, name, description), label="New")

    async def _new_from_description(self, template_id: str, name: str, description: str) -> None:
        from studio.agent.generate import (
            DescriptionError,
            generation_instruction,
            library_fields,
            starting_spec,
        )

        name = " ".join(name.split()) or "New prototype"
        template_spec, template_name = None, None
        if template_id:
            templates = self.templates or await self._io(list_templates)
            template = next((t for t in templates if t.id == template_id), None)
            if template is None:
                self._error(f"New from description: no template {template_id!r}")
                return
            template_spec, template_name = await self._io(template.load_spec), template.name
        try:
            instruction = generation_instruction(description, template_name=template_name)
            spec = starting_spec(name, template_spec)
        except DescriptionError as exc:
            self._error(f"New from description: {exc}")
            return
        document = Document(spec, name=name)
        self._generating[document] = (name, library_fields(description, template_id or None))
        self.workspace.open(document)
        self._status(f"The agent is building {name}: review the draft, then Apply to save it")
        self.generateRequested.emit(instruction)

    async def _save_generated(self, document: Document) -> None:
        from studio.agent.generate import SOURCE

        name, fields = self._generating.pop(document)
        spec, log_copy = (
            document.spec,
            RevisionLog(
                document.revisions.base, document.revisions.revisions, document.revisions.cursor
            ),
        )

        def write() -> LibraryEntry:
            entry = self.library.create(name, spec, SOURCE, extra=fields)
            self.library.save_revisions(entry.id, log_copy)
            return entry

        entry = await self._io(write)
        document.entry_id = entry.id
        self.settings.set_value("library/last", entry.id)
        await self._refresh_entries()
        self._status(f"Saved {entry.name} to the library (generated)")
        self._schedule_thumbnail()
        if document.spec is not spec:  # edited while it was being saved
            await self._persist(document)

    # ------------------------------------------------------------------ exports

    def save(self) -> None:
        """Ctrl+S: write the open prototype now, after any save still under way, and say so
        (every change is saved as it is made; this makes sure and tells the designer)."""
        document = self.document
        if document is None or document.entry_id is None:
            self._status("Nothing to save: no prototype is open")
            return
        self.spawn(self._save(document), label="Save")

    async def _save(self, document: Document) -> None:
        await self._persist(document)  # the library's lane runs it after any earlier save
        self._status(f"Saved {document.name}: every change is also saved as you make it")

    def export_bundle(self, path: str | Path, entry_id: str | None = None) -> None:
        """File > Export bundle (Ctrl+E): the open (or given) prototype as a .protobundle."""
        target = entry_id or (self.document.entry_id if self.document else None)
        if target is None:
            self._error("Export: no prototype is open")
            return
        self.spawn(self._export_bundle(target, Path(path)), label="Export")

    async def _export_bundle(self, entry_id: str, path: Path) -> None:
        if path.suffix != ".protobundle":
            path = path.with_name(path.name + ".protobundle")
        if self.document is not None and self.document.entry_id == entry_id:
            await self._persist(self.document)  # the bundle holds what is on screen
        await self._io(self.library.export_bundle, entry_id, path)
        self._status(f"Exported {path.name}")

    def export_spec(self, path: str | Path) -> None:
        if self.document is None:
            self._error("Export spec JSON: no prototype is open")
            return
        spec = copy.deepcopy(self.document.spec)
        self.spawn(self._write_file(Path(path), _spec_bytes(spec)), label="Export spec JSON")

    def export_png(self, path: str | Path, scale: int = 1) -> None:
        """The preview's device screen as a PNG in device pixels: its size in dp times `scale`
        (1, 2 or 3), whatever size the preview draws it at."""
        if self._preview is None or self.document is None:
            self._error("Export PNG: no prototype is open")
            return
        if scale not in (1, 2, 3):
            self._error(f"Export PNG: scale {scale} is not 1x, 2x or 3x")
            return
        self.spawn(self._export_png(Path(path), scale), label="Export PNG")

    async def _export_png(self, path: Path, scale: int) -> None:
        assert self._preview is not None
        ready: asyncio.Future[QImage] = asyncio.get_running_loop().create_future()

        def done(image: QImage) -> None:
            if not ready.done():
                ready.set_result(image)

        self._preview.grab_screen(scale, done)
        try:
            image = await asyncio.wait_for(ready, PNG_TIMEOUT)
        except TimeoutError:
            self._error(f"Export PNG: the preview did not render within {PNG_TIMEOUT:g} s")
            return
        if image.isNull():
            self._error("Export PNG: the preview has not been drawn yet")
            return
        await self._write_file(path, png_bytes(image))
        self._status(f"Exported {path.name} ({image.width()}×{image.height()} px, {scale}x)")

    async def _write_file(self, path: Path, data: bytes) -> None:
        from studio.library.atomic import write_bytes

        await self._io(write_bytes, path, data)
        self._status(f"Exported {path.name}")

    # ------------------------------------------------------------------ library edits

    def duplicate(self, entry_id: str) -> None:
        self.spawn(self._duplicate(entry_id), label="Duplicate")

    async def _duplicate(self, entry_id: str) -> None:
        entry = await self._io(self.library.duplicate, entry_id)
        await self._refresh_entries()
        self._status(f"Duplicated as {entry.name}")

    def rename(self, entry_id: str, name: str) -> None:
        self.spawn(self._rename(entry_id, name), label="Rename")

    async def _rename(self, entry_id: str, name: str) -> None:
        try:
            entry = await self._io(self.library.rename, entry_id, name)
        except LibraryError as exc:
            self._error(f"Rename failed: {one_line(exc)}")
            await self._refresh_entries()  # put the old name back in the list
            return
        document = self.document
        if document is not None and document.entry_id == entry_id:
            document.name = entry.name
            self.titleChanged.emit(f"{APP_TITLE} — {entry.name}")
        await self._refresh_entries()
        self._status(f"Renamed to {entry.name}")

    def delete(self, entry_id: str) -> None:
        self.spawn(self._delete(entry_id), label="Delete")

    async def _delete(self, entry_id: str) -> None:
        entry = await self._io(self.library.delete, entry_id)
        self._last_deleted.append(entry)
        entries = await self._refresh_entries()
        self.deleteUndoable.emit(entry.name)
        self._status(f"Deleted {entry.name}")
        if self.document is not None and self.document.entry_id == entry_id:
            if entries:
                await self._open(entries[0].id)
            else:
                self._clear_document()

    def undo_delete(self) -> None:
        if not self._last_deleted:
            self._status("Nothing to restore")
            return
        self.spawn(self._undo_delete(), label="Undo delete")

    async def _undo_delete(self) -> None:
        entry = self._last_deleted.pop()
        restored = await self._io(self.library.restore, entry.id)
        await self._refresh_entries()
        self.deleteUndoable.emit(self._last_deleted[-1].name if self._last_deleted else "")
        self._status(f"Restored {restored.name}")

    def _clear_document(self) -> None:
        if self._host is not None:  # its calls and event sources end with the prototype
            host, self._host = self._host, None
            self.spawn(host.aclose(), label="Close")
        self.workspace.open(None)

    # ------------------------------------------------------------------ platform calls

    async def _sync_events(self) -> None:
        """Run the event sources (e.g. `test.tick`) of the modules the open prototype requires,
        into the preview's runtime; sources of modules it no longer requires stop. The events
        reach the preview's event log like every runtime event."""
        document = self.document
        runtime = self._preview.runtime if self._preview is not None else None
        if document is None or runtime is None or document.entry_id is None:
            return
        from studio.platform.requires import required_modules

        required = required_modules(document.spec)
        if self._host is None:
            if not required or self._host_factory is None:
                return  # most prototypes: no host, no registry built
            self._host = self._host_factory(document.entry_id)
        host = self._host
        if any(event.partition(".")[0] not in required for event in host.running_events):
            await host.stop_events()
        runtime = self._preview.runtime if self._preview is not None else None
        if host is self._host and self.document is document and runtime is not None:
            host.start_events(runtime, required)

    def run_platform(self, request: Any) -> None:
        """A `platform` action in the preview: the host asks consent (Qt dialog) and runs it."""
        runtime = self._preview.runtime if self._preview is not None else None
        document = self.document
        if self._host is None and self._host_factory is not None and document and document.entry_id:
            # One host per open prototype, made on its first call (grants are per entry id).
            self._host = self._host_factory(document.entry_id)
        if self._host is None or runtime is None:
            if runtime is not None:
                runtime.resolve_platform(request, "error", "platform calls are not available")
            self._error(f"{request.call}: platform calls are not available in this window")
            return
        # The host's own `dispatch` needs a running loop; a Qt slot may run outside one
        # (a click delivered before the loop resumes), so the task is started and kept here.
        self.spawn(self._host.run(runtime, request), label=str(request.call))
        self._status(f"Platform call: {request.call}")


def _spec_bytes(spec: dict[str, Any]) -> bytes:
    from studio.library.atomic import dumps

    return dumps(spec)
