// One rendered node: style box (shadow, background, border, padding, alpha, offset), tap
// handling, edit-mode outline, and the type's content loaded from nodes/<type>.qml.
// Decorations a node does not use (shadow, background, tap area, outline) are never created:
// a 2,000-node spec pays only for what it draws.
import QtQuick

Item {
    id: d

    property QtObject n: null
    property var inh: ({})
    readonly property bool isNodeDelegate: true
    readonly property string address: n ? n.address : ""
    readonly property string nodeType: n ? n.type : ""
    readonly property var p: n ? n.props : ({})
    readonly property var st: {
        if (!n) return ({});
        n.rev; preview.themeRev;
        return preview.style(n, inh);
    }
    readonly property var ts: st.text || ({})
    readonly property bool shown: {
        if (!n) return false;
        n.rev;
        return preview.shown(n);
    }
    readonly property bool floating: nodeType === "dialog" || nodeType === "snackbar" || nodeType === "bottomSheet"
    readonly property bool tappable: n !== null && n.tappable
    readonly property Item content: loader.item
    // Types that handle their own clicks call preview.tap themselves.
    readonly property bool selfTapping: ["button", "iconButton", "fab", "chip", "listItem", "radioGroup",
        "segmentedButton", "tabBar", "bottomNav"].indexOf(nodeType) >= 0
    readonly property bool pressed: tapLoader.item ? tapLoader.item.pressed : false
    // Sizing as the parent reads it (Compose-like): fill, wrap, dp, weight, min/max.
    readonly property bool fillW: st.fillW || (st.w < 0 && !st.wrapW && content !== null && content.defaultFillW === true)
    readonly property bool fillH: st.fillH || (st.h < 0 && !st.wrapH && content !== null && content.defaultFillH === true)
    readonly property real weight: st.weight || 0
    readonly property real padH: (st.ps || 0) + (st.pe || 0)
    readonly property real padV: (st.pt || 0) + (st.pb || 0)
    readonly property int generation: n ? n.generation : 0
    function clampW(v) {
        if (st.minW >= 0) v = Math.max(v, st.minW);
        if (st.maxW >= 0) v = Math.min(v, st.maxW);
        return v;
    }
    function clampH(v) {
        if (st.minH >= 0) v = Math.max(v, st.minH);
        if (st.maxH >= 0) v = Math.min(v, st.maxH);
        return v;
    }

    // visibleWhen transitions as the phone's (PrototypeMotion.kt `prototypeEnterTransition`,
    // `prototypeExitTransition`): every node with a visibleWhen animates when it appears and when
    // it goes, `transition` unset too (fade + expand in, fade + shrink out); "fade" fades,
    // "expand" expands/shrinks, "slide" slides vertically (half its height from above) and fades,
    // "none" and `motion: "none"` switch it off (`prototypeMotionEnabled`). `reveal` runs 0..1; a
    // leaving node stays drawn until it reaches 0.
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
    visible: (shown || reveal > 0) && !floating
    clip: growing
    opacity: (st.alpha === undefined ? 1 : st.alpha) * (fades ? reveal : 1)
    readonly property bool growing: grow < 1
    readonly property real naturalWidth: clampW(st.w >= 0 ? st.w : (content ? content.implicitWidth : 0) + padH)
    readonly property real naturalHeight: clampH(st.h >= 0 ? st.h
        : st.aspect > 0 ? (fillW ? width : naturalWidth) / st.aspect
        : (content ? content.implicitHeight : 0) + padV)
    implicitWidth: naturalWidth * grow
    implicitHeight: naturalHeight * grow
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
        anchors.fill: parent
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
        x: (d.st.ps || 0) + (d.growing ? Math.min(0, d.width - d.naturalWidth) : 0)
        y: (d.st.pt || 0) + (d.growing ? Math.min(0, d.height - d.naturalHeight) : 0)
        width: Math.max(0, (d.growing ? Math.max(d.width, d.naturalWidth) : d.width) - d.padH)
        height: Math.max(0, (d.growing ? Math.max(d.height, d.naturalHeight) : d.height) - d.padV)
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
