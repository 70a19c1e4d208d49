// slider: a Material 3 slider bound to a number, min..max by step, with an optional label above
// it (CO `RenderPrototypeSlider`: `Column { PrototypeComponentLabel; Slider(fillMaxWidth, steps =
// prototypeSliderSteps) }`, the label in the theme's body style bodyLarge and the node's
// style.color). A drag or tap sets the snapped value and then runs onTap, unless the value did not
// move (RT `Slide`). Drawn as Material 3's Slider (Slider.kt, SliderTokens) lays it out and draws
// it, in a 48 dp target (`minimumInteractiveComponentSize`):
// - `SliderImpl`: the 4 x 44 dp handle (`ThumbContent`: its box keeps 4 dp, only the drawn bar
//   narrows to 2 dp while pressed or dragged) and a track 4 dp shorter, starting 2 dp in. The
//   handle's centre is the value's fraction of the track, or for a stepped value between its ends
//   that fraction of the track less its 8 dp corners, plus one corner (`fractionOffset`).
// - `drawTrack`: a 16 dp track, its outer corners 8 dp, its inside corners 2 dp
//   (TrackInsideCornerSize); the active part (primary) ends, and the inactive part
//   (secondaryContainer) starts, 6 dp (ThumbTrackGapSize) beyond the handle's 4 dp box; each is
//   drawn only while longer than a corner. A 4 dp stop dot (primary) 8 dp inside the end while the
//   inactive part shows; ticks (onPrimary on the active part, onSecondaryContainer after it) at
//   the step fractions of the track less its corners, none in the handle's gap, none at the end.
// - `dispatchRawDeltaInternal`: a press or drag maps its x over the track, 2 dp to W - 2 dp,
//   snapped to the nearest step (`snapValueToTick`), then CO `snapPrototypeSlider`.
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
    readonly property real fraction: hi > lo ? toTick(Math.max(0, Math.min(1, (shown - lo) / (hi - lo)))) : 0
    readonly property bool labelled: !!d.p.label
    implicitWidth: 240
    implicitHeight: (labelled ? label.implicitHeight : 0) + 48
    // The nearest of the step fractions Material snaps to (`snapValueToTick` over
    // `stepsToTickFractions`), for a value shown (SliderState's auto-snapping setter) and one set.
    function toTick(f) {
        var n = track.steps;
        return n > 0 ? Math.round(f * (n + 1)) / (n + 1) : f;
    }
    // `dispatchRawDeltaInternal`: x over the track (2 dp to W - 2 dp), to the nearest tick, then
    // to the node's step (CO `snapPrototypeSlider`).
    function snapped(x) {
        var v = lo + toTick(Math.max(0, Math.min(1, (x - 2) / Math.max(1, track.width - 4)))) * (hi - lo);
        var step = Number(d.p.step) || 0;
        if (step > 0) v = lo + Math.round((Math.max(lo, Math.min(hi, v)) - lo) / step) * step;
        return Math.max(lo, Math.min(hi, Math.round(v * 1e6) / 1e6));  // CO `snapPrototypeSlider`
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
        // `SliderImpl`: the track is 4 dp shorter than the slider (the handle's box), 2 dp in.
        readonly property real span: Math.max(0, width - 4)
        // `prototypeSliderSteps`: the discrete positions strictly between the ends.
        readonly property int steps: {
            var step = Number(d.p.step) || 0;
            return step > 0 && root.hi > root.lo ? Math.max(0, Math.round((root.hi - root.lo) / step) - 1) : 0;
        }
        readonly property bool onEnd: root.fraction < 1e-9 || root.fraction > 1 - 1e-9
        // the value's place on the track (track coordinates: `sliderValueEnd`, `fractionOffset`)
        readonly property real valueEnd: steps > 0 && !onEnd ? (span - 16) * root.fraction + 8
                                                              : span * root.fraction
        readonly property real handleX: 2 + valueEnd
        // Right to left Material's Slider runs from the right (its minimum at the start); the
        // track has no text, so it is mirrored whole, and a drag maps through the mirror.
        transform: Scale { origin.x: track.width / 2; xScale: preview.rtl ? -1 : 1 }
        Rectangle {
            // active part: from the track's start to 6 dp before the handle's box
            x: 2
            anchors.verticalCenter: parent.verticalCenter
            width: Math.max(0, track.valueEnd - 8)
            height: 16
            visible: width > 8
            topLeftRadius: 8; bottomLeftRadius: 8; topRightRadius: 2; bottomRightRadius: 2
            color: preview.colors.primary
        }
        Rectangle {
            // inactive part: from 6 dp after the handle's box to the track's end
            x: 2 + track.valueEnd + 8
            anchors.verticalCenter: parent.verticalCenter
            width: Math.max(0, track.span - track.valueEnd - 8)
            height: 16
            visible: track.valueEnd < track.span - 16
            topLeftRadius: 2; bottomLeftRadius: 2; topRightRadius: 8; bottomRightRadius: 8
            color: preview.colors.secondaryContainer
        }
        Rectangle {
            // stop indicator, a corner inside the track's end, with the inactive part
            visible: track.valueEnd < track.span - 16
            x: 2 + track.span - 8 - 2; anchors.verticalCenter: parent.verticalCenter
            width: 4; height: 4; radius: 2
            color: preview.colors.primary
        }
        Repeater {
            id: ticks
            // The tick fractions (`stepsToTickFractions`) but the last, which the stop dot stands
            // on. Material draws every one; past 400 they would merge into a line, not drawn here.
            model: track.steps > 0 && track.steps <= 400 ? track.steps + 1 : 0
            Rectangle {
                required property int index
                readonly property real at: 2 + 8 + index / (track.steps + 1) * (track.span - 16)
                visible: Math.abs(at - track.handleX) > 8
                x: at - 2
                anchors.verticalCenter: parent.verticalCenter
                width: 4; height: 4; radius: 2
                color: at <= track.handleX - 8 ? preview.colors.onPrimary : preview.colors.onSecondaryContainer
            }
        }
        Rectangle {
            id: handle
            // `ThumbContent`: half as wide while pressed or dragged, centred in its 4 dp box
            x: track.handleX - width / 2
            anchors.verticalCenter: parent.verticalCenter
            width: mouse.pressed ? 2 : 4
            height: 44
            radius: width / 2
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
