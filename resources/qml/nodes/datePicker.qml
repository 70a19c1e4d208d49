// datePicker: a Material 3 docked date picker (month grid) writing YYYY-MM-DD to its state key.
import QtQuick
import QtQuick.Controls
import ".."

Rectangle {
    id: dp
    readonly property string iso: { d.n.rev; return String(preview.value(d.n, d.p.stateKey) || "2024-01-01"); }
    readonly property int year: Number(iso.slice(0, 4))
    readonly property int month: Number(iso.slice(5, 7)) - 1
    readonly property int day: Number(iso.slice(8, 10))
    property int shownYear: 2024
    property int shownMonth: 0
    function showPicked() {
        shownYear = Number(iso.slice(0, 4));
        shownMonth = Number(iso.slice(5, 7)) - 1;
    }
    onIsoChanged: showPicked()
    Component.onCompleted: showPicked()
    function pad(v) { return (v < 10 ? "0" : "") + v; }
    implicitWidth: 328
    implicitHeight: col.implicitHeight + 24
    radius: 16
    color: preview.colors.surfaceContainerHigh
    Column {
        id: col
        x: 12; y: 12
        width: parent.width - 24
        spacing: 4
        RoleText { role: "labelLarge"; text: "Select date"; color: preview.colors.onSurfaceVariant; leftPadding: 12 }
        RoleText {
            role: "headlineLarge"; leftPadding: 12
            text: Qt.locale("en_US").toString(new Date(dp.year, dp.month, dp.day), "ddd, MMM d")
        }
        Row {
            width: parent.width
            height: 48
            RoleText {
                width: parent.width - 96; height: 48; leftPadding: 12
                role: "labelLarge"
                color: preview.colors.onSurfaceVariant
                text: Qt.locale("en_US").monthName(dp.shownMonth) + " " + dp.shownYear
            }
            Repeater {
                model: ["chevron_left", "chevron_right"]
                MIcon {
                    required property string modelData
                    required property int index
                    name: modelData
                    width: 48; height: 48
                    MouseArea {
                        anchors.fill: parent
                        onClicked: {
                            var m = dp.shownMonth + (index === 0 ? -1 : 1);
                            dp.shownYear += Math.floor(m / 12);
                            dp.shownMonth = (m + 12) % 12;
                        }
                    }
                }
            }
        }
        DayOfWeekRow {
            width: parent.width
            locale: Qt.locale("en_US")
            delegate: RoleText {
                required property string shortName
                text: shortName.slice(0, 1)
                role: "bodySmall"
                horizontalAlignment: Text.AlignHCenter
            }
        }
        MonthGrid {
            id: grid
            width: parent.width
            month: dp.shownMonth
            year: dp.shownYear
            locale: Qt.locale("en_US")
            delegate: Item {
                id: cell
                required property var model
                implicitWidth: 40
                implicitHeight: 40
                readonly property bool inMonth: model.month === grid.month
                readonly property bool picked: model.year === dp.year && model.month === dp.month && model.day === dp.day
                Rectangle {
                    anchors.centerIn: parent
                    width: 40; height: 40; radius: 20
                    color: cell.picked ? preview.colors.primary : "transparent"
                }
                RoleText {
                    anchors.centerIn: parent
                    role: "bodyLarge"
                    text: cell.model.day
                    opacity: cell.inMonth ? 1 : 0.38
                    color: cell.picked ? preview.colors.onPrimary : preview.colors.onSurface
                }
                MouseArea {
                    anchors.fill: parent
                    onClicked: preview.setValue(d.n, d.p.stateKey,
                        cell.model.year + "-" + dp.pad(cell.model.month + 1) + "-" + dp.pad(cell.model.day))
                }
            }
        }
    }
}
