// A node's style box, behind its content: the elevation shadow, the gradient or background colour
// and the border, with the node's corner radii. Made by NodeDelegate.decorate from a shared
// component (DeviceScreen.qml), so the delegate comes as a property.
import QtQuick

Item {
    id: box
    property Item d
    anchors.fill: parent
    // The corners by screen side: per-corner radii are start/end (RoundedCornerShape(topStart
    // ...)), which right to left puts topStart at the top right.
    readonly property var tl: preview.rtl ? d.st.rTR : d.st.rTL
    readonly property var tr: preview.rtl ? d.st.rTL : d.st.rTR
    readonly property var br: preview.rtl ? d.st.rBL : d.st.rBR
    readonly property var bl: preview.rtl ? d.st.rBR : d.st.rBL
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
            topLeftRadius: box.tl >= 0 ? box.tl : d.cornerRadius
            topRightRadius: box.tr >= 0 ? box.tr : d.cornerRadius
            bottomRightRadius: box.br >= 0 ? box.br : d.cornerRadius
            bottomLeftRadius: box.bl >= 0 ? box.bl : d.cornerRadius
        }
    }
    Loader {
        anchors.fill: parent
        active: (!!d.st.bg && !d.st.grad) || d.st.bw > 0
        sourceComponent: Rectangle {
            // A gradient (drawn below) wins over the background colour; the border stays on top.
            color: d.st.bg && !d.st.grad ? d.st.bg : "transparent"
            radius: d.cornerRadius
            topLeftRadius: box.tl >= 0 ? box.tl : radius
            topRightRadius: box.tr >= 0 ? box.tr : radius
            bottomRightRadius: box.br >= 0 ? box.br : radius
            bottomLeftRadius: box.bl >= 0 ? box.bl : radius
            border.width: d.st.bw || 0
            border.color: d.st.bc || "transparent"
        }
    }
}
