// divider: Material's HorizontalDivider (fills the width, 1 dp) or VerticalDivider (fills the
// height, 1 dp) in outlineVariant, or the node's own `color` (MC `RenderPrototypeDivider`).
import QtQuick

Rectangle {
    readonly property bool vertical: d.p.orientation === "vertical"
    property bool defaultFillW: !vertical
    property bool defaultFillH: vertical
    implicitWidth: vertical ? 1 : 0
    implicitHeight: vertical ? 0 : 1
    color: d.ts.color || preview.colors.outlineVariant
}
