// fab: a floating action button, small (40 dp), regular (56 dp) or large (96 dp), or extended
// with a label (MC `RenderPrototypeFab`). Always FloatingActionButtonDefaults' colours: a
// primaryContainer container with onPrimaryContainer content; an authored `style.background` is
// painted behind it by the node (no `containerColor` is passed) and `style.color` plays no part.
// Shape: the theme's large corner (small FAB: medium, large FAB: extraLarge); elevation 6 dp
// (FloatingActionButtonDefaults.elevation, level3). Icon 24 dp (large: 36 dp). Extended: 56 dp
// tall, 16 dp before the icon, 12 dp gap, 20 dp after the labelLarge label, at least 80 dp wide.
import QtQuick
import ".."
import "../Corners.js" as Corners

Item {
    id: fab
    readonly property bool extended: !!d.p.label
    readonly property string size: d.p.size || "regular"
    readonly property real side: extended ? 56 : size === "small" ? 40 : size === "large" ? 96 : 56
    readonly property real radius: Corners.of(preview, extended || size === "regular" ? "large"
        : size === "small" ? "medium" : "extraLarge")
    implicitHeight: Math.max(48, side)  // a small FAB still takes a 48 dp target
    implicitWidth: extended ? Math.max(80, row.implicitWidth + 16 + 20) : Math.max(48, side)
    Item {
        id: body
        anchors.centerIn: parent
        width: fab.extended ? fab.width : fab.side
        height: fab.side
        Shadow {
            anchors.fill: parent
            elevation: 6
            radius: Math.min(fab.radius, height / 2)
        }
        Rectangle {
            anchors.fill: parent
            radius: Math.min(fab.radius, height / 2)
            color: preview.colors.primaryContainer
        }
        Row {
            id: row
            x: fab.extended ? 16 : (parent.width - implicitWidth) / 2
            anchors.verticalCenter: parent.verticalCenter
            spacing: 12
            MIcon {
                name: d.p.icon || ""
                size: fab.size === "large" && !fab.extended ? 36 : 24
                color: preview.colors.onPrimaryContainer
                anchors.verticalCenter: parent.verticalCenter
            }
            RoleText {
                visible: fab.extended
                role: "labelLarge"
                text: {
                    d.rev;
                    return fab.extended ? preview.text(d.n, d.p.label) : "";
                }
                color: preview.colors.onPrimaryContainer
                anchors.verticalCenter: parent.verticalCenter
            }
        }
    }
    // A press ripples over the FAB's shape (Surface: `clip(shape)`, `clickable(indication =
    // ripple())`) in its content colour, onPrimaryContainer, from the press point.
    MouseArea {
        id: mouse
        anchors.fill: parent
        property Item ripple: null
        onPressed: (m) => {
            var at = mapToItem(body, m.x, m.y), r = Math.min(fab.radius, body.height / 2);
            ripple = screen.ripple(body, at.x, at.y, preview.colors.onPrimaryContainer,
                                   {tl: r, tr: r, br: r, bl: r});
        }
        onReleased: if (ripple) ripple.finish()
        onCanceled: if (ripple) ripple.finish()
        onClicked: preview.tap(d.n, "")
    }
}
