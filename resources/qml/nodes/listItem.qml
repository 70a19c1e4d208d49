// listItem: a Material ListItem (SE `RenderPrototypeListItem`): leading icon, headline,
// supporting text, trailing switch, checkbox or icon. The row is one target: with a trailing
// switch or checkbox a tap flips its key, then runs onTap (RT `Toggle`); otherwise onTap runs.
// Look (ListTokens): container `surface` unless the node authors a background (then
// transparent); 56 dp tall, 72 with supporting text; 16 dp start and end padding, 16 dp between
// the leading icon and the text; headline bodyLarge onSurface, supporting bodyMedium
// onSurfaceVariant, icons onSurfaceVariant. The node's style.color tints all of them
// (`ListItemDefaults.colors(headlineColor = foreground, supportingColor = foreground, ...)`).
import QtQuick
import ".."

Item {
    id: li
    property bool defaultFillW: true
    readonly property var trailing: d.p.trailing || null
    readonly property bool toggle: trailing !== null && (trailing.type === "switch" || trailing.type === "checkbox")
    readonly property bool on: {
        d.rev;
        return toggle && preview.value(d.n, trailing.stateKey) === true;
    }
    readonly property color tint: d.ts.color || "transparent"
    readonly property bool tinted: !!d.ts.color
    readonly property real tailWidth: !trailing ? 0
        : trailing.type === "switch" ? 52 : 24
    implicitHeight: d.p.supporting ? 72 : 56
    implicitWidth: 16 + (d.p.leadingIcon ? 24 + 16 : 0) + Math.max(head.implicitWidth, sup.implicitWidth)
        + (trailing ? 16 + tailWidth : 0) + 16
    Rectangle {
        anchors.fill: parent
        visible: !d.st.bg && !d.st.grad
        color: preview.colors.surface
    }
    MouseArea {
        // an inert row (no toggle, no onTap) lets taps through, as it has no clickable
        // A press ripples over the whole item, drawn over its content (SE `RenderPrototypeListItem`:
        // `clickable` / `toggleable` then the node's modifier, outside ListItem): in the colour
        // the item sits in (LocalContentColor outside ListItem), square.
        id: mouse
        anchors.fill: parent
        enabled: li.toggle || d.tappable || preview.editMode
        property Item ripple: null
        onPressed: (m) => {
            if (preview.editMode) return;
            var at = mapToItem(d, m.x, m.y);
            ripple = screen.ripple(d, at.x, at.y, d.contentColor, {z: 50});
        }
        onReleased: if (ripple) ripple.finish()
        onCanceled: if (ripple) ripple.finish()
        onClicked: li.toggle ? preview.toggle(d.n, li.trailing.stateKey || "") : preview.tap(d.n, "")
    }
    MIcon {
        id: lead
        visible: !!d.p.leadingIcon
        name: d.p.leadingIcon || ""
        anchors.left: parent.left
        anchors.leftMargin: 16
        anchors.verticalCenter: parent.verticalCenter
        color: li.tinted ? li.tint : preview.colors.onSurfaceVariant
    }
    Column {
        anchors.left: parent.left
        anchors.leftMargin: d.p.leadingIcon ? 56 : 16
        anchors.right: tail.left
        anchors.rightMargin: li.trailing ? 16 : 0
        anchors.verticalCenter: parent.verticalCenter
        RoleText {
            id: head
            width: parent.width
            role: "bodyLarge"
            text: {
                d.rev;
                return preview.text(d.n, d.p.headline || "");
            }
            color: li.tinted ? li.tint : preview.colors.onSurface
        }
        RoleText {
            id: sup
            width: parent.width
            visible: !!d.p.supporting
            role: "bodyMedium"
            text: {
                d.rev;
                return d.p.supporting ? preview.text(d.n, d.p.supporting) : "";
            }
            color: li.tinted ? li.tint : preview.colors.onSurfaceVariant
        }
    }
    Item {
        id: tail
        anchors.right: parent.right
        anchors.rightMargin: 16
        anchors.verticalCenter: parent.verticalCenter
        width: li.tailWidth
        height: 32
        MSwitch {
            visible: li.trailing !== null && li.trailing.type === "switch"
            anchors.centerIn: parent
            checked: li.on
        }
        MCheckbox {
            visible: li.trailing !== null && li.trailing.type === "checkbox"
            anchors.centerIn: parent
            checked: li.on
        }
        MIcon {
            visible: li.trailing !== null && li.trailing.type === "icon"
            anchors.centerIn: parent
            name: li.trailing && li.trailing.type === "icon" ? li.trailing.name : ""
            color: li.tinted ? li.tint : preview.colors.onSurfaceVariant
        }
    }
}
