// datePicker: the Material 3 date picker without its mode toggle (MC `RenderPrototypeDatePicker`:
// `DatePicker(state, modifier, showModeToggle = false)`), bound to a `YYYY-MM-DD` key. Layout
// (DatePicker.kt `DateEntryContainer`, DatePickerModalTokens): at least 360 dp wide on
// surfaceContainerHigh, square; a 108 dp header ("Select date" labelLarge, then the picked date
// headlineLarge, 24 dp in); a divider; a 56 dp row with the month and year and the previous/next
// month buttons; the weekday initials; six 48 dp week rows of this month's days only (no
// neighbouring days), bodyLarge, the picked day onPrimary on a 40 dp primary circle. Picking a
// day binds the key and runs onTap (RT `Choose`); the arrows only change the month shown. Under
// Rtl (the window's LayoutMirroring) it mirrors as DatePicker.kt does: header and month label 24 dp
// from the right, the arrows at the left and flipped, the week from the right.
import QtQuick
import QtQuick.Controls
import ".."

Rectangle {
    id: dp
    objectName: "datePicker"
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
            // DatePicker.kt `DatePickerTitlePadding` / `DatePickerHeadlinePadding` (start = 24 dp)
            // in `DatePickerHeader`'s Column (`Alignment.BottomStart`, `Arrangement.Start`): both
            // lines sit 24 dp in from the start, the right edge under Rtl (the window's
            // LayoutMirroring mirrors these anchors).
            RoleText {
                objectName: "datePickerTitle"
                anchors.left: parent.left
                anchors.leftMargin: 24
                y: 16
                role: "labelLarge"
                text: "Select date"
                color: preview.colors.onSurfaceVariant
            }
            RoleText {
                objectName: "datePickerHeadline"
                anchors.left: parent.left
                anchors.leftMargin: 24
                anchors.bottom: parent.bottom
                anchors.bottomMargin: 12
                role: "headlineLarge"
                color: preview.colors.onSurfaceVariant
                // DatePickerDefaults.dateFormatter's `selectedDateSkeleton`, YearAbbrMonthDaySkeleton
                // ("yMMMd"), is "Feb 10, 2026" in en_US.
                text: Qt.locale("en_US").toString(new Date(dp.year, dp.month, dp.day), "MMM d, yyyy")
            }
        }
        Rectangle { width: parent.width; height: 1; color: preview.colors.outlineVariant }
        Item {
            width: parent.width
            height: 56
            // DatePicker.kt `MonthsNavigation`: a Row (`Arrangement.SpaceBetween`, 12 dp in) of the
            // year menu button (its label 24 dp in) at the start, then a Row of the previous and
            // next IconButtons at the end; under Rtl the label is at the right, the pair at the
            // left with previous at its right.
            RoleText {
                objectName: "datePickerMonthYear"
                anchors.left: parent.left
                anchors.leftMargin: 24
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
                        objectName: index === 0 ? "previousMonth" : "nextMonth"
                        width: 48; height: 48
                        MIcon {
                            // `Icons.AutoMirrored.Filled.KeyboardArrowLeft` / `...Right`: the
                            // vector is drawn flipped under Rtl, so previous points right there
                            // (unlike a spec's own icons, from the non-mirrored `filled` package).
                            anchors.centerIn: parent
                            name: parent.modelData
                            color: preview.colors.onSurfaceVariant
                            transform: Scale { origin.x: 12; xScale: preview.rtl ? -1 : 1 }
                        }
                        // The arrows are IconButtons: a 40 dp circle ripple in the navigation
                        // content colour (onSurfaceVariant, `MonthsNavigation`'s LocalContentColor).
                        MouseArea {
                            anchors.fill: parent
                            property Item ripple: null
                            onPressed: (e) => {
                                ripple = screen.ripple(parent, e.x - 4, e.y - 4, preview.colors.onSurfaceVariant,
                                    {x: 4, y: 4, width: 40, height: 40, z: 1, tl: 20, tr: 20, br: 20, bl: 20});
                            }
                            onReleased: if (ripple) ripple.finish()
                            onCanceled: if (ripple) ripple.finish()
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
        // DatePicker.kt `WeekDays` and `Month`: Rows of the week from its first day at the start:
        // DayOfWeekRow and the Grid below follow LayoutMirroring (the right first under Rtl), and
        // a cell's own MouseArea picks the date that cell draws (`Day`'s onClick).
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
        Grid {
            // DatePicker.kt `Month`: MaxCalendarRows (6) Rows of DaysInWeek cells, the month's
            // days from cell `daysFromStartOfWeekToFirstOfMonth` (CalendarModelImpl `getMonth`:
            // the 1st's weekday less the week's first day, mod 7), so a month whose 1st starts the
            // week fills the first row (Qt's MonthGrid leads with a week of the month before).
            id: grid
            objectName: "monthDays"
            x: 12
            columns: 7
            readonly property int lead:
                (new Date(dp.shownYear, dp.shownMonth, 1).getDay() - Qt.locale("en_US").firstDayOfWeek + 7) % 7
            readonly property int days: new Date(dp.shownYear, dp.shownMonth + 1, 0).getDate()
            Repeater {
                model: 6 * 7
                Item {
                    id: cell
                    required property int index
                    readonly property int day: index - grid.lead + 1
                    readonly property bool inMonth: day >= 1 && day <= grid.days
                    readonly property bool picked: inMonth && dp.shownYear === dp.year
                        && dp.shownMonth === dp.month && day === dp.day
                    width: 48
                    height: 48
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
                        text: cell.day
                        color: cell.picked ? preview.colors.onPrimary : preview.colors.onSurface
                    }
                    // A press ripples in the day's 40 dp circle (`Day`: a Surface with CircleShape
                    // and onClick) in the day's content colour, over its number.
                    MouseArea {
                        anchors.fill: parent
                        enabled: cell.inMonth
                        property Item ripple: null
                        onPressed: (m) => {
                            ripple = screen.ripple(cell, m.x - 4, m.y - 4,
                                cell.picked ? preview.colors.onPrimary : preview.colors.onSurface,
                                {x: 4, y: 4, width: 40, height: 40, z: 1, tl: 20, tr: 20, br: 20, bl: 20});
                        }
                        onReleased: if (ripple) ripple.finish()
                        onCanceled: if (ripple) ripple.finish()
                        onClicked: preview.choose(d.n, d.p.stateKey || "",
                            dp.shownYear + "-" + dp.pad(dp.shownMonth + 1) + "-" + dp.pad(cell.day))
                    }
                }
            }
        }
        Item { width: 1; height: 8 }
    }
}
