// segmentedButton: 2..5 outlined segments, one selected (string state key); a tap binds the key,
// then runs onTap (MC `RenderPrototypeSegmentedButton`, RT `Choose`).
import QtQuick
import ".."

Item {
    id: seg
    property bool defaultFillW: false
    readonly property var options: d.p.options || []
    readonly property var current: {
        d.n.rev;
        return preview.value(d.n, d.p.stateKey);
    }
    implicitHeight: 40
    readonly property real widest: {
        var w = 48;
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
                height: seg.height
                implicitWidth: content.implicitWidth + 24 + (cell.selected ? 0 : 26)
                Rectangle {
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
                        role: "labelLarge"
                        text: preview.text(d.n, cell.modelData.label)
                        color: cell.selected ? preview.colors.onSecondaryContainer : preview.colors.onSurface
                        anchors.verticalCenter: parent.verticalCenter
                    }
                }
                MouseArea {
                    anchors.fill: parent
                    onClicked: preview.choose(d.n, d.p.stateKey || "", String(cell.modelData.value))  // RT `Choose`
                }
            }
        }
    }
}
