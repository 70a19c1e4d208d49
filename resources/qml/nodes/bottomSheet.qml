// bottomSheet: an in-window modal sheet, open while its openWhen holds (SC `RenderPrototypeSheet`).
// Scrim: the authored `scrim`, else the scheme's scrim at 0.4 (TH `prototypeSheetScrimFallback`,
// `prototypeResolveScrim`: the `scrim` role is drawn at 0.4 too); any tap on it closes the sheet
// (`.clickable { SheetDismiss }`), whatever `dismissOnSwipe` says. The sheet: full width at the
// bottom, square, `surface` unless the node paints its own background; an optional drag handle
// (32 x 4 dp, onSurfaceVariant, 2 dp corners, 8 dp padding: TH `prototypeHandleColor`); then the
// child. It opens at its first detent (RT `prototypeSheetHeights`: half = window / 2, full = the
// window's height, dp capped at it). The whole sheet drags; on release it settles on the detent
// nearest to where it was dropped, or closes when dropped below half the smallest detent and
// `dismissOnSwipe` allows it (RT `settlePrototypeSheet`). A tap on the body runs its onTap.
import QtQuick
import ".."

Item {
    implicitWidth: 0
    implicitHeight: 0
    Overlay {
        id: layer
        readonly property var detents: d.p.detents && d.p.detents.length ? d.p.detents : ["half"]
        readonly property var heights: {
            var out = [];
            for (var i = 0; i < detents.length; ++i) {
                var v = detents[i];
                out.push(v === "full" ? layer.height : v === "half" ? layer.height / 2
                    : Math.min(layer.height, (v && v.dp) || layer.height / 2));
            }
            return out;
        }
        property real settled: heights.length ? heights[0] : height / 2
        property real drag: 0
        onOpenChanged: { settled = heights.length ? heights[0] : height / 2; drag = 0; }
        onHeightsChanged: if (!dragger.active) settled = heights.length ? heights[0] : height / 2
        function settle(dragged) {
            // RT `settlePrototypeSheet`: positive drag is downward
            var desired = settled - dragged;
            var smallest = Math.min.apply(null, heights);
            if (d.p.dismissOnSwipe !== false && desired < smallest / 2) return -1;
            var best = heights[0];
            for (var i = 1; i < heights.length; ++i)
                if (Math.abs(heights[i] - desired) < Math.abs(best - desired)) best = heights[i];
            return best;
        }
        Rectangle {
            anchors.fill: parent
            readonly property bool roleScrim: d.p.scrim === undefined || d.p.scrim === "scrim"
            color: roleScrim ? (preview.colors.scrim || "#000000") : preview.color(d.p.scrim)
            opacity: roleScrim ? 0.4 : 1  // PROTOTYPE_SHEET_SCRIM_ALPHA
            // The scrim is a plain `.clickable {}` (SC `RenderPrototypeSheet`): LocalIndication
            // ripples the whole scrim in onSurface, over the scrim colour, below the sheet.
            MouseArea {
                anchors.fill: parent
                property Item ripple: null
                onPressed: (m) => {
                    ripple = screen.ripple(layer, m.x, m.y, preview.colors.onSurface,
                                           {x: 0, y: 0, width: layer.width, height: layer.height, z: 0.5});
                }
                onReleased: if (ripple) ripple.finish()
                onCanceled: if (ripple) ripple.finish()
                onClicked: preview.closeOverlay(d.n, "scrim")
            }
        }
        Item {
            id: sheet
            objectName: "sheet"
            z: 1  // above the scrim's ripple
            anchors.left: parent.left
            anchors.right: parent.right
            height: Math.max(0, Math.min(layer.height, layer.settled - layer.drag))
            y: layer.height - height
            clip: true
            Rectangle {
                anchors.fill: parent
                visible: !d.st.grad
                color: d.st.bg ? d.st.bg : preview.colors.surface
                radius: Math.min(d.st.radius || 0, width / 2, height / 2)
            }
            Loader {
                anchors.fill: parent
                active: !!d.st.grad
                sourceComponent: GradientFill { grad: d.st.grad }
            }
            MouseArea {
                // a tap on the sheet's body runs its onTap and never reaches the scrim
                // The body is `.clickable {}` too: a press ripples over the whole sheet, its
                // content included, in onSurface; a drag cancels it (the DragHandler takes over).
                anchors.fill: parent
                property Item ripple: null
                onPressed: (m) => { ripple = screen.ripple(sheet, m.x, m.y, preview.colors.onSurface, {z: 50}); }
                onReleased: if (ripple) ripple.finish()
                onCanceled: if (ripple) ripple.finish()
                onClicked: preview.tap(d.n, "")
            }
            DragHandler {
                id: dragger
                target: null
                xAxis.enabled: false
                yAxis.enabled: true
                onTranslationChanged: if (active) layer.drag = translation.y
                onActiveChanged: {
                    if (active) return;
                    var next = layer.settle(layer.drag);
                    layer.drag = 0;
                    if (next < 0) preview.closeOverlay(d.n, "swipe");
                    else layer.settled = next;
                }
            }
            Rectangle {
                id: handle
                visible: d.p.dragHandle !== false
                anchors.horizontalCenter: parent.horizontalCenter
                y: 8
                width: 32; height: 4; radius: 2
                color: preview.colors.onSurfaceVariant
            }
            MotionDelegate {
                id: child
                y: handle.visible ? 20 : 0
                n: d.kids.length > 0 && d.kids[0].layered !== 1 ? d.kids[0] : null
                inh: d.ts
                width: g.fillW === true ? sheet.width : Math.min(implicitWidth, sheet.width)
                height: g.fillH === true ? Math.max(0, sheet.height - y) : Math.min(implicitHeight, Math.max(0, sheet.height - y))
            }
        }
        // An anchored child is drawn above the modal at its anchor, not inside it (SC
        // `layeredPrototypeAnchorsIn`; AnchoredKid.qml).
        Loader {
            anchors.fill: parent
            z: 100
            active: d.kids.length > 0 && d.kids[0].layered === 1
            sourceComponent: AnchoredKid {
                authored: parent ? parent.parent : null  // the Overlay
                node: d.kids[0]
                locals: d.ts
            }
        }
    }
}
