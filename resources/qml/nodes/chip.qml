// chip: assist, filter (toggles its boolean state key), input or suggestion.
import QtQuick
import ".."

Rectangle {
    id: chip
    readonly property string variant: d.p.variant || "assist"
    readonly property bool selected: {
        d.n.rev;
        return variant === "filter" && !!d.p.stateKey && preview.value(d.n, d.p.stateKey) === true;
    }
    implicitHeight: 32
    implicitWidth: row.implicitWidth + (selected ? 8 + 16 : 16 + 16)
    radius: d.st.hasRadius ? d.st.radius : 8
    color: selected ? preview.colors.secondaryContainer : "transparent"
    border.width: selected ? 0 : 1
    border.color: preview.colors.outlineVariant
    Rectangle {
        anchors.fill: parent
        radius: parent.radius
        color: preview.colors.onSurface
        opacity: mouse.pressed ? 0.12 : 0
    }
    Row {
        id: row
        anchors.centerIn: parent
        spacing: 8
        MIcon {
            visible: chip.selected
            name: "check"
            size: 18
            color: preview.colors.onSecondaryContainer
            anchors.verticalCenter: parent.verticalCenter
        }
        RoleText {
            role: "labelLarge"
            text: {
                d.n.rev;
                return preview.text(d.n, d.p.label || "");
            }
            color: d.ts.color || (chip.selected ? preview.colors.onSecondaryContainer : preview.colors.onSurfaceVariant)
            anchors.verticalCenter: parent.verticalCenter
        }
    }
    MouseArea {
        id: mouse
        anchors.fill: parent
        onClicked: {
            if (chip.variant === "filter" && d.p.stateKey)
                preview.setValue(d.n, d.p.stateKey, !chip.selected);
            preview.tap(d.n, "");
        }
    }
}
