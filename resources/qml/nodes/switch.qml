// switch: a Material 3 switch, optionally labelled, bound to a boolean key. The whole row is one
// toggle target: a tap anywhere flips the key, then runs the node's onTap (CO
// `RenderPrototypeToggle`, RT `Toggle`). Row: label (bodyLarge, the node's style.color else
// onSurface) then the switch, 12 dp apart, packed at the start, at least 48 dp tall
// (minimumInteractiveComponentSize).
import QtQuick
import ".."

Item {
    id: root
    readonly property bool on: {
        d.rev;
        return preview.value(d.n, d.p.stateKey) === true;
    }
    readonly property bool labelled: !!d.p.label
    implicitWidth: Math.max(48, (labelled ? label.implicitWidth + 12 : 0) + sw.implicitWidth)
    implicitHeight: Math.max(48, sw.implicitHeight, labelled ? label.implicitHeight : 0)
    Loader {
        // only a labelled switch makes its label (a Text and its bindings)
        id: label
        active: root.labelled
        visible: active
        width: Math.min(implicitWidth, Math.max(0, root.width - 12 - sw.width))
        anchors.left: parent.left
        anchors.verticalCenter: parent.verticalCenter
        sourceComponent: StyledText {
            ts: d.ts
            nodeStyle: d.st
            role: "bodyLarge"
            text: {
                d.rev;
                return preview.text(d.n, d.p.label || "");
            }
        }
    }
    MSwitch {
        id: sw
        anchors.left: root.labelled ? label.right : parent.left
        anchors.leftMargin: root.labelled ? 12 : 0
        anchors.verticalCenter: parent.verticalCenter
        checked: root.on
        pressed: mouse.pressed
    }
    // A press ripples over the row, not the switch: the Material Switch is display-only
    // (`onCheckedChange = null`, so it has no ripple of its own) and the row is `toggleable`
    // (screen.rowRipple): 32 dp (the switch) or the label's height, with the node's padding.
    MouseArea {
        id: mouse
        anchors.fill: parent
        property Item ripple: null
        onPressed: (m) => {
            ripple = screen.rowRipple(d, mouse, m, Math.max(sw.height, root.labelled ? label.height : 0));
        }
        onReleased: if (ripple) ripple.finish()
        onCanceled: if (ripple) ripple.finish()
        onClicked: preview.toggle(d.n, d.p.stateKey || "")
    }
}
