// badge: a small error-coloured dot, or a pill with short text.
import QtQuick
import ".."

Rectangle {
    readonly property string label: {
        d.rev;
        return d.p.text ? preview.text(d.n, d.p.text) : "";
    }
    implicitHeight: label === "" ? 6 : 16
    implicitWidth: label === "" ? 6 : Math.max(16, t.implicitWidth + 8)
    radius: height / 2
    color: d.st.bg !== "" ? "transparent" : preview.colors.error
    RoleText {
        id: t
        anchors.centerIn: parent
        visible: parent.label !== ""
        role: "labelSmall"
        text: parent.label
        color: d.ts.color || preview.colors.onError
    }
}
