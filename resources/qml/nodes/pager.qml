// pager: horizontally swiped pages; the current page lives in the runtime (tab bars, bottom
// navs and setPage actions move it). The pager takes the width available and each page fills
// it; an unsized pager's pages also fill the height left, unless the pager is explicitly `wrap`
// (PG `prototypePageFill`), so an unsized pager takes the rest of a column.
import QtQuick
import ".."
import "../layout.js" as L

ListView {
    id: pv
    readonly property string pagerId: d.p.id || ""
    readonly property int page: { d.n.rev; return preview.page(pagerId); }
    readonly property bool fillPageW: !d.st.wrapW
    readonly property bool fillPageH: !d.st.wrapH
    // Page size: the pager's width (HorizontalPager's PageSize.Fill), and its height when bounded.
    readonly property real pageW: isFinite(d.cMaxW) ? d.cMaxW : (current ? current.slotW : 0)
    readonly property real pageMaxH: d.cMaxH
    readonly property Item current: currentItem ? currentItem.node : null
    readonly property var box: [d.cMinW, d.cMaxW, d.cMinH, d.cMaxH, fillPageW, fillPageH]
    onBoxChanged: if (!d.constraining) sched.schedule()
    function measurePage(node) {
        // The page Box: fills the page width / bounded height, its node measured loose inside.
        var h = fillPageH && isFinite(pageMaxH) ? pageMaxH : -1;
        node.constrain(0, pageW, 0, pageMaxH, 0);
        node.x = (node.slotW - node.width) / 2;
        node.y = (node.slotH - node.height) / 2;
        return h >= 0 ? h : node.slotH;
    }
    function measure() {
        if (!d.ready) return;
        sched.measuring = true;
        var h = 0;
        for (var i = 0; i < contentItem.children.length; ++i) {
            var wrapper = contentItem.children[i];
            if (wrapper.node === undefined || !wrapper.node) continue;
            var ph = measurePage(wrapper.node);
            wrapper.pageH = ph;
            if (wrapper === currentItem) h = ph;
        }
        if (!currentItem && fillPageH && isFinite(pageMaxH)) h = pageMaxH;
        sched.measuring = false;
        implicitWidth = L.clamp(pageW, d.cMinW, d.cMaxW);
        implicitHeight = L.clamp(h, d.cMinH, d.cMaxH);
    }
    Component.onCompleted: measure()
    onCurrentItemChanged: sched.schedule()
    onCountChanged: sched.schedule()
    Scheduler { id: sched; run: pv.measure }
    orientation: ListView.Horizontal
    snapMode: ListView.SnapOneItem
    highlightRangeMode: ListView.StrictlyEnforceRange
    highlightMoveDuration: 0
    boundsBehavior: Flickable.StopAtBounds
    clip: true
    interactive: !preview.editMode
    cacheBuffer: 0
    currentIndex: page
    model: d.n.kids
    delegate: Item {
        id: wrapper
        required property var modelData
        property real pageH: 0
        readonly property alias node: pageNode
        width: pv.pageW
        height: pv.height
        NodeDelegate {
            id: pageNode
            managed: true
            n: wrapper.modelData
            inh: d.locals
            onSlotWChanged: sched.schedule()
            onSlotHChanged: sched.schedule()
            onInFlowChanged: sched.schedule()
        }
        Component.onCompleted: sched.schedule()
    }
    onMovementEnded: if (currentIndex !== page) preview.setPage(pagerId, currentIndex)
    onPageChanged: if (currentIndex !== page) positionViewAtIndex(page, ListView.Beginning)
}
