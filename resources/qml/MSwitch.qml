// A Material 3 switch drawn with plain items, identical on the software and OpenGL scene graphs
// (Controls Material's switch draws a stray track line on the software backend).
import QtQuick

Item {
    id: s
    property bool checked: false
    signal toggled(bool on)
    implicitWidth: 52
    implicitHeight: 32
    Rectangle {
        anchors.fill: parent
        radius: 16
        color: s.checked ? preview.colors.primary : preview.colors.surfaceContainerHighest
        border.width: s.checked ? 0 : 2
        border.color: preview.colors.outline
    }
    Rectangle {
        readonly property real size: s.checked ? 24 : (mouse.pressed ? 28 : 16)
        width: size
        height: size
        radius: size / 2
        anchors.verticalCenter: parent.verticalCenter
        x: s.checked ? s.width - 4 - size : 8 - (size - 16) / 2
        color: s.checked ? preview.colors.onPrimary : preview.colors.outline
        Behavior on x { enabled: !preview.editMode; NumberAnimation { duration: 100 } }
    }
    MouseArea {
        id: mouse
        anchors.fill: parent
        onClicked: s.toggled(!s.checked)
    }
}
