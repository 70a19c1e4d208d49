// card: filled, elevated or outlined Material card. Its children are a plain Column: the card's
// own `arrangement`, `spacing` and `alignment` are not applied (CO `RenderPrototypeCard` passes
// them to `Card(modifier, colors, content)`). Corners follow the theme's medium shape (Material's
// CardDefaults.shape); the content colour is the one Material pairs with the container.
import QtQuick
import ".."
import "../layout.js" as L

Item {
    id: card
    readonly property string variant: d.p.variant || "filled"
    readonly property real radius: d.st.hasRadius ? d.st.radius : preview.shapes.medium
    readonly property color container: d.st.bg !== "" ? d.st.bg
        : variant === "elevated" ? preview.colors.surfaceContainerLow
        : variant === "outlined" ? preview.colors.surface : preview.colors.surfaceContainerHighest
    // Material's contentColorFor(containerColor), else the content colour around the card.
    readonly property color contentColor: {
        preview.themeRev;
        var on = preview.contentColorFor(card.container);
        return on !== "" ? on : d.inh.contentColor || preview.colors.onSurface;
    }
    readonly property var box: [d.cMinW, d.cMaxW, d.cMinH, d.cMaxH]
    onBoxChanged: if (!d.constraining) sched.schedule()
    function measure() {
        if (!d.ready) return;
        sched.measuring = true;
        var size = L.measureLinear(true, d, L.flowItems(rep), 0, "", "");
        sched.measuring = false;
        implicitWidth = size[0];
        implicitHeight = size[1];
    }
    Component.onCompleted: measure()
    Scheduler { id: sched; run: card.measure }
    Shadow {
        anchors.fill: parent
        visible: card.variant === "elevated" && !(d.st.elevation > 0)
        elevation: 1
        radius: card.radius
    }
    Rectangle {
        anchors.fill: parent
        visible: d.st.bg === "" && !d.st.grad
        radius: Math.min(card.radius, Math.min(width, height) / 2)
        color: card.container
        border.width: card.variant === "outlined" ? 1 : 0
        border.color: preview.colors.outlineVariant
    }
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
