// One rendered node. Its size and place come from the layout (studio/preview/layout.py, which
// measures as Compose does: `n.geo`); this item draws the style box (shadow, background, border,
// alpha, offset), runs taps and shows the edit-mode outline. A node with a `visibleWhen` gets a
// MotionDelegate instead (this item plus its enter and exit transitions).
//
// A delegate is made for every node on screen, so it is kept light: the parts a node does not
// use (style box, tap area, outline, offset) are not created at all, and are made from shared
// components (DeviceScreen.qml) on first need (`decorate`). Nothing here animates.
//
// For node files (nodes/<type>.qml, whose root item is `content`; `d` is this delegate):
// - read the node's fields from `d.p`, its resolved style from `d.st` (text style `d.ts`), the
//   layout's results from `d.g` (the constraints it was measured with: d.g.cMinW, cMaxW, cMinH,
//   cMaxH, a maximum absent when unbounded); its implicitWidth/implicitHeight document the size
//   the layout gives it (the tests compare both);
// - set `contentColor` to provide Material's LocalContentColor to child nodes; read
//   `d.contentColor` for unstyled text and icons; `preview.shapes.<token>` for corner families;
// - child nodes: a `Kids {}` item instantiates them where the layout placed them (or, for a
//   dialog's or sheet's child, a MotionDelegate sized by the node file).
import QtQuick
import "Styles.js" as Styles

Item {
    id: d

    property QtObject n: null
    // Composition locals from the parent (Compose's LocalContentColor): {contentColor}. Never
    // style: containers pass no text style. A child made by Kids reads its parent's.
    property var inh: parent && parent.locals !== undefined ? parent.locals : ({})
    readonly property bool isNodeDelegate: true
    readonly property string address: n ? n.address : ""
    readonly property string nodeType: n ? n.type : ""
    readonly property var p: n ? n.props : ({})
    // shared with every node of an equal style (Styles.js): read it, never modify it
    readonly property var st: n ? Styles.of(n) : ({})
    readonly property var ts: st.text || ({})
    // The layout's results for this node.
    readonly property var g: n ? n.geo : ({})
    readonly property bool shown: n ? n.shown === 1 : false
    readonly property bool tappable: n !== null && n.tappable === 1
    readonly property int generation: n ? n.generation : 0
    // What node files read of the node object, safe while its object is gone and this delegate
    // is going (a rebuilt parent deletes its old children's objects and delegates in one pass).
    readonly property int rev: n ? n.rev : 0
    readonly property var kids: n ? n.kids : []
    // Locals for the children: the content colour a component provides.
    readonly property var locals: {
        var item = loader.item;
        var color = item && item.contentColor !== undefined ? item.contentColor : inh.contentColor;
        if (color === inh.contentColor) return inh;
        return {contentColor: color};
    }
    // Compose's LocalContentColor here: what unstyled text and icons are drawn in.
    readonly property color contentColor: inh.contentColor || preview.colors.onSurface

    // Set by a MotionDelegate while a visibleWhen transition runs (here: never).
    property bool growing: false
    property real lift: 0

    x: g.x || 0
    y: g.y || 0
    implicitWidth: g.w || 0
    implicitHeight: g.h || 0
    width: implicitWidth
    height: implicitHeight
    // Dialogs, snackbars and sheets draw in the overlay layer, not here.
    visible: shown && nodeType !== "dialog" && nodeType !== "snackbar" && nodeType !== "bottomSheet"
    opacity: st.alpha === undefined ? 1 : st.alpha
    scale: tapArea !== null && tapArea.spring !== null ? tapArea.spring.value : 1

    readonly property real cornerRadius: Math.min(st.radius || 0, Math.min(width, height) / 2)

    // -- the parts made on first need ---------------------------------------------------------
    property Item styleBox: null
    property Item tapArea: null
    property Item outline: null
    property QtObject shift: null
    readonly property bool outlined: shown && address !== ""
        && (preview.selected === address || preview.highlighted.indexOf(address) >= 0)
    function part(have, want, component, props) {
        if (want && !have) return component.createObject(d, props);
        if (!want && have) have.destroy();
        return want ? have : null;
    }
    // Make or drop the parts this node needs now (its style, its onTap, the selection). They
    // stack as the declared items did: style box, tap area, content, outline.
    function decorate() {
        // What is wanted is read first: reading `tappable` or `outlined` can evaluate its binding
        // for the first time and run this function again from its change handler, which must
        // find the parts it made (read after it, `tapArea` was still null here and a second tap
        // area was made over the first).
        var s = st;
        // Types that handle their own clicks call preview.tap themselves.
        var selfTapping = "|button|iconButton|fab|chip|listItem|radioGroup|segmentedButton|tabBar|bottomNav|";
        var wantTap = tappable && selfTapping.indexOf("|" + nodeType + "|") < 0;
        var wantOutline = outlined;
        var shifted = !!(s.ox || s.oy) || lift !== 0;
        styleBox = part(styleBox, (s.elevation || 0) > 0 || !!s.grad || !!s.bg || s.bw > 0,
                        styleBoxPart, {d: d, z: -2});
        tapArea = part(tapArea, wantTap, tapPart, {d: d, z: -1});
        outline = part(outline, wantOutline, outlinePart, {d: d, z: 100});
        if (shifted && !shift) {
            shift = shiftPart.createObject(d, {d: d});
            transform = [shift];
        } else if (!shifted && shift) {
            transform = [];
            shift.destroy();
            shift = null;
        }
    }
    Component.onCompleted: decorate()
    onStChanged: decorate()
    onTappableChanged: decorate()
    onOutlinedChanged: decorate()
    onLiftChanged: decorate()

    Loader {
        id: loader
        // While it expands or shrinks the content keeps its full size, anchored at the box's
        // bottom-end and clipped by it (expandIn/shrinkOut's default BottomEnd: the bottom
        // left right to left), so it never reflows mid-animation.
        x: (d.g.pl || 0) + (d.growing && !preview.rtl ? Math.min(0, d.width - (d.g.mw || 0)) : 0)
        y: (d.g.pt || 0) + (d.growing ? Math.min(0, d.height - (d.g.mh || 0)) : 0)
        width: Math.max(0, (d.growing ? Math.max(d.width, d.g.mw || 0) : d.width) - (d.g.pl || 0) - (d.g.pr || 0))
        height: Math.max(0, (d.growing ? Math.max(d.height, d.g.mh || 0) : d.height) - (d.g.pt || 0) - (d.g.pb || 0))
        // `cornerRadius` clips the content (SC: `modifier.clip(shape)`); the software scene graph
        // clips to the bounding rectangle, images clip to the rounded shape themselves. A box, row
        // or column clips its children to its content box (inside padding and insets) while motion
        // is on: SC `RenderPrototypeNodeContent` gives them `prototypeAnimateSize` (MO), whose
        // `animateContentSize()` is `clipToBounds()` then the size animation, inside the node's
        // padding. An offset child or a child's shadow past that box is cut, as on the phone.
        clip: d.st.hasRadius === true || (preview.motion === 1
            && (d.nodeType === "box" || d.nodeType === "row" || d.nodeType === "column"))
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
}
