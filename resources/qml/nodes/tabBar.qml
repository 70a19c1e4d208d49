// tabBar: Material tabs (SC `RenderPrototypeNavigation`): `TabRow`, or `ScrollableTabRow` when
// `scrollable`. A tap selects the tab's pager page or writes its index to the key, then runs onTap
// (RT `Select`). Look (TabRow, Tab, PrimaryNavigationTabTokens): a `surface` bar (transparent
// over an authored background); every tab's label and icon in the bar's content colour primary
// (Tab's unselectedContentColor defaults to its selectedContentColor); labels titleSmall with
// 16 dp padding; 48 dp tall, 72 dp with an icon or image; a 1 dp outlineVariant divider along the
// bottom and, over it, a 3 dp primary indicator as wide as the selected tab
// (TabRowDefaults.SecondaryIndicator). Fixed tabs share the width equally; scrollable ones start
// 52 dp in and are at least 90 dp wide (ScrollableTabRowEdgeStartPadding, MinimumTabWidth), with
// the same 52 dp after the last (`layoutWidth` folds from `padding * 2`).
import QtQuick
import ".."
import "../Easing.js" as Easing

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
    implicitWidth: scrollable ? 2 * 52 + naturalWidths : 360
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
        contentWidth: tabs.scrollable ? 2 * 52 + row.width : row.width
        onDraggingChanged: if (dragging) tabs.centreClock.stop()
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
            // the centring is the scroll's animation too: a press stops it and selects nothing
            busy: tabs.centring
            onCaught: tabs.centreClock.stop()
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
    // -- the selected tab scrolls to the middle (ScrollableTabRow) -----------------------------
    // M3 TabRow.kt `ScrollableTabData.onLaidOut`: when the row is first laid out and whenever the
    // selection changes, the row scrolls so that the selected tab is in its middle, or as near as
    // the ends allow (`calculateTabOffset`, in whole pixels), by `animateScrollTo` in
    // ScrollableTabRowScrollSpec, tween(250 ms, FastOutSlowInEasing): a Compose animation, so its
    // play time is the real time over the device's animator duration scale. A drag, or a press
    // (the scroll consumes it, as during a fling), stops it.
    property int centredTab: -1  // ScrollableTabData's `selectedTab`
    property real centreFrom: 0
    property real centreTo: 0
    property real centreElapsed: 0  // play ms (read by the tests)
    readonly property bool centring: centreClock.running
    property FrameAnimation centreClock: FrameAnimation {
        running: false
        onTriggered: tabs.centreStep(frameTime * 1000)
    }
    // Right to left the row starts at its right end: Compose's scroll value counts from there
    // (`horizontalScroll` reverses under Rtl) and a tab's `left` from the row's start edge
    // (`placeRelative`); the strip's contentX counts from the left.
    readonly property bool rtl: preview.rtl === 1
    function maxX() { return Math.max(0, strip.contentWidth - strip.width); }
    function tabOffset(i) {
        var tab = rep.itemAt(i);
        var density = Math.max(1, preview.density);
        function px(v) { return Math.round(v * density); }
        var left = rtl ? strip.contentWidth - (52 + tab.x + tab.width) : 52 + tab.x;
        var total = px(52 + row.width) + px(52);  // the last tab's right + edgeOffset
        var visible = total - Math.max(0, total - px(strip.width));  // less scrollState.maxValue
        var centred = px(left) - (Math.floor(visible / 2) - Math.floor(px(tab.width) / 2));
        var value = Math.max(0, Math.min(centred, total - visible)) / density;
        return rtl ? maxX() - value : value;
    }
    function centreSelected() {
        if (!scrollable || selected === centredTab || strip.width <= 0 || !rep.itemAt(selected)
                || row.width <= 0)
            return;
        if (centredTab < 0)
            strip.contentX = rtl ? maxX() : 0;  // first laid out at scroll value 0: the start
        centredTab = selected;
        var to = tabOffset(selected);
        centreClock.stop();
        if (Math.abs(strip.contentX - to) < 1e-6)
            return;  // `scrollState.value != calculatedOffset`
        centreFrom = strip.contentX;
        centreTo = to;
        centreElapsed = 0;
        centreClock.start();
        centreStep(0);
    }
    function centreStep(dtMs) {
        var scale = preview.animatorScale;
        centreElapsed = scale > 0 ? centreElapsed + dtMs / scale : 250;
        if (centreElapsed >= 250) {
            centreClock.stop();
            strip.contentX = centreTo;
            return;
        }
        strip.contentX = centreFrom + (centreTo - centreFrom) * Easing.fastOutSlowIn(centreElapsed / 250);
    }
    onSelectedChanged: centreSelected()
    onRtlChanged: {
        centreClock.stop();
        centredTab = -1;
        Qt.callLater(centreSelected);
    }
    onNaturalWidthsChanged: Qt.callLater(centreSelected)
    onWidthChanged: Qt.callLater(centreSelected)

    // A remade row (a re-theme, controller `keepingViews`, or its row scrolled back into view:
    // the preview makes only what is on screen) shows what the one before showed, its centring
    // going on where it was, as the phone's remembered ScrollState and ScrollableTabData live as
    // long as the row stays composed (all of a `verticalScroll` is). Kept as it moves.
    property bool made: false
    function keepStrip() {
        if (!made || !scrollable) return;
        preview.keepView(d.n, "strip", {
            x: strip.contentX, tab: centredTab, moving: centring,
            from: centreFrom, to: centreTo, elapsed: centreElapsed
        });
    }
    onCentredTabChanged: keepStrip()
    Connections {
        target: strip
        function onContentXChanged() { tabs.keepStrip(); }
    }
    Connections {
        target: preview
        function onKeepingViews() { tabs.keepStrip(); }
    }
    Component.onCompleted: {
        var kept = preview.keptView(d.n, "strip");
        if (kept && scrollable) {
            centredTab = kept.tab;
            strip.contentX = kept.x;
            if (kept.moving) {
                centreFrom = kept.from;
                centreTo = kept.to;
                centreElapsed = kept.elapsed;
                centreClock.start();
            }
        }
        made = true;
        keepStrip();
    }
}
