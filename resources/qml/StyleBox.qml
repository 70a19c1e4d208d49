// A node's style box, behind its content: the elevation shadow, the gradient or background colour
// and the border, with the node's corner radii. Made by NodeDelegate.decorate from a shared
// component (DeviceScreen.qml), so the delegate comes as a property.
import QtQuick

Item {
    id: box
    property Item d
    anchors.fill: parent
    // The corners by screen side: per-corner radii are start/end (RoundedCornerShape(topStart
    // ...)), which right to left puts topStart at the top right; -1 is the uniform radius. A
    // corner that lies in an ancestor's rounded clip is at least as round as the clip makes it
    // (`g.clip`, studio/preview/clipshape.py: the software scene graph cannot clip to a shape).
    readonly property var clipped: d.g.clip || null
    function corner(own, i) {
        var r = own >= 0 ? own : d.cornerRadius;
        return clipped ? Math.max(r, clipped[i]) : r;
    }
    readonly property real tl: corner(preview.rtl ? d.st.rTR : d.st.rTL, 0)
    readonly property real tr: corner(preview.rtl ? d.st.rTL : d.st.rTR, 1)
    readonly property real br: corner(preview.rtl ? d.st.rBL : d.st.rBR, 2)
    readonly property real bl: corner(preview.rtl ? d.st.rBR : d.st.rBL, 3)
    Loader {
        anchors.fill: parent
        active: (d.st.elevation || 0) > 0
        sourceComponent: Shadow {
            elevation: d.st.elevation || 0
            radius: Math.min(d.st.radius || 0, Math.min(d.width, d.height) / 2)
            color: d.st.shadow || "#FF000000"
        }
    }
    Loader {
        anchors.fill: parent
        active: !!d.st.grad
        sourceComponent: GradientFill {
            grad: d.st.grad
            topLeftRadius: box.tl
            topRightRadius: box.tr
            bottomRightRadius: box.br
            bottomLeftRadius: box.bl
        }
    }
    Loader {
        anchors.fill: parent
        active: (!!d.st.bg && !d.st.grad) || d.st.bw > 0
        sourceComponent: Rectangle {
            // A gradient (drawn below) wins over the background colour; the border stays on top.
            color: d.st.bg && !d.st.grad ? d.st.bg : "transparent"
            radius: d.cornerRadius
            topLeftRadius: box.tl
            topRightRadius: box.tr
            bottomRightRadius: box.br
            bottomLeftRadius: box.bl
            border.width: d.st.bw || 0
            border.color: d.st.bc || "transparent"
        }
    }
}
