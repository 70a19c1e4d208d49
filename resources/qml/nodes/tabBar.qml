// tabBar: Material tabs (SC `RenderPrototypeNavigation`): `TabRow`, or `ScrollableTabRow` when
// `scrollable`. A tap selects the tab's pager page or writes its index to the key, then runs onTap
// (RT `Select`). Look (TabRow, Tab, PrimaryNavigationTabTokens): a `surface` bar (transparent
// over an authored background); every tab's label and icon in the bar's content colour primary
// (Tab's unselectedContentColor defaults to its selectedContentColor); labels titleSmall with
// 16 dp padding; 48 dp tall, 72 dp with an icon or image; a 1 dp outlineVariant divider along the
// bottom and, over it, a 3 dp primary indicator as wide as the selected tab
// (TabRowDefaults.SecondaryIndicator). Fixed tabs share the width equally; scrollable ones start
// 52 dp in and are at least 90 dp wide (ScrollableTabRowEdgeStartPadding, MinimumTabWidth).
import QtQuick
import ".."

Item {
    id: tabs
    property bool defaultFillW: true
    readonly property var items: d.p.items || []
    readonly property bool scrollable: d.p.scrollable === true
    readonly property bool tall: {
        for (var i = 0; i < items.length; ++i)
            if (items[i].icon || items[i].image) return true;
        return false;
    }
    readonly property int selected: {
        d.rev;
        var s = d.p.pager ? preview.page(d.p.pager) : Number(preview.value(d.n, d.p.stateKey)) || 0;
        return Math.max(0, Math.min(s, items.length - 1));
    }
    readonly property real naturalWidths: {
        var w = 0;
        for (var i = 0; i < rep.count; ++i) {
            var it = rep.itemAt(i);
            if (it) w += it.natural;
        }
        return w;
    }
    implicitWidth: scrollable ? 52 + naturalWidths : 360
    implicitHeight: tall ? 72 : 48
    Rectangle {
        anchors.fill: parent
        visible: !d.st.bg && !d.st.grad
        color: preview.colors.surface
    }
    Rectangle {
        // the divider (HorizontalDivider: 1 dp outlineVariant)
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.bottom: parent.bottom
        height: 1
        color: preview.colors.outlineVariant
    }
    Flickable {
        id: strip
        objectName: "tabStrip"
        anchors.fill: parent
        interactive: tabs.scrollable
        flickableDirection: Flickable.HorizontalFlick
        contentWidth: row.width
        contentHeight: height
        clip: tabs.scrollable
        // ScrollableTabRow scrolls its row with `horizontalScroll`: Compose's default stretch
        // and fling, as a scroll node (EdgeStretch.qml, ComposeFling.qml).
        boundsBehavior: stripEdges.on ? Flickable.DragOverBounds : Flickable.StopAtBounds
        boundsMovement: Flickable.StopAtBounds
        contentItem.transform: EdgeStretch {
            id: stripEdges
            flick: strip
            vertical: false
        }
        maximumFlickVelocity: 8000
        ComposeFling {
            flick: strip
            horizontal: true
            stretch: stripEdges
        }
        Row {
            id: row
            x: tabs.scrollable ? 52 : 0
            height: tabs.height
            Repeater {
                id: rep
                model: tabs.items
                Item {
                    id: tab
                    required property var modelData
                    required property int index
                    readonly property real natural: Math.max(tabs.scrollable ? 90 : 0, content.implicitWidth + 32)
                    width: tabs.scrollable ? natural : tabs.width / Math.max(1, tabs.items.length)
                    height: tabs.height
                    Column {
                        id: content
                        anchors.centerIn: parent
                        spacing: 2
                        NavVisual {
                            visible: !!(tab.modelData.icon || tab.modelData.image)
                            item: tab.modelData
                            color: preview.colors.primary
                            anchors.horizontalCenter: parent.horizontalCenter
                        }
                        RoleText {
                            role: "titleSmall"
                            text: {
                                preview.rtl;  // read again in the other direction (bidi.py)
                                return preview.text(d.n, tab.modelData.label);
                            }
                            color: preview.colors.primary
                            anchors.horizontalCenter: parent.horizontalCenter
                        }
                    }
                    Rectangle {
                        // the indicator
                        visible: tabs.selected === tab.index
                        anchors.left: parent.left
                        anchors.right: parent.right
                        anchors.bottom: parent.bottom
                        height: 3
                        color: preview.colors.primary
                    }
                    // A press ripples over the whole tab (Tab: `selectable(indication = ripple(bounded
                    // = true, color = selectedContentColor))`), primary as its content, square.
                    MouseArea {
                        anchors.fill: parent
                        property Item ripple: null
                        onPressed: (m) => { ripple = screen.ripple(tab, m.x, m.y, preview.colors.primary, {}); }
                        onReleased: if (ripple) ripple.finish()
                        onCanceled: if (ripple) ripple.finish()
                        onClicked: preview.select(d.n, tab.index)
                    }
                }
            }
        }
    }
}
