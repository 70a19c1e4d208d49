// One rendered node, measured as Compose measures it: the parent passes constraints
// (`constrain`), the node resolves its own size from them and its style (sizeIn, then
// width/height/fill/wrap, aspectRatio, insets and padding: SC `prototypeNodeModifier` and
// `authoredSizeModifier`), and its content (nodes/<type>.qml) is measured inside. Draws the style
// box (shadow, background, border, alpha, offset), runs taps, shows the edit-mode outline.
// Decorations a node does not use (shadow, background, tap area, outline) are never created:
// a 2,000-node spec pays only for what it draws.
//
// For node files (nodes/<type>.qml, whose root item is `content`; `d` is this delegate):
// - report the content's measured size as implicitWidth/implicitHeight, within d.cMinW..d.cMaxW
//   and d.cMinH..d.cMaxH (Infinity: unbounded); set `defaultFillW/H` to fill an unsized axis;
// - set `reservesTouchTarget: true` where Material reserves a 48 dp target
//   (minimumInteractiveComponentSize): the slot grows, the drawn size does not;
// - set `contentColor` to provide Material's LocalContentColor to child nodes; read
//   `d.contentColor` for unstyled text and icons; `preview.shapes.<token>` for corner families;
// - child nodes: a NodeDelegate with `managed: true`, measured by calling its
//   `constrain(minW, maxW, minH, maxH, 0)` and then read `slotW/slotH` (see layout.js); an
//   unmanaged one takes its parent item's width as its maximum.
import QtQuick
import "layout.js" as L

Item {
    id: d

    property QtObject n: null
    // Composition locals from the parent (Compose's LocalContentColor and the window insets its
    // ancestors consumed): {contentColor, consumed}. Never style: containers pass no text style.
    property var inh: ({})
    readonly property bool isNodeDelegate: true
    readonly property string address: n ? n.address : ""
    readonly property string nodeType: n ? n.type : ""
    readonly property var p: n ? n.props : ({})
    readonly property var st: {
        if (!n) return ({});
        n.rev; preview.themeRev;
        return preview.style(n);
    }
    readonly property var ts: st.text || ({})
    readonly property bool shown: {
        if (!n) return false;
        n.rev;
        return preview.shown(n);
    }
    readonly property bool floating: nodeType === "dialog" || nodeType === "snackbar" || nodeType === "bottomSheet"
    // Takes part in its parent's layout (hidden nodes and hoisted modals take no space).
    readonly property bool inFlow: (shown || reveal > 0) && !floating
    readonly property bool tappable: n !== null && n.tappable
    readonly property Item content: loader.item
    // Types that handle their own clicks call preview.tap themselves.
    readonly property bool selfTapping: ["button", "iconButton", "fab", "chip", "listItem", "radioGroup",
        "segmentedButton", "tabBar", "bottomNav"].indexOf(nodeType) >= 0
    readonly property bool pressed: tapLoader.item ? tapLoader.item.pressed : false
    readonly property int generation: n ? n.generation : 0

    // -- constraints ------------------------------------------------------------------------
    // A managed delegate is measured by its container (or the window), which calls constrain();
    // an unmanaged one (a component's slot that sets its own width) takes its parent's width as
    // its maximum.
    property bool managed: false
    property var cons: ({minW: 0, maxW: Infinity, minH: 0, maxH: Infinity, axis: 0, set: false})
    readonly property var c0: managed ? cons
        : ({minW: 0, maxW: parent && parent.width > 0 ? parent.width : Infinity, minH: 0, maxH: Infinity, axis: 0, set: true})
    // axis: 1 when a row's weight sizes the width, 2 when a column's weight sizes the height.
    property bool constraining: false
    function constrain(minW, maxW, minH, maxH, axis) {
        var o = cons;
        if (o.set && o.minW === minW && o.maxW === maxW && o.minH === minH && o.maxH === maxH && o.axis === axis)
            return;
        constraining = true;
        cons = {minW: minW, maxW: maxW, minH: minH, maxH: maxH, axis: axis, set: true};
        constraining = false;
        if (content && typeof content.measure === "function") content.measure();
    }
    readonly property bool ready: c0.set
    readonly property bool fillW: st.fillW || (st.w < 0 && !st.wrapW && content !== null && content.defaultFillW === true)
    readonly property bool fillH: st.fillH || (st.h < 0 && !st.wrapH && content !== null && content.defaultFillH === true)
    readonly property real weight: st.weight || 0
    // safeAreaPadding: the simulated window insets of its types on its edges, less what an
    // ancestor already consumed (Compose's windowInsetsPadding).
    readonly property var safe: p.safeAreaPadding ? L.safePadding(p.safeAreaPadding, preview.insets, inh.consumed) : null
    readonly property real padL: (st.ps || 0) + (safe ? safe.s : 0)
    readonly property real padR: (st.pe || 0) + (safe ? safe.e : 0)
    readonly property real padT: (st.pt || 0) + (safe ? safe.t : 0)
    readonly property real padB: (st.pb || 0) + (safe ? safe.b : 0)
    readonly property real padH: padL + padR
    readonly property real padV: padT + padB
    // The node's own constraints after sizeIn, width/height (fill, dp, wrap) and aspectRatio.
    readonly property var box: L.ownBox(c0, st, fillW, fillH)
    // What the content is measured with (inside padding and insets).
    readonly property real cMinW: box.wrapW ? 0 : Math.max(0, box.minW - padH)
    readonly property real cMaxW: Math.max(0, box.maxW - padH)
    readonly property real cMinH: box.wrapH ? 0 : Math.max(0, box.minH - padV)
    readonly property real cMaxH: Math.max(0, box.maxH - padV)
    // The drawn size.
    readonly property real mW: L.clamp((content ? content.implicitWidth : 0) + padH, box.minW, box.maxW)
    readonly property real mH: L.clamp((content ? content.implicitHeight : 0) + padV, box.minH, box.maxH)
    // Tappable nodes reserve a 48 dp touch target that pushes siblings, without changing the
    // size they draw at (SC `prototypeNodeModifier`: `minimumInteractiveComponentSize()`); a
    // component that owns its tap asks for the same through `reservesTouchTarget`.
    readonly property bool reserves: (tappable && L.reserveRoles.indexOf(nodeType) < 0)
        || (content !== null && content.reservesTouchTarget === true)
    readonly property real slotW: reserves ? L.clamp(Math.max(width, L.touchTarget), c0.minW, c0.maxW) : width
    readonly property real slotH: reserves ? L.clamp(Math.max(height, L.touchTarget), c0.minH, c0.maxH) : height
    // Locals for the children: the content colour a component provides, and consumed insets.
    readonly property var locals: {
        var color = content && content.contentColor !== undefined ? content.contentColor : inh.contentColor;
        var consumed = safe ? safe.consumed : inh.consumed;
        if (color === inh.contentColor && consumed === inh.consumed) return inh;
        return {contentColor: color, consumed: consumed};
    }
    // Compose's LocalContentColor here: what unstyled text and icons are drawn in.
    readonly property color contentColor: inh.contentColor || preview.colors.onSurface

    // visibleWhen transitions as the phone's (PrototypeMotion.kt `prototypeEnterTransition`,
    // `prototypeExitTransition`): every node with a visibleWhen animates when it appears and when
    // it goes, `transition` unset too (fade + expand in, fade + shrink out); "fade" fades,
    // "expand" expands/shrinks, "slide" slides vertically (half its height from above) and fades,
    // "none" and `motion: "none"` switch it off (`prototypeMotionEnabled`). `reveal` runs 0..1; a
    // leaving node stays drawn (and in its parent's layout) until it reaches 0.
    readonly property string transitionKind: p.transition || "default"
    readonly property bool animated: n !== null && n.conditional === 1 && transitionKind !== "none"
        && preview.motion && !preview.editMode
    property real reveal: shown ? 1 : 0
    Behavior on reveal {
        enabled: d.animated
        NumberAnimation { duration: 300; easing.type: Easing.OutCubic }
    }
    readonly property bool fades: transitionKind !== "expand"
    readonly property real grow: transitionKind === "expand" || transitionKind === "default" ? reveal : 1
    readonly property real lift: transitionKind === "slide" ? -(1 - reveal) * height / 2 : 0
    readonly property bool growing: grow < 1
    // The measured size, and the drawn one while it expands or shrinks.
    readonly property real naturalWidth: mW
    readonly property real naturalHeight: mH
    implicitWidth: mW * grow
    implicitHeight: mH * grow
    width: mW * grow
    height: mH * grow
    visible: (shown || reveal > 0) && !floating
    clip: growing
    opacity: (st.alpha === undefined ? 1 : st.alpha) * (fades ? reveal : 1)
    scale: pressed && st.pressScale < 1 ? st.pressScale : 1
    transform: (st.ox || st.oy || lift !== 0) ? [shift] : []
    Translate { id: shift; x: d.st.ox || 0; y: (d.st.oy || 0) + d.lift }

    Loader {
        anchors.fill: parent
        active: (d.st.elevation || 0) > 0
        sourceComponent: Shadow {
            elevation: d.st.elevation || 0
            radius: Math.min(d.st.radius || 0, Math.min(d.width, d.height) / 2)
            color: d.st.shadow || "#40000000"
        }
    }
    readonly property real cornerRadius: Math.min(st.radius || 0, Math.min(width, height) / 2)
    Loader {
        anchors.fill: parent
        active: !!d.st.grad
        sourceComponent: GradientFill {
            grad: d.st.grad
            topLeftRadius: d.st.rTL >= 0 ? d.st.rTL : d.cornerRadius
            topRightRadius: d.st.rTR >= 0 ? d.st.rTR : d.cornerRadius
            bottomRightRadius: d.st.rBR >= 0 ? d.st.rBR : d.cornerRadius
            bottomLeftRadius: d.st.rBL >= 0 ? d.st.rBL : d.cornerRadius
        }
    }
    Loader {
        anchors.fill: parent
        active: (!!d.st.bg && !d.st.grad) || d.st.bw > 0
        sourceComponent: Rectangle {
            // A gradient (drawn below) wins over the background colour; the border stays on top.
            color: d.st.bg && !d.st.grad ? d.st.bg : "transparent"
            radius: d.cornerRadius
            topLeftRadius: d.st.rTL >= 0 ? d.st.rTL : radius
            topRightRadius: d.st.rTR >= 0 ? d.st.rTR : radius
            bottomRightRadius: d.st.rBR >= 0 ? d.st.rBR : radius
            bottomLeftRadius: d.st.rBL >= 0 ? d.st.rBL : radius
            border.width: d.st.bw || 0
            border.color: d.st.bc || "transparent"
        }
    }
    Loader {
        id: tapLoader
        // The whole reserved touch target takes the tap, not only the drawn node.
        x: -(d.slotW - d.width) / 2
        y: -(d.slotH - d.height) / 2
        width: d.slotW
        height: d.slotH
        active: d.tappable && !d.selfTapping
        sourceComponent: MouseArea {
            enabled: !preview.editMode
            onClicked: preview.tap(d.n, "")
        }
    }
    Loader {
        id: loader
        // While it expands or shrinks the content keeps its full size, anchored at the box's
        // bottom-end and clipped by it (expandIn/shrinkOut's default BottomEnd), so it never
        // reflows mid-animation.
        x: d.padL + (d.growing ? Math.min(0, d.width - d.naturalWidth) : 0)
        y: d.padT + (d.growing ? Math.min(0, d.height - d.naturalHeight) : 0)
        width: Math.max(0, (d.growing ? Math.max(d.width, d.naturalWidth) : d.width) - d.padH)
        height: Math.max(0, (d.growing ? Math.max(d.height, d.naturalHeight) : d.height) - d.padV)
        // `cornerRadius` clips the content (SC: `modifier.clip(shape)`); the software scene graph
        // clips to the bounding rectangle, images clip to the rounded shape themselves.
        clip: d.st.hasRadius === true
        source: d.n ? Qt.resolvedUrl("nodes/" + d.n.type + ".qml") : ""
        onLoaded: {
            d.shownNode = d.n;
            d.shownGeneration = d.generation;
            preview.created(d.n);
        }
    }
    // The content is rebuilt for a replaced node (new generation) and for another node shown
    // by the same delegate (a new spec's root of the same type, a scroll's new child): content
    // items keep state of their own (measured sizes, anchors) that must not carry over.
    property QtObject shownNode: null
    property int shownGeneration: -1
    function refreshContent() {
        if (!n || !loader.item || (n === shownNode && generation === shownGeneration))
            return;
        if (loader.source.toString().indexOf("nodes/" + n.type + ".qml") < 0)
            return;  // the type changed: the new source is being loaded anyway
        loader.active = false;
        loader.active = true;
    }
    onNChanged: refreshContent()
    onGenerationChanged: refreshContent()
    readonly property bool outlined: shown && address !== ""
        && ((preview.selected !== "" && preview.selected === address) || preview.highlighted.indexOf(address) >= 0)
    Loader {
        anchors.fill: parent
        anchors.margins: -1
        z: 100
        active: d.outlined
        sourceComponent: Rectangle {
            color: "transparent"
            border.width: 2
            border.color: preview.selected === d.address ? "#1A73E8" : "#F29900"
        }
    }
}
