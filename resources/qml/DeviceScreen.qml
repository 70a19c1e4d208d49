// The phone's screen: the app behind the prototype, the system bars (status bar with its cutout,
// gesture bar, keyboard while a text field has the focus), and the prototype's window as
// AutoMobile's host places it (PL `prototypeLayoutParams`, HO `PrototypeChrome`): fullscreen
// below the "Dismiss AutoMobile prototype" bar, a sheet at its edge, a floating window by gravity
// and offset. The window paints only what the spec paints. Then the overlay layer (dialogs,
// sheets, snackbars, inside the window) and edit-mode picking.
import QtQuick
import QtQuick.Controls
import QtQuick.Controls.Material

Rectangle {
    id: screen
    objectName: "screen"
    width: preview.deviceWidth
    height: preview.deviceHeight
    clip: true
    // The app behind the prototype's window (which is translucent where the spec paints nothing).
    color: preview.deviceDark ? "#202124" : "#E8EAED"

    Material.theme: preview.dark ? Material.Dark : Material.Light
    Material.primary: preview.colors.primary || "#6750A4"
    Material.accent: preview.colors.primary || "#6750A4"
    Material.foreground: preview.colors.onSurface || "#1D1B20"
    Material.background: preview.colors.surface || "#FEF7FF"

    readonly property var placement: preview.window
    readonly property string kind: placement.type || "fullscreen"
    readonly property bool chrome: preview.deviceChrome
    readonly property real opacityValue: placement.opacity === undefined ? 1 : placement.opacity
    property alias overlayLayer: overlay
    property alias anchorLayerHost: anchorLayerItem

    // The parts a node delegate makes only when its node needs them (NodeDelegate.decorate):
    // one component each for every delegate, which passes itself as `d`.
    Component {
        id: styleBoxPart
        StyleBox {}
    }
    Component {
        id: springPart
        Spring {}
    }
    Component {
        id: tapPart
        // The whole reserved touch target takes the tap, not only the drawn node. A press shows
        // Material's ripple over the drawn node (SC `prototypeNodeModifier`: `clickable(indication
        // = LocalIndication.current)` after clip/background/border and before the padding, inside
        // `minimumInteractiveComponentSize()`): in the content colour the node sits in
        // (LocalContentColor: its parent's, as the modifier is outside the node's own content),
        // clipped to the node's bounds, and to its rounded shape only when it has a cornerRadius
        // (only then is `clip(shape)` applied).
        MouseArea {
            property Item d
            property Item ripple: null
            x: -((d.g.sw || 0) - d.width) / 2
            y: -((d.g.sh || 0) - d.height) / 2
            width: d.g.sw || 0
            height: d.g.sh || 0
            enabled: !preview.editMode
            // `pressScale` (MO `prototypePressScale`): `animateFloatAsState(if (pressed) scale
            // else 1f, spring())` while motion is on, `snap()` otherwise; the whole node, shadow
            // included, scales (NodeDelegate reads `spring`, made on the first press).
            readonly property real pressTarget: pressed && d.st.pressScale < 1 ? d.st.pressScale : 1
            property QtObject spring: null
            onPressTargetChanged: {
                if (!spring) spring = screen.spring(this, 1500, 1);
                spring.enabled = preview.motion === 1;
                spring.target = pressTarget;
            }
            onPressed: (mouse) => {
                var s = d.st, rtl = preview.rtl === 1, r = s.hasRadius === true ? d.cornerRadius : 0;
                function side(v) { return s.hasRadius === true && v >= 0 ? v : r; }
                ripple = screen.ripple(d, mouse.x + x, mouse.y + y, d.contentColor, {
                    z: 50,
                    tl: side(rtl ? s.rTR : s.rTL), tr: side(rtl ? s.rTL : s.rTR),
                    br: side(rtl ? s.rBL : s.rBR), bl: side(rtl ? s.rBR : s.rBL)
                });
            }
            onReleased: if (ripple) ripple.finish()
            onCanceled: if (ripple) ripple.finish()
            onClicked: preview.tap(d.n, "")
        }
    }
    // A Spring (Spring.qml) owned by `owner`, at rest at `at`, of `stiffness`.
    function spring(owner, stiffness, at) {
        return springPart.createObject(owner, {stiffness: stiffness, target: at});
    }
    // A press ripple in `host` (bounded by it) from the press point (x, y) of `host`, in the
    // content colour `color`; `more` sets corner radii (tl, tr, br, bl) or a z. The caller keeps
    // it to `finish()` it on release; it destroys itself once faded.
    // A press ripple over a row a component makes `toggleable` / `selectable` outside its own
    // content (CO `RenderPrototypeToggle`: `minimumInteractiveComponentSize().toggleable(...)
    // .then(modifier)`): the node's full width, the row's content height (`contentH`) plus the
    // node's vertical padding, centred where the 48 dp target centres the row; in the colour the
    // node sits in (LocalContentColor outside the node), square. `area` is the pressed MouseArea.
    function rowRipple(d, area, mouse, contentH) {
        var g = d.g, top = (g.pt || 0) + area.parent.height / 2 - contentH / 2 - (g.pt || 0);
        var at = area.mapToItem(d, mouse.x, mouse.y);
        return ripple(d, at.x, at.y - top, d.contentColor,
                      {x: 0, y: top, width: d.width, height: contentH + (g.pt || 0) + (g.pb || 0), z: 50});
    }
    // PressRipple.qml is compiled on the first press, not with the scene (a new scene's first
    // frame does not pay for the Canvas type).
    property var rippleMaker: null
    function ripple(host, x, y, color, more) {
        if (!rippleMaker)
            rippleMaker = Qt.createComponent("PressRipple.qml");
        var props = {color: color, originX: x, originY: y, durationScale: preview.animatorScale};
        for (var k in more || {}) props[k] = more[k];
        return rippleMaker.createObject(host, props);
    }
    Component {
        id: outlinePart
        Rectangle {
            property Item d
            anchors.fill: parent
            anchors.margins: -1
            color: "transparent"
            border.width: 2
            border.color: preview.selected === d.address ? "#1A73E8" : "#F29900"
        }
    }
    Component {
        id: shiftPart
        // A style offset, and a sliding node's lift.
        Translate {
            property Item d
            // `Modifier.offset` is relative: right to left a positive x moves the node left.
            x: (preview.rtl ? -1 : 1) * (d.st.ox || 0)
            y: (d.st.oy || 0) + d.lift
        }
    }
    readonly property alias rootDelegate: rootDelegate
    readonly property real statusBar: preview.bars.status
    readonly property real navigationBar: preview.bars.navigation
    // The keyboard is up while a text field inside the screen has the focus.
    readonly property bool typing: {
        var item = Window.activeFocusItem;
        if (!item || item.cursorVisible === undefined || item.readOnly === true) return false;
        for (var p = item; p; p = p.parent) if (p === screen) return true;
        return false;
    }
    // Told once the focus has settled: a re-theme remakes a focused field, which drops the focus
    // and takes it back within one pass, and the keyboard must not go down and up in between.
    onTypingChanged: Qt.callLater(screen.tellKeyboard)
    function tellKeyboard() { preview.setKeyboard(typing); }
    readonly property real keyboardHeight: preview.keyboard ? preview.bars.keyboard : 0

    // -- the app behind: a neutral placeholder screen ---------------------------------------
    Column {
        visible: screen.chrome
        x: 24; y: screen.statusBar + 56; spacing: 20
        opacity: 0.5
        Repeater {
            model: 7
            Rectangle {
                required property int index
                width: screen.width - 48 - (index % 3) * 64
                height: 14; radius: 7
                color: preview.deviceDark ? "#3C4043" : "#D2D5DA"
            }
        }
    }

    // -- the prototype's window ------------------------------------------------------------
    Item {
        id: windowBox
        objectName: "window"
        visible: screen.placement.active !== false
        readonly property bool fullscreen: screen.kind === "fullscreen"
        // The device's layout direction (`LocalLayoutDirection`): right to left, the host's
        // chrome (Alignment.CenterEnd's dismiss label, TopEnd's Close) and every node's own
        // anchors, rows, list views and text alignment mirror. Node places come mirrored from
        // the layout (layout.py); an explicit x never mirrors. The window's own gravity does not:
        // the window manager applies Gravity.START as left (WindowLayout.computeFrames).
        LayoutMirroring.enabled: preview.rtl === 1
        LayoutMirroring.childrenInherit: true
        readonly property string gravity: String(screen.placement.gravity || "center").toLowerCase()
        readonly property var offset: screen.placement.offset || ({x: 0, y: 0})
        // Fullscreen: the dismiss bar reserves the status-bar inset and 32 dp (HO PrototypeChrome).
        readonly property real barHeight: fullscreen && screen.chrome ? screen.statusBar + 32 : 0
        readonly property real sheetHeight: Math.min(screen.height, screen.placement.height || 0)
        // A bottom sheet rises above the keyboard (PL `prototypeImeShiftPx`).
        readonly property real imeLift: screen.kind === "sheet" && screen.placement.edge !== "top" ? screen.keyboardHeight : 0
        // What the window offers its root, from the screen and the placement alone: never from
        // the root's own layout, which the offer feeds (a floating window wraps the root it
        // offers the whole screen). Read from `contentArea.height`, a switch from floating
        // re-entered that binding through the layout it started (a binding loop that left the
        // root the floating window's height).
        readonly property real offerW: screen.width
        readonly property real offerH: screen.kind === "floating" ? screen.height
            : (screen.kind === "sheet" ? sheetHeight : screen.height) - barHeight
        width: screen.kind === "floating" ? Math.min(screen.width, (rootDelegate.g.sw || 0)) : screen.width
        height: screen.kind === "sheet" ? sheetHeight
            : screen.kind === "floating" ? Math.min(screen.height, (rootDelegate.g.sh || 0))
            : screen.height
        // Android gravity: the offset moves the window away from the edge it is pulled to
        // (inward for end and bottom), from the centre to the right/down; the window stays
        // on the screen (WM `prototypeGravity`, PL: "A positive y lifts a bottom-gravity window").
        // A floating window follows an anchored root (HO `moveAnchored`): `winX`, `winY`.
        readonly property var anchoredAt: rootDelegate.g.winX === undefined ? null
            : Qt.point(rootDelegate.g.winX, rootDelegate.g.winY)
        x: {
            if (screen.kind !== "floating") return 0;
            if (anchoredAt) return Math.max(0, Math.min(screen.width - width, anchoredAt.x));
            var g = gravity, dx = offset.x || 0;
            var at = g.endsWith("start") ? dx : g.endsWith("end") ? screen.width - width - dx
                : (screen.width - width) / 2 + dx;
            return Math.max(0, Math.min(screen.width - width, at));
        }
        y: {
            if (screen.kind === "sheet")
                return screen.placement.edge === "top" ? 0 : screen.height - height - imeLift;
            if (screen.kind !== "floating") return 0;
            if (anchoredAt) return Math.max(0, Math.min(screen.height - height, anchoredAt.y));
            var g = gravity, dy = offset.y || 0;
            var at = g.startsWith("top") ? dy : g.startsWith("bottom") ? screen.height - height - dy
                : (screen.height - height) / 2 + dy;
            return Math.max(0, Math.min(screen.height - height, at));
        }
        // A device-persistent window that is not fullscreen carries a Close control (HO
        // `prototypeHostChrome`: `closeVisible`).
        readonly property bool closeVisible: !fullscreen && screen.placement.persistent === true
        // `window.opacity`: a fullscreen window (or one with Close) fades its content only, never
        // the host's controls; the other placements fade the whole window.
        readonly property bool opaqueWindow: fullscreen || closeVisible
        opacity: opaqueWindow ? 1 : screen.opacityValue

        Rectangle {
            id: dismissBar
            objectName: "dismissBar"
            visible: windowBox.fullscreen && screen.chrome
            width: parent.width
            height: windowBox.barHeight
            // surfaceContainerHigh at 0.6 over the spec's theme (TH `prototypeDismissColors`).
            color: Qt.alpha(preview.colors.surfaceContainerHigh, 0.6)
            Text {
                anchors.right: parent.right
                anchors.rightMargin: 12
                y: screen.statusBar + (32 - height) / 2
                text: "Dismiss AutoMobile prototype"
                font.family: preview.fontFamily
                font.pixelSize: 12
                font.weight: 500
                font.letterSpacing: 0.5
                color: preview.colors.onSurface
                // The label is a TextButton 32 dp tall with 12 dp padding (HO `PrototypeChrome`):
                // a press ripples in its pill in onSurface, the button's content colour.
                MouseArea {
                    anchors.fill: parent
                    anchors.margins: -8
                    enabled: !preview.editMode
                    property Item ripple: null
                    onPressed: (m) => {
                        var pill = parent.parent, left = parent.x - 12, top = screen.statusBar;
                        var at = mapToItem(pill, m.x, m.y);
                        ripple = screen.ripple(pill, at.x - left, at.y - top, preview.colors.onSurface,
                            {x: left, y: top, width: parent.width + 24, height: 32,
                             tl: 16, tr: 16, br: 16, bl: 16});
                    }
                    onReleased: if (ripple) ripple.finish()
                    onCanceled: if (ripple) ripple.finish()
                    onClicked: preview.dismissWindow()
                }
            }
        }
        Item {
            id: contentArea
            objectName: "content"
            y: windowBox.barHeight
            width: parent.width
            height: parent.height - windowBox.barHeight
            clip: true
            opacity: windowBox.opaqueWindow ? screen.opacityValue : 1
            readonly property bool anchorStop: true
            // Anchors are screen dp: the layout subtracts where this area starts on the screen.
            readonly property point origin: Qt.point(windowBox.x, windowBox.y + y)
            onOriginChanged: preview.setOrigin(origin.x, origin.y)
            Component.onCompleted: preview.setOrigin(origin.x, origin.y)
            // The fullscreen scrim, behind the content (HO: the content box's background).
            Rectangle {
                anchors.fill: parent
                visible: windowBox.fullscreen && screen.placement.scrim !== undefined
                color: screen.placement.scrim || "transparent"
            }
            MotionDelegate {
                id: rootDelegate
                n: preview.root
                inh: ({})
                // The window wraps a floating root; fullscreen and sheets offer their whole area
                // (`windowBox.offerH`: the content area's height, not read back from it).
                readonly property real maxW: windowBox.offerW
                readonly property real maxH: windowBox.offerH
                onMaxWChanged: preview.placeRoot(maxW, maxH)
                onMaxHChanged: preview.placeRoot(maxW, maxH)
                Component.onCompleted: {
                    preview.attachMeasure(measure);
                    preview.placeRoot(maxW, maxH);
                }
            }
            // The layout measures text with these items (they go with the scene).
            Measure { id: measure }
            Item {
                // Anchored nodes below the root, at screen coordinates less this area's origin
                // (SC `PrototypeAnchorLayer`): above the tree, below dialogs, sheets and
                // snackbars; only the content area clips them.
                id: anchorLayerItem
                objectName: "anchorLayer"
                anchors.fill: parent
                z: 5
                readonly property bool anchorLayer: true
            }
            Item {
                id: overlay
                objectName: "overlay"
                anchors.fill: parent
                z: 10
                // Dialogs, sheets and snackbars lay out in this area.
                onWidthChanged: preview.setArea(width, height)
                onHeightChanged: preview.setArea(width, height)
                Component.onCompleted: preview.setArea(width, height)
            }
        }
        Rectangle {
            // The persistent window's Close: a TextButton (48 dp touch target) on an opaque
            // surfaceContainerHigh at the top end, drawn over the content (TH `prototypeCloseColors`).
            objectName: "closeButton"
            visible: windowBox.closeVisible
            z: 20
            anchors.right: parent.right
            width: Math.max(58, closeLabel.implicitWidth + 24)
            height: 48
            color: preview.colors.surfaceContainerHigh
            Text {
                id: closeLabel
                anchors.centerIn: parent
                text: "Close"
                font.family: preview.fontFamily
                font.pixelSize: 14
                font.weight: 500
                font.letterSpacing: 0.1
                color: preview.colors.onSurface
            }
            // A TextButton (HO `PrototypeChrome`): a press ripples in its 40 dp pill inside the
            // 48 dp background, in onSurface.
            MouseArea {
                anchors.fill: parent
                enabled: !preview.editMode
                property Item ripple: null
                onPressed: (m) => {
                    ripple = screen.ripple(parent, m.x, m.y - 4, preview.colors.onSurface,
                        {x: 0, y: 4, width: parent.width, height: 40, tl: 20, tr: 20, br: 20, bl: 20});
                }
                onReleased: if (ripple) ripple.finish()
                onCanceled: if (ripple) ripple.finish()
                onClicked: preview.dismissWindow()
            }
        }
    }

    // -- the system bars -----------------------------------------------------------------
    Item {
        id: statusBarItem
        objectName: "statusBar"
        visible: screen.chrome
        width: screen.width
        height: screen.statusBar
        z: 20
        readonly property color ink: preview.deviceDark ? "#E8EAED" : "#1F1F1F"
        // Android's status bar follows the locale's direction too: right to left, the clock is
        // at the right and the system icons at the left, in reverse order.
        LayoutMirroring.enabled: preview.rtl === 1
        LayoutMirroring.childrenInherit: true
        Text {
            objectName: "statusClock"
            anchors.left: parent.left
            anchors.leftMargin: 16
            anchors.verticalCenter: parent.verticalCenter
            text: "12:30"
            font.family: preview.systemFont
            font.pixelSize: 13
            font.weight: 500
            color: statusBarItem.ink
        }
        Rectangle {
            // The punch-hole camera (the cutout inset).
            anchors.centerIn: parent
            width: 12; height: 12; radius: 6
            color: "#000000"
        }
        Row {
            anchors.right: parent.right
            anchors.rightMargin: 16
            anchors.verticalCenter: parent.verticalCenter
            spacing: 6
            Repeater {
                model: ["signal_cellular_alt", "wifi", "battery_full"]
                Text {
                    required property string modelData
                    text: preview.glyph(modelData)
                    font.family: preview.iconFont
                    font.pixelSize: 15
                    color: statusBarItem.ink
                }
            }
        }
    }
    Rectangle {
        id: keyboardItem
        objectName: "keyboard"
        visible: screen.chrome && screen.keyboardHeight > 0
        z: 20
        width: screen.width
        height: screen.keyboardHeight
        y: screen.height - height
        color: preview.deviceDark ? "#2D2E31" : "#E1E3E6"
        Column {
            x: 6; y: 12; spacing: 10
            Repeater {
                model: [10, 9, 9, 5]
                Row {
                    required property int modelData
                    required property int index
                    x: index === 1 ? (screen.width - 12) / 20 : 0
                    spacing: 6
                    Repeater {
                        model: parent.modelData
                        Rectangle {
                            width: (screen.width - 12 - 9 * 6) / 10 * (parent.modelData === 5 && index === 2 ? 4.6 : 1)
                            height: 46; radius: 6
                            color: preview.deviceDark ? "#46474A" : "#FFFFFF"
                        }
                    }
                }
            }
        }
    }
    Item {
        id: navigationBarItem
        objectName: "navigationBar"
        visible: screen.chrome
        z: 20
        width: screen.width
        height: screen.navigationBar
        y: screen.height - height
        Rectangle {
            // The gesture handle.
            anchors.centerIn: parent
            width: 108; height: 4; radius: 2
            color: preview.deviceDark ? "#E8EAED" : "#1F1F1F"
            opacity: 0.6
        }
    }

    MouseArea {
        // Edit mode: a click selects the deepest node under the pointer, running no action.
        anchors.fill: parent
        z: 1000
        enabled: preview.editMode
        visible: enabled
        onClicked: (mouse) => {
            var found = screen.nodeAt(mouse.x, mouse.y);
            if (found) preview.pick(found.address);
        }
    }

    function deepest(item, x, y) {
        // topmost first: by stacking order (`z`, then the order they were made in)
        var kids = [];
        for (var j = 0; j < item.children.length; ++j) kids.push(item.children[j]);
        kids = kids.map(function(c, at) { return {c: c, at: at}; })
            .sort(function(a, b) { return a.c.z - b.c.z || a.at - b.at; })
            .map(function(e) { return e.c; });
        for (var i = kids.length - 1; i >= 0; --i) {
            var c = kids[i];
            if (!c.visible || c.opacity <= 0) continue;
            var pt = item.mapToItem(c, x, y);
            if (pt.x < 0 || pt.y < 0 || pt.x > c.width || pt.y > c.height) continue;
            var hit = deepest(c, pt.x, pt.y);
            if (hit) return hit;
        }
        if (item.isNodeDelegate) return item;
        if (item.ownerDelegate) return item.ownerDelegate;
        return null;
    }
    function nodeAt(x, y) {
        var o = mapToItem(overlay, x, y);
        var hit = deepest(overlay, o.x, o.y);
        var w = mapToItem(contentArea, x, y);
        return hit ? hit : deepest(contentArea, w.x, w.y);
    }
}
