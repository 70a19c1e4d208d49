"""The bridge between the QML delegates and the Qt-free Runtime: bindings, taps, writes, theme."""

from __future__ import annotations

import functools
import itertools
import json
import logging
import math
from collections.abc import Callable, Iterable, Mapping
from datetime import date
from pathlib import Path
from typing import Any

from PySide6.QtCore import Property, QObject, QPointF, QTimer, QUrl, Signal, Slot
from PySide6.QtGui import QFontDatabase
from PySide6.QtQuick import QQuickItem, QQuickWindow

from studio.preview import bidi, fonts, icons
from studio.preview.device import DeviceProfile, profile_for
from studio.preview.fingers import FingerTracker
from studio.preview.layout import LNode
from studio.preview.nodes import NodeObject, child_entries, own_fields, same_shape
from studio.preview.palette import Palette
from studio.preview.scheme import Scheme, build_scheme, same_sizes
from studio.preview.styles import resolve_style
from studio.preview.tree import SceneTree
from studio.runtime import Runtime, StateWriteError
from studio.runtime.tree import SubtreeFacts, asset_facts, asset_references
from studio.spec.anchors import show_refusal
from studio.spec.tree import is_node

AssetResolver = Callable[[str], "str | Path | None"]
log = logging.getLogger(__name__)
#: Keys of resolved styles (a style dict's "key"), unique in the process: QML converts each
#: distinct style to a JavaScript object once and shares it (resources/qml/Styles.js).
_style_keys = itertools.count(1)


#: What the window holds while the phone would refuse the spec: nothing (its window is not drawn).
_NOTHING: dict[str, Any] = {"root": {"type": "box", "children": []}}


@functools.cache
def load_text_font() -> str:
    """Registers every Roboto face (studio.preview.fonts) with Qt, once per process (the font
    database is the application's), with the phone's line metrics; returns the family they
    registered as, "" when none loaded. The preview's "sans" texts are drawn in it."""
    family = ""
    for path in fonts.face_paths():
        font_id = QFontDatabase.addApplicationFontFromData(
            fonts.phone_line_metrics(path.read_bytes())
        )
        families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
        if not families:
            log.warning("preview: Qt could not load the font %s", path.name)
        family = family or (families[0] if families else "")
    return family


def appearance_source(spec: Mapping[str, Any]) -> str:
    """What decides a spec's light or dark, in AutoMobile's wire names (AP
    `prototypeResolveAppearance`): explicit, roleLuminance, authoredBackground or system."""
    return build_scheme(spec, "light").source


class PreviewController(QObject):
    """Owns the Runtime, the layout tree and the theme of one preview; QML calls its slots."""

    rootChanged = Signal()
    themeChanged = Signal()
    editModeChanged = Signal()
    selectionChanged = Signal()
    windowChanged = Signal()
    deviceChanged = Signal()
    insetsChanged = Signal()
    chromeChanged = Signal()
    todayChanged = Signal()
    #: `motion` or `animatorScale` may have changed (every window change, and the scale's).
    motionChanged = Signal()
    #: A re-theme is about to remake every control (Controls Material does not restyle live
    #: ones): what the phone keeps across a recomposition and the controls hold themselves (a
    #: page move under way, a date picker's shown month) is noted with `keepView` now.
    keepingViews = Signal()
    nodeClicked = Signal(str)
    platformRequested = Signal(object)
    runtimeEvent = Signal(object)
    runtimeRefused = Signal(object)
    #: The spec shown cannot be shown on a phone (one line naming the place), or "" again.
    showRefusalChanged = Signal(str)
    #: The asset ids the shown spec references and the preview does not have, as the phone's
    #: show reply lists them (`missingAssets`); sent on every fresh show and when an edit
    #: changes the list.
    missingAssetsChanged = Signal(list)

    def __init__(
        self,
        asset_resolver: AssetResolver | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._text_family = load_text_font()
        self._asset_resolver = asset_resolver
        self._runtime: Runtime | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._tree = SceneTree(self)
        self._root: NodeObject | None = None
        self._appearance = "system"
        self._scheme: Scheme = build_scheme({}, "light")
        self._palette = Palette(self)
        self._palette.set_colors(self._scheme.colors)
        self._theme_rev = 0
        self._edit_mode = False
        self._selected = ""
        self._highlighted: list[str] = []
        self._device: DeviceProfile = profile_for(412, 915)
        self._device_chrome = True
        self._keyboard = False  # a text field has the focus
        self._asset_facts: SubtreeFacts[str] = asset_facts()
        self._references: tuple[str, ...] = ()
        self._missing: list[str] = []
        self._assets_root: Any = None  # the tree the next asset check reads
        self._assets_due = False  # a fresh show's check waits for its first frame
        self._assets_fresh = False
        # Back hid the keyboard and the field kept the focus (a tap on it shows it again).
        self._ime_hidden = False
        self._shown_active = True
        self._refusal = ""
        self._engine: Any = None
        self._clock24 = False
        self._today: date | None = None
        self._rtl = False
        self._animator_scale = 1.0
        self._fonts: dict[str, str] = {}
        # Resolved styles by their authored style (JSON) for `_styles_scheme` and `_fonts`.
        self._styles: dict[str, dict[str, Any]] = {}
        self._styles_scheme: Scheme | None = None
        self._last_sequence = -1
        self._replacing = False
        self._layout_timer = QTimer(self)
        self._layout_timer.setSingleShot(True)
        self._layout_timer.setInterval(0)
        self._layout_timer.timeout.connect(self._run_layout)
        self.delegates_created = 0
        self._frames_from: QQuickWindow | None = None
        self._fingers = FingerTracker(self)
        self.created_addresses: list[str] = []
        self.windowChanged.connect(self.motionChanged)
        self._sync_tree_env()

    # -- spec lifecycle ---------------------------------------------------------------
    @property
    def runtime(self) -> Runtime | None:
        return self._runtime

    @property
    def root_node(self) -> NodeObject | None:
        return self._root

    @property
    def tree(self) -> SceneTree:
        """The layout tree and what of it is instantiated."""
        return self._tree

    def set_spec(self, spec: dict[str, Any], appearance: str | None = None) -> None:
        """Show a new spec from scratch (new runtime state), in `appearance` when given (the
        device's light/dark/system, as `set_appearance`, without re-showing the old spec)."""
        if appearance is not None:
            self._appearance = appearance
        self._check_showable(spec)
        self._check_assets(spec, fresh=True)
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._runtime = Runtime(spec)
        self._shown_active = True
        self._unsubscribe = self._runtime.subscribe(self._on_change)
        self._skip_events()
        self._rebuild_all(spec)

    def apply_change(self, spec: dict[str, Any], changed_addresses: Iterable[str]) -> None:
        """Re-show an edited spec in place (Runtime.replace: pager pages kept, the new spec's state
        wins): nodes at `changed_addresses` are replaced (only their delegate subtrees rebuild),
        any other node whose own fields differ is updated in place."""
        root = self._tree.root
        if self._runtime is None or root is None:
            self.set_spec(spec)
            return
        self._check_showable(spec)
        self._check_assets(spec, fresh=False)
        old_spec = self._runtime.spec
        old_state = dict(self._runtime.state)
        old_pages = dict(self._runtime.pages)
        self._replacing = True
        try:
            self._runtime.replace(spec)
        finally:
            self._replacing = False
        window_changed = old_spec.get("window") != spec.get("window")
        changed = set(changed_addresses)
        new_root = spec["root"]
        if self._refusal or "root" in changed or not same_shape(root.node, new_root):
            self._rebuild_all(spec)
            return
        self._tree.reset_addresses(spec)
        self._sync(root, new_root, changed)
        # Also without a theme edit: the leading chain's background may have changed.
        self._refresh_theme()
        if window_changed:
            # The layout's view of the window first, then the scene's bindings settle on the new
            # window before the root is laid out in it (`SceneTree.held`).
            self._sync_tree_env()
            with self._tree.held():
                self.windowChanged.emit()
                self.insetsChanged.emit()
        # Only the bindings that read state or pages the re-show changed are re-evaluated.
        state = self._runtime.state
        keys = {k for k in set(old_state) | set(state) if old_state.get(k) != state.get(k)}
        pages = self._runtime.pages
        pagers = {p for p in set(old_pages) | set(pages) if old_pages.get(p) != pages.get(p)}
        self._bump(keys, pagers, now=True)
        self._tree.relayout()

    @property
    def show_refusal(self) -> str:
        """Why the phone would show nothing of the spec shown (one line), else "". The window is
        then not drawn, as on the phone, whose host refuses the show (`studio.spec.anchors`)."""
        return self._refusal

    @property
    def missing_assets(self) -> list[str]:
        """The asset ids the shown spec references (hidden nodes and other pages too) that the
        asset folder lacks, in first-use order: what the phone's show reply lists as
        `missingAssets` (PrototypeController.kt `missingAssets`, IM `prototypeAssetReferences`).
        Their images draw as the placeholder, on the phone as here."""
        if self._assets_due:
            self._run_asset_check()
        return list(self._missing)

    def _check_assets(self, spec: Mapping[str, Any], *, fresh: bool) -> None:
        """The phone checks the references on every show; here a fresh show looks again, and an
        edit only when it changed what the tree references (an edit re-walks only its path).
        A fresh show's check walks the whole tree, which the first frame of a big spec must
        not pay for (the preview makes only what is on screen): with a window, it runs once
        that frame is drawn."""
        self._assets_root = spec.get("root")
        if fresh:
            self._assets_fresh = True
            self._assets_due = self._tree.frames
            if not self._assets_due:
                self._run_asset_check()
        elif not self._assets_due:  # else the check still to come reads this tree
            self._run_asset_check()

    def _run_asset_check(self) -> None:
        fresh, self._assets_fresh, self._assets_due = self._assets_fresh, False, False
        root = self._assets_root
        refs = tuple(asset_references(self._asset_facts.update(root))) if is_node(root) else ()
        if not fresh and refs == self._references:
            return
        self._references = refs
        missing = [asset_id for asset_id in refs if not self._has_asset(asset_id)]
        if fresh or missing != self._missing:
            self._missing = missing
            self.missingAssetsChanged.emit(list(missing))

    def _assets_after_frame(self) -> None:
        if self._assets_due:
            self._run_asset_check()

    def _has_asset(self, asset_id: str) -> bool:
        path = self._asset_resolver(asset_id) if self._asset_resolver is not None else None
        return path is not None and Path(path).is_file()

    def _check_showable(self, spec: Mapping[str, Any]) -> None:
        refusal = show_refusal(spec) or ""
        if refusal != self._refusal:
            self._refusal = refusal
            with self._tree.held():  # the window shows or hides: laid out once it has
                self.windowChanged.emit()
            self.showRefusalChanged.emit(refusal)

    def _sync(self, ln: LNode, node: dict[str, Any], changed: set[str]) -> None:
        """Bring `ln` (and its subtree) up to `node`. Equal subtrees are skipped at C speed."""
        if node is ln.node:
            return
        if node == ln.node:
            ln.node = node  # the shared subtree's identity, for the next edit's `is` check
            return
        # An edit is no state change of the running prototype: a container on its path takes
        # its new size at once (studio.preview.sizing animates what the runtime changes).
        ln.extra.pop("size", None)
        if (
            node.get("id") != ln.node.get("id")
            or (not ln.scope and self._tree.address(ln) in changed)
            or _animates(node) != _animates(ln.node)
        ):
            self._replace(ln, node)
            return
        old = ln.node
        ln.node = node
        if own_fields(old) != own_fields(node):
            self._tree.reindex(ln)
            ln.invalidate()
            if ln.obj is not None:
                ln.obj.refresh()
                ln.obj.bump()
        if not ln.kids_made:
            return  # never laid out: its children are made from the new node when needed
        kids = ln.built_kids
        if node.get("repeat") is not None:
            entries = child_entries(node, ln.path)
            if len(entries) != len(kids) or any(
                k.path in changed or not same_shape(k.node, c)
                for k, (c, _, _) in zip(kids, entries, strict=False)
            ):
                self._replace(ln, node)
                return
            for kid, (child, _, _) in zip(kids, entries, strict=True):
                self._sync(kid, child, changed)
            return
        children = (
            [node["child"]] if isinstance(node.get("child"), dict) else node.get("children") or []
        )
        for kid, child in zip(kids, children, strict=True):
            if child is kid.node:  # an unchanged subtree the edit shares (specs are values)
                continue
            if same_shape(kid.node, child):
                self._sync(kid, child, changed)
            else:
                self._replace(kid, child)

    def _replace(self, ln: LNode, node: dict[str, Any]) -> None:
        """A new subtree for `ln` (its delegate reloads); a node whose type or address changed
        is rebuilt by its parent instead (addresses are fixed per object), and so is one that
        gained or lost its `visibleWhen` (its delegate's kind changes: Kids.qml)."""
        obj = ln.obj
        moved = obj is not None and self._tree.address_for(ln, node) != obj.address
        kind = obj is not None and (
            node.get("type") != ln.type or _animates(node) != _animates(ln.node)
        )
        if moved or kind:
            if ln.parent is not None:
                self._replace(ln.parent, ln.parent.node)
                return
            self._rebuild_all(self._runtime.spec if self._runtime else {"root": node})
            return
        self._tree.replace_subtree(ln, node)

    def _device_appearance(self) -> str:
        """The device's light/dark: the preview's switch; "system" follows the desktop."""
        if self._appearance in ("light", "dark"):
            return self._appearance
        from PySide6.QtCore import Qt
        from PySide6.QtGui import QGuiApplication

        app = QGuiApplication.instance()
        hints = app.styleHints() if isinstance(app, QGuiApplication) else None
        dark = hints is not None and hints.colorScheme() == Qt.ColorScheme.Dark
        return "dark" if dark else "light"

    def _build_scheme(self, spec: dict[str, Any]) -> Scheme:
        runtime = self._runtime if self._runtime is not None and spec.get("root") else None
        return build_scheme(spec, self._device_appearance(), runtime)

    def _rebuild_all(self, spec: dict[str, Any]) -> None:
        self._scheme = self._build_scheme(spec)
        self._palette.set_colors(self._scheme.colors)
        self._theme_rev += 1
        self._sync_tree_env()
        self._tree.measurer.reset()
        # The scene settles on the new window first; then the new tree is laid out once in it.
        with self._tree.held():
            self.themeChanged.emit()
            self.windowChanged.emit()
            self.insetsChanged.emit()
            # A spec the phone would refuse builds no scene: nothing shown, nothing to tap.
            self._root = self._tree.show(_NOTHING if self._refusal else spec)
        self.rootChanged.emit()

    def _sync_tree_env(self) -> None:
        """What the layout reads of the device, window and modes."""
        tree = self._tree
        insets = self._get_insets()
        if self._rtl:
            # The insets' start and end are the screen's left and right; right to left, a
            # node's start edge (`WindowInsetsSides.Start`) takes the right one.
            insets = {k: {**v, "start": v["end"], "end": v["start"]} for k, v in insets.items()}
        tree.insets = insets
        tree.rtl = self._rtl
        tree.density = self._device.density
        tree.device_width = self._device.width
        tree.device_height = self._device.height
        tree.clock24 = self._clock24
        tree.motion = bool(self._get_motion())
        tree.animator_scale = self._animator_scale
        tree.edit_mode = self._edit_mode
        tree.floating = self._get_window().get("type") == "floating"

    def reset_state(self) -> None:
        if self._runtime is not None:
            self._runtime.reset()
            self._skip_events()
            self._tree.invalidate_all()
            self._schedule_layout()

    def _skip_events(self) -> None:
        events = self._runtime.events if self._runtime is not None else []
        self._last_sequence = max((int(e.sequence) for e in events), default=-1)

    def _flush_events(self) -> None:
        """Emit `runtimeEvent` for every runtime event not emitted yet, oldest first."""
        if self._runtime is None:
            return
        for event in self._runtime.events:
            if int(event.sequence) > self._last_sequence:
                self._last_sequence = int(event.sequence)
                self.runtimeEvent.emit(event)

    def _on_change(self, change: Any) -> None:
        if self._replacing:  # apply_change works out what the re-show changed itself
            return
        if change.refusal is not None:
            # No event on the phone (RT `plannedWrites`), so a studio-only notice and log line.
            log.info("preview: refused write: %s", change.refusal.message)
            self.runtimeRefused.emit(change.refusal)
        self._flush_events()
        if self._runtime is not None and self._runtime.active != self._shown_active:
            self._shown_active = self._runtime.active
            self.windowChanged.emit()
        if change.spec or change.data:
            self._tree.invalidate_all()
            self._schedule_layout()
            return
        # Laid out now, as the bindings of the old scene re-evaluated: what a tap or a state
        # write shows (or hides, without motion) is there before the caller looks again.
        self._bump(change.keys, change.pagers, now=True)
        self._tree.relayout()
        # The leading chain (visibility, styles, pages) may have repainted the screen colour.
        self._refresh_theme()

    def _bump(self, keys: Iterable[str], pagers: Iterable[str], *, now: bool = False) -> None:
        """Re-evaluate the nodes that read these state keys or pagers, then lay out again."""
        keys, pagers = list(keys), list(pagers)
        if not keys and not pagers:
            return
        self._tree.invalidate(self._tree.touched(keys, pagers))
        if not now:
            self._schedule_layout()

    # -- layout scheduling --------------------------------------------------------------------
    def _schedule_layout(self) -> None:
        """Lay out in the next event-loop pass (many changes of one pass, one layout)."""
        if not self._layout_timer.isActive():
            self._layout_timer.start()

    def _run_layout(self) -> None:
        self._tree.relayout()

    @property
    def layouts_queued(self) -> int:
        """Layouts waiting to run (0 when the scene has settled)."""
        return int(self._layout_timer.isActive())

    # -- theme / device / edit mode -----------------------------------------------------
    def set_asset_resolver(self, resolver: AssetResolver | None) -> None:
        """Where image and font asset ids are looked up (for the next shown spec)."""
        self._asset_resolver = resolver
        self._fonts = {k: v for k, v in self._fonts.items() if k.startswith("__icons__")}
        self._styles = {}

    def set_appearance(self, appearance: str) -> None:
        """The device's light/dark setting changed (the preview's switch stands for it): the
        prototype re-themes, and when its resolved mode flips the runtime sends one
        `appearance_changed {mode, source}` (PrototypeController.kt `syncAppearance`)."""
        was_dark = self._scheme.dark
        self._appearance = appearance
        self._refresh_theme()
        self.sync_appearance(was_dark)

    def sync_appearance(self, was_dark: bool) -> None:
        """After a re-theme outside a new show (the device setting, or an interaction that changed
        the background the mode is inferred from): one `appearance_changed` when the resolved
        mode is no longer `was_dark`'s, none otherwise (PC `syncAppearance`: "A changed mode
        sends exactly one appearance_changed event; an unchanged one sends nothing")."""
        rt = self._runtime
        if rt is None or self._scheme.dark == was_dark:
            return
        rt.appearance_changed("dark" if self._scheme.dark else "light", self._scheme.source)
        self._flush_events()

    def _refresh_theme(self) -> None:
        spec = self._runtime.spec if self._runtime else {}
        previous = self._scheme
        self._scheme = self._build_scheme(spec)
        if self._scheme == previous:
            return
        self._palette.set_colors(self._scheme.colors)
        self._theme_rev += 1
        self.keepingViews.emit()
        self.themeChanged.emit()
        self._tree.restyle(sizes=not same_sizes(previous, self._scheme))

    @property
    def scheme(self) -> Scheme:
        return self._scheme

    def set_edit_mode(self, on: bool) -> None:
        self._edit_mode = bool(on)
        self._sync_tree_env()
        self.editModeChanged.emit()

    def set_selected(self, address: str | None) -> None:
        self._selected = address or ""
        self.selectionChanged.emit()

    def set_highlighted(self, addresses: Iterable[str]) -> None:
        self._highlighted = list(addresses)
        self.selectionChanged.emit()

    def set_device_size(self, width: float, height: float) -> None:
        self._device = profile_for(width, height)
        self._sync_tree_env()
        # One layout, on the settled screen (a rotation moves an anchored floating window, which
        # moves the content area the anchors are placed from).
        with self._tree.held():
            self.deviceChanged.emit()
            self.insetsChanged.emit()
            self._tree.reinset()

    @property
    def device(self) -> DeviceProfile:
        return self._device

    def set_device_chrome(self, on: bool) -> None:
        """Show or hide the phone's chrome (status and navigation bars, keyboard, AutoMobile's
        dismiss bar); hidden, the window starts at the screen's top edge."""
        if bool(on) != self._device_chrome:
            self._device_chrome = bool(on)
            self.chromeChanged.emit()

    @property
    def device_chrome(self) -> bool:
        return self._device_chrome

    def set_clock24(self, on: bool) -> None:
        """The device's 24-hour setting (`DateFormat.is24HourFormat`), which a time picker
        without `is24Hour` follows; 12-hour by default."""
        self._clock24 = bool(on)
        self._sync_tree_env()
        self.deviceChanged.emit()
        self._tree.invalidate_all()
        self._schedule_layout()

    def set_today(self, day: date | None) -> None:
        """The device's date, which a date picker marks as today (DatePicker.kt
        `HorizontalMonthsList`: `calendarModel.today`, the phone's clock in its own time zone);
        None (the default) stands the host's local date for it. Tests fix it here, as they fix
        the 24-hour setting with `set_clock24`, rather than read the real clock."""
        if day != self._today:
            self._today = day
            self.todayChanged.emit()

    def set_rtl(self, on: bool) -> None:
        """The device's layout direction: right to left stands for an Arabic or Hebrew locale,
        under which AutoMobile's renderer composes (`LocalLayoutDirection` Rtl): every start and
        end swaps sides (layout.py, and the delegates through `rtl`)."""
        if bool(on) == self._rtl:
            return
        self._rtl = bool(on)
        self._sync_tree_env()
        self.deviceChanged.emit()
        # Every text takes the other paragraph direction (bidi.py): delegates re-read theirs
        # (their `rev`), and the layout measures the marked texts again.
        self._tree.invalidate_all()
        self._schedule_layout()

    def set_animator_scale(self, scale: float) -> None:
        """The device's animator duration scale (Settings.Global ANIMATOR_DURATION_SCALE, Developer
        options' "Animator duration scale"; 1 by default), which AutoMobile observes live
        (PrototypeMotion.kt `rememberAnimatorDurationScale`): the next state change, and every
        running animation's next frame, follow it. 0 switches motion off exactly as the spec's
        `motion: "none"` does (`prototypeMotionEnabled`); another scale stretches every Compose
        animation's time by it (animation-core SuspendAnimation.kt `doAnimationFrameWithScale`:
        play time = frame time since the start / `MotionDurationScale`), the ripple's too (the
        platform's animators: ValueAnimator `setDuration` times `sDurationScale`)."""
        scale = float(scale)
        if not math.isfinite(scale) or scale < 0:
            raise ValueError(f"an animator duration scale is 0 or more, not {scale!r}")
        if scale == self._animator_scale:
            return
        self._animator_scale = scale
        self._sync_tree_env()
        self.motionChanged.emit()
        # Containers animate their size only with motion on (layout.py, studio.preview.sizing):
        # laid out again, a size animation stops where motion goes off.
        self._tree.invalidate_all()
        self._schedule_layout()

    @property
    def animator_scale(self) -> float:
        return self._animator_scale

    # -- what the layout reads (layout.Host, through SceneTree) -----------------------------
    def resolved_style(self, ln: LNode) -> dict[str, Any]:
        """The node's resolved style. Nodes with the same authored style share one dict, whose
        "key" lets QML convert it to a JavaScript object once for all of them (Styles.js): that
        conversion was about a third of a plain delegate's cost. Never mutate the result."""
        node = ln.node
        if "styleWhen" in node:
            style = self._rt().effective_style(node, ln.scope or None)
        else:
            style = node.get("style") or {}
        if self._styles_scheme is not self._scheme:
            self._styles = {}
            self._styles_scheme = self._scheme
        try:
            source = json.dumps(style)
        except (TypeError, ValueError):  # not JSON (never from a validated spec): not shared
            return self._resolve(style)
        out = self._styles.get(source)
        if out is None:
            out = self._resolve(style)
            out["key"] = next(_style_keys)
            self._styles[source] = out
        return out

    def _resolve(self, style: Mapping[str, Any]) -> dict[str, Any]:
        out = resolve_style(style, self._scheme)
        asset = out["text"].get("fontAsset")
        if asset:
            out["text"]["family"] = self._font_asset(asset)
        return out

    def node_shown(self, ln: LNode) -> bool:
        return self._rt().is_visible(ln.node, ln.scope or None)

    def bind_text(self, ln: LNode, value: str) -> str:
        """A node's text as drawn: bound, and in the layout direction (bidi.py `directed`); the
        layout measures it, so it must be what the `text` slot gives the delegate."""
        if value and "{" in value:
            value = self._rt().bind_text(value, ln.scope or None, pager=ln.pager or None)
        return bidi.directed(value, self._rtl)

    def node_value(self, ln: LNode, key: str) -> Any:
        rt = self._rt()
        return rt.value(rt.bind_key(key, ln.scope or None) if "{" in key else key)

    def asset_path(self, value: Any) -> str | None:
        """The file of an image asset id (or `{light, dark}` pair); None when missing."""
        if isinstance(value, dict):
            value = value.get("dark" if self._scheme.dark else "light")
        if not isinstance(value, str) or self._asset_resolver is None:
            return None
        path = self._asset_resolver(value)
        if path is None or not Path(path).is_file():
            return None
        return str(path)

    # -- layout, called from QML -------------------------------------------------------------
    @Slot(QObject)
    def attachMeasure(self, item: QObject) -> None:  # noqa: N802 (QML name)
        """The scene's text measurer (Measure.qml): the layout measures text with it. Its
        window's frames tell the tree when a spec's first frame is drawn."""
        self._tree.measurer.attach(item)
        if isinstance(item, QQuickItem):
            item.windowChanged.connect(self._watch_frames)
            self._watch_frames(item.window())
        self._tree.relayout()

    @Slot(QQuickWindow)
    def _watch_frames(self, window: QQuickWindow | None) -> None:
        if window is None or window is self._frames_from:
            return
        if self._frames_from is not None:
            self._frames_from.afterRendering.disconnect(self._frame_drawn)
        window.afterRendering.connect(self._frame_drawn)  # queued from a render thread
        self._frames_from = window
        self._fingers.watch(window)
        self._tree.frames = True

    @Slot()
    def _frame_drawn(self) -> None:
        self._tree.frame_drawn()
        if self._assets_due:  # out of the frame's own handling, as the rows ahead
            QTimer.singleShot(0, self, self._assets_after_frame)

    @Slot(QQuickItem, result=QPointF)
    def releaseVelocity(self, item: QQuickItem) -> QPointF:  # noqa: N802 (QML name)
        """The finger's velocity as it lifted, in `item`'s dp/s, as Compose's VelocityTracker
        estimates it (fingers.py); a scroll or pager flings with it."""
        return self._fingers.velocity_in(item)

    @Slot(QQuickItem, result=QPointF)
    def releaseTravel(self, item: QQuickItem) -> QPointF:  # noqa: N802 (QML name)
        """How far the finger went from its press to its lift, in `item`'s dp (a pager's
        `upDownDifference`)."""
        return self._fingers.travel_in(item)

    @Slot(float, float)
    def placeRoot(self, max_w: float, max_h: float) -> None:  # noqa: N802 (QML name)
        """The window offers the root this much space (fullscreen and sheets: their area)."""
        self._tree.place_root(max_w, max_h)

    @Slot(float, float)
    def setArea(self, width: float, height: float) -> None:  # noqa: N802 (QML name)
        """The window's content area (where dialogs, sheets and snackbars lay out)."""
        self._tree.set_area(width, height)

    @Slot(float, float)
    def setOrigin(self, x: float, y: float) -> None:  # noqa: N802 (QML name)
        """The window's content area starts here on the screen (anchors are screen dp)."""
        self._tree.set_origin(x, y)

    @Slot(QObject, float, float)
    def scrolled(self, n: NodeObject, x: float, y: float) -> None:
        """A scroll container moved: instantiate what comes into view."""
        if isinstance(n, NodeObject):
            self._tree.scrolled(n.ln, x, y)

    @Slot(QObject, result="QVariantList")
    def scrollOffset(self, n: NodeObject) -> list[float]:  # noqa: N802 (QML name)
        """Where this scroll's view is (x, y): a remade Flickable (a re-theme, an edit of the
        scroll, a row scrolled back into view) starts there, where the layout still has it, as
        the phone's `rememberScrollState` outlives a recomposition."""
        if isinstance(n, NodeObject):
            x, y = n.ln.extra.get("offset", (0.0, 0.0))
            return [float(x), float(y)]
        return [0.0, 0.0]

    @Slot(QObject, str, "QVariant")
    def keepView(self, n: NodeObject, key: str, value: Any) -> None:  # noqa: N802 (QML name)
        """A control's own view state (what the phone remembers in composition: a date picker's
        shown month, a time picker's hour or minute selection, a page move under way), kept
        with the node so that its next delegate starts from it. `None` forgets it. An edit that
        replaces the node forgets it too (`SceneTree.replace_subtree`)."""
        if not isinstance(n, NodeObject):
            return
        kept = n.ln.extra.setdefault("view", {})
        if value is None:
            kept.pop(key, None)
        else:
            kept[key] = value

    @Slot(QObject, str, result="QVariant")
    def keptView(self, n: NodeObject, key: str) -> Any:  # noqa: N802 (QML name)
        """What `keepView` kept under `key` for this node, else None."""
        if not isinstance(n, NodeObject):
            return None
        return n.ln.extra.get("view", {}).get(key)

    @Slot(QObject, float)
    def revealed(self, n: NodeObject, value: float) -> None:
        """A visibleWhen transition's progress (the node grows or shrinks with it)."""
        if isinstance(n, NodeObject):
            self._tree.revealed(n.ln, value)

    @Slot(QObject, int, bool)
    def pageMounted(self, n: NodeObject, index: int, on: bool) -> None:  # noqa: N802
        """A pager made or dropped the delegate of one of its pages."""
        if isinstance(n, NodeObject):
            self._tree.page_mounted(n.ln, index, on)

    # -- properties for QML -----------------------------------------------------------------
    def _get_root(self) -> QObject | None:
        return self._root

    def _get_theme_rev(self) -> int:
        return self._theme_rev

    def _get_colors(self) -> QObject:
        palette: QObject = self._palette
        return palette

    def _get_dark(self) -> int:
        return int(self._scheme.dark)

    def _get_font_family(self) -> str:
        return self._scheme.font_family

    def _get_scale(self) -> float:
        return self._scheme.scale

    def _get_shapes(self) -> dict[str, float]:
        return self._scheme.shape_tokens

    def _get_edit_mode(self) -> int:
        return int(self._edit_mode)

    def _get_selected(self) -> str:
        return self._selected

    def _get_highlighted(self) -> list[str]:
        return list(self._highlighted)

    def _get_window(self) -> dict[str, Any]:
        spec = self._runtime.spec if self._runtime else {}
        window = spec.get("window") or {}
        placement = dict(window.get("placement") or {"type": "fullscreen"})
        if "scrim" in placement:
            placement["scrim"] = self._scheme.color(placement["scrim"])
        placement["opacity"] = float(window.get("opacity", 100)) / 100.0
        placement["persistent"] = window.get("persistence") == "device"
        # A dismissed prototype's window is gone from the phone until it is shown again.
        placement["active"] = (
            self._runtime.active if self._runtime is not None else True
        ) and not self._refusal
        return placement

    def _get_motion(self) -> int:
        # PrototypeMotion.kt `prototypeMotionEnabled`: the spec's motion, and an animator
        # duration scale above 0.
        spec = self._runtime.spec if self._runtime else {}
        return int(spec.get("motion") != "none" and self._animator_scale > 0)

    def _get_animator_scale(self) -> float:
        return self._animator_scale

    def _get_device_width(self) -> float:
        return self._device.width

    def _get_device_height(self) -> float:
        return self._device.height

    def _get_density(self) -> float:
        return self._device.density

    def _get_device_dark(self) -> int:
        return int(self._device_appearance() == "dark")

    def _get_bars(self) -> dict[str, float]:
        d = self._device
        return {"status": d.status_bar, "navigation": d.navigation_bar, "keyboard": d.keyboard}

    def _get_insets(self) -> dict[str, dict[str, float]]:
        from studio.preview.device import window_insets

        return window_insets(self._device, self._get_window(), self.keyboard_up)

    def _get_chrome(self) -> int:
        return int(self._device_chrome)

    def _get_keyboard(self) -> int:
        return int(self.keyboard_up)

    @property
    def keyboard_up(self) -> bool:
        """Whether the simulated keyboard is shown: a text field has the focus and no Back has
        hidden it since."""
        return self._keyboard and not self._ime_hidden

    def _get_clock24(self) -> int:
        return int(self._clock24)

    def _get_today(self) -> str:
        # The host's date is read when a picker asks (a studio left open past midnight shows the
        # old day until the next scene or theme change re-reads it).
        return (self._today or date.today()).isoformat()

    def _get_rtl(self) -> int:
        return int(self._rtl)

    def _get_icon_font(self) -> str:
        return self._icon_family()

    def _get_system_font(self) -> str:
        return fonts.FAMILY

    root = Property(QObject, _get_root, notify=rootChanged)
    themeRev = Property(int, _get_theme_rev, notify=themeChanged)
    colors = Property(QObject, _get_colors, constant=True)
    dark = Property(int, _get_dark, notify=themeChanged)
    fontFamily = Property(str, _get_font_family, notify=themeChanged)
    typeScale = Property(float, _get_scale, notify=themeChanged)
    shapes = Property("QVariantMap", _get_shapes, notify=themeChanged)  # type: ignore[arg-type]
    editMode = Property(int, _get_edit_mode, notify=editModeChanged)
    selected = Property(str, _get_selected, notify=selectionChanged)
    highlighted = Property("QVariantList", _get_highlighted, notify=selectionChanged)  # type: ignore[arg-type]
    window = Property("QVariantMap", _get_window, notify=windowChanged)  # type: ignore[arg-type]
    motion = Property(int, _get_motion, notify=motionChanged)
    #: The device's animator duration scale (`set_animator_scale`): what Compose divides its
    #: animations' play time by (0: they end at once).
    animatorScale = Property(float, _get_animator_scale, notify=motionChanged)
    deviceWidth = Property(float, _get_device_width, notify=deviceChanged)
    deviceHeight = Property(float, _get_device_height, notify=deviceChanged)
    density = Property(float, _get_density, notify=deviceChanged)
    deviceDark = Property(int, _get_device_dark, notify=themeChanged)
    bars = Property("QVariantMap", _get_bars, notify=deviceChanged)  # type: ignore[arg-type]
    insets = Property("QVariantMap", _get_insets, notify=insetsChanged)  # type: ignore[arg-type]
    deviceChrome = Property(int, _get_chrome, notify=chromeChanged)
    keyboard = Property(int, _get_keyboard, notify=insetsChanged)
    clock24 = Property(int, _get_clock24, notify=deviceChanged)
    rtl = Property(int, _get_rtl, notify=deviceChanged)
    #: The device's date as `YYYY-MM-DD` (`set_today`).
    today = Property(str, _get_today, notify=todayChanged)
    iconFont = Property(str, _get_icon_font, constant=True)
    #: The phone's own text (the status bar's clock): Roboto, whatever the prototype's theme says.
    systemFont = Property(str, _get_system_font, constant=True)

    @property
    def text_family(self) -> str:
        """The family the Roboto faces registered as ("" if Qt loaded none of them)."""
        return self._text_family

    def icon_family(self, style: str = "filled") -> str:
        """The family name of one Material Icons style's font (loaded on first use)."""
        return self._icon_family(style)

    def icon_families(self) -> frozenset[str]:
        """Every icon font family (what `inspect` must not read as text)."""
        return frozenset(self._icon_family(style) for style in icons.STYLES)

    def _icon_family(self, style: str = "filled") -> str:
        slot = "__icons__" + style
        if slot not in self._fonts:
            font_id = QFontDatabase.addApplicationFont(str(icons.font_path(style)))
            families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
            self._fonts[slot] = families[0] if families else ""
        return self._fonts[slot]

    @Slot(str, result=str)
    def iconFamily(self, variant: str) -> str:  # noqa: N802 (QML name)
        """The font family that draws a node's icon `variant` (TwoTone: the Outlined font; its
        fill layer uses `iconFont`, the Filled one)."""
        style = icons.style_of(variant or None)
        return self._icon_family("outlined" if style == "twoTone" else style)

    # -- bindings, called from QML --------------------------------------------------------
    # Booleans cross into QML as ints (QML coerces them); written while chasing PySide6 6.12.0's
    # bool/None refcount bugs on Python 3.11 (now excluded by the pin in pyproject.toml).
    def _rt(self) -> Runtime:
        assert self._runtime is not None
        return self._runtime

    @Slot(QObject, str, result=str)
    def text(self, n: NodeObject, value: str) -> str:
        """A node's text as drawn: bound, and in the layout direction (as `bind_text`)."""
        if not value:
            return value or ""
        return bidi.directed(
            self._rt().bind_text(value, n._scope or None, pager=n._pager or None), self._rtl
        )

    @Slot(str, result=str)
    def directed(self, value: str) -> str:
        """An unbound text (a text field's placeholder) in the layout direction."""
        return bidi.directed(value, self._rtl)

    def _font_asset(self, asset_id: str) -> str:
        if asset_id not in self._fonts:
            path = self._asset_resolver(asset_id) if self._asset_resolver else None
            family = ""
            if path is not None and Path(path).is_file():
                font_id = QFontDatabase.addApplicationFont(str(path))
                families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
                family = families[0] if families else ""
            self._fonts[asset_id] = family
        return self._fonts[asset_id]

    @Slot(QObject, str, result="QVariant")
    def value(self, n: NodeObject, key: str) -> Any:
        if not key:
            return None
        rt = self._rt()
        return rt.value(rt.bind_key(key, n._scope or None) if "{" in key else key)

    @Slot(QObject, str, "QVariant", result=int)
    def setValue(self, n: NodeObject, key: str, value: Any) -> int:  # noqa: N802 (QML name)
        """A control's write. Returns 0 when the runtime refused it (a StateWriteError never
        escapes the slot: the runtime noted a Refusal and re-announced the key, so
        the control re-reads its value; controls that keep their own state reset it on 0)."""
        if self._edit_mode or not key:
            return 1
        rt = self._rt()
        concrete = rt.bind_key(key, n._scope or None) if "{" in key else key
        current = rt.value(concrete)
        if isinstance(current, bool):
            value = bool(value)
        elif isinstance(current, int) and isinstance(value, float) and value.is_integer():
            value = int(value)
        elif isinstance(current, float) and isinstance(value, int | float):
            value = float(value)
        if isinstance(value, float) and not math.isfinite(value):
            return 0
        if current == value and type(current) is type(value):
            return 1
        try:
            rt.set_value(concrete, value)
        except StateWriteError:
            n.bump()  # re-read even when the key is read under another (templated) name
            return 0
        return 1

    @Slot(QObject, str)
    def tap(self, n: NodeObject, part: str) -> None:
        """Run the actions of a node (`part` "": its onTap; "confirm", "dismiss", "action",
        "navigationIcon", "actions.<i>": a sub-part's onTap)."""
        if self._edit_mode:
            self.nodeClicked.emit(n._address)
            return
        actions = self._actions(n.node, part)
        if actions:
            self.run_actions(actions, n._scope or None)

    def run_actions(self, actions: list[dict[str, Any]], scope: Mapping[str, Any] | None) -> None:
        requests = self._rt().run_actions(actions, scope)
        self._flush_events()
        for request in requests:
            self.platformRequested.emit(request)

    @staticmethod
    def _actions(node: Mapping[str, Any], part: str) -> list[dict[str, Any]]:
        owner: Any = node
        if part:
            name, _, index = part.partition(".")
            owner = node.get(name)
            if index and isinstance(owner, list):
                owner = owner[int(index)] if int(index) < len(owner) else None
        actions = owner.get("onTap") if isinstance(owner, dict) else None
        return list(actions) if isinstance(actions, list) else []

    @Slot(QObject, result=int)
    def isOpen(self, n: NodeObject) -> int:  # noqa: N802
        return int(self._rt().is_open(n.node))

    @Slot(QObject, str, bool)
    def setOpen(self, n: NodeObject, reason: str, open_: bool) -> None:  # noqa: N802
        """Open or close a dialog/sheet/snackbar by writing its openWhen key (closing: RT
        `close`, only when it is open now)."""
        if self._edit_mode:
            return
        when = n.node.get("openWhen") or {}
        rt = self._rt()
        if not open_:
            rt.close(when, n._scope or None)
            return
        key = when.get("key")
        if isinstance(key, str) and key in rt.state and isinstance(when.get("equals"), bool):
            self._guarded(lambda: rt.set_value(key, when["equals"]))

    @Slot(QObject, str)
    def closeOverlay(self, n: NodeObject, part: str) -> None:  # noqa: N802
        """A dialog or snackbar button (`part` confirm, dismiss, action) closes its modal first
        and then runs the button's actions (RT `CloseModal`); a scrim tap, a swipe past the
        lowest detent or a timeout (any other `part`) only closes it (RT `SheetDismiss`)."""
        if self._edit_mode:
            self.nodeClicked.emit(n._address)
            return
        when = n.node.get("openWhen") or {}
        scope = n._scope or None
        if part in ("confirm", "dismiss", "action"):
            self._requests(self._rt().close_then(when, self._actions(n.node, part), scope))
        else:
            self._rt().close(when, scope)
        self._flush_events()

    # -- controls: the control's own write, then its onTap (PrototypeRuntime.kt `handle`) ------
    def _concrete(self, n: NodeObject, key: str) -> str:
        return self._rt().bind_key(key, n._scope or None) if "{" in key else key

    def _requests(self, requests: Iterable[Any]) -> None:
        self._flush_events()
        for request in requests:
            self.platformRequested.emit(request)

    def _guarded(self, write: Callable[[], object]) -> None:
        try:
            write()
        except StateWriteError:
            pass  # noted as a Refusal; the control re-reads its value

    @Slot(QObject, str)
    def toggle(self, n: NodeObject, key: str) -> None:
        """A switch/checkbox row, filter chip or toggle list item tapped (RT `Toggle`)."""
        if self._edit_mode:
            self.nodeClicked.emit(n._address)
            return
        if key:
            rt = self._rt()
            self._requests(
                rt.toggle(self._concrete(n, key), self._actions(n.node, ""), n._scope or None)
            )
            n.bump()

    @Slot(QObject, str, str)
    def choose(self, n: NodeObject, key: str, value: str) -> None:
        """A radio option, segment or date picked (RT `Choose`)."""
        if self._edit_mode or not key:
            return
        rt = self._rt()
        self._requests(
            rt.choose(self._concrete(n, key), value, self._actions(n.node, ""), n._scope or None)
        )
        n.bump()

    @Slot(QObject, str, float)
    def slide(self, n: NodeObject, key: str, value: float) -> None:
        """A slider moved (RT `Slide`); a non-finite value is ignored."""
        if self._edit_mode or not key or not math.isfinite(value):
            return
        rt = self._rt()
        concrete = self._concrete(n, key)
        current = rt.value(concrete)
        number: float | int = (
            int(value) if isinstance(current, int) and value.is_integer() else value
        )
        self._requests(rt.slide(concrete, number, self._actions(n.node, ""), n._scope or None))
        n.bump()

    @Slot(QObject, int, int)
    def setTime(self, n: NodeObject, hour: int, minute: int) -> None:  # noqa: N802
        """A time picker settled on hour:minute (RT `SetTime`)."""
        if self._edit_mode:
            return
        hour_key, minute_key = n.node.get("hourKey"), n.node.get("minuteKey")
        if not isinstance(hour_key, str) or not isinstance(minute_key, str):
            return
        rt = self._rt()
        self._requests(
            rt.set_time(
                self._concrete(n, hour_key),
                self._concrete(n, minute_key),
                hour,
                minute,
                self._actions(n.node, ""),
                n._scope or None,
            )
        )
        n.bump()

    @Slot(QObject, int)
    def select(self, n: NodeObject, index: int) -> None:
        """A tab or navigation item tapped (RT `Select`): its pager or key, then onTap."""
        if self._edit_mode:
            self.nodeClicked.emit(n._address)
            return
        pager, key = n.node.get("pager"), n.node.get("stateKey")
        rt = self._rt()
        self._requests(
            rt.select(
                pager if isinstance(pager, str) else None,
                self._concrete(n, key)
                if isinstance(key, str) and not isinstance(pager, str)
                else None,
                index,
                self._actions(n.node, ""),
                n._scope or None,
            )
        )
        n.bump()

    @Slot(str, result=int)
    def page(self, pager: str) -> int:
        return int(self._rt().pages.get(pager, 0)) if pager else 0

    @Slot(str, int)
    def setPage(self, pager: str, page: int) -> None:  # noqa: N802
        if self._edit_mode or not pager:
            return
        rt = self._rt()
        if int(rt.pages.get(pager, 0)) != page:
            rt.set_page(pager, page)

    @Slot("QVariant", result=str)
    def color(self, value: Any) -> str:
        return self._scheme.color(value)

    @Slot(str, result=str)
    def glyph(self, name: str) -> str:
        """The Filled glyph of a Material icon name; "" for a name the phone does not have."""
        return icons.glyph(name) if name else ""

    @Slot(str, str, result=str)
    def glyphOf(self, name: str, variant: str) -> str:  # noqa: N802 (QML name)
        """The glyph of `name` in a `variant` (IC `prototypeIcon(name, variant)`)."""
        return icons.glyph(name, variant or None) if name else ""

    @Slot(str, result=str)
    def twoToneFill(self, name: str) -> str:  # noqa: N802 (QML name)
        """The TwoTone fill layer of `name` (its Filled glyph), drawn under the outline."""
        return icons.two_tone(name)[0] if name else ""

    @Slot("QVariant", result=str)
    def asset(self, value: Any) -> str:
        """A file URL for an image asset id (or `{light, dark}` pair); "" when missing."""
        if isinstance(value, dict):
            value = value.get("dark" if self._scheme.dark else "light")
        if not isinstance(value, str) or self._asset_resolver is None:
            return ""
        path = self._asset_resolver(value)
        if path is None or not Path(path).is_file():
            return ""
        return QUrl.fromLocalFile(str(path)).toString()

    @Slot(str, result="QVariantMap")
    def typeRole(self, role: str) -> dict[str, float]:  # noqa: N802
        """A Material type role, scaled; "plain" is a text node without a `textStyle`."""
        return self._scheme.plain_text() if role == "plain" else self._scheme.type_role(role)

    @Slot(str, result=str)
    def contentColorFor(self, background: str) -> str:  # noqa: N802
        """The scheme's content colour for a container colour ("" when it is no scheme colour)."""
        return self._scheme.content_color(self._scheme.color(background, "")) if background else ""

    def attach_engine(self, engine: Any) -> None:
        """The QML engine showing this controller's scene (image providers, text measuring)."""
        self._engine = engine

    @Slot(str, result=str)
    def roundedImage(self, job: str) -> str:  # noqa: N802
        """The `image://rounded/` URL of an image drawn into its box with rounded corners
        (`job`: JSON {url, w, h, scale, radii, ratio}); registers the provider on first use."""
        engine = self._engine
        if engine is None:
            return ""
        from urllib.parse import quote

        from studio.preview.scene import add_rounded_images

        add_rounded_images(engine)
        return "image://rounded/" + quote(job, safe="")

    @Slot(float, float, float, float, str, float, result="QVariantMap")
    def shadow(  # noqa: PLR0913 (the caster's elevation, shape and size, colour, pixel ratio)
        self, elevation: float, radius: float, width: float, height: float, color: str, ratio: float
    ) -> dict[str, Any]:
        """What Shadow.qml draws for a caster `elevation` dp up (`studio.preview.shadow`: its
        ambient and spot layers as `image://shadow/` nine-patches, the spot offset factor and the
        light's position); registers the provider on first use."""
        engine = self._engine
        if engine is None:
            return {}
        from studio.preview.scene import add_shadow_images
        from studio.preview.shadow import shadow_layers

        add_shadow_images(engine)
        device = (self._device.width, self._device.height, self._device.density)
        return shadow_layers(
            round(elevation, 3), round(radius, 3), round(width, 2), round(height, 2), color,
            round(ratio, 3), device,
        )  # fmt: skip

    @Slot()
    def dismissWindow(self) -> None:  # noqa: N802
        """AutoMobile's dismiss bar or Close control: the person holding the phone closed it."""
        if self._edit_mode or self._runtime is None:
            return
        self._runtime.dismiss("user")

    @Slot(bool)
    def setKeyboard(self, shown: bool) -> None:  # noqa: N802
        """A text field took or lost the focus: the simulated keyboard shows or hides."""
        if bool(shown) != self._keyboard:
            was = self.keyboard_up
            self._keyboard = bool(shown)
            self._ime_hidden = False
            self._keyboard_moved(was)

    @Slot(QObject, bool)
    def fieldFocus(self, n: NodeObject, on: bool) -> None:  # noqa: N802 (QML name)
        """A text field took or lost the focus: while it has it, it stays made when a scroll
        moves it out of view (`SceneTree.focus`)."""
        if not isinstance(n, NodeObject):
            return
        if on:
            self._tree.focus(n.ln)
        elif self._tree.focused is n.ln:
            self._tree.focus(None)

    @Slot()
    def fieldTapped(self) -> None:  # noqa: N802
        """A tap on a text field: a keyboard Back hid shows again (Compose's text field asks
        for it on every tap, `CoreTextField`'s tap gesture `showSoftwareKeyboard`)."""
        if self._ime_hidden:
            self._ime_hidden = False
            self._keyboard_moved(False)

    def _keyboard_moved(self, was: bool) -> None:
        if self.keyboard_up != was:
            self._sync_tree_env()
            self.insetsChanged.emit()
            self._tree.reinset()

    def back(self) -> str:
        """The phone's Back (a gesture from the screen's edge, or a hardware keyboard's Escape,
        which Android falls back to Back), as it reaches AutoMobile's window. Returns what it
        did:

        - "keyboard": the keyboard was up, and Back hid it; the field keeps the focus (the
          keyboard takes Back first: HO `AndroidPrototypeBackRegistrar`, a later callback at
          the same priority).
        - "dismissed": a text field is on screen, so the window has the focus and Back
          dismisses the prototype as the person holding the phone (`user`), the dismiss bar's
          path (HO `prototypeBackDecision`, `dismissFromBack`, `onHostDismiss`).
        - "passed": no text field is on screen, so the window is not focusable and Back goes to
          the app behind; the prototype stays (HO PrototypeHost.kt: "Without a visible text
          field the window is not focusable and never sees Back at all").
        - "": edit mode, or no prototype is running.
        """
        if self._edit_mode or self._runtime is None:
            return ""
        if self.keyboard_up:
            self._ime_hidden = True
            self._keyboard_moved(True)
            return "keyboard"
        if self._runtime.active and self._runtime.text_field_on_screen():
            self.dismissWindow()
            return "dismissed"
        return "passed"

    @Slot(str)
    def pick(self, address: str) -> None:
        """Edit mode: the user clicked the node at `address`."""
        self.nodeClicked.emit(address)

    @Slot(QObject)
    def created(self, n: NodeObject) -> None:
        self.delegates_created += 1

    def close(self) -> None:
        """Stop the layout's background work (before the scene goes)."""
        self._layout_timer.stop()
        self._tree.close()


def _animates(node: dict[str, Any]) -> bool:
    """Whether the node's delegate is a MotionDelegate (Kids.qml): it has a `visibleWhen`."""
    return "visibleWhen" in node
