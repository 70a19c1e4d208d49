// box: children stacked, each measured with the box's maximum and placed by the box's content
// alignment. A child's own `alignment` does not place it (SC "box": `Box(containerModifier,
// contentAlignment = node.style.alignment)`, children get no `Modifier.align`); its `offset`
// moves it from there.
import QtQuick
import ".."
import "../layout.js" as L

Item {
    id: c
    readonly property string h: d.st.halign || "start"
    readonly property string v: d.st.valign || "start"
    readonly property var box: [d.cMinW, d.cMaxW, d.cMinH, d.cMaxH, h, v]
    onBoxChanged: if (!d.constraining) sched.schedule()
    function measure() {
        if (!d.ready) return;
        sched.measuring = true;
        var size = L.measureBox(d, L.flowItems(rep), h, v);
        sched.measuring = false;
        implicitWidth = size[0];
        implicitHeight = size[1];
    }
    Component.onCompleted: measure()
    Scheduler { id: sched; run: c.measure }
    Repeater {
        id: rep
        model: d.n ? d.n.kids : []
        onItemAdded: sched.schedule()
        onItemRemoved: sched.schedule()
        delegate: NodeDelegate {
            required property var modelData
            managed: true
            n: modelData
            inh: d.locals
            onSlotWChanged: sched.schedule()
            onSlotHChanged: sched.schedule()
            onInFlowChanged: sched.schedule()
        }
    }
}
