// text: bound text with the node's (and inherited) text style; bodyLarge by default.
import QtQuick
import ".."

Item {
    // A wrapping Text that elides reports no natural width of its own, so the natural
    // (single-line) width comes from TextMetrics when maxLines + ellipsis apply.
    readonly property bool eliding: label.elide !== Text.ElideNone
    implicitWidth: eliding ? Math.ceil(metrics.advanceWidth) + 1 : label.implicitWidth
    implicitHeight: label.implicitHeight
    StyledText {
        id: label
        width: parent.width
        height: parent.height
        role: "bodyLarge"
        text: {
            d.n.rev;
            return preview.text(d.n, d.p.text || "");
        }
    }
    TextMetrics {
        id: metrics
        font: label.font
        text: label.text
    }
}
