// text: bound text in the node's own text style; plain text is 14 sp on the body line height
// (SC "text"), a `textStyle` role takes the role's values, and unstyled plain text is drawn in
// the content colour around it (Material's LocalContentColor; onSurface for a role).
import QtQuick
import ".."

Item {
    id: box
    // A wrapping Text that elides reports no natural width of its own, so the natural
    // (single-line) width comes from TextMetrics when ellipsis applies.
    readonly property bool eliding: label.elide !== Text.ElideNone
    implicitWidth: eliding ? Math.ceil(metrics.advanceWidth) + 1 : Math.ceil(label.implicitWidth)
    implicitHeight: label.implicitHeight
    StyledText {
        id: label
        ts: d.ts
        nodeStyle: d.st
        width: parent.width
        height: parent.height
        role: d.ts.role || "plain"
        defaultColor: d.ts.role ? preview.colors.onSurface : d.contentColor
        text: {
            d.rev;
            return preview.text(d.n, d.p.text || "");
        }
    }
    TextMetrics {
        // Laid out only for a text that elides (a second shaping of every text otherwise).
        id: metrics
        font: label.font
        text: box.eliding ? label.text : ""
    }
}
