// A Material 3 radio button drawn with plain items (both scene graphs alike), display only as the
// phone's `RadioButton(selected, onClick = null)`: a 24 dp slot (2 dp padding around the 20 dp
// RadioButtonSize) with a 2 dp ring, a 12 dp dot when selected; primary when selected, else
// onSurfaceVariant (RadioButtonTokens).
import QtQuick

Item {
    id: r
    property bool selected: false
    implicitWidth: 24
    implicitHeight: 24
    Rectangle {
        anchors.centerIn: parent
        width: 20; height: 20; radius: 10
        color: "transparent"
        border.width: 2
        border.color: r.selected ? preview.colors.primary : preview.colors.onSurfaceVariant
    }
    Rectangle {
        anchors.centerIn: parent
        visible: r.selected
        width: 10; height: 10; radius: 5
        color: preview.colors.primary
    }
}
