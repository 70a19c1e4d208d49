// card: filled, elevated or outlined Material card. Its children are a plain Column (layout.py
// `_card`): the card's own `arrangement`, `spacing` and `alignment` are not applied (CO
// `RenderPrototypeCard` passes them to `Card(modifier, colors, content)`). Corners follow the
// theme's medium shape (Material's CardDefaults.shape); the content colour is the one Material
// pairs with the container.
import QtQuick
import ".."

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
    implicitWidth: d.g.cw || 0
    implicitHeight: d.g.ch || 0
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
        // in an ancestor's rounded clip: at least as round as the clip makes it (StyleBox.qml)
        readonly property var clipped: d.g.clip || null
        topLeftRadius: clipped ? Math.max(radius, clipped[0]) : undefined
        topRightRadius: clipped ? Math.max(radius, clipped[1]) : undefined
        bottomRightRadius: clipped ? Math.max(radius, clipped[2]) : undefined
        bottomLeftRadius: clipped ? Math.max(radius, clipped[3]) : undefined
        color: card.container
        border.width: card.variant === "outlined" ? 1 : 0
        border.color: preview.colors.outlineVariant
    }
    // The Material Surface clips the card's content to the card (`Modifier.surface`:
    // clip(shape)); its own shadow is drawn outside. Rounded corners: `g.clip` (StyleBox.qml).
    Kids {
        clip: true
    }
}
