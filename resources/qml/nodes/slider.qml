// slider: a Material 3 slider bound to a number, min..max by step, with an optional label above
// it (CO `RenderPrototypeSlider`: `Column { PrototypeComponentLabel; Slider(fillMaxWidth) }`,
// the label in the theme's body style bodyLarge and the node's style.color). A drag or tap sets
// the snapped value and then runs onTap, unless the value did not move (RT `Slide`). Drawn as the
// Material 3 slider (SliderTokens): a 16 dp track with 8 dp outer corners, primary up to the
// value and secondaryContainer after it, a 4 x 44 dp primary handle with a 6 dp gap on each
// side, a 4 dp stop dot at the end, in a 48 dp target (44 dp handle, minimum interactive size).
import QtQuick
import ".."

Item {
    id: root
    property bool defaultFillW: true
    readonly property real lo: Number(d.p.min) || 0
    readonly property real hi: Number(d.p.max) || 0
    readonly property real bound: {
        d.rev;
        var v = Number(preview.value(d.n, d.p.stateKey));
        return isNaN(v) ? lo : v;
    }
    property real dragValue: NaN
    readonly property real shown: isNaN(dragValue) ? bound : dragValue
    readonly property real fraction: hi > lo ? Math.max(0, Math.min(1, (shown - lo) / (hi - lo))) : 0
    readonly property bool labelled: !!d.p.label
    implicitWidth: 240
    implicitHeight: (labelled ? label.implicitHeight : 0) + 48
    function snapped(x) {
        var v = lo + Math.max(0, Math.min(1, (x - 8) / Math.max(1, track.width - 16))) * (hi - lo);
        var step = Number(d.p.step) || 0;
        if (step > 0) v = lo + Math.round((v - lo) / step) * step;
        return Math.round(Math.max(lo, Math.min(hi, v)) * 1e6) / 1e6;  // CO `snapPrototypeSlider`
    }
    StyledText {
        id: label
        ts: d.ts
        nodeStyle: d.st
        visible: root.labelled
        width: root.width
        role: "bodyLarge"
        text: {
            d.rev;
            return root.labelled ? preview.text(d.n, d.p.label) : "";
        }
    }
    Item {
        id: track
        y: root.labelled ? label.height : 0
        width: root.width
        height: 48
        readonly property real handleX: 8 + root.fraction * (width - 16)
        // Right to left Material's Slider runs from the right (its minimum at the start); the
        // track has no text, so it is mirrored whole, and a drag maps through the mirror.
        transform: Scale { origin.x: track.width / 2; xScale: preview.rtl ? -1 : 1 }
        Rectangle {
            // active part: up to 6 dp before the handle
            x: 0
            anchors.verticalCenter: parent.verticalCenter
            width: Math.max(0, track.handleX - 2 - 6)
            height: 16
            visible: width > 0
            topLeftRadius: 8; bottomLeftRadius: 8; topRightRadius: 2; bottomRightRadius: 2
            color: preview.colors.primary
        }
        Rectangle {
            // inactive part: from 6 dp after the handle to the end
            x: track.handleX + 2 + 6
            anchors.verticalCenter: parent.verticalCenter
            width: Math.max(0, track.width - x)
            height: 16
            visible: width > 0
            topLeftRadius: 2; bottomLeftRadius: 2; topRightRadius: 8; bottomRightRadius: 8
            color: preview.colors.secondaryContainer
        }
        Rectangle {
            // stop indicator at the end of the track
            visible: root.fraction < 1
            x: track.width - 8 - 2; anchors.verticalCenter: parent.verticalCenter
            width: 4; height: 4; radius: 2
            color: preview.colors.primary
        }
        Repeater {
            id: ticks
            // tick marks of a stepped slider (SliderDefaults: 4 dp, onPrimary on the active
            // track, onSecondaryContainer on the inactive one), none inside the handle's gap
            model: {
                var step = Number(d.p.step) || 0;
                var n = step > 0 && root.hi > root.lo ? Math.round((root.hi - root.lo) / step) : 0;
                return n > 0 && n <= Math.floor((track.width - 16) / 6) ? n + 1 : 0;
            }
            Rectangle {
                required property int index
                readonly property real at: 8 + index / Math.max(1, ticks.count - 1) * (track.width - 16)
                visible: Math.abs(at - track.handleX) > 8
                x: Math.max(4, Math.min(track.width - 8, at - 2))
                anchors.verticalCenter: parent.verticalCenter
                width: 4; height: 4; radius: 2
                color: at < track.handleX ? preview.colors.onPrimary : preview.colors.onSecondaryContainer
            }
        }
        Rectangle {
            id: handle
            x: track.handleX - width / 2
            anchors.verticalCenter: parent.verticalCenter
            width: mouse.pressed ? 2 : 4
            height: 44
            radius: 2
            color: preview.colors.primary
        }
        MouseArea {
            id: mouse
            anchors.fill: parent
            preventStealing: true
            // Compose's Slider reports every value change of the drag (`onValueChange`), each one
            // a Slide; an unchanged value is dropped by the runtime.
            function move(x) {
                var v = root.snapped(x);
                root.dragValue = v;
                preview.slide(d.n, d.p.stateKey || "", v);
            }
            onPressed: (m) => move(m.x)
            onPositionChanged: (m) => { if (pressed) move(m.x); }
            onReleased: root.dragValue = NaN
            onCanceled: root.dragValue = NaN
        }
    }
}
