// pager: horizontally swiped pages; the current page lives in the runtime (tab bars, bottom
// navs and setPage actions move it).
import QtQuick
import ".."

ListView {
    id: pv
    property bool defaultFillW: true
    readonly property string pagerId: d.p.id || ""
    readonly property int page: { d.n.rev; return preview.page(pagerId); }
    orientation: ListView.Horizontal
    snapMode: ListView.SnapOneItem
    highlightRangeMode: ListView.StrictlyEnforceRange
    highlightMoveDuration: 0
    boundsBehavior: Flickable.StopAtBounds
    clip: true
    interactive: !preview.editMode
    cacheBuffer: 0
    currentIndex: page
    implicitWidth: currentItem ? currentItem.implicitWidth : 0
    implicitHeight: currentItem ? currentItem.implicitHeight : 0
    model: d.n.kids
    delegate: NodeDelegate {
        required property var modelData
        n: modelData
        inh: d.ts
        width: pv.width
        height: fillH ? pv.height : implicitHeight
    }
    onMovementEnded: if (currentIndex !== page) preview.setPage(pagerId, currentIndex)
    onPageChanged: if (currentIndex !== page) positionViewAtIndex(page, ListView.Beginning)
}
