// progress: a Material 3 progress indicator (MC `RenderPrototypeProgress`): linear (default) or
// circular; determinate from a numeric key (value / max, max 1 by default), else indeterminate.
// Sizes as Compose's defaults, not the available width: linear 240 x 4 dp
// (ProgressIndicatorDefaults LinearIndicatorWidth/Height), circular 40 dp with a 4 dp stroke
// (CircularIndicatorDiameter). Determinate: the primary indicator, a 4 dp gap, the
// secondaryContainer track and, on a linear one, a 4 dp primary stop dot at its end.
// Indeterminate linear: a moving primary bar over the track; circular: a turning 3/4 arc.
import QtQuick
import QtQuick.Shapes

Item {
    id: pr
    readonly property bool circular: d.p.variant === "circular"
    readonly property bool determinate: !!d.p.stateKey
    readonly property real fraction: {
        d.rev;
        if (!determinate) return 0;
        var v = Number(preview.value(d.n, d.p.stateKey));
        var max = d.p.max || 1;
        return isNaN(v) ? 0 : Math.max(0, Math.min(1, v / max));
    }
    readonly property bool animate: pr.visible && preview.motion && !preview.editMode
    // Material's indeterminate indicators run on an InfiniteTransition, which restarts when the
    // animator duration scale changes and runs its play time over it (InfiniteTransition.kt
    // `run`: `(currentTimeNanos - startTimeNanos) / durationScale`).
    readonly property real durationScale: preview.animatorScale > 0 ? preview.animatorScale : 1
    implicitWidth: circular ? 40 : 240
    implicitHeight: circular ? 40 : 4
    Item {
        // linear
        visible: !pr.circular
        anchors.fill: parent
        // Right to left Material's LinearProgressIndicator fills from the right; the circular one
        // turns clockwise in both directions (drawn on a Canvas, which no direction mirrors).
        transform: Scale { origin.x: pr.width / 2; xScale: preview.rtl ? -1 : 1 }
        clip: !pr.determinate
        readonly property real gap: pr.determinate && pr.fraction > 0 && pr.fraction < 1 ? 4 : 0
        readonly property real split: pr.determinate ? pr.fraction * width : 0
        Rectangle {
            id: bar
            visible: pr.determinate && width > 0
            x: 0; width: parent.split; height: parent.height; radius: height / 2
            color: preview.colors.primary
        }
        Rectangle {
            visible: pr.determinate && width > 0
            x: parent.split + parent.gap; width: Math.max(0, parent.width - x); height: parent.height
            radius: height / 2
            color: preview.colors.secondaryContainer
        }
        Rectangle {
            // stop indicator
            visible: pr.determinate && pr.fraction < 1
            x: parent.width - width; width: parent.height; height: parent.height; radius: height / 2
            color: preview.colors.primary
        }
        Rectangle {
            visible: !pr.determinate
            anchors.fill: parent; radius: height / 2
            color: preview.colors.secondaryContainer
        }
        Rectangle {
            id: moving
            visible: !pr.determinate
            width: parent.width * 0.4; height: parent.height; radius: height / 2
            color: preview.colors.primary
            NumberAnimation on x {
                objectName: "indeterminateSlide"
                from: -pr.width * 0.4; to: pr.width; duration: 1750 * pr.durationScale
                loops: Animation.Infinite
                running: !pr.determinate && !pr.circular && pr.animate
                onDurationChanged: if (running) restart()
            }
        }
    }
    Shape {
        // indeterminate circular indicator: a turning three-quarter arc
        visible: pr.circular && !pr.determinate
        anchors.fill: parent
        RotationAnimator on rotation {
            objectName: "indeterminateTurn"
            from: 0; to: 360; duration: 1400 * pr.durationScale; loops: Animation.Infinite
            running: pr.circular && !pr.determinate && pr.animate
            onDurationChanged: if (running) restart()
        }
        ShapePath {
            strokeColor: preview.colors.primary
            strokeWidth: 4
            fillColor: "transparent"
            capStyle: ShapePath.RoundCap
            PathAngleArc { centerX: 20; centerY: 20; radiusX: 18; radiusY: 18; startAngle: -90; sweepAngle: 270 }
        }
    }
    Shape {
        // determinate circular indicator: the track after a gap, then the arc
        id: ring
        visible: pr.circular && pr.determinate
        anchors.fill: parent
        readonly property real gapDegrees: pr.fraction > 0 && pr.fraction < 1 ? 4 / 18 * 180 / Math.PI + 8 : 0
        ShapePath {
            strokeColor: preview.colors.secondaryContainer
            strokeWidth: 4
            fillColor: "transparent"
            capStyle: ShapePath.RoundCap
            PathAngleArc {
                centerX: 20; centerY: 20; radiusX: 18; radiusY: 18
                startAngle: -90 + 360 * pr.fraction + ring.gapDegrees / 2
                sweepAngle: Math.max(0, 360 * (1 - pr.fraction) - ring.gapDegrees)
            }
        }
        ShapePath {
            strokeColor: preview.colors.primary
            strokeWidth: 4
            fillColor: "transparent"
            capStyle: ShapePath.RoundCap
            PathAngleArc { centerX: 20; centerY: 20; radiusX: 18; radiusY: 18; startAngle: -90; sweepAngle: 360 * pr.fraction }
        }
    }
}
