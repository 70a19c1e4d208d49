// A navigation item's picture (IM `PrototypeNavigationIcon`): its image at 24 dp, else its
// built-in icon, else a 24 dp surfaceVariant placeholder box (TH `prototypePlaceholderColor`).
import QtQuick

Item {
    id: v
    property var item: ({})
    property color color: preview.colors.onSurface
    readonly property string url: item && item.image ? preview.asset(item.image) : ""
    implicitWidth: 24
    implicitHeight: 24
    Image {
        anchors.fill: parent
        visible: v.url !== "" && status === Image.Ready
        source: v.url
        asynchronous: false
    }
    MIcon {
        anchors.centerIn: parent
        visible: !(v.item && v.item.image) && known
        name: v.item && v.item.icon ? v.item.icon : ""
        color: v.color
    }
    Rectangle {
        anchors.fill: parent
        visible: v.item && v.item.image ? v.url === "" : !(v.item && v.item.icon)
        color: preview.colors.surfaceVariant
    }
}
