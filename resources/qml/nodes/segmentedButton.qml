// segmentedButton: 2..5 outlined segments, one selected (string state key); a tap binds the key,
// then runs onTap (MC `RenderPrototypeSegmentedButton`, RT `Choose`). As Compose's
// SingleChoiceSegmentedButtonRow: segments of one width (the widest, at least
// ButtonDefaults.MinWidth 58 dp), 40 dp tall in a 48 dp target, a 1 dp outline border, 12 dp
// padding, labelLarge; the selected one secondaryContainer with an 18 dp check 8 dp before its
// onSecondaryContainer label, the others onSurface (OutlinedSegmentedButtonTokens).
import QtQuick
import ".."

Item {
    id: seg
    property bool defaultFillW: false
    readonly property var options: d.p.options || []
    readonly property var current: {
        d.rev;
        return preview.value(d.n, d.p.stateKey);
    }
    implicitHeight: 48
    readonly property real widest: {
        var w = 58;
        for (var i = 0; i < rep.count; ++i) {
            var it = rep.itemAt(i);
            if (it) w = Math.max(w, it.implicitWidth);
        }
        return w;
    }
    implicitWidth: widest * options.length
    Row {
        id: row
        anchors.fill: parent
        Repeater {
            id: rep
            model: seg.options
            Item {
                id: cell
                required property var modelData
                required property int index
                readonly property bool selected: seg.current === modelData.value
                width: seg.width / Math.max(1, seg.options.length)
                height: 40
                y: (seg.height - 40) / 2
                implicitWidth: label.implicitWidth + 24 + (cell.selected ? 18 + 8 : 0)
                Rectangle {
                    id: shape
                    anchors.fill: parent
                    color: cell.selected ? preview.colors.secondaryContainer : "transparent"
                    topLeftRadius: cell.index === 0 ? height / 2 : 0
                    bottomLeftRadius: topLeftRadius
                    topRightRadius: cell.index === seg.options.length - 1 ? height / 2 : 0
                    bottomRightRadius: topRightRadius
                    border.width: 1
                    border.color: preview.colors.outline
                }
                Row {
                    id: content
                    anchors.centerIn: parent
                    spacing: 8
                    MIcon {
                        visible: cell.selected
                        name: "check"
                        size: 18
                        color: preview.colors.onSecondaryContainer
                        anchors.verticalCenter: parent.verticalCenter
                    }
                    RoleText {
                        id: label
                        role: "labelLarge"
                        text: {
                            preview.rtl;  // read again in the other direction (bidi.py)
                            return preview.text(d.n, cell.modelData.label);
                        }
                        color: cell.selected ? preview.colors.onSecondaryContainer : preview.colors.onSurface
                        anchors.verticalCenter: parent.verticalCenter
                    }
                }
                // A press ripples in the segment's shape (SegmentedButton: a Surface with the
                // segment's shape and onClick) in its content colour, over the label.
                MouseArea {
                    anchors.fill: parent
                    property Item ripple: null
                    onPressed: (m) => {
                        ripple = screen.ripple(cell, m.x, m.y, cell.selected
                            ? preview.colors.onSecondaryContainer : preview.colors.onSurface,
                            {z: 1, tl: shape.topLeftRadius, tr: shape.topRightRadius,
                             br: shape.bottomRightRadius, bl: shape.bottomLeftRadius});
                    }
                    onReleased: if (ripple) ripple.finish()
                    onCanceled: if (ripple) ripple.finish()
                    onClicked: preview.choose(d.n, d.p.stateKey || "", String(cell.modelData.value))  // RT `Choose`
                }
            }
        }
    }
}
