// image: an asset (light/dark pair aware); a missing asset shows a neutral placeholder.
import QtQuick
import ".."

Item {
    id: root
    readonly property string url: {
        preview.themeRev;
        return preview.asset(d.p.asset);
    }
    // A missing asset: at least 24 x 24 dp of surfaceVariant (or the authored background) with
    // the BrokenImage icon in onSurfaceVariant (IM `PrototypeImageContent`: `defaultMinSize(24.dp,
    // 24.dp)`, TH `prototypePlaceholderColor`, `prototypePlaceholderContentColor`).
    implicitWidth: url !== "" && img.status === Image.Ready ? img.sourceSize.width : 24
    implicitHeight: url !== "" && img.status === Image.Ready ? img.sourceSize.height : 24
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
        color: d.st.bg ? "transparent" : preview.colors.surfaceVariant
        MIcon {
            anchors.centerIn: parent
            name: "broken_image"
            size: 24
            color: preview.colors.onSurfaceVariant
        }
    }
}
