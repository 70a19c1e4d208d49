// row: children start to end, measured as Compose's Row (children in order against the width
// left, then weights; a weighted child makes a bounded row take its whole width); spacing,
// arrangement (AR `prototypeHorizontalArrangement`), vertical alignment (RM `prototypeVerticalAlignment`: top default).
import QtQuick
import ".."
import "../layout.js" as L

Item {
    id: c
    readonly property real gap: d.st.spacing || 0
    readonly property string arr: d.st.arrangement || ""
    readonly property string cross: d.st.valign || ""
    readonly property var box: [d.cMinW, d.cMaxW, d.cMinH, d.cMaxH, gap, arr, cross]
    onBoxChanged: if (!d.constraining) sched.schedule()
    function measure() {
        if (!d.ready) return;
        sched.measuring = true;
        var size = L.measureLinear(false, d, L.flowItems(rep), gap, arr, cross);
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
            onWeightChanged: sched.schedule()
        }
    }
}
