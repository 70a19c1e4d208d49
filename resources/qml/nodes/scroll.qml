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
    onContentXChanged: preview.scrolled(d.n, contentX, contentY)
    onContentYChanged: preview.scrolled(d.n, contentX, contentY)
    Kids {}
}
