// One rendered node. Its size and place come from the layout (studio/preview/layout.py, which
// measures as Compose does: `n.geo`); this item draws the style box (shadow, background, border,
// alpha, offset), runs taps, animates visibleWhen transitions and shows the edit-mode outline.
// Decorations a node does not use (shadow, background, tap area, outline) are never created, and
// only nodes on screen (or about to scroll into view) have a delegate at all.
//
// For node files (nodes/<type>.qml, whose root item is `content`; `d` is this delegate):
// - read the node's fields from `d.p`, its resolved style from `d.st` (text style `d.ts`), the
//   constraints it was measured with from d.cMinW..d.cMaxW and d.cMinH..d.cMaxH (Infinity:
//   unbounded); its implicitWidth/implicitHeight document the size the layout gives it (the
//   tests compare both);
// - set `contentColor` to provide Material's LocalContentColor to child nodes; read
//   `d.contentColor` for unstyled text and icons; `preview.shapes.<token>` for corner families;
// - child nodes: a `Kids {}` item instantiates them where the layout placed them (or, for a
//   dialog's or sheet's child, a NodeDelegate sized by the node file).
import QtQuick

Item {
    id: d

    property QtObject n: null
    // Composition locals from the parent (Compose's LocalContentColor): {contentColor}. Never
    // style: containers pass no text style.
    property var inh: ({})
    readonly property bool isNodeDelegate: true
    readonly property string address: n ? n.address : ""
    readonly property string nodeType: n ? n.type : ""
    readonly property var p: n ? n.props : ({})
    readonly property var st: n ? n.st : ({})
    readonly property var ts: st.text || ({})
    // The layout's results for this node.
    readonly property var g: n ? n.geo : ({})
    readonly property bool shown: n ? n.shown === 1 : false
    readonly property bool floating: nodeType === "dialog" || nodeType === "snackbar" || nodeType === "bottomSheet"
    readonly property bool inFlow: (shown || reveal > 0) && !floating
    readonly property bool tappable: n !== null && n.tappable === 1
    readonly property Item content: loader.item
    // Types that handle their own clicks call preview.tap themselves.
    readonly property bool selfTapping: ["button", "iconButton", "fab", "chip", "listItem", "radioGroup",
        "segmentedButton", "tabBar", "bottomNav"].indexOf(nodeType) >= 0
    readonly property bool pressed: tapLoader.item ? tapLoader.item.pressed : false
    readonly property int generation: n ? n.generation : 0

    // -- the layout's results ---------------------------------------------------------------
    readonly property real cMinW: g.cMinW || 0
    readonly property real cMaxW: g.cMaxW === undefined ? Infinity : g.cMaxW
    readonly property real cMinH: g.cMinH || 0
    readonly property real cMaxH: g.cMaxH === undefined ? Infinity : g.cMaxH
    readonly property bool fillW: g.fillW === true
    readonly property bool fillH: g.fillH === true
    readonly property real padL: g.pl || 0
    readonly property real padR: g.pr || 0
    readonly property real padT: g.pt || 0
    readonly property real padB: g.pb || 0
    readonly property real padH: padL + padR
    readonly property real padV: padT + padB
    // The slot its parent reserves (a tappable node's 48 dp touch target).
    readonly property real slotW: g.sw || 0
    readonly property real slotH: g.sh || 0
    // Locals for the children: the content colour a component provides.
    readonly property var locals: {
        var color = content && content.contentColor !== undefined ? content.contentColor : inh.contentColor;
        if (color === inh.contentColor) return inh;
        return {contentColor: color};
    }
    // Compose's LocalContentColor here: what unstyled text and icons are drawn in.
    readonly property color contentColor: inh.contentColor || preview.colors.onSurface

    // visibleWhen transitions as the phone's (PrototypeMotion.kt `prototypeEnterTransition`,
    // `prototypeExitTransition`): every node with a visibleWhen animates when it appears and when
    // it goes, `transition` unset too (fade + expand in, fade + shrink out); "fade" fades,
    // "expand" expands/shrinks, "slide" slides vertically (half its height from above) and fades,
    // "none" and `motion: "none"` switch it off (`prototypeMotionEnabled`). `reveal` runs 0..1
    // and the layout sizes the node with it (it is reported); a leaving node stays drawn (and in
    // its parent's layout) until it reaches 0.
    readonly property string transitionKind: p.transition || "default"
    readonly property bool animated: n !== null && n.conditional === 1 && transitionKind !== "none"
        && preview.motion && !preview.editMode
    property real reveal: shown ? 1 : 0
    Behavior on reveal {
        enabled: d.animated
        NumberAnimation { duration: 300; easing.type: Easing.OutCubic }
    }
    onRevealChanged: if (animated) preview.revealed(n, reveal)
    readonly property bool fades: transitionKind !== "expand"
    readonly property real lift: transitionKind === "slide" ? -(1 - reveal) * height / 2 : 0
    readonly property bool growing: (transitionKind === "expand" || transitionKind === "default") && reveal < 1
    // The measured size, and the drawn one while it expands or shrinks.
    readonly property real naturalWidth: g.mw || 0
    readonly property real naturalHeight: g.mh || 0
    x: g.x || 0
    y: g.y || 0
    implicitWidth: g.w || 0
    implicitHeight: g.h || 0
    width: implicitWidth
    height: implicitHeight
    visible: (shown || reveal > 0) && !floating
    clip: growing
    opacity: (st.alpha === undefined ? 1 : st.alpha) * (fades ? reveal : 1)
    scale: pressed && st.pressScale < 1 ? st.pressScale : 1
    transform: (st.ox || st.oy || lift !== 0) ? [shift] : []
    Translate { id: shift; x: d.st.ox || 0; y: (d.st.oy || 0) + d.lift }

    readonly property real cornerRadius: Math.min(st.radius || 0, Math.min(width, height) / 2)
    // The style box (shadow, gradient, background, border), when the node has one.
    Loader {
        anchors.fill: parent
        active: (d.st.elevation || 0) > 0 || !!d.st.grad || !!d.st.bg || d.st.bw > 0
        source: active ? "StyleBox.qml" : ""
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
        source: d.n ? "nodes/" + d.n.type + ".qml" : ""
        onLoaded: {
            d.shownNode = d.n;
            d.shownGeneration = d.generation;
            preview.created(d.n);
        }
    }
    // The content is rebuilt for a replaced node (new generation) and for another node shown
    // by the same delegate (a new spec's root of the same type): content items keep state of
    // their own (control state, scroll positions) that must not carry over.
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
