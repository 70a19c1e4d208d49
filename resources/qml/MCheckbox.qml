// A Material 3 checkbox drawn with plain items (both scene graphs alike). Display only, like the
// phone's `Checkbox(checked, onCheckedChange = null)` (CO `RenderPrototypeToggle`): a 24 dp slot
// (2 dp padding around CheckboxSize 20 dp) holding an 18 dp box with 2 dp corners; unchecked a
// 2 dp onSurfaceVariant border, checked a primary box with an onPrimary check (CheckboxTokens).
import QtQuick
import QtQuick.Shapes

Item {
    id: c
    property bool checked: false
    implicitWidth: 24
    implicitHeight: 24
    Rectangle {
        anchors.centerIn: parent
        width: 18; height: 18; radius: 2
        color: c.checked ? preview.colors.primary : "transparent"
        border.width: c.checked ? 0 : 2
        border.color: preview.colors.onSurfaceVariant
    }
    Shape {
        anchors.fill: parent
        visible: c.checked
        ShapePath {
            strokeColor: preview.colors.onPrimary
            strokeWidth: 2
            fillColor: "transparent"
            capStyle: ShapePath.FlatCap
            joinStyle: ShapePath.MiterJoin
            startX: 6.5; startY: 12.2
            PathLine { x: 10.2; y: 15.8 }
            PathLine { x: 17.5; y: 8.4 }
        }
    }
}
