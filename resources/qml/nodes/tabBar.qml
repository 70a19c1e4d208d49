// tabBar: Material primary tabs (icon/image + label); selects a pager page or a state index.
import QtQuick
import QtQuick.Controls
import QtQuick.Controls.Material
import ".."

TabBar {
    id: tabs
    property bool defaultFillW: true
    readonly property int selected: {
        d.n.rev;
        return d.p.pager ? preview.page(d.p.pager) : Number(preview.value(d.n, d.p.stateKey)) || 0;
    }
    currentIndex: selected
    implicitWidth: 360
    background: Rectangle { color: d.st.bg !== "" ? "transparent" : preview.colors.surface }
    Repeater {
        model: d.p.items || []
        TabButton {
            id: tab
            required property var modelData
            required property int index
            readonly property bool current: tabs.selected === index
            width: d.p.scrollable ? implicitWidth : Math.max(implicitWidth, tabs.width / Math.max(1, (d.p.items || []).length))
            implicitHeight: modelData.icon || modelData.image ? 64 : 48
            background: Item {
                Rectangle {
                    // active indicator, drawn here so both scene-graph backends show it
                    visible: tab.current
                    anchors.bottom: parent.bottom
                    anchors.horizontalCenter: parent.horizontalCenter
                    width: Math.max(24, tab.contentItem.implicitWidth)
                    height: 3
                    topLeftRadius: 3
                    topRightRadius: 3
                    color: preview.colors.primary
                }
                Rectangle {
                    anchors.left: parent.left
                    anchors.right: parent.right
                    anchors.bottom: parent.bottom
                    height: 1
                    color: preview.colors.surfaceVariant
                }
            }
            contentItem: Column {
                spacing: 2
                MIcon {
                    visible: !!tab.modelData.icon
                    name: tab.modelData.icon || ""
                    anchors.horizontalCenter: parent.horizontalCenter
                    color: tab.current ? preview.colors.primary : preview.colors.onSurfaceVariant
                }
                Image {
                    visible: !!tab.modelData.image && source != ""
                    source: tab.modelData.image ? preview.asset(tab.modelData.image) : ""
                    width: 24; height: 24
                    anchors.horizontalCenter: parent.horizontalCenter
                }
                Rectangle {
                    visible: !!tab.modelData.image && preview.asset(tab.modelData.image) === ""
                    width: 24; height: 24; radius: 4
                    color: preview.colors.surfaceContainerHighest
                    anchors.horizontalCenter: parent.horizontalCenter
                }
                RoleText {
                    role: "titleSmall"
                    text: preview.text(d.n, tab.modelData.label)
                    anchors.horizontalCenter: parent.horizontalCenter
                    color: tab.current ? preview.colors.primary : preview.colors.onSurfaceVariant
                }
            }
            onClicked: {
                if (d.p.pager) preview.setPage(d.p.pager, index);
                else preview.setValue(d.n, d.p.stateKey, index);
                preview.tap(d.n, "");
            }
        }
    }
    onCurrentIndexChanged: if (currentIndex !== selected) currentIndex = Qt.binding(() => selected)
}
