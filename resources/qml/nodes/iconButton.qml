// iconButton: an icon-only Material button, standard (default), filled, tonal or outlined (MC
// `RenderPrototypeIconButton`). A 40 dp circle in a 48 dp target; the 24 dp icon takes the
// button's content colour: LocalContentColor (onSurface) for standard and outlined, onPrimary on
// filled primary, onSecondaryContainer on tonal secondaryContainer; outlined has a 1 dp
// outlineVariant ring (IconButtonDefaults). `style.color` plays no part: the phone draws
// `Icon(it, contentDescription = null)` with the button's colour.
import QtQuick
import ".."

Item {
    id: root
    readonly property string variant: d.p.variant || "standard"
    implicitWidth: 48
    implicitHeight: 48
    readonly property color ink: variant === "filled" ? preview.colors.onPrimary
        : variant === "tonal" ? preview.colors.onSecondaryContainer : preview.colors.onSurface
    Rectangle {
        id: circle
        anchors.centerIn: parent
        width: 40; height: 40; radius: 20
        color: root.variant === "filled" ? preview.colors.primary
            : root.variant === "tonal" ? preview.colors.secondaryContainer : "transparent"
        border.width: root.variant === "outlined" ? 1 : 0
        border.color: preview.colors.outlineVariant
        MIcon {
            anchors.centerIn: parent
            name: d.p.icon || ""
            color: root.ink
        }
    }
    // A press ripples in the 40 dp circle (IconButton: `clip(shape)` then `clickable(indication =
    // ripple())`, bounded) in the button's content colour, from the press point.
    MouseArea {
        id: mouse
        anchors.fill: parent
        property Item ripple: null
        onPressed: (m) => {
            var at = mapToItem(circle, m.x, m.y);
            ripple = screen.ripple(circle, at.x, at.y, root.ink, {tl: 20, tr: 20, br: 20, bl: 20});
        }
        onReleased: if (ripple) ripple.finish()
        onCanceled: if (ripple) ripple.finish()
        onClicked: preview.tap(d.n, "")
    }
}
