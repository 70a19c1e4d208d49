// bottomNav: Material 3 navigation bar (2..5 items with an active indicator pill).
import QtQuick
import ".."

Rectangle {
    id: nav
    property bool defaultFillW: true
    readonly property var items: d.p.items || []
    readonly property int selected: {
        d.n.rev;
        return d.p.pager ? preview.page(d.p.pager) : Number(preview.value(d.n, d.p.stateKey)) || 0;
    }
    implicitWidth: 360
    implicitHeight: 80
    color: d.st.bg !== "" ? "transparent" : preview.colors.surfaceContainer
    Row {
        anchors.fill: parent
        Repeater {
            model: nav.items
            Item {
                id: cell
                required property var modelData
                required property int index
                readonly property bool current: nav.selected === index
                width: nav.width / Math.max(1, nav.items.length)
                height: nav.height
                Rectangle {
                    id: pill
                    anchors.horizontalCenter: parent.horizontalCenter
                    y: 12
                    width: 64; height: 32; radius: 16
                    color: cell.current ? preview.colors.secondaryContainer : "transparent"
                    MIcon {
                        anchors.centerIn: parent
                        visible: !!cell.modelData.icon
                        name: cell.modelData.icon || ""
                        color: cell.current ? preview.colors.onSecondaryContainer : preview.colors.onSurfaceVariant
                    }
                    Image {
                        anchors.centerIn: parent
                        visible: !!cell.modelData.image && source != ""
                        source: cell.modelData.image ? preview.asset(cell.modelData.image) : ""
                        width: 24; height: 24
                    }
                    Rectangle {
                        anchors.centerIn: parent
                        visible: !!cell.modelData.image && preview.asset(cell.modelData.image) === ""
                        width: 24; height: 24; radius: 4
                        color: preview.colors.surfaceContainerHighest
                    }
                }
                RoleText {
                    anchors.horizontalCenter: parent.horizontalCenter
                    y: 48
                    role: "labelMedium"
                    text: preview.text(d.n, cell.modelData.label)
                    color: cell.current ? preview.colors.onSurface : preview.colors.onSurfaceVariant
                }
                MouseArea {
                    anchors.fill: parent
                    onClicked: {
                        if (d.p.pager) preview.setPage(d.p.pager, cell.index);
                        else preview.setValue(d.n, d.p.stateKey, cell.index);
                        preview.tap(d.n, "");
                    }
                }
            }
        }
    }
}
