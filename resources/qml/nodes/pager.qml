// pager: horizontally swiped pages; the current page lives in the runtime (tab bars, bottom
// navs and setPage actions move it). The pager takes the width available and each page fills
// it; an unsized pager's pages also fill the height left, unless the pager is explicitly `wrap`
// (PG `prototypePageFill`, layout.py `_pager`), so an unsized pager takes the rest of a column.
// Only the pages the view shows have delegates (the current one; neighbours while swiping), and
// the layout measures just those.
//
// `HorizontalPager(pager, modifier)` keeps Compose's default overscroll: a swipe past the first or
// the last page stretches them (EdgeStretch.qml).
import QtQuick
import ".."

ListView {
    id: pv
    readonly property string pagerId: d.p.id || ""
    readonly property int page: { d.rev; return preview.page(pagerId); }
    readonly property real pageW: d.g.pageW || 0
    implicitWidth: d.g.cw || 0
    implicitHeight: d.g.ch || 0
    orientation: ListView.Horizontal
    snapMode: ListView.SnapOneItem
    highlightRangeMode: ListView.StrictlyEnforceRange
    highlightMoveDuration: 0
    boundsBehavior: stretch.on ? Flickable.DragOverBounds : Flickable.StopAtBounds
    boundsMovement: Flickable.StopAtBounds
    contentItem.transform: EdgeStretch {
        id: stretch
        flick: pv
        vertical: false
    }
    // A swipe released into a stretched end is absorbed there (Compose `applyToFling`).
    onFlickStarted: stretch.catchFling(horizontalVelocity)
    clip: true
    interactive: !preview.editMode
    cacheBuffer: 0
    // Not the page whose edge only touches the view's (a ListView fills up to and including its
    // edges): the phone's `HorizontalPager(pager, modifier)` keeps Compose's default
    // beyondViewportPageCount, 0, so only the page on screen is composed until a swipe moves.
    displayMarginBeginning: -1
    displayMarginEnd: -1
    currentIndex: page
    model: d.kids
    delegate: Item {
        id: wrapper
        required property var modelData
        required property int index
        width: pv.pageW
        height: pv.height
        MotionDelegate {
            n: wrapper.modelData
            inh: d.locals
        }
        Component.onCompleted: preview.pageMounted(d.n, index, true)
        Component.onDestruction: if (d.n) preview.pageMounted(d.n, index, false)
    }
    onMovementEnded: if (currentIndex !== page) preview.setPage(pagerId, currentIndex)
    onPageChanged: if (currentIndex !== page) positionViewAtIndex(page, ListView.Beginning)
}
