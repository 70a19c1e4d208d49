// chip: an assist chip (no stateKey; input and suggestion draw as assist chips too) runs its
// onTap; a filter chip toggles its boolean key, then runs onTap (CO `RenderPrototypeChip`).
// Assist: AssistChip, 32 dp tall, 8 + 8 dp padding around the label, 1 dp outlineVariant border,
// label onSurface (AssistChipTokens), the theme's small corner. Filter: a Surface 32 dp tall,
// 12 dp padding, 8 dp gap, an 18 dp check when selected, secondaryContainer when selected else a
// 1 dp outlineVariant border, content onSecondaryContainer / onSurfaceVariant. Both sit in a
// 48 dp touch target (minimumInteractiveComponentSize).
import QtQuick
import ".."
import "../Corners.js" as Corners

Item {
    id: chip
    readonly property bool filter: !!d.p.stateKey
    readonly property bool selected: {
        d.rev;
        return filter && preview.value(d.n, d.p.stateKey) === true;
    }
    readonly property color ink: d.ts.color ? d.ts.color
        : !filter ? preview.colors.onSurface
        : selected ? preview.colors.onSecondaryContainer : preview.colors.onSurfaceVariant
    implicitHeight: 48
    implicitWidth: Math.max(48, row.implicitWidth + (filter ? 24 : 32))
    Rectangle {
        id: body
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.verticalCenter: parent.verticalCenter
        height: 32
        radius: Corners.of(preview, "small")
        color: chip.selected ? preview.colors.secondaryContainer : "transparent"
        border.width: chip.selected ? 0 : 1
        border.color: preview.colors.outlineVariant
        Row {
            id: row
            anchors.centerIn: parent
            spacing: 8
            MIcon {
                visible: chip.selected
                name: "check"
                size: 18
                color: chip.ink
                anchors.verticalCenter: parent.verticalCenter
            }
            RoleText {
                role: "labelLarge"
                text: {
                    d.rev;
                    return preview.text(d.n, d.p.label || "");
                }
                color: chip.ink
                anchors.verticalCenter: parent.verticalCenter
            }
        }
    }
    // A press ripples from the press point. Assist: AssistChip's Surface clips it to the chip's
    // shape, in the Surface's content colour (onSurface; `style.color` colours only the label).
    // Filter: CO `RenderPrototypeChip` makes the Row around the Surface `toggleable`, so the ripple
    // is bounded by that Row's rectangle (32 dp tall, square corners) in the colour the chip sits
    // in (LocalContentColor outside the Surface).
    MouseArea {
        id: mouse
        anchors.fill: parent
        property Item ripple: null
        onPressed: (m) => {
            var at = mapToItem(body, m.x, m.y), r = chip.filter ? 0 : body.radius;
            ripple = screen.ripple(body, at.x, at.y,
                                   chip.filter ? d.contentColor : preview.colors.onSurface,
                                   {tl: r, tr: r, br: r, bl: r});
        }
        onReleased: if (ripple) ripple.finish()
        onCanceled: if (ripple) ripple.finish()
        onClicked: chip.filter ? preview.toggle(d.n, d.p.stateKey) : preview.tap(d.n, "")
    }
}
