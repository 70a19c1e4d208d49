// checkbox: a Material 3 checkbox, optionally labelled, bound to a boolean key. The whole row is
// one toggle target: a tap flips the key, then runs onTap (CO `RenderPrototypeToggle`, RT
// `Toggle`). Row: the 24 dp checkbox then the label (bodyLarge, style.color else onSurface),
// 12 dp apart, at least 48 dp tall (minimumInteractiveComponentSize).
import QtQuick
import ".."

Item {
    id: root
    readonly property bool on: {
        d.rev;
        return preview.value(d.n, d.p.stateKey) === true;
    }
    readonly property bool labelled: !!d.p.label
    implicitWidth: Math.max(48, box.implicitWidth + (labelled ? 12 + label.implicitWidth : 0))
    implicitHeight: Math.max(48, labelled ? label.implicitHeight : 0)
    MCheckbox {
        id: box
        // alone: centred in its 48 dp target (anchors: mirrored right to left)
        anchors.left: root.labelled ? parent.left : undefined
        anchors.horizontalCenter: root.labelled ? undefined : parent.horizontalCenter
        anchors.verticalCenter: parent.verticalCenter
        checked: root.on
    }
    Loader {
        // only a labelled checkbox makes its label (a Text and its bindings)
        id: label
        active: root.labelled
        visible: active
        anchors.left: box.right
        anchors.leftMargin: 12
        width: Math.min(implicitWidth, Math.max(0, root.width - box.width - 12))
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
    // A press ripples over the row (screen.rowRipple), not in a circle round the box: the
    // Material Checkbox is display-only (`onCheckedChange = null`: no ripple of its own) and the
    // row is `toggleable`; 24 dp (the box with CheckboxDefaultPadding) or the label's height.
    MouseArea {
        id: mouse
        anchors.fill: parent
        property Item ripple: null
        onPressed: (m) => {
            ripple = screen.rowRipple(d, mouse, m, Math.max(24, root.labelled ? label.height : 0));
        }
        onReleased: if (ripple) ripple.finish()
        onCanceled: if (ripple) ripple.finish()
        onClicked: preview.toggle(d.n, d.p.stateKey || "")
    }
}
