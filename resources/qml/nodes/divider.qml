// divider: a 1dp outlineVariant line, horizontal (fills width) or vertical (fills height).
import QtQuick

Rectangle {
    readonly property bool vertical: d.p.orientation === "vertical"
    property bool defaultFillW: !vertical
    property bool defaultFillH: vertical
    implicitWidth: vertical ? 1 : 0
    implicitHeight: vertical ? 0 : 1
    color: d.ts.color || preview.colors.outlineVariant
}
