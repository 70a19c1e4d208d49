// A Material 3 switch drawn with plain items, identical on the software and OpenGL scene graphs
// (Controls Material's switch draws a stray track line on the software backend). Display only:
// the row around it is the toggle target (CO `RenderPrototypeToggle`: `Switch(checked,
// onCheckedChange = null)`). 52 x 32 track; thumb 16 dp off, 24 dp on, 28 dp pressed
// (SwitchTokens); off: surfaceContainerHighest track with a 2 dp outline border and an outline
// thumb; on: primary track, onPrimary thumb.
import QtQuick

Item {
    id: s
    property bool checked: false
    property bool pressed: false
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
        id: thumb
        readonly property real size: s.pressed ? 28 : s.checked ? 24 : 16
        width: size
        height: size
        radius: size / 2
        anchors.verticalCenter: parent.verticalCenter
        // Right to left the checked thumb sits at the left end (Material's Switch mirrors).
        readonly property real at: s.checked ? s.width - 16 - size / 2 : 16 - size / 2
        x: preview.rtl ? s.width - at - size : at
        color: s.checked ? preview.colors.onPrimary : preview.colors.outline
        // the thumb's slide, stretched by the animator duration scale as Compose's play time is
        objectName: "switchThumb"
        readonly property real slideMs: 100 * preview.animatorScale
        Behavior on x {
            enabled: !preview.editMode && preview.motion
            NumberAnimation { duration: thumb.slideMs }
        }
    }
}
