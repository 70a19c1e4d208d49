// row: children start to end; spacing, arrangement, vertical alignment, weight.
// As in column.qml, only the space* arrangements measure children in JavaScript.
import QtQuick
import QtQuick.Layouts
import ".."

Item {
    id: c
    readonly property real gap: d.st.spacing || 0
    readonly property string arr: d.st.arrangement || ""
    readonly property string cross: d.st.valign || ""
    readonly property bool fills: d.st.kidsFillW === true
    readonly property bool spreads: !fills && (arr === "spaceBetween" || arr === "spaceAround" || arr === "spaceEvenly")
    // The cross-axis size is the largest child's (children are capped at the layout's size,
    // so the layout's own implicit size cannot be used for it). Measured once per event-loop
    // pass (Qt.callLater), not on every child change: a binding over all children would be
    // O(n^2) while a 2,000-child column is being created.
    property real crossExtent: 0
    function measure() {
        var most = 0;
        for (var i = 0; i < rep.count; ++i) {
            var it = rep.itemAt(i);
            if (it && it.visible) most = Math.max(most, it.implicitHeight);
        }
        crossExtent = most;
    }
    function schedule() { Qt.callLater(c.measure); }
    readonly property var metrics: {
        if (!spreads) return {count: 0, sum: 0};
        var count = 0, sum = 0;
        for (var i = 0; i < rep.count; ++i) {
            var it = rep.itemAt(i);
            if (!it || !it.visible) continue;
            count++;
            sum += it.implicitWidth;
        }
        return {count: count, sum: sum};
    }
    readonly property real natural: spreads ? metrics.sum + gap * Math.max(0, metrics.count - 1) : lay.implicitWidth
    readonly property real extra: Math.max(0, width - natural)
    implicitWidth: natural
    implicitHeight: crossExtent

    Component.onCompleted: measure()

    RowLayout {
        id: lay
        height: c.height
        spacing: !c.spreads || c.extra <= 0 || c.metrics.count === 0 ? c.gap
            : c.arr === "spaceBetween" ? (c.metrics.count > 1 ? c.gap + c.extra / (c.metrics.count - 1) : c.gap)
            : c.arr === "spaceAround" ? c.gap + c.extra / c.metrics.count
            : c.gap + c.extra / (c.metrics.count + 1)
        // Width follows the layout's implicit width unless a child fills the row, or the row
        // is narrower than its content (then the layout, anchored to both ends, shrinks them).
        anchors.left: parent.left
        anchors.right: c.fills || c.width < c.natural ? parent.right : undefined
        anchors.leftMargin: c.fills ? 0
            : c.arr === "center" ? c.extra / 2
            : c.arr === "end" ? c.extra
            : c.spreads && c.metrics.count > 0 && c.arr === "spaceAround" ? c.extra / c.metrics.count / 2
            : c.spreads && c.metrics.count > 0 && c.arr === "spaceEvenly" ? c.extra / (c.metrics.count + 1)
            : 0
        Repeater {
            id: rep
            model: d.n ? d.n.kids : []
            onCountChanged: c.schedule()
            delegate: NodeDelegate {
                required property var modelData
                n: modelData
                inh: d.ts
                onImplicitHeightChanged: c.schedule()
                onVisibleChanged: c.schedule()
                Layout.fillWidth: fillW || weight > 0
                Layout.preferredWidth: weight > 0 || fillW ? 0 : -1
                Layout.horizontalStretchFactor: weight > 0 ? Math.round(weight * 100) : fillW ? 100 : -1
                Layout.fillHeight: fillH
                Layout.maximumHeight: fillH ? Number.POSITIVE_INFINITY : lay.height
                Layout.alignment: c.cross === "start" ? Qt.AlignTop : c.cross === "end" ? Qt.AlignBottom : Qt.AlignVCenter
            }
        }
    }
}
