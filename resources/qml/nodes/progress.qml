// progress: linear or circular; determinate from a numeric state key (0..max), else indeterminate.
import QtQuick
import QtQuick.Controls
import QtQuick.Shapes

Item {
    id: pr
    readonly property bool circular: d.p.variant === "circular"
    property bool defaultFillW: !circular
    readonly property bool determinate: !!d.p.stateKey
    readonly property real fraction: {
        d.n.rev;
        if (!determinate) return 0;
        var v = Number(preview.value(d.n, d.p.stateKey));
        var max = d.p.max || 1;
        return Math.max(0, Math.min(1, v / max));
    }
    implicitWidth: circular ? 48 : 240
    implicitHeight: circular ? 48 : 4
    ProgressBar {
        visible: !pr.circular
        anchors.fill: parent
        padding: 0
        indeterminate: !pr.determinate
        value: pr.fraction
    }
    Shape {
        // indeterminate circular indicator: a rotating three-quarter arc (stable in screenshots)
        visible: pr.circular && !pr.determinate
        anchors.fill: parent
        RotationAnimator on rotation {
            from: 0; to: 360; duration: 1400; loops: Animation.Infinite
            running: pr.circular && !pr.determinate && pr.visible
        }
        ShapePath {
            strokeColor: preview.colors.primary
            strokeWidth: 4
            fillColor: "transparent"
            capStyle: ShapePath.RoundCap
            PathAngleArc { centerX: pr.width / 2; centerY: pr.height / 2; radiusX: pr.width / 2 - 4; radiusY: pr.height / 2 - 4; startAngle: -90; sweepAngle: 270 }
        }
    }
    Shape {
        // determinate circular indicator (track + arc)
        visible: pr.circular && pr.determinate
        anchors.fill: parent
        ShapePath {
            strokeColor: preview.colors.secondaryContainer
            strokeWidth: 4
            fillColor: "transparent"
            capStyle: ShapePath.RoundCap
            PathAngleArc { centerX: pr.width / 2; centerY: pr.height / 2; radiusX: pr.width / 2 - 4; radiusY: pr.height / 2 - 4; startAngle: -90; sweepAngle: 360 }
        }
        ShapePath {
            strokeColor: preview.colors.primary
            strokeWidth: 4
            fillColor: "transparent"
            capStyle: ShapePath.RoundCap
            PathAngleArc { centerX: pr.width / 2; centerY: pr.height / 2; radiusX: pr.width / 2 - 4; radiusY: pr.height / 2 - 4; startAngle: -90; sweepAngle: 360 * pr.fraction }
        }
    }
}
