"""The preview's measuring, as Compose measures (constraints down, sizes up): the one layout engine.

QML only draws: every rendered node's size and place come from here, so a node's size is known
whether or not it is instantiated, and the scene creates only what is on screen (children of a
scroll container as they come into view). The rules are AutoMobile's Compose renderer's, ported
from the QML that measured before: SC `prototypeNodeModifier` / `authoredSizeModifier` (a node's
own constraints: sizeIn, width/height/fill/wrap, aspectRatio, insets and padding, the 48 dp touch
target), RowColumnMeasurePolicy and BoxMeasurePolicy (containers), and each component's Material
size (its node file in resources/qml/nodes/ documents the same numbers; the tests compare both).

Sizes are dp; `INF` is an unbounded constraint. Text is measured by the same Qt Quick text items
that draw it (a `Measurer`, see `studio.preview.measure`), so line breaking cannot differ.

Laziness: a linear container measured with an unbounded main axis (a scroll's column) stops at
`limit`, the far edge of what can be seen, when the layout proves the rest cannot change what is
visible (no weights, start-anchored children, its cross size settled): it is then `partial`, its
size a lower bound, and `complete()` measures the rest later.

Right-to-left (`Host.rtl`, the device's layout direction): the phone composes under
`LocalLayoutDirection` Rtl, where every start/end the renderer uses is relative (`PaddingValues`
start/end, `Alignment.Start`/`TopStart`..., `Arrangement.Start`, AR's gaps counted from the right,
`Modifier.offset`, `WindowInsetsSides.Start`). So a container lays its children out as in
left-to-right and then mirrors their places inside its content box (`mirror_kids`), and a node's
start padding goes on its right; sizes never change.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol

INF = math.inf
#: Material's minimumInteractiveComponentSize.
TOUCH_TARGET = 48.0
#: Node types that own their taps, so the node-level 48 dp reserve is not added for them (SC
#: `prototypeNodeModifier`: textField, the modal, component, selection and material roles).
RESERVE_ROLES = frozenset(
    {
        "textField", "dialog", "snackbar", "bottomSheet", "switch", "checkbox", "button",
        "slider", "chip", "radioGroup", "listItem", "iconButton", "fab", "segmentedButton",
        "timePicker", "datePicker",
    }
)  # fmt: skip
#: Types whose content floats above the window (hoisted into the overlay layer, no flow space).
FLOATING = frozenset({"dialog", "snackbar", "bottomSheet"})
#: Types that take their delegate's click themselves (no node-level tap area).
SELF_TAPPING = frozenset(
    {"button", "iconButton", "fab", "chip", "listItem", "radioGroup", "segmentedButton",
     "tabBar", "bottomNav"}
)  # fmt: skip
#: Components that fill an unsized width (their Compose defaults: fillMaxWidth).
_FILL_W = frozenset({"listItem", "tabBar", "slider", "topAppBar", "bottomNav"})
#: The phone's extra children-bearing containers measured as a plain Column.
_LINEAR = frozenset({"column", "row", "card"})


# -- anchors (PrototypeAnchorLayout.kt) ---------------------------------------------------------


def bounds_anchor(node: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The node's `anchor` when it is a bounds anchor (screen dp); an element anchor needs the
    app behind the prototype to resolve it, which a preview does not have."""
    anchor = node.get("anchor")
    if isinstance(anchor, Mapping) and anchor.get("type") == "bounds":
        bounds = anchor.get("bounds")
        if isinstance(bounds, Mapping):
            return anchor
    return None


def anchor_covers(anchor: Mapping[str, Any]) -> bool:
    """`cover` (the default) lays the node over the bounds, sized to them
    (`prototypeAnchorCovers`)."""
    return anchor.get("alignment") in (None, "cover")


def anchor_cons(anchor: Mapping[str, Any], max_w: float, max_h: float) -> Cons:
    """The constraints an anchored node is measured with (SC `Modifier.prototypeAnchor`): the
    bounds exactly for `cover`, else the whole space the prototype content is given, loose."""
    if anchor_covers(anchor):
        b = anchor["bounds"]
        w = max(0.0, float(b.get("width", 0)))
        h = max(0.0, float(b.get("height", 0)))
        return w, w, h, h, 0
    return 0.0, max_w, 0.0, max_h, 0


def anchor_origin(
    anchor: Mapping[str, Any], slot_w: float, slot_h: float, rtl: bool = False
) -> tuple[float, float]:
    """The top-left, in screen dp, of a node whose slot (its touch target included) is
    `slot_w` x `slot_h` (`prototypeAnchorRect`): cover takes the bounds' corner; an edge
    alignment puts the node's matching edge on the bounds' edge, centred along the other axis,
    start and end following the layout direction (`rtl`: start is the bounds' right edge); the
    bounds and the offset are screen axes in both directions."""
    b = anchor["bounds"]
    left, top = float(b.get("x", 0)), float(b.get("y", 0))
    width, height = float(b.get("width", 0)), float(b.get("height", 0))
    centred_x = left + (width - slot_w) / 2
    centred_y = top + (height - slot_h) / 2
    alignment = anchor.get("alignment") or "cover"
    if rtl and alignment in ("start", "end"):
        alignment = "end" if alignment == "start" else "start"
    x, y = {
        "cover": (left, top),
        "top": (centred_x, top),
        "bottom": (centred_x, top + height - slot_h),
        "start": (left, centred_y),
        "end": (left + width - slot_w, centred_y),
    }.get(alignment, (left, top))
    offset = anchor.get("offset")
    if isinstance(offset, Mapping):
        x += float(offset.get("x", 0))
        y += float(offset.get("y", 0))
    return x, y


def clamp(value: float, lo: float, hi: float) -> float:
    return max(lo, min(hi, value))


def js_round(value: float) -> float:
    """JavaScript's Math.round (halves up), which the QML used."""
    return math.floor(value + 0.5)


# -- the measuring rules (SC `authoredSizeModifier`, Modifier.aspectRatio) ---------------------


def axis(
    cmin: float, cmax: float, smin: float, smax: float, dim: float, fill: bool, weighted: bool
) -> tuple[float, float, bool]:
    """One axis: sizeIn(min, max) constrained into the incoming constraints, then width(dp) /
    fillMax / wrapContent. Returns (min, max, wraps)."""
    lo, hi = cmin, cmax
    s_max = smax if smax >= 0 else INF
    if smax >= 0:
        hi = clamp(smax, cmin, cmax)
    if smin >= 0:
        lo = clamp(min(smin, s_max), cmin, cmax)
    if dim >= 0:
        v = clamp(dim, lo, hi)
        return v, v, False
    if fill:
        return (hi, hi, False) if math.isfinite(hi) else (lo, hi, False)
    # A weighted child's main axis is not wrapped: it takes the weighted space.
    return lo, hi, not weighted


Box = tuple[float, float, bool, float, float, bool]  # min_w, max_w, wrap_w, min_h, max_h, wrap_h


def aspect_box(b: Box, ratio: float) -> Box:
    """Modifier.aspectRatio (matchHeightConstraintsFirst = false): the first of max width, max
    height, min width, min height that gives a size within the constraints, then the same
    without the constraints."""
    min_w0, max_w, wrap_w, min_h0, max_h, wrap_h = b
    min_w = 0.0 if wrap_w else min_w0
    min_h = 0.0 if wrap_h else min_h0

    def fits(w: float, h: float, enforce: bool) -> bool:
        if not (w > 0 and h > 0):
            return False
        return not enforce or (min_w <= w <= max_w and min_h <= h <= max_h)

    for enforce in (True, False):
        tries = []
        if math.isfinite(max_w):
            tries.append((max_w, max_w / ratio))
        if math.isfinite(max_h):
            tries.append((max_h * ratio, max_h))
        tries.append((min_w, min_w / ratio))
        tries.append((min_h * ratio, min_h))
        for w, h in tries:
            if fits(w, h, enforce):
                return w, w, False, h, h, False
    return b


def own_box(
    c: tuple[float, float, float, float, int], st: Mapping[str, Any], fill_w: bool, fill_h: bool
) -> Box:
    """The node's own constraints after sizeIn, width/height (fill, dp, wrap) and aspectRatio."""
    w = axis(c[0], c[1], st["minW"], st["maxW"], st["w"], fill_w, c[4] == 1)
    h = axis(c[2], c[3], st["minH"], st["maxH"], st["h"], fill_h, c[4] == 2)
    b: Box = (w[0], w[1], w[2], h[0], h[1], h[2])
    return aspect_box(b, st["aspect"]) if st["aspect"] > 0 else b


Insets = Mapping[str, Mapping[str, float]]
Edges = tuple[float, float, float, float]  # top, bottom, start, end
_SIDES = (("top", 0), ("bottom", 1), ("start", 2), ("end", 3))


def safe_padding(
    spec: Mapping[str, Any], insets: Insets | None, consumed: Edges | None
) -> tuple[Edges, Edges]:
    """The padding a `safeAreaPadding` adds (the union of its inset types on its edges, less what
    an ancestor consumed) and what it consumes for its children (Compose's windowInsetsPadding)."""
    used = consumed or (0.0, 0.0, 0.0, 0.0)
    pad = [0.0, 0.0, 0.0, 0.0]
    out = list(used)
    types = spec.get("types") or []
    edges = spec.get("edges") or []
    for side, k in _SIDES:
        if side not in edges:
            continue
        most = 0.0
        for kind in types:
            inset = insets.get(kind) if insets else None
            if inset and inset.get(side, 0) > most:
                most = float(inset[side])
        pad[k] = max(0.0, most - used[k])
        out[k] = max(used[k], most)
    return (pad[0], pad[1], pad[2], pad[3]), (out[0], out[1], out[2], out[3])


def arrange(total: float, sizes: list[float], gap: float, arrangement: str) -> list[float]:
    """Prototype arrangement (AR): the gaps are reserved first, the base arrangement spreads what
    is left, then each child moves by its gaps. The start of each child."""
    n = len(sizes)
    free = total - gap * max(0, n - 1) - sum(sizes)
    out: list[float] = []
    pos, between = 0.0, 0.0
    if arrangement == "center":
        pos = free / 2
    elif arrangement == "end":
        pos = free
    elif arrangement == "spaceBetween":
        between = free / (n - 1) if n > 1 else 0.0
    elif arrangement == "spaceAround":
        between = free / n if n > 0 else 0.0
        pos = between / 2
    elif arrangement == "spaceEvenly":
        between = free / (n + 1)
        pos = between
    for i in range(n):
        out.append(pos + gap * i)
        pos += sizes[i] + between
    return out


def align(space: float, size: float, where: str) -> float:
    return (space - size) / 2 if where == "center" else space - size if where == "end" else 0.0


# -- what the engine needs from its owner --------------------------------------------------------


class Measurer(Protocol):
    """Text sizes from the Qt Quick items that draw the text (`studio.preview.measure`)."""

    def styled(
        self, text: str, role: str, ts: Mapping[str, Any], st: Mapping[str, Any], width: float
    ) -> tuple[float, float, float]:
        """StyledText at `width` (INF: unset): (implicitWidth, implicitHeight, advanceWidth)."""
        ...

    def role_text(self, text: str, role: str) -> tuple[float, float]:
        """RoleText without a width: (implicitWidth, implicitHeight)."""
        ...

    def button(self, label: str, icon: str, pad_start: float, pad_end: float) -> float:
        """MButton's implicitWidth."""
        ...

    def field_height(self, text: str) -> float:
        """The text field's TextInput contentHeight."""
        ...


class Host(Protocol):
    """The preview's side of a layout: runtime bindings, theme, device, assets."""

    measurer: Measurer
    insets: Insets
    density: float
    device_width: float
    device_height: float
    clock24: bool
    motion: bool
    edit_mode: bool
    #: Measure everything (no lazy stop): the whole tree is instantiated.
    eager: bool
    #: The device's layout direction is right-to-left (an Arabic or Hebrew locale).
    rtl: bool
    #: Nodes measured so far (counted by `measure`): a layout that measured none moved nothing.
    measures: int

    def style(self, ln: LNode) -> dict[str, Any]: ...
    def shown(self, ln: LNode) -> bool: ...
    def text(self, ln: LNode, value: str) -> str: ...
    def value(self, ln: LNode, key: str) -> Any: ...
    def page(self, pager: str) -> int: ...
    def image_size(self, asset: Any) -> tuple[int, int] | None: ...
    def glyph_known(self, name: str) -> bool: ...
    def child_entries(self, ln: LNode) -> list[tuple[dict[str, Any], str, dict[str, Any]]]: ...
    def lazy_scroll(self, ln: LNode) -> None:
        """This scroll left part of its child unmeasured (`extra["lazy_below"]`)."""

    def content_size(self, ln: LNode, w: float, h: float, partial: bool) -> tuple[float, float]:
        """The size a box, row or column whose content measured `w` x `h` reports now, while
        motion is on (its animateContentSize: studio.preview.sizing). `partial`: measured only
        down to where it can be seen (a lazy scroll's content), which is no change to animate."""


#: The node types whose content size animates (SC `RenderPrototypeNodeContent`'s containerModifier).
_ANIMATES_SIZE = frozenset({"box", "row", "column"})

Cons = tuple[float, float, float, float, int]  # min_w, max_w, min_h, max_h, weight axis
Box4 = tuple[float, float, float, float]  # x0, y0, x1, y1
EMPTY_BOX: Box4 = (INF, INF, -INF, -INF)


class LNode:
    """One spec node in the layout: its node, its measured size and place, made on first use."""

    __slots__ = (
        "node", "path", "scope", "pager", "parent", "type", "_kids", "st", "_shown", "consumed",
        "cons", "limit", "dirty", "partial", "w", "h", "mw", "mh", "sw", "sh", "x", "y", "cw",
        "ch", "pads", "cbox", "fill_w", "fill_h", "reveal", "extra", "obj", "index", "extent",
    )  # fmt: skip

    def __init__(
        self,
        node: dict[str, Any],
        path: str,
        scope: dict[str, Any],
        pager: str,
        parent: LNode | None,
        index: int = 0,
    ) -> None:
        self.node = node
        self.path = path
        self.scope = scope
        self.pager = pager
        self.parent = parent
        self.index = index
        self.type = str(node.get("type", ""))
        self._kids: list[LNode] | None = None
        self.st: dict[str, Any] | None = None
        self._shown: bool | None = None
        self.consumed: Edges | None = None
        self.cons: Cons | None = None
        self.limit = INF
        self.dirty = True
        #: Index of the first child not measured yet (a lazily measured container), else -1.
        self.partial = -1
        self.w = self.h = self.mw = self.mh = self.sw = self.sh = 0.0
        self.x = self.y = 0.0
        self.cw = self.ch = 0.0
        self.pads: Edges = (0.0, 0.0, 0.0, 0.0)  # left, right, top, bottom
        self.cbox: tuple[float, float, float, float] = (0.0, INF, 0.0, INF)
        self.fill_w = self.fill_h = False
        #: visibleWhen transition progress 0..1 (the delegate animates it and reports it).
        self.reveal = -1.0
        #: Type-specific results (scroll content size, pager pages, overlay child constraints).
        self.extra: dict[str, Any] = {}
        #: The NodeObject while the node is instantiated.
        self.obj: Any = None
        #: What its last instantiation depended on of the visible window (studio.preview.tree,
        #: `_mount`): None (it culled something), else the box any window must contain for the
        #: same nodes to be made (in the node's coordinates; `EMPTY_BOX`: nothing).
        self.extent: Box4 | None = None

    # -- tree ----------------------------------------------------------------------------
    def kids(self, host: Host) -> list[LNode]:
        if self._kids is None:
            inner = str(self.node.get("id", "")) if self.type == "pager" else self.pager
            self._kids = [
                LNode(child, path, {**self.scope, **scope} if scope else self.scope, inner, self, i)
                for i, (child, path, scope) in enumerate(host.child_entries(self))
            ]
        return self._kids

    @property
    def kids_made(self) -> bool:
        return self._kids is not None

    @property
    def built_kids(self) -> list[LNode]:
        """The children made so far (none before the node was first laid out)."""
        return self._kids or []

    def set_kids(self, kids: list[LNode] | None) -> None:
        self._kids = kids

    def walk(self) -> Iterator[LNode]:
        """This node and every descendant made so far."""
        yield self
        for kid in self._kids or ():
            yield from kid.walk()

    # -- per-node facts ----------------------------------------------------------------
    def style(self, host: Host) -> dict[str, Any]:
        if self.st is None:
            self.st = host.style(self)
        return self.st

    @property
    def known_shown(self) -> bool | None:
        """Its visibility as last evaluated (None: not evaluated since it changed)."""
        return self._shown

    def shown(self, host: Host) -> bool:
        if self._shown is None:
            self._shown = "visibleWhen" not in self.node or host.shown(self)
        return self._shown

    def invalidate(self) -> None:
        """Its bindings (style, visibility, texts) may have changed: measure again."""
        self.st = None
        self._shown = None
        self.mark_dirty()

    def mark_dirty(self) -> None:
        """Measure it again, and its ancestors (a hidden node can stay dirty while its parent,
        which skipped it, is clean: the walk up starts at the parent whatever its own state)."""
        self.dirty = True
        n = self.parent
        while n is not None and not n.dirty:
            n.dirty = True
            n = n.parent

    @property
    def tappable(self) -> bool:
        return bool(self.node.get("onTap"))

    @property
    def props(self) -> dict[str, Any]:
        return self.node

    @property
    def floating(self) -> bool:
        return self.type in FLOATING

    @property
    def layered(self) -> bool:
        """An anchored node below the root: drawn in its window's anchor layer, it takes no
        slot in its parent (SC `isLayeredPrototypeAnchor`)."""
        return self.parent is not None and bounds_anchor(self.node) is not None

    def animated(self, host: Host) -> bool:
        """Whether its visibleWhen transitions animate (PrototypeMotion.kt)."""
        return (
            "visibleWhen" in self.node
            and self.node.get("transition", "default") != "none"
            and host.motion
            and not host.edit_mode
        )

    def current_reveal(self, host: Host) -> float:
        """Its delegate's transition progress while instantiated and animated, else 1 or 0."""
        if self.obj is None or self.reveal < 0 or not self.animated(host):
            return 1.0 if self.shown(host) else 0.0
        return self.reveal

    def in_flow(self, host: Host) -> bool:
        """Takes part in its parent's layout (hidden nodes and hoisted modals take no space)."""
        return (
            (self.shown(host) or self.current_reveal(host) > 0)
            and not self.floating
            and not self.layered
        )

    def grow(self, host: Host) -> float:
        kind = self.node.get("transition", "default")
        return self.current_reveal(host) if kind in ("expand", "default") else 1.0


# -- measuring ---------------------------------------------------------------------------------


def measure(host: Host, ln: LNode, c: Cons, limit: float = INF) -> None:
    """Measure `ln` with constraints `c` (and its subtree); `limit`: how far along an unbounded
    main axis anything can be seen (a lazily measured container may stop there). A node with a
    `cover` bounds anchor is measured at its bounds whatever it is offered (SC
    `Modifier.prototypeAnchor`: `Constraints.fixed`)."""
    anchor = bounds_anchor(ln.node)
    covers = anchor is not None and anchor_covers(anchor)
    if covers:
        assert anchor is not None
        c = anchor_cons(anchor, 0.0, 0.0)
    if not ln.dirty and ln.cons == c and (ln.partial < 0 or limit <= ln.limit):
        return
    host.measures += 1
    ln.cons = c
    ln.limit = limit
    st = ln.style(host)
    t = ln.type
    props = ln.node
    wrap_w, wrap_h = st["wrapW"], st["wrapH"]
    if t == "divider":
        vertical = props.get("orientation") == "vertical"
        dfw, dfh = not vertical, vertical
    else:
        dfw, dfh = t in _FILL_W, False
    ln.fill_w = fill_w = st["fillW"] or (st["w"] < 0 and not wrap_w and dfw)
    ln.fill_h = fill_h = st["fillH"] or (st["h"] < 0 and not wrap_h and dfh)
    sap = props.get("safeAreaPadding")
    inherited = ln.parent.extra.get("consumed") if ln.parent is not None else None
    if isinstance(sap, dict):
        safe, consumed = safe_padding(sap, host.insets, inherited)
        ln.extra["consumed"] = consumed
    else:
        safe = (0.0, 0.0, 0.0, 0.0)
        if inherited is not None:
            ln.extra["consumed"] = inherited
        else:
            ln.extra.pop("consumed", None)
    pad_l = st["ps"] + safe[2]
    pad_r = st["pe"] + safe[3]
    if host.rtl:
        # `Modifier.padding(start = ...)` and `WindowInsetsSides.Start` are on the right.
        pad_l, pad_r = pad_r, pad_l
    pad_t = st["pt"] + safe[0]
    pad_b = st["pb"] + safe[1]
    ln.pads = (pad_l, pad_r, pad_t, pad_b)
    pad_h, pad_v = pad_l + pad_r, pad_t + pad_b
    if covers:
        # A cover anchor sizes the node to its bounds; authored sizes play no part (SC
        # `prototypeNodeModifier`: no `authoredSizeModifier` under a cover anchor).
        box: Box = (c[0], c[1], False, c[2], c[3], False)
    else:
        box = own_box(c, st, fill_w, fill_h)
    cmin_w = 0.0 if box[2] else max(0.0, box[0] - pad_h)
    cmax_w = max(0.0, box[1] - pad_h)
    cmin_h = 0.0 if box[5] else max(0.0, box[3] - pad_v)
    cmax_h = max(0.0, box[4] - pad_v)
    ln.cbox = (cmin_w, cmax_w, cmin_h, cmax_h)
    ln.partial = -1
    content = CONTENT.get(t, _zero)
    cw, ch = content(host, ln, box, limit - pad_t)
    if t in _ANIMATES_SIZE and host.motion and not host.edit_mode:
        # SC `RenderPrototypeNodeContent`: `prototypeAnimateSize` (animateContentSize) inside
        # the padding reports the animated content size, in the content's constraints; the
        # content keeps its layout at the top-start (studio.preview.sizing).
        aw, ah = host.content_size(ln, cw, ch, ln.partial >= 0)
        cw, ch = clamp(aw, cmin_w, cmax_w), clamp(ah, cmin_h, cmax_h)
    elif "size" in ln.extra:
        del ln.extra["size"]  # motion off or edit mode: at rest when it comes back
    ln.cw, ln.ch = cw, ch
    ln.mw = clamp(cw + pad_h, box[0], box[1])
    ln.mh = clamp(ch + pad_v, box[3], box[4])
    if host.rtl:
        mirror_kids(ln, ln.mw - pad_h)
    grow = ln.grow(host)
    ln.w = ln.mw * grow
    ln.h = ln.mh * grow
    if ln.tappable and t not in RESERVE_ROLES:
        ln.sw = clamp(max(ln.w, TOUCH_TARGET), c[0], c[1])
        ln.sh = clamp(max(ln.h, TOUCH_TARGET), c[2], c[3])
    else:
        ln.sw, ln.sh = ln.w, ln.h
    ln.dirty = False


def mirror_kids(ln: LNode, inner: float) -> None:
    """Right-to-left: the children the container just placed, mirrored inside its content box
    (`inner` wide; a pager's pages inside the page width). Row's `Arrangement.Start` then starts
    at the right with AR's gaps counted from there, Box's and Column's `Alignment.Start` is the
    right edge: the left-to-right places, mirrored. A horizontal scroll's child keeps its place:
    the scroll starts at the child's right end instead (nodes/scroll.qml)."""
    t = ln.type
    if t == "scroll":
        if ln.node.get("axis") == "horizontal":
            return
        kids = ln.built_kids[:1]
    elif t == "pager":
        inner = float(ln.extra.get("pageW", inner))
        measured = ln.extra.get("pageH", {})
        kids = [k for i, k in enumerate(ln.built_kids) if i in measured]
    else:
        kids = ln.extra.get("flow", ())
    for k in kids:
        k.x = inner - k.x - k.w


def final_width(ln: LNode, natural: float, box: Box) -> float:
    """The content width the delegate ends up giving content of `natural` width."""
    pad_h = ln.pads[0] + ln.pads[1]
    return max(0.0, clamp(natural + pad_h, box[0], box[1]) - pad_h)


def _zero(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    return 0.0, 0.0


# -- containers ----------------------------------------------------------------------------


def _flow(host: Host, ln: LNode) -> list[LNode]:
    return [k for k in ln.kids(host) if k.in_flow(host)]


def _linear(
    host: Host,
    ln: LNode,
    vertical: bool,
    gap: float,
    arrangement: str,
    cross: str,
    limit: float,
) -> tuple[float, float]:
    """Row / Column (RowColumnMeasurePolicy): children in order against the space left, then
    weights, then the arrangement; places the children. With an unbounded main axis it stops at
    `limit` when what follows cannot move anything before it (see the module docstring)."""
    cmin_w, cmax_w, cmin_h, cmax_h = ln.cbox
    min_main, max_main = (cmin_h, cmax_h) if vertical else (cmin_w, cmax_w)
    min_cross, max_cross = (cmin_w, cmax_w) if vertical else (cmin_h, cmax_h)
    weight_axis = 2 if vertical else 1
    kids = ln.kids(host)
    lazy = (
        not math.isfinite(max_main)
        and math.isfinite(limit)
        and cross in ("", "start")
        and not any(_weighted(k) for k in kids)
    )
    fixed = cross_size = total_weight = last_gap = 0.0
    weighted: list[LNode] = []
    items: list[LNode] = []
    for i, k in enumerate(kids):
        if not k.in_flow(host):
            continue
        if (
            lazy
            and fixed > limit
            and fixed >= min_main
            and (cross_size >= max_cross or _cross_fixed(ln, vertical))
        ):
            ln.partial = i
            break
        st = k.style(host)
        if st["weight"] > 0:
            total_weight += st["weight"]
            weighted.append(k)
            items.append(k)
            continue
        remaining = max(0.0, max_main - fixed) if math.isfinite(max_main) else INF
        sub = limit - fixed if lazy else INF
        if vertical:
            measure(host, k, (0.0, max_cross, 0.0, remaining, 0), sub)
        else:
            measure(host, k, (0.0, remaining, 0.0, max_cross, 0), sub)
        if k.partial >= 0 or _subtree_partial(k):
            ln.partial = i + 1
        size = k.sh if vertical else k.sw
        last_gap = max(0.0, min(gap, remaining - size)) if math.isfinite(remaining) else gap
        fixed += size + last_gap
        cross_size = max(cross_size, k.sw if vertical else k.sh)
        items.append(k)
        if ln.partial >= 0:
            break
    weighted_space = 0.0
    if not weighted:
        fixed -= last_gap
    else:
        target = max_main if math.isfinite(max_main) else min_main
        spacing = gap * (len(weighted) - 1)
        unit = max(0.0, target - fixed - spacing) / total_weight
        for k in weighted:
            share = unit * k.style(host)["weight"]
            if vertical:
                measure(host, k, (0.0, max_cross, share, share, weight_axis))
            else:
                measure(host, k, (share, share, 0.0, max_cross, weight_axis))
            weighted_space += k.sh if vertical else k.sw
            cross_size = max(cross_size, k.sw if vertical else k.sh)
        weighted_space = clamp(
            weighted_space + spacing, 0.0, max_main - fixed if math.isfinite(max_main) else INF
        )
    # A weighted child makes a bounded row/column take all of its main axis.
    main = (
        max_main
        if total_weight > 0 and math.isfinite(max_main)
        else max(fixed + weighted_space, min_main)
    )
    main = min(main, max_main)
    cross_size = clamp(cross_size, min_cross, max_cross)
    sizes = [k.sh if vertical else k.sw for k in items]
    starts = arrange(main, sizes, gap, arrangement)
    for k, start in zip(items, starts, strict=True):
        if vertical:
            k.x = align(cross_size, k.sw, cross) + (k.sw - k.w) / 2
            k.y = start + (k.sh - k.h) / 2
        else:
            k.x = start + (k.sw - k.w) / 2
            k.y = align(cross_size, k.sh, cross) + (k.sh - k.h) / 2
    ln.extra["flow"] = items
    return (cross_size, main) if vertical else (main, cross_size)


def _weighted(k: LNode) -> bool:
    """Whether a child may take a weight (its own style or a styleWhen entry sets one)."""
    style = k.node.get("style")
    if isinstance(style, dict) and "weight" in style:
        return True
    return any(
        isinstance(e, dict) and isinstance(e.get("style"), dict) and "weight" in e["style"]
        for e in k.node.get("styleWhen") or ()
    )


def _cross_fixed(ln: LNode, vertical: bool) -> bool:
    """Whether the container's cross size is fixed by its own constraints (fill or dp)."""
    cmin_w, cmax_w, cmin_h, cmax_h = ln.cbox
    return cmin_w >= cmax_w if vertical else cmin_h >= cmax_h


def _subtree_partial(k: LNode) -> bool:
    """Whether a child's own size is still a lower bound (a lazily measured descendant)."""
    return bool(k.extra.get("partial_below"))


def _column(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    st = ln.style(host)
    return _mark(ln, _linear(host, ln, True, st["spacing"] or 0.0, st["arrangement"],
                             st["halign"], limit))  # fmt: skip


def _row(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    st = ln.style(host)
    return _mark(ln, _linear(host, ln, False, st["spacing"] or 0.0, st["arrangement"],
                             st["valign"], INF))  # fmt: skip


def _card(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    # The card's own arrangement, spacing and alignment are not applied (CO `RenderPrototypeCard`).
    return _mark(ln, _linear(host, ln, True, 0.0, "", "", limit))


def _mark(ln: LNode, size: tuple[float, float]) -> tuple[float, float]:
    ln.extra["partial_below"] = ln.partial >= 0
    return size


def _box(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    """Box (BoxMeasurePolicy): every child measured loose with the box's maximum, the box as large
    as its largest child, each child placed by the box's content alignment."""
    st = ln.style(host)
    h_align = st["halign"] or "start"
    v_align = st["valign"] or "start"
    cmin_w, cmax_w, cmin_h, cmax_h = ln.cbox
    items = _flow(host, ln)
    w = hh = 0.0
    sub = limit if v_align == "start" else INF
    partial = False
    for k in items:
        measure(host, k, (0.0, cmax_w, 0.0, cmax_h, 0), sub)
        partial = partial or k.partial >= 0 or _subtree_partial(k)
        w = max(w, k.sw)
        hh = max(hh, k.sh)
    w = clamp(w, cmin_w, cmax_w)
    hh = clamp(hh, cmin_h, cmax_h)
    for k in items:
        k.x = align(w, k.sw, h_align) + (k.sw - k.w) / 2
        k.y = align(hh, k.sh, v_align) + (k.sh - k.h) / 2
    ln.extra["flow"] = items
    ln.extra["partial_below"] = partial
    return w, hh


def _scroll(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    """A scroll measures its child without a bound on its axis and wraps it up to the space
    available (SC "scroll": `Box(modifier.verticalScroll(scroll))`)."""
    horizontal = ln.node.get("axis") == "horizontal"
    cmin_w, cmax_w, cmin_h, cmax_h = ln.cbox
    kids = ln.kids(host)
    child = kids[0] if kids else None
    w = h = 0.0
    partial = False
    if child is not None and child.in_flow(host):
        offset = ln.extra.get("offset", (0.0, 0.0))
        if horizontal:
            # Laziness runs along vertical main axes only; a horizontal scroll measures fully.
            measure(host, child, (0.0, INF, 0.0, cmax_h, 0))
        else:
            viewport = cmax_h if math.isfinite(cmax_h) else limit
            reach = offset[1] + viewport + _margin(viewport) + ln.extra.get("ahead", 0.0)
            if host.eager:
                reach = INF
            measure(host, child, (0.0, cmax_w, 0.0, INF, 0), reach)
        partial = child.partial >= 0 or _subtree_partial(child)
        w, h = child.sw, child.sh
        child.x = (child.sw - child.w) / 2
        child.y = (child.sh - child.h) / 2
    ln.extra["content"] = (
        max(w, cmin_w) if horizontal else max(cmin_w, min(w, cmax_w)),
        max(cmin_h, min(h, cmax_h)) if horizontal else max(h, cmin_h),
    )
    # A bounded scroll hides its child's partial size; an unbounded one passes it up.
    ln.extra["partial_below"] = partial and not (horizontal or h >= cmax_h)
    ln.extra["lazy_below"] = partial
    if partial:
        host.lazy_scroll(ln)
    return clamp(w, cmin_w, cmax_w), clamp(h, cmin_h, cmax_h)


def _margin(viewport: float) -> float:
    """How far beyond the viewport children are made ready (half a screen)."""
    return viewport / 2 if math.isfinite(viewport) else 0.0


def _pager(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    """Horizontally swiped pages: each page fills the pager's width; an unsized pager's pages also
    fill the height left, unless the pager is `wrap` (PG `prototypePageFill`). Only the pages
    being shown are measured (the current one; a swipe shows its neighbours)."""
    st = ln.style(host)
    cmin_w, cmax_w, cmin_h, cmax_h = ln.cbox
    fill_h = not st["wrapH"]
    kids = ln.kids(host)
    current = host.page(str(ln.node.get("id", ""))) if kids else 0
    current = max(0, min(current, len(kids) - 1)) if kids else -1
    page_w = cmax_w
    shown: set[int] = set(ln.extra.get("mounted", ())) | ({current} if current >= 0 else set())
    heights: dict[int, float] = {}
    if not math.isfinite(page_w) and current >= 0:
        measure(host, kids[current], (0.0, INF, 0.0, cmax_h, 0))
        page_w = kids[current].sw
    for i in sorted(shown):
        if not 0 <= i < len(kids):
            continue
        page = kids[i]
        measure(host, page, (0.0, page_w, 0.0, cmax_h, 0))
        page.x = (page.sw - page.w) / 2
        page.y = (page.sh - page.h) / 2
        heights[i] = cmax_h if fill_h and math.isfinite(cmax_h) else page.sh
    h = heights.get(current, 0.0)
    if current < 0 and fill_h and math.isfinite(cmax_h):
        h = cmax_h
    ln.extra["pageW"] = page_w
    ln.extra["pageH"] = heights
    ln.extra["current"] = current
    return clamp(page_w, cmin_w, cmax_w), clamp(h, cmin_h, cmax_h)


def _floating(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    """A dialog, sheet or snackbar takes no space; its child is measured in the overlay."""
    return 0.0, 0.0


# -- leaves ---------------------------------------------------------------------------------


def _text(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    """A text node (nodes/text.qml): its natural width, or TextMetrics' when it elides, and its
    height wrapped at the width the delegate gives it."""
    st = ln.style(host)
    ts = st["text"]
    text = host.text(ln, str(ln.node.get("text") or ""))
    role = ts.get("role") or "plain"
    m = host.measurer
    natural, _, advance = m.styled(text, role, ts, st, INF)
    eliding = st["overflow"] == "ellipsis"
    width = math.ceil(advance) + 1 if eliding else math.ceil(natural)
    _, height, _ = m.styled(text, role, ts, st, final_width(ln, width, box))
    return float(width), height


def _icon(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    st = ln.style(host)
    w, h = st["w"], st["h"]
    side = min(w, h) if w > 0 and h > 0 else w if w > 0 else h if h > 0 else 24.0
    return side, side


def _image(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    """An asset decoded down to the space available as the phone decodes it (IM
    `prototypeImageSampleSize`); a missing one is a 24 dp placeholder (nodes/image.qml)."""
    st = ln.style(host)
    cmin_w, cmax_w, cmin_h, cmax_h = ln.cbox
    size = host.image_size(ln.node.get("asset"))
    if size is None:
        return 24.0, 24.0
    density = host.density

    def bucket(v: float) -> int:
        b = 1
        while b < v and b < 16384:
            b *= 2
        return b

    tw = bucket(js_round((cmax_w if math.isfinite(cmax_w) else host.device_width) * density))
    th = bucket(js_round((cmax_h if math.isfinite(cmax_h) else host.device_height) * density))
    w, h = size
    s = 1
    while s < 64 and (
        (math.floor(w / s) / 2 >= tw and math.floor(h / s) / 2 >= th)
        or math.floor(w / s) * math.floor(h / s) > 4 * 1024 * 1024
    ):
        s *= 2
    nat_w, nat_h = math.floor(w / s) / density, math.floor(h / s) / density
    fit = min(1.0, cmax_w / max(1e-6, nat_w), cmax_h / max(1e-6, nat_h))
    sized_w = st["fillW"] or st["w"] >= 0
    sized_h = st["fillH"] or st["h"] >= 0
    iw = cmin_h * nat_w / max(1e-6, nat_h) if sized_h and not sized_w else nat_w * fit
    ih = cmin_w * nat_h / max(1e-6, nat_w) if sized_w and not sized_h else nat_h * fit
    return iw, ih


def _button(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    props = ln.node
    icon = str(props.get("icon") or "")
    label = host.text(ln, str(props.get("label") or ""))
    known = icon if icon and host.glyph_known(icon) else ""
    return host.measurer.button(label, known, 16.0 if icon else 24.0, 24.0), 48.0


def _icon_button(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    return 48.0, 48.0


def _fab(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    props = ln.node
    extended = bool(props.get("label"))
    size = props.get("size") or "regular"
    side = 56.0 if extended else 40.0 if size == "small" else 96.0 if size == "large" else 56.0
    if not extended:
        return max(48.0, side), max(48.0, side)
    label = host.measurer.role_text(host.text(ln, str(props["label"])), "labelLarge")[0]
    return max(80.0, 24 + 12 + label + 16 + 20), max(48.0, side)


def _chip(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    props = ln.node
    filter_ = bool(props.get("stateKey"))
    selected = filter_ and host.value(ln, str(props["stateKey"])) is True
    label = host.measurer.role_text(host.text(ln, str(props.get("label") or "")), "labelLarge")[0]
    row = (18 + 8 + label) if selected else label
    return max(48.0, row + (24 if filter_ else 32)), 48.0


def _labelled_control(
    host: Host, ln: LNode, box: Box, control: float, label_after: bool
) -> tuple[float, float]:
    """A switch (label, 12 dp, the 52 dp switch) or checkbox (the 24 dp box, 12 dp, label) with
    an optional bodyLarge label in the node's own text style, at least 48 dp tall."""
    st = ln.style(host)
    label = ln.node.get("label")
    if not label:
        return max(48.0, control), 48.0 if label_after else max(48.0, 32.0)
    text = host.text(ln, str(label))
    m = host.measurer
    natural, _, _ = m.styled(text, "bodyLarge", st["text"], st, INF)
    width = max(48.0, natural + 12 + control)
    room = final_width(ln, width, box)
    label_w = min(natural, max(0.0, room - 12 - control))
    _, label_h, _ = m.styled(text, "bodyLarge", st["text"], st, label_w)
    return width, max(48.0, label_h) if label_after else max(48.0, 32.0, label_h)


def _switch(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    return _labelled_control(host, ln, box, 52.0, False)


def _checkbox(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    return _labelled_control(host, ln, box, 24.0, True)


def _radio_group(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    """One row per option: the 24 dp radio, 12 dp, the bodyLarge label; rows fill the group."""
    st = ln.style(host)
    m = host.measurer
    options = [o for o in ln.node.get("options") or [] if isinstance(o, dict)]
    labels = [host.text(ln, str(o.get("label", ""))) for o in options]
    naturals = [m.styled(t, "bodyLarge", st["text"], st, INF)[0] for t in labels]
    widest = max([0.0, *(36 + n for n in naturals)])
    room = final_width(ln, widest, box)
    height = 0.0
    for text, natural in zip(labels, naturals, strict=True):
        label_w = min(natural, max(0.0, room - 36))
        height += max(48.0, m.styled(text, "bodyLarge", st["text"], st, label_w)[1])
    return widest, height


def _segmented(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    """Segments of one width (the widest, at least 58 dp), 48 dp tall (nodes/segmentedButton.qml)."""
    options = [o for o in ln.node.get("options") or [] if isinstance(o, dict)]
    current = host.value(ln, str(ln.node.get("stateKey") or ""))
    widest = 58.0
    for o in options:
        label = host.measurer.role_text(host.text(ln, str(o.get("label", ""))), "labelLarge")[0]
        widest = max(widest, label + 24 + (26 if current == o.get("value") else 0))
    return widest * len(options), 48.0


def _slider(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    st = ln.style(host)
    label = ln.node.get("label")
    if not label:
        return 240.0, 48.0
    text = host.text(ln, str(label))
    width = final_width(ln, 240.0, box)
    return 240.0, host.measurer.styled(text, "bodyLarge", st["text"], st, width)[1] + 48


def _progress(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    return (40.0, 40.0) if ln.node.get("variant") == "circular" else (240.0, 4.0)


def _text_field(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    value = host.value(ln, str(ln.node.get("stateKey") or ""))
    text = "" if value is None else _js_string(value)
    return 280.0, max(56.0, host.measurer.field_height(text) + 32)


def _js_string(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _list_item(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    props = ln.node
    m = host.measurer
    head = m.role_text(host.text(ln, str(props.get("headline") or "")), "bodyLarge")[0]
    supporting = props.get("supporting")
    sup = m.role_text(host.text(ln, str(supporting)), "bodyMedium")[0] if supporting else 0.0
    trailing = props.get("trailing")
    tail = 0.0
    if isinstance(trailing, dict):
        tail = 16 + (52.0 if trailing.get("type") == "switch" else 24.0)
    lead = 40.0 if props.get("leadingIcon") else 0.0
    return 16 + lead + max(head, sup) + tail + 16, 72.0 if supporting else 56.0


def _top_app_bar(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    variant = ln.node.get("variant") or "small"
    return 360.0, 152.0 if variant == "large" else 112.0 if variant == "medium" else 64.0


def _bottom_nav(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    return 360.0, 80.0


def _tab_bar(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    items = [i for i in ln.node.get("items") or [] if isinstance(i, dict)]
    tall = any(i.get("icon") or i.get("image") for i in items)
    if not ln.node.get("scrollable"):
        return 360.0, 72.0 if tall else 48.0
    total = 2 * 52.0  # ScrollableTabRow's edge padding at both ends (`padding * 2`)
    for item in items:
        label = host.measurer.role_text(host.text(ln, str(item.get("label", ""))), "titleSmall")[0]
        visual = 24.0 if item.get("icon") or item.get("image") else 0.0
        total += max(90.0, max(visual, label) + 32)
    return total, 72.0 if tall else 48.0


def _badge(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    text = ln.node.get("text")
    label = host.text(ln, str(text)) if text else ""
    if not label:
        return 6.0, 6.0
    return max(16.0, host.measurer.role_text(label, "labelSmall")[0] + 8), 16.0


def _divider(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    return (1.0, 0.0) if ln.node.get("orientation") == "vertical" else (0.0, 1.0)


def _time_picker(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    is24 = ln.node.get("is24Hour")
    h24 = is24 if isinstance(is24, bool) else host.clock24
    return max(256.0, 96 + 24 + 96 + (0 if h24 else 64)), 80 + 36 + 256 + 24.0


def _date_picker(host: Host, ln: LNode, box: Box, limit: float) -> tuple[float, float]:
    """At least 360 dp wide; the 120 dp header with its divider (HeaderContainerHeight), the 56
    dp month row, the 48 dp weekday row and six 48 dp weeks, nothing below (DatePicker.kt
    `DateEntryContainer`, `DatePickerContent`; nodes/datePicker.qml)."""
    return 360.0, 120 + 56 + 48 + 6 * 48.0


ContentFn = Callable[[Host, LNode, Box, float], tuple[float, float]]
CONTENT: dict[str, ContentFn] = {
    "column": _column, "row": _row, "card": _card, "box": _box, "scroll": _scroll,
    "pager": _pager, "dialog": _floating, "snackbar": _floating, "bottomSheet": _floating,
    "text": _text, "icon": _icon, "image": _image, "button": _button,
    "iconButton": _icon_button, "fab": _fab, "chip": _chip, "switch": _switch,
    "checkbox": _checkbox, "radioGroup": _radio_group, "segmentedButton": _segmented,
    "slider": _slider, "progress": _progress, "textField": _text_field, "listItem": _list_item,
    "topAppBar": _top_app_bar, "bottomNav": _bottom_nav, "tabBar": _tab_bar, "badge": _badge,
    "divider": _divider, "spacer": _zero, "timePicker": _time_picker, "datePicker": _date_picker,
}  # fmt: skip
