// box: children stacked, placed by the box's content alignment; a child's own `alignment`
// places that child instead (Compose's Modifier.align); its `offset` still applies on top.
import QtQuick
import ".."

Item {
    id: c
    readonly property string h: d.st.halign || "start"
    readonly property string v: d.st.valign || "start"
    // Largest child, measured once per event-loop pass (see column.qml).
    property var metrics: ({w: 0, h: 0})
    function measure() {
        var w = 0, hh = 0;
        for (var i = 0; i < rep.count; ++i) {
            var it = rep.itemAt(i);
            if (!it || !it.visible) continue;
            w = Math.max(w, it.fillW ? 0 : it.implicitWidth);
            hh = Math.max(hh, it.fillH ? 0 : it.implicitHeight);
        }
        metrics = {w: w, h: hh};
    }
    function schedule() { Qt.callLater(c.measure); }
    Component.onCompleted: measure()
    implicitWidth: metrics.w
    implicitHeight: metrics.h
    Repeater {
        id: rep
        model: d.n ? d.n.kids : []
        onCountChanged: c.schedule()
        delegate: NodeDelegate {
            required property var modelData
            n: modelData
            inh: d.ts
            onImplicitWidthChanged: c.schedule()
            onImplicitHeightChanged: c.schedule()
            onVisibleChanged: c.schedule()
            onFillWChanged: c.schedule()
            onFillHChanged: c.schedule()
            width: fillW ? c.width : Math.min(implicitWidth, c.width)
            height: fillH ? c.height : implicitHeight
            readonly property string ownH: st.halign || c.h
            readonly property string ownV: st.valign || c.v
            x: ownH === "center" ? (c.width - width) / 2 : ownH === "end" ? c.width - width : 0
            y: ownV === "center" ? (c.height - height) / 2 : ownV === "end" ? c.height - height : 0
        }
    }
}
