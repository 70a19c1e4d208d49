// scroll: a vertical (default) or horizontal scrolling container. Its child is measured without a
// bound on the scrolling axis; the scroll wraps it up to the space available (SC "scroll":
// `Box(modifier.verticalScroll(scroll))`, layout.py `_scroll`). Only the part of the child in view
// (and half a viewport ahead) is instantiated: each move tells the layout where the view is.
import QtQuick
import ".."

Flickable {
    id: f
    readonly property bool horizontal: d.p.axis === "horizontal"
    implicitWidth: d.g.cw || 0
    implicitHeight: d.g.ch || 0
    contentWidth: d.g.contentW || 0
    contentHeight: d.g.contentH || 0
    clip: true
    flickableDirection: horizontal ? Flickable.HorizontalFlick : Flickable.VerticalFlick
    boundsBehavior: Flickable.StopAtBounds
    // Right to left a horizontal scroll starts at its content's right end (horizontalScroll
    // places its content relative to the layout direction), until the designer moves it.
    readonly property bool fromEnd: preview.rtl === 1 && horizontal
    property bool moved: false
    function toStart() {
        if (!moved) contentX = fromEnd ? Math.max(0, contentWidth - width) : 0;
    }
    onFromEndChanged: { moved = false; toStart(); }
    onContentWidthChanged: if (fromEnd) toStart()
    onWidthChanged: if (fromEnd) toStart()
    onMovementStarted: moved = true
    Component.onCompleted: if (fromEnd) toStart()
    onContentXChanged: preview.scrolled(d.n, contentX, contentY)
    onContentYChanged: preview.scrolled(d.n, contentX, contentY)
    Kids {}
}
