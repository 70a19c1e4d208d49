// bottomSheet: a modal sheet over a scrim at its first detent (half, full or dp), drag handle;
// dragging the handle moves between detents, and down past the lowest one dismisses it.
import QtQuick
import ".."

Item {
    implicitWidth: 0
    implicitHeight: 0
    Overlay {
        id: layer
        property int detent: 0
        readonly property var detents: d.p.detents || ["half"]
        function heightOf(i) {
            var v = detents[Math.max(0, Math.min(i, detents.length - 1))];
            if (v === "full") return layer.height - 24;
            if (v === "half") return layer.height / 2;
            return Math.min(layer.height - 24, v.dp || layer.height / 2);
        }
        onOpenChanged: detent = 0
        Rectangle {
            anchors.fill: parent
            color: d.p.scrim !== undefined ? preview.color(d.p.scrim) : "#52000000"
            MouseArea {
                anchors.fill: parent
                onClicked: if (d.p.dismissOnSwipe !== false) preview.closeOverlay(d.n, "dismiss")
            }
        }
        Rectangle {
            id: sheet
            anchors.left: parent.left
            anchors.right: parent.right
            y: layer.height - height + Math.max(0, drag.translation)
            height: layer.heightOf(layer.detent)
            color: preview.colors.surfaceContainerLow
            topLeftRadius: 28
            topRightRadius: 28
            MouseArea { anchors.fill: parent }
            Rectangle {
                id: handle
                visible: d.p.dragHandle !== false
                anchors.horizontalCenter: parent.horizontalCenter
                y: 22
                width: 32; height: 4; radius: 2
                color: preview.colors.onSurfaceVariant
                opacity: 0.4
            }
            Item {
                id: grip
                anchors.left: parent.left
                anchors.right: parent.right
                height: 48
                property real translation: 0
                DragHandler {
                    id: dragger
                    target: null
                    yAxis.enabled: true
                    xAxis.enabled: false
                    onActiveChanged: {
                        if (active) return;
                        var dy = translation.y;
                        if (dy > 80) {
                            if (layer.detent > 0) layer.detent--;
                            else if (d.p.dismissOnSwipe !== false) preview.closeOverlay(d.n, "dismiss");
                        } else if (dy < -80 && layer.detent < layer.detents.length - 1) {
                            layer.detent++;
                        }
                    }
                }
            }
            QtObject { id: drag; readonly property real translation: dragger.active ? dragger.translation.y : 0 }
            Flickable {
                anchors.fill: parent
                anchors.topMargin: d.p.dragHandle !== false ? 48 : 16
                contentHeight: child.height
                clip: true
                NodeDelegate {
                    id: child
                    n: d.n.kids.length > 0 ? d.n.kids[0] : null
                    inh: d.ts
                    width: fillW ? sheet.width : Math.min(implicitWidth, sheet.width)
                    height: fillH ? sheet.height - 48 : implicitHeight
                }
            }
        }
    }
}
