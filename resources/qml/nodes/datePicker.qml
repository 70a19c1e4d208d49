// datePicker: the Material 3 date picker without its mode toggle (MC `RenderPrototypeDatePicker`:
// `DatePicker(state, modifier, showModeToggle = false)`), bound to a `YYYY-MM-DD` key. Layout
// (DatePicker.kt `DateEntryContainer`, DatePickerModalTokens): at least 360 dp wide on
// surfaceContainerHigh, square; a 108 dp header ("Select date" labelLarge, then the picked date
// headlineLarge, 24 dp in); a divider; a 56 dp row with the month and year and the previous/next
// month buttons; the weekday initials; six 48 dp week rows of this month's days only (no
// neighbouring days), bodyLarge, the picked day onPrimary on a 40 dp primary circle. Picking a
// day binds the key and runs onTap (RT `Choose`); the arrows only change the month shown.
import QtQuick
import QtQuick.Controls
import ".."

Rectangle {
    id: dp
    readonly property string iso: { d.rev; return String(preview.value(d.n, d.p.stateKey) || "2024-01-01"); }
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
    implicitWidth: 360
    implicitHeight: col.implicitHeight
    color: preview.colors.surfaceContainerHigh
    Column {
        id: col
        width: parent.width
        Item {
            width: parent.width
            height: 108
            RoleText {
                x: 24; y: 16
                role: "labelLarge"
                text: "Select date"
                color: preview.colors.onSurfaceVariant
            }
            RoleText {
                x: 24
                anchors.bottom: parent.bottom
                anchors.bottomMargin: 12
                role: "headlineLarge"
                color: preview.colors.onSurfaceVariant
                text: Qt.locale("en_US").toString(new Date(dp.year, dp.month, dp.day), "ddd, MMM d")
            }
        }
        Rectangle { width: parent.width; height: 1; color: preview.colors.outlineVariant }
        Item {
            width: parent.width
            height: 56
            RoleText {
                x: 24
                anchors.verticalCenter: parent.verticalCenter
                role: "labelLarge"
                color: preview.colors.onSurfaceVariant
                text: Qt.locale("en_US").standaloneMonthName(dp.shownMonth) + " " + dp.shownYear
            }
            Row {
                anchors.right: parent.right
                anchors.rightMargin: 12
                anchors.verticalCenter: parent.verticalCenter
                Repeater {
                    model: ["chevron_left", "chevron_right"]
                    Item {
                        required property string modelData
                        required property int index
                        width: 48; height: 48
                        MIcon {
                            anchors.centerIn: parent
                            name: parent.modelData
                            color: preview.colors.onSurfaceVariant
                        }
                        MouseArea {
                            anchors.fill: parent
                            onClicked: {
                                var m = dp.shownMonth + (parent.index === 0 ? -1 : 1);
                                dp.shownYear += Math.floor(m / 12);
                                dp.shownMonth = (m + 12) % 12;
                            }
                        }
                    }
                }
            }
        }
        DayOfWeekRow {
            x: 12
            width: parent.width - 24
            height: 48
            locale: Qt.locale("en_US")
            delegate: RoleText {
                required property string shortName
                text: shortName.slice(0, 1)
                role: "bodyLarge"
                horizontalAlignment: Text.AlignHCenter
            }
        }
        MonthGrid {
            id: grid
            x: 12
            width: parent.width - 24
            spacing: 0
            month: dp.shownMonth
            year: dp.shownYear
            locale: Qt.locale("en_US")
            delegate: Item {
                id: cell
                required property var model
                implicitWidth: 48
                implicitHeight: 48
                readonly property bool inMonth: model.month === grid.month
                readonly property bool picked: inMonth && model.year === dp.year && model.month === dp.month && model.day === dp.day
                Rectangle {
                    anchors.centerIn: parent
                    visible: cell.picked
                    width: 40; height: 40; radius: 20
                    color: preview.colors.primary
                }
                RoleText {
                    anchors.centerIn: parent
                    visible: cell.inMonth
                    role: "bodyLarge"
                    text: cell.model.day
                    color: cell.picked ? preview.colors.onPrimary : preview.colors.onSurface
                }
                MouseArea {
                    anchors.fill: parent
                    enabled: cell.inMonth
                    onClicked: preview.choose(d.n, d.p.stateKey || "",
                        cell.model.year + "-" + dp.pad(cell.model.month + 1) + "-" + dp.pad(cell.model.day))
                }
            }
        }
        Item { width: 1; height: 8 }
    }
}
