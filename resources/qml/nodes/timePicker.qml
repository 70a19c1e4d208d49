// timePicker: Material 3 time input (hour : minute boxes with steppers, AM/PM unless 24h),
// writing the hour and minute state keys.
import QtQuick
import ".."

Item {
    id: tp
    readonly property bool h24: d.p.is24Hour === true
    readonly property int hour: { d.n.rev; return Number(preview.value(d.n, d.p.hourKey)) || 0; }
    readonly property int minute: { d.n.rev; return Number(preview.value(d.n, d.p.minuteKey)) || 0; }
    implicitWidth: row.implicitWidth
    implicitHeight: row.implicitHeight
    function pad(v) { return (v < 10 ? "0" : "") + v; }
    Row {
        id: row
        spacing: 8
        Repeater {
            model: ["hour", "minute"]
            Column {
                required property string modelData
                readonly property bool isHour: modelData === "hour"
                spacing: 4
                MIcon {
                    name: "keyboard_arrow_up"
                    width: 96
                    MouseArea {
                        anchors.fill: parent
                        onClicked: parent.parent.isHour
                            ? preview.setValue(d.n, d.p.hourKey, (tp.hour + 1) % 24)
                            : preview.setValue(d.n, d.p.minuteKey, (tp.minute + 1) % 60)
                    }
                }
                Rectangle {
                    width: 96; height: 80; radius: 8
                    color: parent.isHour ? preview.colors.primaryContainer : preview.colors.surfaceContainerHighest
                    RoleText {
                        anchors.centerIn: parent
                        role: "displayMedium"
                        color: parent.parent.isHour ? preview.colors.onPrimaryContainer : preview.colors.onSurface
                        text: parent.parent.isHour
                            ? tp.pad(tp.h24 ? tp.hour : ((tp.hour + 11) % 12) + 1)
                            : tp.pad(tp.minute)
                    }
                }
                MIcon {
                    name: "keyboard_arrow_down"
                    width: 96
                    MouseArea {
                        anchors.fill: parent
                        onClicked: parent.parent.isHour
                            ? preview.setValue(d.n, d.p.hourKey, (tp.hour + 23) % 24)
                            : preview.setValue(d.n, d.p.minuteKey, (tp.minute + 59) % 60)
                    }
                }
            }
        }
        Column {
            visible: !tp.h24
            anchors.verticalCenter: parent.verticalCenter
            Repeater {
                model: ["AM", "PM"]
                Rectangle {
                    required property string modelData
                    required property int index
                    readonly property bool on: (tp.hour >= 12) === (index === 1)
                    width: 52; height: 40
                    color: on ? preview.colors.tertiaryContainer : "transparent"
                    border.width: 1
                    border.color: preview.colors.outline
                    topLeftRadius: index === 0 ? 8 : 0
                    topRightRadius: topLeftRadius
                    bottomLeftRadius: index === 1 ? 8 : 0
                    bottomRightRadius: bottomLeftRadius
                    RoleText {
                        anchors.centerIn: parent
                        role: "titleMedium"
                        text: modelData
                        color: parent.on ? preview.colors.onTertiaryContainer : preview.colors.onSurfaceVariant
                    }
                    MouseArea {
                        anchors.fill: parent
                        onClicked: if (!parent.on) preview.setValue(d.n, d.p.hourKey, (tp.hour + 12) % 24)
                    }
                }
            }
        }
    }
}
