"""What the preview shows of a spec: its layout tree (measured as far as can be seen) and the
NodeObjects of the part that is instantiated, i.e. on screen or about to scroll into view.

The controller owns the runtime and the theme; this module answers the layout's questions about
them (`layout.Host`), runs the layout, and decides what QML instantiates: a node is made when its
slot meets the visible window (the window's content area, narrowed and shifted by each scroll
viewport on the way down, with half a viewport of look-ahead along a scroll's axis) and deleted
when it leaves it. Sizes never depend on what is instantiated: the layout measures nodes from the
spec, so an instantiated node is placed exactly where a fully instantiated scene would put it.
"""

from __future__ import annotations

import math
import time
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QTimer
from PySide6.QtGui import QImageReader

from studio.preview import icons
from studio.preview.anchors import AnchorLayer, AnchorScan, Layered, layered, stopped_short
from studio.preview.clipshape import clip_corners
from studio.preview.layout import EMPTY_BOX, FLOATING, INF, Box4, LNode, bounds_anchor, measure
from studio.preview.measure import QuickMeasurer
from studio.preview.nodes import (
    ANY_KEY,
    LazyAddresses,
    NodeObject,
    child_entries,
    dependencies,
    own_fields,
)
from studio.preview.sizing import ContentSize

if TYPE_CHECKING:
    from studio.preview.controller import PreviewController

Window = tuple[float, float, float, float] | None  # x0, y0, x1, y1 in a node's coordinates
#: The window of a hidden node kept instantiated (it animates in when shown).
_HIDDEN: Window = (0.0, 0.0, -1.0, -1.0)
#: Slack around the visible window (shadows and offsets draw a little outside a node's slot).
_SLACK = 8.0
#: A column with this many children in its flow finds those a window meets by bisection
#: (`_ColumnIndex`) instead of looking at each.
_INDEXED_KIDS = 48
#: How much more of a lazily measured scroll is measured per idle step after the first frame.
_STEP_MS = 6.0
#: Reaching an anchored node's row: the first extra reach (dp), doubled each round, and the most
#: rounds (a 2,000 dp step doubled 30 times is past any spec the limits allow).
_REACH_STEP = 2000.0
_REACH_ROUNDS = 30


class SceneTree:
    """The layout tree of the spec on screen and the NodeObjects of what is instantiated."""

    def __init__(self, controller: PreviewController) -> None:
        self._c = controller
        self.measurer = QuickMeasurer()
        self.insets: dict[str, dict[str, float]] = {}
        self.density = 2.625
        self.device_width = 412.0
        self.device_height = 915.0
        self.clock24 = False
        self.motion = True
        #: The device's animator duration scale: size animations run their time divided by it.
        self.animator_scale = 1.0
        self.edit_mode = False
        #: Instantiate every node (inspection of the whole tree; tests comparing layouts).
        self.eager = False
        #: layout.Host: nodes measured so far. A layout that measured none moved nothing, so
        #: a subtree made last time whose window dependence (`LNode.extent`) the new window
        #: still covers is made the same again and is skipped (`_mount`): a scroll step
        #: visits the rows that come and go, not every row on screen.
        self.measures = 0
        self._mount_key: tuple[Any, ...] | None = None
        self._reuse = False
        #: The device's layout direction is right-to-left (layout.py's module docstring).
        self.rtl = False
        #: Measure the rest of lazily measured scrolls in idle steps (off for a one-shot render
        #: of the first screen, which what is below cannot change).
        self.complete_in_idle = True
        self.root: LNode | None = None
        self.root_obj: NodeObject | None = None
        self._root_max: tuple[float, float] | None = None
        self._area: tuple[float, float] = (0.0, 0.0)
        self._by_key: dict[str, set[LNode]] = defaultdict(set)
        self._lazy_scrolls: set[LNode] = set()
        self._indexed: dict[int, frozenset[str]] = {}
        self._addresses: LazyAddresses | None = None
        self._images: dict[str, tuple[int, int] | None] = {}
        self._completer = QTimer()
        self._completer.setInterval(0)
        self._completer.timeout.connect(self._complete_step)
        #: Instantiate the rows half a viewport ahead of each scroll, so that a scroll step finds
        #: them made (off for a one-shot render, which never scrolls). A new spec's first frame
        #: makes only what can be seen; the rows ahead follow in the next idle pass.
        self.look_ahead = True
        self._ahead_ready = False
        self._ahead = QTimer()
        self._ahead.setSingleShot(True)
        self._ahead.setInterval(0)
        self._ahead.timeout.connect(self._mount_ahead)
        #: Set by the controller once it knows the scene's window: the rows ahead then wait for
        #: `frame_drawn` (the first frame of a spec), not only for the next idle pass, which in a
        #: QQuickWidget comes before its frame (the widget renders from a 5 ms timer).
        self.frames = False
        self._ahead_pending = False
        self.on_layout: Callable[[], None] | None = None
        self._closed = False
        self._holds = 0
        self._held_layout = False
        #: Nodes with a bounds anchor (studio.preview.anchors); `floating`: the window wraps its
        #: root and follows an anchored one; `_origin`: the content area's top-left on the screen.
        self.anchors = AnchorLayer()
        self._has_anchors = False
        #: The text field with the keyboard's focus and its ancestors (`focus`): kept made
        #: wherever a scroll moves them.
        self._focused: list[LNode] = []
        self._kept: frozenset[int] = frozenset()
        self._anchor_scan = AnchorScan()
        self.floating = False
        self._origin = (0.0, 0.0)
        #: Containers' animated content sizes (studio.preview.sizing): those measured in this
        #: layout (`_sized`), those still moving (`_sizing`), ticked once a frame; `_now` is the
        #: time of the layout being made.
        self._sized: set[LNode] = set()
        self._sizing: set[LNode] = set()
        self._now = time.monotonic()
        self._size_ticks = QTimer()
        self._size_ticks.setInterval(16)
        self._size_ticks.timeout.connect(self._tick_sizes)

    # -- layout.Host -------------------------------------------------------------------------
    def style(self, ln: LNode) -> dict[str, Any]:
        if id(ln) not in self._indexed:
            self._index(ln)
        return self._c.resolved_style(ln)

    def shown(self, ln: LNode) -> bool:
        # A hidden node is never measured (its style never read): its keys are indexed here, so
        # that the state showing it reaches it.
        if id(ln) not in self._indexed:
            self._index(ln)
        return self._c.node_shown(ln)

    def text(self, ln: LNode, value: str) -> str:
        return self._c.bind_text(ln, value)

    def value(self, ln: LNode, key: str) -> Any:
        return self._c.node_value(ln, key) if key else None

    def page(self, pager: str) -> int:
        return self._c.page(pager)

    def image_size(self, asset: Any) -> tuple[int, int] | None:
        url = self._c.asset_path(asset)
        if url is None:
            return None
        if url not in self._images:
            reader = QImageReader(url)
            size = reader.size()
            self._images[url] = (
                (size.width(), size.height()) if reader.canRead() and size.isValid() else None
            )
        return self._images[url]

    def glyph_known(self, name: str) -> bool:
        return icons.glyph(name) != ""

    def child_entries(self, ln: LNode) -> list[tuple[dict[str, Any], str, dict[str, Any]]]:
        return child_entries(ln.node, ln.path)

    def content_size(self, ln: LNode, w: float, h: float, partial: bool) -> tuple[float, float]:
        anim = ln.extra.get("size")
        if not isinstance(anim, ContentSize) or partial or anim.partial:
            # The first size is taken as it is; so is a lazily measured content's, which grows
            # as the rest of it is measured (the phone measures it whole at once).
            ln.extra["size"] = ContentSize.at_rest(w, h, 1 / self.density)
            ln.extra["size"].partial = partial
            return w, h
        anim.pending = (w, h)
        self._sized.add(ln)
        return anim.size(self._now, self._size_scale())

    def _settle_sizes(self) -> None:
        """After a layout: each measured container runs to what it measured; tick while any
        moves."""
        now, scale = self._now, self._size_scale()
        for ln in self._sized:
            anim = ln.extra.get("size")
            if isinstance(anim, ContentSize) and anim.commit(now, scale):
                self._sizing.add(ln)
        self._sized.clear()
        root = self.root
        self._sizing = {
            ln for ln in self._sizing
            if _attached(ln, root) and isinstance(anim := ln.extra.get("size"), ContentSize)
            and anim.running(now, scale)
        }  # fmt: skip
        if self._sizing and not self._closed:
            if not self._size_ticks.isActive():
                self._size_ticks.start()
        else:
            self._size_ticks.stop()

    def _size_scale(self) -> float:
        # The animator duration scale the size springs run on; 0 is motion off, where no size
        # animates (layout.py asks for none), so it never divides here.
        return self.animator_scale if self.animator_scale > 0 else 1.0

    def _tick_sizes(self) -> None:
        for ln in self._sizing:
            ln.mark_dirty()
        self.relayout()

    def lazy_scroll(self, ln: LNode) -> None:
        self._lazy_scrolls.add(ln)

    def _lazy(self) -> bool:
        """Whether a scroll in the tree shown still has rows to measure. Kept as a set of the
        scrolls the layout reported (walking the whole tree on every scroll step cost ~3 ms);
        scrolls measured to the end or no longer in the tree are dropped from it."""
        root = self.root
        for ln in list(self._lazy_scrolls):
            if ln.extra.get("lazy_below") and _attached(ln, root):
                return True
            self._lazy_scrolls.discard(ln)
        return False

    # -- the tree ------------------------------------------------------------------------------
    def show(self, spec: dict[str, Any]) -> NodeObject:
        """A new spec's root (the old tree's objects are deleted)."""
        self._completer.stop()
        self._ahead.stop()
        self._ahead_ready = False
        self._ahead_pending = False
        old = self.root_obj
        self._focused, self._kept = [], frozenset()
        self._by_key.clear()
        self._indexed.clear()
        self._images.clear()
        self._lazy_scrolls.clear()
        self._addresses = LazyAddresses(spec)
        self._has_anchors = self._anchor_scan(spec)
        self.anchors.clear()
        self.root = LNode(spec["root"], "root", {}, "", None)
        self.root_obj = self._make(self.root)
        if old is not None:
            self._release(old)
        self.relayout()
        return self.root_obj

    def reset_addresses(self, spec: dict[str, Any]) -> None:
        self._addresses = LazyAddresses(spec)
        self._has_anchors = self._anchor_scan(spec)

    def address(self, ln: LNode) -> str:
        """The node's address in the spec shown (`studio.spec.address`: its id, else its path)."""
        return self.address_for(ln, ln.node)

    def address_for(self, ln: LNode, node: dict[str, Any]) -> str:
        if not node.get("id") or self._addresses is None:
            return ln.path
        return self._addresses.get(ln.path) or ln.path

    def replace_subtree(self, ln: LNode, node: dict[str, Any]) -> None:
        """An edit replaced this node: new fields, children made again; its delegate reloads."""
        self.unindex(ln)
        ln.node = node
        ln.type = str(node.get("type", ""))
        ln.set_kids(None)
        offset = ln.extra.get("offset")
        moved = ln.extra.get("view", {}).get("moved")
        ln.extra.clear()
        if offset is not None and ln.type == "scroll":
            ln.extra["offset"] = offset
            if moved:  # a right-to-left strip the designer moved stays off its start (scroll.qml)
                ln.extra["view"] = {"moved": True}
        ln.invalidate()
        # An edit is no state change of the running prototype: the containers around it take
        # their new size at once (studio.preview.sizing animates what the runtime changes).
        up = ln.parent
        while up is not None:
            up.extra.pop("size", None)
            up = up.parent
        obj = ln.obj
        if obj is not None:
            self._set_kids(obj, [])
            obj.reload()
            obj.bump()

    def reindex(self, ln: LNode) -> None:
        """Its own fields changed: its state keys are read again on its next measure."""
        for key in self._indexed.pop(id(ln), ()):
            self._by_key[key].discard(ln)

    def _make(self, ln: LNode) -> NodeObject:
        # The delegate starts shown or hidden (`reveal` 1 or 0) and reports its transitions.
        ln.reveal = 1.0 if ln.shown(self) else 0.0
        return NodeObject(ln, self.address(ln), self._c)

    def _release(self, obj: NodeObject) -> None:
        """Delete a subtree's objects (its delegates are gone or going with their parent's)."""
        for o in list(obj.walk()):
            if o.ln.obj is o:
                o.ln.obj = None
            o.deleteLater()

    def place_root(self, max_w: float, max_h: float) -> None:
        """The window offers the root this much space (fullscreen and sheets: their area)."""
        if self._root_max != (max_w, max_h):
            self._root_max = (max_w, max_h)
            self.relayout()

    def set_area(self, width: float, height: float) -> None:
        """The window's content area (where overlays lay out)."""
        if self._area != (width, height):
            self._area = (width, height)
            for ln in self._built():
                if ln.floating:
                    ln.mark_dirty()
            self.relayout()

    def set_origin(self, x: float, y: float) -> None:
        """Where the window's content area starts on the screen (anchors are screen dp)."""
        if self._origin != (x, y):
            self._origin = (x, y)
            if self._has_anchors:
                self.relayout()

    def _built(self) -> Iterable[LNode]:
        return self.root.walk() if self.root is not None else ()

    @contextmanager
    def held(self) -> Iterator[None]:
        """Relayouts asked for inside the block run once, when it ends. For a change the scene's
        bindings follow in a cascade (a new window placement): laid out inside it, the root's new
        geometry re-entered the bindings still settling (a QML binding loop), laid out after it,
        the root is placed once in the settled window."""
        self._holds += 1
        try:
            yield
        finally:
            self._holds -= 1
            if not self._holds and self._held_layout:
                self._held_layout = False
                self.relayout()

    def relayout(self) -> None:
        """Measure what changed, then instantiate and place what can be seen."""
        if self._holds:
            self._held_layout = True
            return
        root = self.root
        if root is None or self._root_max is None or self.root_obj is None or self._closed:
            return
        if not self.measurer.ready:
            return
        max_w, max_h = self._root_max
        self._now = time.monotonic()
        measure(self, root, (0.0, max_w, 0.0, max_h, 0), INF)
        self._settle_sizes()
        anchored = layered(self, root) if self._has_anchors else []
        if anchored and not self.eager and self._lazy():
            self._reach_anchors(root, anchored)
        area_w = max_w if math.isfinite(max_w) else root.sw
        root.x = (root.sw - root.w) / 2
        if self.rtl and not self.floating and bounds_anchor(root.node) is None:
            # The root wraps at the content area's top-start (HO `PrototypeChrome`: a Box), the
            # top-right right to left; a floating window wraps its root whatever the direction.
            root.x += area_w - root.sw
        root.y = (root.sh - root.h) / 2
        self._place_anchors(root, anchored)
        area_h = max_h if math.isfinite(max_h) else root.sh
        window = (-root.x, -root.y, area_w - root.x, area_h - root.y)
        key = self._mount_state()
        self._reuse = key == self._mount_key and not self._has_anchors
        self._mount(root, None if self.eager else window)
        self._mount_key = self._mount_state()  # an overlay measured while mounting counts
        if self.look_ahead and not self._ahead_ready and not self._ahead.isActive():
            if self.frames:
                self._ahead_pending = True
            else:
                self._ahead.start()
        if self.on_layout is not None:
            self.on_layout()
        if (
            self.complete_in_idle
            and not self.eager
            and self._lazy()
            and not self._completer.isActive()
        ):
            self._completer.start()

    def _mount_state(self) -> tuple[Any, ...]:
        """What decides what `_mount` makes besides the layout's results and the window."""
        return (self.measures, self._ahead_ready, self.rtl, self.eager, self.edit_mode, self.motion)

    def _place_anchors(self, root: LNode, anchored: list[Layered]) -> None:
        """Put an anchored root and the layered anchors where the phone draws them."""
        if not self._has_anchors or self._root_max is None:
            if self.anchors.listed or self.anchors.holders:
                self.anchors.clear()
            return
        self.anchors.place_root(root, self._origin, self.floating, self.rtl)
        self.anchors.place(self, anchored, self._root_max, self._origin)

    def _reach_anchors(self, root: LNode, anchored: list[Layered]) -> None:
        """Measure lazily measured scrolls on (a growing step at a time) until every layered
        anchor's ancestors are laid out: the phone composes all of a scroll, so it draws an
        anchored node from a row far below the first screen (a one-shot render too)."""
        assert self._root_max is not None
        max_w, max_h = self._root_max
        for _ in range(_REACH_ROUNDS):
            scrolls = stopped_short(anchored)
            if not scrolls:
                return
            for ln in scrolls:
                ahead = ln.extra.get("ahead", 0.0)
                ln.extra["ahead"] = ahead + max(_REACH_STEP, ahead)
                ln.mark_dirty()
            measure(self, root, (0.0, max_w, 0.0, max_h, 0), INF)

    def frame_drawn(self) -> None:
        """The scene's window drew a frame: the rows ahead, if a spec's first frame awaited it."""
        if self._ahead_pending and not self._closed:
            self._ahead_pending = False
            self._ahead.start()

    def _mount_ahead(self) -> None:
        """After a spec's first frame: instantiate the rows ahead of each scroll as well."""
        if not self._closed:
            self._ahead_ready = True
            self.relayout()

    def _complete_step(self) -> None:
        """Measure more of what lazily measured scrolls left out (changes nothing placed)."""
        root = self.root
        if root is None or self._root_max is None:
            self._completer.stop()
            return
        start = time.perf_counter()
        while (time.perf_counter() - start) * 1000 < _STEP_MS:
            scrolls = [ln for ln in root.walk() if ln.extra.get("lazy_below")]
            if not scrolls:
                break
            for ln in scrolls:
                ln.extra["ahead"] = ln.extra.get("ahead", 0.0) + 2000.0
                ln.mark_dirty()
            max_w, max_h = self._root_max
            measure(self, root, (0.0, max_w, 0.0, max_h, 0), INF)
        self.relayout_geometry()
        if not self._lazy():
            self._completer.stop()

    def complete_now(self) -> None:
        """Measure everything lazily measured scrolls left out (tests, inspection)."""
        if self.root is not None:
            for ln in self.root.walk():
                if ln.extra.get("lazy_below"):
                    ln.extra["ahead"] = INF
                    ln.mark_dirty()
            self.relayout()
        self._completer.stop()

    @property
    def completing(self) -> bool:
        return self._completer.isActive()

    def relayout_geometry(self) -> None:
        """Re-send the geometry of what is instantiated (after a layout that moved nothing)."""
        self.relayout()

    def _card_radius(self) -> float:
        return self._c.scheme.shape_tokens.get("medium", 12.0)

    def _geo(self, ln: LNode) -> dict[str, Any]:
        """What a delegate reads of its node's layout, with the corners its ancestors' rounded
        clips give it (studio.preview.clipshape)."""
        geo = _geo(ln)
        clip = clip_corners(ln, self.rtl, self._card_radius, layered=id(ln) in self.anchors.listed)
        if clip is not None:
            geo["clip"] = list(clip)
        return geo

    # -- what is instantiated ----------------------------------------------------------------
    def _mount(self, ln: LNode, window: Window) -> Box4 | None:
        """Instantiate and place `ln` and what of its subtree `window` shows. Returns (and keeps
        in `ln.extent`) what the result depended on of the window: None when it culled or cut
        something, else the box (in `ln`'s coordinates) that any window containing it shows
        the same of (EMPTY_BOX: nothing depended on it)."""
        obj = ln.obj
        assert obj is not None
        obj.set_geo(self._geo(ln))
        obj.sync_view()
        kids: list[LNode] = []
        t = ln.type
        extent: Box4 | None = EMPTY_BOX
        if t in FLOATING:
            # Its parent's layout skips it (it takes no space), so its openWhen key is indexed
            # here: opening it must re-evaluate its delegate.
            if id(ln) not in self._indexed:
                self._index(ln)
            self._measure_overlay(ln)
            kids = [k for k in ln.built_kids if k.cons is not None]
            windows: list[Window] = [None] * len(kids)
            places: list[tuple[float, float] | None] = [None] * len(kids)
        elif t == "pager":
            kids = ln.kids(self)
            mounted = set(ln.extra.get("mounted", ()))
            for i, k in enumerate(kids):
                if k.obj is None:
                    k.obj = self._make(k)
                if i in mounted and k.cons is not None:
                    self._mount(k, None)
                else:
                    k.obj.set_geo(self._geo(k))
                    k.extent = None
            self._set_kids(obj, kids)
            ln.extent = EMPTY_BOX
            return ln.extent
        elif t == "scroll":
            kids, windows, extent = self._scroll_kids(ln, window)
            places = [None] * len(kids)
        else:
            kids, windows, places, extent = self._flow_kids(ln, window)
        reuse = self._reuse
        for k, w, at in zip(kids, windows, places, strict=True):
            if w is _HIDDEN or (k.cons is None and not k.floating):
                # a hidden node kept so that showing it animates in: no size, no children yet
                if k.obj is None:
                    self._make(k)
                assert k.obj is not None
                k.obj.set_geo(self._geo(k))
                k.obj.sync_view()
                self._set_kids(k.obj, [])
                k.extent = None
                continue
            if reuse and k.obj is not None and k.extent is not None and _covers(w, k.extent):
                got: Box4 | None = k.extent  # made as this window would make it: as it is
            else:
                if k.obj is None:
                    self._make(k)
                got = self._mount(k, w)
            if extent is not None and at is not None:
                extent = None if got is None else _union(extent, _shifted(got, at))
        self._set_kids(obj, kids)
        ln.extent = extent
        return extent

    def _set_kids(self, obj: NodeObject, kids: list[LNode]) -> None:
        new = [k.obj for k in kids]
        gone = [o for o in obj.children_nodes if o not in new]
        obj.set_kids(new)
        for o in gone:
            self._release(o)

    def _flow_kids(
        self, ln: LNode, window: Window
    ) -> tuple[list[LNode], list[Window], list[tuple[float, float] | None], Box4 | None]:
        """The children `window` shows, their windows and places (where their own coordinates
        start in `ln`'s; None: not placed in this window), and what the choice depended on of
        the window (`_mount`)."""
        index = self._kids_index(ln)
        flow = index.flow_ids
        pl, _, pt, _ = ln.pads
        kids: list[LNode] = []
        windows: list[Window] = []
        places: list[tuple[float, float] | None] = []
        extent: Box4 | None = EMPTY_BOX
        listed, holders, kept = self.anchors.listed, self.anchors.holders, self._kept
        candidates = ln.built_kids
        if window is not None and not holders and index.spans is not None:
            # A long column: only the children whose slots can meet the window's height are
            # looked at; the others are culled, as the test below would cull them.
            candidates, cut = index.meeting(ln.built_kids, window[1] - _SLACK, window[3] + _SLACK)
            if cut:
                extent = None
                if id(ln) in kept:  # the focused field's row among those culled
                    held = [k for k in ln.built_kids if id(k) in kept and k not in candidates]
                    if held:
                        candidates = sorted([*candidates, *held], key=lambda k: k.index)
        for k in candidates:
            if k.floating:
                kids.append(k)
                windows.append(None)
                places.append(None)
                continue
            if k.layered:
                # Drawn in the anchor layer at its own place, never culled by this window.
                if id(k) in listed and k.cons is not None:
                    kids.append(k)
                    windows.append(None)
                    places.append(None)
                continue
            if id(k) not in flow:
                if "visibleWhen" in k.node and not k.in_flow(self) and not k.floating:
                    kids.append(k)  # kept so that showing it animates in
                    windows.append(_HIDDEN)
                    places.append(None)
                continue
            kst = k.st or {}
            ox, oy = kst.get("ox", 0.0), kst.get("oy", 0.0)
            if self.rtl:
                ox = -ox  # `Modifier.offset` moves a positive x to the left right to left
            left = pl + k.x + ox
            top = pt + k.y + oy
            mx, my = (k.sw - k.w) / 2, (k.sh - k.h) / 2
            box = (left - mx, top - my, left + k.w + mx, top + k.h + my)
            if window is not None:
                x0, y0, x1, y1 = window
                if (
                    (
                        box[0] > x1 + _SLACK
                        or box[1] > y1 + _SLACK
                        or box[2] < x0 - _SLACK
                        or box[3] < y0 - _SLACK
                    )
                    and id(k) not in holders
                    and id(k) not in kept
                ):
                    # an anchored node's ancestor stays made, and the focused field's chain
                    extent = None
                    continue
                windows.append((x0 - left, y0 - top, x1 - left, y1 - top))
            else:
                windows.append(None)
            if extent is not None:
                # Made whole: as long as a window contains it (a slot cut by the window's edge
                # may fall out of the next one).
                extent = _union(extent, box) if _covers(window, box) else None
            kids.append(k)
            places.append((left, top))
        return kids, windows, places, extent

    def _kids_index(self, ln: LNode) -> _ColumnIndex:
        """`ln`'s children as the last layout left them (made again after anything measured)."""
        index = ln.extra.get("kids_index")
        if not isinstance(index, _ColumnIndex) or index.stamp != self.measures:
            index = _ColumnIndex(ln, self.measures)
            ln.extra["kids_index"] = index
        return index

    def _scroll_kids(
        self, ln: LNode, window: Window
    ) -> tuple[list[LNode], list[Window], Box4 | None]:
        """The scroll's child, the window its viewport shows of it (with the look-ahead), and what
        that depended on of `window`: the viewport, unless the window cuts it. A scroll that
        moves makes its chain again (`scrolled`)."""
        kids = ln.built_kids
        child = kids[0] if kids else None
        if child is None or child.cons is None or not child.in_flow(self):
            if child is not None and child.cons is not None:
                return [child], [None], EMPTY_BOX
            return [], [], EMPTY_BOX
        pl, pr, pt, pb = ln.pads
        viewport = (pl, pt, ln.w - pr, ln.h - pb)
        vx0, vy0, vx1, vy1 = viewport
        extent: Box4 | None = viewport if _covers(window, viewport) else None
        if window is not None:
            vx0, vy0 = max(vx0, window[0]), max(vy0, window[1])
            vx1, vy1 = min(vx1, window[2]), min(vy1, window[3])
        horizontal = ln.node.get("axis") == "horizontal"
        ahead = 0.0 if not self._ahead_ready else (vx1 - vx0) / 2 if horizontal else (vy1 - vy0) / 2
        off_x, off_y = ln.extra.get("offset", (0.0, 0.0))
        left = pl - off_x + child.x
        top = pt - off_y + child.y
        if self.eager:
            return [child], [None], EMPTY_BOX
        if horizontal:
            sub = (vx0 - ahead - left, vy0 - top, vx1 + ahead - left, vy1 - top)
        else:
            sub = (vx0 - left, vy0 - ahead - top, vx1 - left, vy1 + ahead - top)
        return [child], [sub], extent

    def _measure_overlay(self, ln: LNode) -> None:
        """A dialog's or sheet's child, measured in the overlay layer (the window's area)."""
        kids = ln.kids(self)
        if not kids:
            return
        child = kids[0]
        if child.layered:
            return  # measured and placed in the anchor layer
        area_w, _ = self._area
        if ln.type == "bottomSheet":
            measure(self, child, (0.0, area_w, 0.0, INF, 0))
            return
        if ln.type != "dialog":
            return
        # MC `RenderPrototypeDialog`: 24 dp from the window's sides, 280..560 dp wide around its
        # content (title, text, child, buttons), 24 dp padding (nodes/dialog.qml).
        m = self.measurer
        props = ln.node
        widest = min(560.0, max(280.0, area_w - 48))
        natural = 0.0
        if props.get("title"):
            natural = max(
                natural, m.role_text(self.text(ln, str(props["title"])), "headlineSmall")[0]
            )
        if props.get("text"):
            natural = max(natural, m.role_text(self.text(ln, str(props["text"])), "bodyMedium")[0])
        buttons = 0.0
        dismiss = props.get("dismiss")
        if isinstance(dismiss, dict):
            buttons += m.button(self.text(ln, str(dismiss.get("label", ""))), "", 12.0, 12.0) + 8
        confirm = props.get("confirm")
        label = self.text(ln, str(confirm.get("label", ""))) if isinstance(confirm, dict) else ""
        buttons += m.button(label, "", 12.0, 12.0)
        natural = max(natural, buttons)
        measure(self, child, (0.0, max(0.0, widest - 48), 0.0, INF, 0))
        if child.shown(self):
            natural = max(natural, child.w)
        card = max(min(280.0, widest), min(widest, natural + 48))
        measure(self, child, (0.0, max(0.0, card - 48), 0.0, INF, 0))

    # -- updates -----------------------------------------------------------------------------
    def _index(self, ln: LNode) -> None:
        fields = own_fields(ln.node)
        keys = set(dependencies(fields, bool(ln.scope)))
        if ln.type == "pager":
            keys.add("pager:" + str(ln.node.get("id", "")))
        elif ln.type in ("tabBar", "bottomNav") and ln.node.get("pager"):
            keys.add("pager:" + str(ln.node["pager"]))
        if ln.pager and any("{page" in str(v) for v in fields.values()):
            keys.add("pager:" + ln.pager)
        frozen = frozenset(keys)
        self._indexed[id(ln)] = frozen
        for key in frozen:
            self._by_key[key].add(ln)

    def unindex(self, ln: LNode) -> None:
        for node in ln.walk():
            for key in self._indexed.pop(id(node), ()):
                self._by_key[key].discard(node)

    def touched(self, keys: Iterable[str], pagers: Iterable[str]) -> set[LNode]:
        out: set[LNode] = set(self._by_key.get(ANY_KEY, ()))
        for key in keys:
            out.update(self._by_key.get(key, ()))
        for pager in pagers:
            out.update(self._by_key.get("pager:" + pager, ()))
        return out

    def invalidate(self, nodes: Iterable[LNode]) -> None:
        """State these nodes read changed: re-read their bindings and measure them again."""
        for ln in nodes:
            ln.invalidate()
            if ln.obj is not None:
                ln.obj.bump()

    def invalidate_all(self) -> None:
        for ln in self._built():
            ln.invalidate()
            if ln.obj is not None:
                ln.obj.bump()

    def restyle(self, sizes: bool = True) -> None:
        """The theme changed: every style and delegate is made again, and with `sizes` (a new type
        scale, font or corner shapes) every text size and node measured again. A change of
        colours alone (the light/dark switch, a repaint of the inferred surface) moves nothing:
        the styles are resolved again in place and only a node whose size follows the
        appearance (an image of a `{light, dark}` asset pair) is measured again."""
        if sizes:
            self.measurer.reset()
            for ln in self._built():
                ln.invalidate()
        else:
            for ln in self._built():
                if ln.st is not None:
                    ln.st = None
                    ln.style(self)
                if ln.type == "image" and isinstance(ln.node.get("asset"), dict):
                    ln.invalidate()
        if self.root_obj is not None:
            # Every object first, then the signals: a parent's new content makes its children's
            # delegates afresh, at the new generation, so each node is made once, not once more
            # for every ancestor above it.
            made = list(self.root_obj.walk())
            for obj in made:
                obj.stale(restyled=not sizes)
            for obj in made:
                obj.announce()
        self.relayout()

    @property
    def focused(self) -> LNode | None:
        """The text field with the focus, if any (`focus`)."""
        return self._focused[0] if self._focused else None

    def focus(self, ln: LNode | None) -> None:
        """A text field took the keyboard's focus (None: no field has it). While it has it, the
        field and its ancestors stay made wherever a scroll moves them, as on the phone, where a
        `verticalScroll` composes all of its content: a focused field scrolled out of view keeps
        the focus, the caret and the keyboard (the preview would otherwise drop its delegate,
        and the focus with it)."""
        chain: list[LNode] = []
        node = ln
        while node is not None:
            chain.append(node)
            node = node.parent
        if chain == self._focused:
            return
        self._focused = chain
        self._kept = frozenset(id(n) for n in chain)
        # No layout here: the focus moves while delegates are being made (a re-theme remakes the
        # field, which takes the focus back). What was kept goes at the next layout.

    def reinset(self) -> None:
        """The simulated insets changed: nodes with `safeAreaPadding` measure again."""
        for ln in self._built():
            if "safeAreaPadding" in ln.node:
                ln.mark_dirty()
        self.relayout()

    def scrolled(self, ln: LNode, x: float, y: float) -> None:
        ln.extra["offset"] = (x, y)
        node: LNode | None = ln
        while node is not None:  # its viewport shows another part: made again down to it
            node.extent = None
            node = node.parent
        if ln.extra.get("lazy_below"):
            ln.mark_dirty()
        self.relayout()

    def revealed(self, ln: LNode, value: float) -> None:
        if ln.reveal != value:
            ln.reveal = value
            ln.mark_dirty()
            self.relayout()

    def page_mounted(self, ln: LNode, index: int, on: bool) -> None:
        mounted = set(ln.extra.get("mounted", ()))
        if (index in mounted) == on:
            return
        if on:
            mounted.add(index)
        else:
            mounted.discard(index)
        ln.extra["mounted"] = tuple(sorted(mounted))
        ln.mark_dirty()
        self.relayout()

    def close(self) -> None:
        """The scene is going: no more layouts (its delegates may still report while they go)."""
        self._closed = True
        self._completer.stop()
        self._ahead.stop()
        self._size_ticks.stop()
        self.measurer.close()


class _ColumnIndex:
    """A container's children as its last layout placed them: which are in its flow and, for a
    long column, the bounds that find by bisection the children whose slots (with their touch
    target and offset) can meet a vertical span. `upto[i]`: the largest bottom y of flow
    children 0..i, `from_[i]`: the smallest top y of flow children i..n; both are non-decreasing
    whatever the offsets do, so every child before `bisect_left(upto, y0)` ends above y0 and
    every child from `bisect_right(from_, y1)` on starts below y1."""

    __slots__ = ("stamp", "flow_ids", "spans", "_flow_at", "_others_at")

    def __init__(self, ln: LNode, stamp: int) -> None:
        self.stamp = stamp
        flow: list[LNode] = ln.extra.get("flow", [])
        self.flow_ids = {id(k) for k in flow}
        self.spans: tuple[list[float], list[float]] | None = None
        self._flow_at: list[int] = []
        self._others_at: list[int] = []
        if ln.type != "column" or len(flow) < _INDEXED_KIDS:
            return
        at = {id(k): i for i, k in enumerate(ln.built_kids)}
        if any(id(k) not in at for k in flow):
            return  # not this layout's children (looked at one by one)
        self._flow_at = [at[id(k)] for k in flow]
        self._others_at = [i for i, k in enumerate(ln.built_kids) if id(k) not in self.flow_ids]
        pt = ln.pads[2]
        tops: list[float] = []
        bottoms: list[float] = []
        for k in flow:
            oy = (k.st or {}).get("oy", 0.0)
            my = (k.sh - k.h) / 2
            top = pt + k.y + oy
            tops.append(top - my)
            bottoms.append(top + k.h + my)
        upto = list(bottoms)
        for i in range(1, len(upto)):
            upto[i] = max(upto[i], upto[i - 1])
        from_ = list(tops)
        for i in range(len(from_) - 2, -1, -1):
            from_[i] = min(from_[i], from_[i + 1])
        self.spans = (upto, from_)

    def meeting(self, built: list[LNode], y0: float, y1: float) -> tuple[list[LNode], bool]:
        """The children to look at for the span y0..y1, in their order (every child outside the
        flow, and the flow children whose slots can meet it), and whether any was left out."""
        assert self.spans is not None
        upto, from_ = self.spans
        first = bisect_left(upto, y0)
        end = bisect_right(from_, y1)
        chosen = self._flow_at[first:end]
        if self._others_at:
            chosen = sorted(chosen + self._others_at)
        return [built[i] for i in chosen], first > 0 or end < len(self._flow_at)


def _covers(window: Window, box: Box4) -> bool:
    """`window` contains `box` (no window: everything is in view)."""
    if window is None:
        return True
    return (
        window[0] <= box[0] and window[1] <= box[1] and box[2] <= window[2] and box[3] <= window[3]
    )


def _union(a: Box4, b: Box4) -> Box4:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _shifted(box: Box4, at: tuple[float, float]) -> Box4:
    return (box[0] + at[0], box[1] + at[1], box[2] + at[0], box[3] + at[1])


def _attached(ln: LNode, root: LNode | None) -> bool:
    """`ln` is still in the tree under `root` (a replaced subtree's nodes are not)."""
    node = ln
    while node.parent is not None:
        if not any(kid is node for kid in node.parent.built_kids):
            return False
        node = node.parent
    return node is root


def _geo(ln: LNode) -> dict[str, Any]:
    """What a delegate reads of its node's layout."""
    pl, pr, pt, pb = ln.pads
    cmin_w, cmax_w, cmin_h, cmax_h = ln.cbox
    geo: dict[str, Any] = {
        "x": ln.x, "y": ln.y, "w": ln.w, "h": ln.h, "sw": ln.sw, "sh": ln.sh,
        "mw": ln.mw, "mh": ln.mh, "cw": ln.cw, "ch": ln.ch, "pl": pl, "pr": pr, "pt": pt, "pb": pb,
        "cMinW": cmin_w, "cMaxW": cmax_w, "cMinH": cmin_h, "cMaxH": cmax_h,
        "fillW": ln.fill_w, "fillH": ln.fill_h, "measured": ln.cons is not None,
    }  # fmt: skip
    extra = ln.extra
    if "window_at" in extra:
        geo["winX"], geo["winY"] = extra["window_at"]
    if ln.type == "scroll" and "content" in extra:
        geo["contentW"], geo["contentH"] = extra["content"]
    elif ln.type == "pager":
        geo["pageW"] = extra.get("pageW", 0.0)
        geo["current"] = extra.get("current", 0)
    return geo
