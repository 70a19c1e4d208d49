// An elevation shadow drawn with plain rectangles, so it shows on the software scene graph too
// (Controls Material's shader shadows do not).
import QtQuick

Item {
    id: s
    property real elevation: 0
    property real radius: 0
    property color color: "#40000000"
    Repeater {
        model: Math.min(4, Math.ceil(s.elevation))
        Rectangle {
            required property int index
            readonly property real spread: (index + 1) * Math.max(0.5, s.elevation / 4)
            x: -spread / 2
            y: spread / 2
            width: s.width + spread
            height: s.height + spread / 2
            radius: s.radius + spread / 2
            color: Qt.rgba(s.color.r, s.color.g, s.color.b, s.color.a * 0.35 / (index + 1))
        }
    }
}
