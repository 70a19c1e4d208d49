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
            // A press ripples over the option's row (SE `RenderPrototypeRadioGroup`: the Row is
            // `selectable` inside its 48 dp `minimumInteractiveComponentSize`, the RadioButton is
            // display-only, `onClick = null`): full width, the row's content height (24 dp or the
            // label's), in the colour the group sits in, square.
            MouseArea {
                id: mouse
                anchors.fill: parent
                property Item ripple: null
                onPressed: (m) => {
                    var h = Math.max(24, label.height), top = (option.height - h) / 2;
                    ripple = screen.ripple(option, m.x, m.y - top, d.contentColor,
                                           {x: 0, y: top, width: option.width, height: h});
                }
                onReleased: if (ripple) ripple.finish()
                onCanceled: if (ripple) ripple.finish()
                onClicked: preview.choose(d.n, d.p.stateKey || "", String(option.modelData.value))
            }
        }
    }
}
}
