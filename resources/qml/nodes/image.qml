// image: an asset (light/dark pair aware); a missing asset shows a neutral placeholder.
import QtQuick

Item {
    id: root
    readonly property string url: {
        preview.themeRev;
        return preview.asset(d.p.asset);
    }
    implicitWidth: url !== "" && img.status === Image.Ready ? img.sourceSize.width : 96
    implicitHeight: url !== "" && img.status === Image.Ready ? img.sourceSize.height : 96
    Image {
        id: img
        anchors.fill: parent
        visible: root.url !== ""
        source: root.url
        asynchronous: false
        fillMode: d.p.contentScale === "crop" ? Image.PreserveAspectCrop
            : d.p.contentScale === "fill" ? Image.Stretch : Image.PreserveAspectFit
        clip: true
    }
    Rectangle {
        anchors.fill: parent
        visible: root.url === "" || img.status === Image.Error
        color: preview.colors.surfaceContainerHighest || "#E6E0E9"
        radius: 4
        Text {
            anchors.centerIn: parent
            text: preview.glyph("image")
            font.family: preview.iconFont
            font.pixelSize: Math.max(12, Math.min(32, Math.min(parent.width, parent.height) / 2))
            color: preview.colors.onSurfaceVariant || "#49454F"
        }
    }
}
