// column: children top to bottom; spacing, arrangement (start/center/end/space*), alignment, weight.
// The Python side tells whether any child fills the height (st.kidsFillH); only the space*
// arrangements measure the children in JavaScript (O(n) per change), so large columns stay cheap.
import QtQuick
import QtQuick.Layouts
import ".."

Item {
    id: c
    readonly property real gap: d.st.spacing || 0
    readonly property string arr: d.st.arrangement || ""
    readonly property string cross: d.st.halign || ""
    readonly property bool fills: d.st.kidsFillH === true
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
            if (it && it.visible) most = Math.max(most, it.implicitWidth);
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
            sum += it.implicitHeight;
        }
        return {count: count, sum: sum};
    }
    readonly property real natural: spreads ? metrics.sum + gap * Math.max(0, metrics.count - 1) : lay.implicitHeight
    readonly property real extra: Math.max(0, height - natural)
    implicitWidth: crossExtent
    implicitHeight: natural

    Component.onCompleted: measure()

    ColumnLayout {
        id: lay
        width: c.width
        spacing: !c.spreads || c.extra <= 0 || c.metrics.count === 0 ? c.gap
            : c.arr === "spaceBetween" ? (c.metrics.count > 1 ? c.gap + c.extra / (c.metrics.count - 1) : c.gap)
            : c.arr === "spaceAround" ? c.gap + c.extra / c.metrics.count
            : c.gap + c.extra / (c.metrics.count + 1)
        // Height follows the layout's implicit height unless a child fills the column (then
        // the layout is anchored to both ends; no binding on its own implicit height, no loop).
        anchors.top: parent.top
        anchors.bottom: c.fills ? parent.bottom : undefined
        anchors.topMargin: c.fills ? 0
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
                onImplicitWidthChanged: c.schedule()
                onVisibleChanged: c.schedule()
                Layout.fillWidth: fillW
                Layout.maximumWidth: fillW ? Number.POSITIVE_INFINITY : lay.width
                Layout.fillHeight: fillH || weight > 0
                Layout.preferredHeight: weight > 0 ? 0 : -1
                Layout.verticalStretchFactor: weight > 0 ? Math.round(weight * 100) : fillH ? 100 : -1
                Layout.alignment: c.cross === "center" ? Qt.AlignHCenter : c.cross === "end" ? Qt.AlignRight : Qt.AlignLeft
            }
        }
    }
}
