// icon: a Material Symbols glyph by name (a close glyph or a neutral box when unknown).
import QtQuick

Item {
    readonly property var ts: d.ts || ({})
    readonly property real size: d.st.w > 0 ? Math.min(d.st.w, d.st.h > 0 ? d.st.h : d.st.w)
        : (ts.size && ts.size > 24 ? ts.size : 24)
    implicitWidth: size
    implicitHeight: size
    Text {
        anchors.centerIn: parent
        text: preview.glyph(d.p.name || "")
        font.family: preview.iconFont
        font.pixelSize: parent.size
        color: parent.ts.color || preview.colors.onSurfaceVariant || "#49454F"
    }
}
