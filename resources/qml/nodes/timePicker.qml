// timePicker: the Material 3 clock-dial time picker (MC `RenderPrototypeTimePicker`:
// `TimePicker(rememberTimePickerState(hour, minute, is24Hour))`), bound to integer hour and minute
// keys. 24-hour when `is24Hour` says so, else as the device (`DateFormat.is24HourFormat`: the
// preview's `clock24` stands for it, 12-hour by default). Layout (TimePicker.kt, TimePickerTokens):
// the time display (two 96 x 80 dp boxes, displayLarge digits, a 24 dp ":" between; the hour box
// selected first, primaryContainer, the other surfaceContainerHighest; 12-hour adds a 52 x 80 dp
// AM/PM toggle 12 dp to the end, outline border, the selected half tertiaryContainer), 36 dp
// below it the 256 dp surfaceContainerHighest dial with a 48 dp primary handle on a 2 dp track
// from an 8 dp centre dot; numbers bodyLarge on a 101 dp radius (24-hour hours 12..23 inside, on
// 69 dp), the one under the handle onPrimary; 24 dp below. Tapping or dragging the dial picks the
// hour (then the dial turns to minutes) or the minute; each new time writes both keys at once and
// runs onTap (RT `SetTime`). Under Rtl only the toggle moves (to the numbers' left): the hour and
// minute stay left to right and the dial keeps its angles (see below).
import QtQuick
import ".."

Item {
    id: tp
    objectName: "timePicker"
    readonly property bool h24: d.p.is24Hour === true ? true : d.p.is24Hour === false ? false
        : !!preview.clock24
    readonly property int hour: { d.rev; return Number(preview.value(d.n, d.p.hourKey)) || 0; }
    readonly property int minute: { d.rev; return Number(preview.value(d.n, d.p.minuteKey)) || 0; }
    property string selection: "hour"
    readonly property real displayWidth: 96 + 24 + 96 + (h24 ? 0 : 12 + 52)
    implicitWidth: Math.max(256, displayWidth)
    implicitHeight: 80 + 36 + 256 + 24
    function pad(v) { return (v < 10 ? "0" : "") + v; }
    // TimePicker.kt `TimeSelector`: `value.toLocalString(minDigits = 2)`, the 12-hour hour
    // too ("09 : 41").
    function shownHour(h) { return pad(h24 ? h : ((h + 11) % 12) + 1); }
    function write(h, m) { preview.setTime(d.n, h, m); }

    Row {
        // TimePicker.kt `VerticalClockDisplay`: a Row of the numbers, then the period toggle behind
        // `padding(start = PeriodToggleMargin)`; under Rtl (the window's LayoutMirroring) the
        // toggle is at the left, 12 dp from the numbers.
        id: display
        anchors.horizontalCenter: parent.horizontalCenter
        spacing: 0
        Row {
            // TimePicker.kt `ClockDisplayNumbers` provides `LayoutDirection.Ltr` ("Always
            // display the TimeSelectors from left to right"): hour, ":", minute in both directions.
            objectName: "clockDisplayNumbers"
            LayoutMirroring.enabled: false
            LayoutMirroring.childrenInherit: true
            Repeater {
                model: ["hour", ":", "minute"]
                Item {
                    id: part
                    required property string modelData
                    readonly property bool box: modelData !== ":"
                    readonly property bool on: tp.selection === modelData
                    width: box ? 96 : 24
                    height: 80
                    Rectangle {
                        anchors.fill: parent
                        visible: part.box
                        radius: 8
                        color: part.on ? preview.colors.primaryContainer : preview.colors.surfaceContainerHighest
                    }
                    RoleText {
                        anchors.centerIn: parent
                        role: "displayLarge"
                        color: part.box && part.on ? preview.colors.onPrimaryContainer : preview.colors.onSurface
                        text: part.modelData === "hour" ? tp.shownHour(tp.hour)
                            : part.modelData === "minute" ? tp.pad(tp.minute) : ":"
                    }
                    // A press ripples in the box's 8 dp shape (TimeSelector: a Surface with onClick)
                    // in its content colour.
                    MouseArea {
                        anchors.fill: parent
                        enabled: part.box
                        property Item ripple: null
                        onPressed: (m) => {
                            ripple = screen.ripple(part, m.x, m.y,
                                part.on ? preview.colors.onPrimaryContainer : preview.colors.onSurface,
                                {z: 1, tl: 8, tr: 8, br: 8, bl: 8});
                        }
                        onReleased: if (ripple) ripple.finish()
                        onCanceled: if (ripple) ripple.finish()
                        onClicked: tp.selection = part.modelData
                    }
                }
            }
        }
        Item { width: tp.h24 ? 0 : 12; height: 80 }
        Column {
            visible: !tp.h24
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
                    // A press ripples in the half's shape (the period toggle's items are buttons
                    // with that shape) in its content colour.
                    MouseArea {
                        anchors.fill: parent
                        property Item ripple: null
                        onPressed: (m) => {
                            var half = parent;
                            ripple = screen.ripple(half, m.x, m.y,
                                half.on ? preview.colors.onTertiaryContainer : preview.colors.onSurfaceVariant,
                                {z: 1, tl: half.topLeftRadius, tr: half.topRightRadius,
                                 br: half.bottomRightRadius, bl: half.bottomLeftRadius});
                        }
                        onReleased: if (ripple) ripple.finish()
                        onCanceled: if (ripple) ripple.finish()
                        onClicked: if (!parent.on) tp.write((tp.hour + 12) % 24, tp.minute)
                    }
                }
            }
        }
    }

    Rectangle {
        // TimePicker.kt `ClockFace`: `CircularLayout` places the numbers with `place` (absolute,
        // not `placeRelative`), `drawSelector` and `ClockDialNode`'s taps use the same angles: the
        // dial is not mirrored under Rtl (x and y here are screen axes, which LayoutMirroring
        // leaves alone).
        id: dial
        objectName: "dial"
        width: 256; height: 256; radius: 128
        y: 80 + 36
        anchors.horizontalCenter: parent.horizontalCenter
        color: preview.colors.surfaceContainerHighest
        readonly property bool inner: tp.selection === "hour" && tp.h24 && (tp.hour >= 12)
        readonly property real angle: tp.selection === "hour"
            ? (tp.hour % 12) / 12 * 2 * Math.PI : tp.minute / 60 * 2 * Math.PI
        readonly property real reach: inner ? 69 : 101
        readonly property real hx: 128 + reach * Math.sin(angle)
        readonly property real hy: 128 - reach * Math.cos(angle)
        // the selector: track, centre dot, handle (ClockDialSelector* tokens)
        Rectangle {
            width: 2; height: dial.reach
            color: preview.colors.primary
            x: 127; y: 128 - height
            transformOrigin: Item.Bottom
            rotation: dial.angle * 180 / Math.PI
        }
        Rectangle { width: 8; height: 8; radius: 4; x: 124; y: 124; color: preview.colors.primary }
        Rectangle {
            width: 48; height: 48; radius: 24
            x: dial.hx - 24; y: dial.hy - 24
            color: preview.colors.primary
        }
        Repeater {
            // the numbers: hours 12, 1..11 (24-hour: 00, 1..11, and 12..23 inside), or minutes
            // 00, 05..55
            model: tp.selection === "hour" && tp.h24 ? 24 : 12
            RoleText {
                required property int index
                readonly property bool innerRing: index >= 12
                readonly property int slot: index % 12
                readonly property int value: tp.selection === "minute" ? slot * 5
                    : tp.h24 ? (innerRing ? 12 + slot : slot) : (slot === 0 ? 12 : slot)
                readonly property real a: slot / 12 * 2 * Math.PI
                readonly property real r: innerRing ? 69 : 101
                readonly property bool under: Math.hypot(128 + r * Math.sin(a) - dial.hx, 128 - r * Math.cos(a) - dial.hy) < 24
                role: "bodyLarge"
                text: tp.selection === "minute" ? tp.pad(value) : tp.h24 && !innerRing ? tp.pad(value) : String(value)
                color: under ? preview.colors.onPrimary : preview.colors.onSurface
                x: 128 + r * Math.sin(a) - implicitWidth / 2
                y: 128 - r * Math.cos(a) - implicitHeight / 2
            }
        }
        MouseArea {
            anchors.fill: parent
            function pick(mx, my, done) {
                var dx = mx - 128, dy = my - 128;
                var turn = (Math.atan2(dx, -dy) + 2 * Math.PI) % (2 * Math.PI) / (2 * Math.PI);
                if (tp.selection === "hour") {
                    var slot = Math.round(turn * 12) % 12;
                    var h;
                    if (tp.h24) h = Math.hypot(dx, dy) < (69 + 101) / 2 ? 12 + slot : slot;
                    else h = slot + (tp.hour >= 12 ? 12 : 0);
                    tp.write(h, tp.minute);
                    if (done) tp.selection = "minute";  // the dial turns to minutes on release
                } else {
                    tp.write(tp.hour, Math.round(turn * 60) % 60);
                }
            }
            onPressed: (m) => pick(m.x, m.y, false)
            onPositionChanged: (m) => { if (pressed) pick(m.x, m.y, false); }
            onReleased: (m) => pick(m.x, m.y, true)
        }
    }
}
