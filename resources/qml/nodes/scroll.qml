// scroll: a vertical (default, fills the remaining height) or horizontal scrolling container.
import QtQuick
import ".."

Flickable {
    id: f
    readonly property bool horizontal: d.p.axis === "horizontal"
    property bool defaultFillH: !horizontal
    property bool defaultFillW: horizontal
    implicitWidth: child.implicitWidth
    implicitHeight: child.implicitHeight
    clip: true
    contentWidth: horizontal ? child.width : width
    contentHeight: horizontal ? height : child.height
    flickableDirection: horizontal ? Flickable.HorizontalFlick : Flickable.VerticalFlick
    boundsBehavior: Flickable.StopAtBounds
    NodeDelegate {
        id: child
        n: d.n.kids.length > 0 ? d.n.kids[0] : null
        inh: d.ts
        width: f.horizontal ? implicitWidth : (fillW ? f.width : Math.min(implicitWidth, f.width))
        height: f.horizontal ? (fillH ? f.height : Math.min(implicitHeight, f.height)) : implicitHeight
    }
}
