// A Material 3 common button drawn with plain items (so filled/tonal/elevated backgrounds and the
// elevation shadow show on the software scene graph too): filled, tonal, elevated, outlined, text.
import QtQuick
import QtQuick.Controls

AbstractButton {
    id: b
    property string variant: "filled"
    property string iconName: ""
    property real radius: 20
    readonly property var c: preview.colors
    readonly property color fill: variant === "filled" ? c.primary
        : variant === "tonal" ? c.secondaryContainer
        : variant === "elevated" ? c.surfaceContainerLow : "transparent"
    readonly property color ink: variant === "filled" ? c.onPrimary
        : variant === "tonal" ? c.onSecondaryContainer : c.primary
    property color textColor: ink
    implicitHeight: 40
    implicitWidth: Math.max(48, row.implicitWidth + (iconName !== "" ? 16 + 24 : (variant === "text" ? 24 : 48)))
    leftPadding: 0; rightPadding: 0; topPadding: 0; bottomPadding: 0

    background: Item {
        Shadow {
            anchors.fill: parent
            visible: b.variant === "elevated"
            elevation: b.pressed ? 2 : 1
            radius: b.radius
        }
        Rectangle {
            anchors.fill: parent
            radius: Math.min(b.radius, height / 2)
            color: b.fill
            border.width: b.variant === "outlined" ? 1 : 0
            border.color: b.c.outline || "#79747E"
        }
        Rectangle {
            // state layer (pressed / hovered)
            anchors.fill: parent
            radius: Math.min(b.radius, height / 2)
            color: b.textColor
            opacity: b.pressed ? 0.12 : b.hovered ? 0.08 : 0
        }
    }
    contentItem: Item {
        Row {
            id: row
            anchors.centerIn: parent
            spacing: 8
            Text {
                visible: b.iconName !== ""
                text: preview.glyph(b.iconName)
                font.family: preview.iconFont
                font.pixelSize: 18
                color: b.textColor
                anchors.verticalCenter: parent.verticalCenter
            }
            Text {
                text: b.text
                color: b.textColor
                font.family: preview.fontFamily
                font.pixelSize: 14 * preview.typeScale
                font.weight: 500
                font.letterSpacing: 0.1
                anchors.verticalCenter: parent.verticalCenter
                elide: Text.ElideRight
            }
        }
    }
}
