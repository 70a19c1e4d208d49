// topAppBar: small, centerAligned, medium or large; navigation icon, title, 1..3 actions (MC
// `RenderPrototypeTopAppBar`). The title is `Text(node.text)` in the bar's title colour
// (onSurface): the node's `style.color` plays no part. Navigation icon onSurface, actions
// onSurfaceVariant (TopAppBarDefaults.topAppBarColors).
import QtQuick
import ".."

Rectangle {
    id: bar
    property bool defaultFillW: true
    readonly property string variant: d.p.variant || "small"
    readonly property bool tall: variant === "medium" || variant === "large"
    implicitHeight: variant === "large" ? 152 : variant === "medium" ? 112 : 64
    implicitWidth: 360
    color: d.st.bg !== "" ? "transparent" : preview.colors.surface
    Item {
        id: nav
        visible: !!d.p.navigationIcon
        anchors.left: parent.left  // anchors: mirrored right to left
        anchors.leftMargin: 4
        y: 8
        width: 48; height: 48
        MIcon { anchors.centerIn: parent; name: d.p.navigationIcon ? d.p.navigationIcon.icon : ""; color: preview.colors.onSurface }
        MouseArea { anchors.fill: parent; onClicked: preview.tap(d.n, "navigationIcon") }
    }
    RoleText {
        id: title
        role: bar.variant === "large" ? "headlineMedium" : bar.variant === "medium" ? "headlineSmall" : "titleLarge"
        text: {
            d.rev;
            return preview.text(d.n, d.p.title || "");
        }
        color: preview.colors.onSurface
        readonly property bool centred: bar.variant === "centerAligned"
        anchors.horizontalCenter: centred ? parent.horizontalCenter : undefined
        anchors.left: centred ? undefined : parent.left
        anchors.leftMargin: centred ? 0 : bar.tall ? 16 : (nav.visible ? 56 : 16)
        width: Math.min(implicitWidth, bar.width - 2 * 16 - (bar.tall ? 0 : actions.width + (nav.visible ? 56 : 0)))
        y: bar.tall ? bar.height - height - (bar.variant === "large" ? 28 : 24) : (64 - height) / 2
    }
    Row {
        id: actions
        anchors.right: parent.right
        anchors.rightMargin: 4
        y: 8
        Repeater {
            model: d.p.actions || []
            Item {
                required property var modelData
                required property int index
                width: 48; height: 48
                MIcon { anchors.centerIn: parent; name: modelData.icon; color: preview.colors.onSurfaceVariant }
                MouseArea { anchors.fill: parent; onClicked: preview.tap(d.n, "actions." + index) }
            }
        }
    }
}
