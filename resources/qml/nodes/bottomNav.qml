// bottomNav: Material 3 navigation bar (2..5 items with an active indicator pill); a tap selects
// the item's page or index, then runs onTap (SC `RenderPrototypeNavigation`, RT `Select`).
import QtQuick
import ".."

Rectangle {
    id: nav
    property bool defaultFillW: true
    readonly property var items: d.p.items || []
    readonly property int selected: {
        d.rev;
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
                    NavVisual {
                        anchors.centerIn: parent
                        item: cell.modelData
                        color: cell.current ? preview.colors.onSecondaryContainer : preview.colors.onSurfaceVariant
                    }
                }
                RoleText {
                    anchors.horizontalCenter: parent.horizontalCenter
                    y: 48
                    role: "labelMedium"
                    text: {
                        preview.rtl;  // read again in the other direction (bidi.py)
                        return preview.text(d.n, cell.modelData.label);
                    }
                    color: cell.current ? preview.colors.onSurface : preview.colors.onSurfaceVariant
                }
                // A press ripples in the 64 x 32 indicator's shape only (NavigationBarItem: its
                // indicator ripple, `clip(ActiveIndicatorShape).indication(ripple())`, the press
                // offset into it), in the bar's content colour (onSurface), drawn below the
                // indicator (NavigationBarItemLayout places `indicatorRipple` first): the
                // selected item's opaque pill hides it.
                MouseArea {
                    anchors.fill: parent
                    property Item ripple: null
                    onPressed: (m) => {
                        var at = mapToItem(pill, m.x, m.y);
                        ripple = screen.ripple(cell, at.x, at.y, preview.colors.onSurface,
                                               {x: pill.x, y: pill.y, width: pill.width, height: pill.height,
                                                z: -1, tl: 16, tr: 16, br: 16, bl: 16});
                    }
                    onReleased: if (ripple) ripple.finish()
                    onCanceled: if (ripple) ripple.finish()
                    onClicked: preview.select(d.n, cell.index)  // RT `Select`
                }
            }
        }
    }
}
