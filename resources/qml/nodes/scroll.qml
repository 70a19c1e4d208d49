// scroll: a vertical (default) or horizontal scrolling container. Its child is measured without a
// bound on the scrolling axis; the scroll wraps it up to the space available (SC "scroll":
// `Box(modifier.verticalScroll(scroll))`).
import QtQuick
import ".."
import "../layout.js" as L

Flickable {
    id: f
    readonly property bool horizontal: d.p.axis === "horizontal"
    readonly property var box: [d.cMinW, d.cMaxW, d.cMinH, d.cMaxH, horizontal]
    onBoxChanged: if (!d.constraining) sched.schedule()
    function measure() {
        if (!d.ready) return;
        sched.measuring = true;
        var w = 0, h = 0;
        if (child.inFlow) {
            if (horizontal) child.constrain(0, Infinity, 0, d.cMaxH, 0);
            else child.constrain(0, d.cMaxW, 0, Infinity, 0);
            w = child.slotW;
            h = child.slotH;
            child.x = (child.slotW - child.width) / 2;
            child.y = (child.slotH - child.height) / 2;
        }
        sched.measuring = false;
        contentWidth = horizontal ? Math.max(w, d.cMinW) : Math.max(d.cMinW, Math.min(w, d.cMaxW));
        contentHeight = horizontal ? Math.max(d.cMinH, Math.min(h, d.cMaxH)) : Math.max(h, d.cMinH);
        implicitWidth = L.clamp(w, d.cMinW, d.cMaxW);
        implicitHeight = L.clamp(h, d.cMinH, d.cMaxH);
    }
    Component.onCompleted: measure()
    Scheduler { id: sched; run: f.measure }
    clip: true
    flickableDirection: horizontal ? Flickable.HorizontalFlick : Flickable.VerticalFlick
    boundsBehavior: Flickable.StopAtBounds
    NodeDelegate {
        id: child
        managed: true
        n: d.n.kids.length > 0 ? d.n.kids[0] : null
        inh: d.locals
        onSlotWChanged: sched.schedule()
        onSlotHChanged: sched.schedule()
        onInFlowChanged: sched.schedule()
        onContentChanged: sched.schedule()
    }
}
