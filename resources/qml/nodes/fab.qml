// fab: floating action button (small, regular, large) or extended with a label.
import QtQuick
import ".."

Item {
    id: fab
    readonly property bool extended: !!d.p.label
    readonly property string size: d.p.size || "regular"
    readonly property real side: size === "small" ? 40 : size === "large" ? 96 : 56
    readonly property real radius: d.st.hasRadius ? d.st.radius : size === "small" ? 12 : size === "large" ? 28 : 16
    implicitHeight: extended ? 56 : side
    implicitWidth: extended ? Math.max(80, row.implicitWidth + 32) : side
    Shadow {
        anchors.fill: parent
        elevation: mouse.pressed ? 4 : 3
        radius: fab.radius
    }
    Rectangle {
        anchors.fill: parent
        radius: fab.radius
        color: d.st.bg !== "" ? d.st.bg : preview.colors.primaryContainer
        Rectangle {
            anchors.fill: parent; radius: parent.radius
            color: preview.colors.onPrimaryContainer
            opacity: mouse.pressed ? 0.12 : 0
        }
    }
    Row {
        id: row
        anchors.centerIn: parent
        spacing: 12
        MIcon {
            name: d.p.icon || ""
            size: fab.size === "large" && !fab.extended ? 36 : 24
            color: d.ts.color || preview.colors.onPrimaryContainer
            anchors.verticalCenter: parent.verticalCenter
        }
        RoleText {
            visible: fab.extended
            role: "labelLarge"
            text: {
                d.n.rev;
                return fab.extended ? preview.text(d.n, d.p.label) : "";
            }
            color: d.ts.color || preview.colors.onPrimaryContainer
            anchors.verticalCenter: parent.verticalCenter
        }
    }
    MouseArea {
        id: mouse
        anchors.fill: parent
        onClicked: preview.tap(d.n, "")
    }
}
