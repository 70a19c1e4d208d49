// A node's style box, behind its content: the elevation shadow, the gradient or background colour
// and the border, with the node's corner radii. Made by NodeDelegate.decorate from a shared
// component (DeviceScreen.qml), so the delegate comes as a property.
import QtQuick

Item {
    property Item d
    anchors.fill: parent
    Loader {
        anchors.fill: parent
        active: (d.st.elevation || 0) > 0
        sourceComponent: Shadow {
            elevation: d.st.elevation || 0
            radius: Math.min(d.st.radius || 0, Math.min(d.width, d.height) / 2)
            color: d.st.shadow || "#40000000"
        }
    }
    Loader {
        anchors.fill: parent
        active: !!d.st.grad
        sourceComponent: GradientFill {
            grad: d.st.grad
            topLeftRadius: d.st.rTL >= 0 ? d.st.rTL : d.cornerRadius
            topRightRadius: d.st.rTR >= 0 ? d.st.rTR : d.cornerRadius
            bottomRightRadius: d.st.rBR >= 0 ? d.st.rBR : d.cornerRadius
            bottomLeftRadius: d.st.rBL >= 0 ? d.st.rBL : d.cornerRadius
        }
    }
    Loader {
        anchors.fill: parent
        active: (!!d.st.bg && !d.st.grad) || d.st.bw > 0
        sourceComponent: Rectangle {
            // A gradient (drawn below) wins over the background colour; the border stays on top.
            color: d.st.bg && !d.st.grad ? d.st.bg : "transparent"
            radius: d.cornerRadius
            topLeftRadius: d.st.rTL >= 0 ? d.st.rTL : radius
            topRightRadius: d.st.rTR >= 0 ? d.st.rTR : radius
            bottomRightRadius: d.st.rBR >= 0 ? d.st.rBR : radius
            bottomLeftRadius: d.st.rBL >= 0 ? d.st.rBL : radius
            border.width: d.st.bw || 0
            border.color: d.st.bc || "transparent"
        }
    }
}
