// radioGroup: one row per option, each a selectable target: a tap binds the string key to the
// option's value, then runs the group's onTap (SE `RenderPrototypeRadioGroup`, RT `Choose`).
// A row fills the group's width, is at least 48 dp tall, and holds the 24 dp radio then the
// label (bodyLarge, the node's style.color else onSurface) 12 dp apart.
import QtQuick
import ".."

Item {
    id: g
    readonly property var current: {
        d.rev;
        return preview.value(d.n, d.p.stateKey);
    }
    readonly property real widest: {
        var w = 0;
        for (var i = 0; i < rep.count; ++i) {
            var it = rep.itemAt(i);
            if (it) w = Math.max(w, it.implicitWidth);
        }
        return w;
    }
    implicitWidth: widest
    implicitHeight: col.implicitHeight
    Column {
    id: col
    width: g.width
    Repeater {
        id: rep
        model: d.p.options || []
        Item {
            id: option
            required property var modelData
            readonly property bool selected: g.current === modelData.value
            width: g.width
            implicitWidth: 24 + 12 + label.implicitWidth
            height: Math.max(48, label.implicitHeight)
            MRadio {
                anchors.left: parent.left
                anchors.verticalCenter: parent.verticalCenter
                selected: option.selected
            }
            StyledText {
                id: label
                ts: d.ts
                nodeStyle: d.st
                anchors.left: parent.left
                anchors.leftMargin: 36
                width: Math.min(implicitWidth, Math.max(0, option.width - 36))
                anchors.verticalCenter: parent.verticalCenter
                role: "bodyLarge"
                text: {
                    preview.rtl;  // read again in the other direction (bidi.py)
                    return preview.text(d.n, option.modelData.label);
                }
            }
            MouseArea {
                anchors.fill: parent
                onClicked: preview.choose(d.n, d.p.stateKey || "", String(option.modelData.value))
            }
        }
    }
}
}
