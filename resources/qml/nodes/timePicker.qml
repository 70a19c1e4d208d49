// timePicker: the Material 3 clock-dial time picker (MC `RenderPrototypeTimePicker`:
// `TimePicker(rememberTimePickerState(hour, minute, is24Hour))`), bound to integer hour and minute
// keys. 24-hour when `is24Hour` says so, else as the device (`DateFormat.is24HourFormat`: the
// preview's `clock24` stands for it, 12-hour by default). Layout (TimePicker.kt, TimePickerTokens):
// the time display (two 96 x 80 dp boxes, displayLarge digits, a 24 dp ":" between; the hour box
// selected first, primaryContainer, the other surfaceContainerHighest; 12-hour adds a 52 x 80 dp
// AM/PM toggle 12 dp to the end, outline border, the selected half tertiaryContainer), 36 dp
// below it the 256 dp surfaceContainerHighest dial with a 48 dp primary handle on a 2 dp track
// from an 8 dp centre dot; numbers bodyLarge on a 101 dp radius (24-hour hours 12..23 inside, on
// 69 dp), the one under the handle onPrimary; 24 dp below. The dial behaves as TimePicker.kt's
// (`AnalogTimePickerState`, `onTap`, `ClockDialNode`; rules below): a tap picks the nearest hour,
// or the nearest five minutes, and the selector springs there the shorter way; after an hour tap
// the dial turns to minutes (autoSwitchToMinute), the faces crossfading; a drag (past the 8 dp
// touch slop) picks every hour or minute under the finger and settles on it; a 24-hour hour is
// inside within 74 dp of the centre. Each new time writes both keys at once and runs onTap (RT
// `SetTime`; the phone sends every distinct hour:minute of its state, so a drag writes on each
// change and a tap once). Under Rtl only the toggle moves (to the numbers' left): the hour and
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

    // --- the dial's behaviour, rule by rule from TimePicker.kt (`AnalogTimePickerState`,
    // `onTap`, `moveSelector`, `ClockDialNode`) -------------------------------------------------
    readonly property real fullCircle: 2 * Math.PI
    readonly property real radiansPerMinute: fullCircle / 60
    readonly property real radiansPerHour: fullCircle / 12
    readonly property var hours: [12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]     // `Hours`
    readonly property var minutes: [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55]  // `Minutes`
    // `TimePicker` passes `autoSwitchToMinute = !a11yServicesEnabled && !isKeyboardMode`: a touch
    // phone without TalkBack, as the preview stands for, switches to minutes after an hour.
    readonly property bool autoSwitchToMinute: true
    // Motion follows the preview's switch (spec `motion: "none"`, animator duration scale 0) and
    // stops in edit mode.
    readonly property bool moving: !!preview.motion && !preview.editMode
    // `hourAngle` / `minuteAngle`: the chosen hour's and minute's screen angles (0 at 3 o'clock,
    // clockwise), what the selector settles on.
    property real hourAngle: 0
    property real minuteAngle: 0
    // A remade picker (a re-theme, its row scrolled back into view) keeps the hour or minute
    // selection (TimePickerState's `selection`, remembered in composition), without the move.
    property bool restoring: false
    Component.onCompleted: {
        hourAngle = radiansPerHour * (hour % 12) - fullCircle / 4;
        minuteAngle = radiansPerMinute * minute - fullCircle / 4;
        if (preview.keptView(d.n, "selection") === "minute") {
            restoring = true;
            selection = "minute";
            restoring = false;
            hourFade.snapTo(0);
            minuteFade.snapTo(1);
        }
        selector.snapTo(selection === "hour" ? hourAngle : minuteAngle);
    }
    // an hour tap waits for the selector to arrive, then 100 ms (`onTap`: `delay(100)`)
    property bool switchPending: false

    // `round` (kotlin.math) rounds a tie to the even integer.
    function roundHalfEven(x) {
        var f = Math.floor(x), d = x - f;
        return d > 0.5 ? f + 1 : d < 0.5 ? f : (f % 2 === 0 ? f : f + 1);
    }
    // `atan(y, x)`: atan2 less a quarter turn, in [0, 2pi) (0 at 6 o'clock).
    function dialAtan(dx, dy) {
        var r = Math.atan2(dy, dx) - Math.PI / 2;
        return r < 0 ? r + fullCircle : r;
    }
    function toHour(a) { return Math.trunc((a + radiansPerHour / 2 + Math.PI / 2) / radiansPerHour) % 12; }
    function toMinute(a) { return Math.trunc((a + radiansPerMinute / 2 + Math.PI / 2) / radiansPerMinute) % 60; }
    function offsetAngle(a) { var r = a + Math.PI / 2; return r < 0 ? r + fullCircle : r; }
    // `endValueForAnimation`: the target's turn nearest the selector, so it goes the shorter way.
    function nearest(target) {
        var diff = selector.value - target;
        while (diff > Math.PI) diff -= fullCircle;
        while (diff <= -Math.PI) diff += fullCircle;
        return selector.value - diff;
    }
    // `moveSelector`: a 24-hour hour is in the afternoon inside `MaxDistance` (74 dp) of the
    // centre; a 12-hour hour keeps its AM/PM.
    function afternoon(dx, dy) {
        return selection === "hour" && h24 ? Math.hypot(dx, dy) < 74 : hour >= 12;
    }
    // `rotateTo`: the value under the angle (through `toHour` / `toMinute` twice, as Material
    // does), written at once (RT `SetTime`, the phone's snapshotFlow of hour and minute); the
    // selector animates there (a tap) or follows the finger (a drag).
    function rotateTo(a, pm, animate) {
        var h = hour, m = minute;
        if (selection === "hour") {
            hourAngle = toHour(a) % 12 * radiansPerHour;
            h = toHour(hourAngle) % 12 + (pm ? 12 : 0);
        } else {
            minuteAngle = toMinute(a) * radiansPerMinute;
            m = toMinute(minuteAngle);
        }
        if (animate) selector.animateTo(nearest(offsetAngle(a)));
        else selector.snapTo(offsetAngle(a));
        if (h !== hour || m !== minute) write(h, m);
    }
    // `onTap`: minutes snap to the nearest five, hours to the nearest hour, before `rotateTo`.
    function tap(x, y) {
        var dx = x - 128, dy = y - 128;
        var a = dialAtan(dx, dy);
        a = selection === "minute" ? roundHalfEven(a / radiansPerMinute / 5) * 5 * radiansPerMinute
            : roundHalfEven(a / radiansPerHour) * radiansPerHour;
        var hourTap = selection === "hour";
        rotateTo(a, afternoon(dx, dy), true);
        // an earlier tap's 100 ms, once begun, still ends in the switch (only its animation
        // is cancelled by a new `rotateTo`)
        if (switchTimer.running) return;
        switchPending = hourTap && autoSwitchToMinute;
        if (switchPending && !selector.running) switchTimer.start();
    }
    function drag(x, y) {
        if (!switchTimer.running) switchPending = false;  // a new rotateTo cancels the tap's wait
        var dx = x - 128, dy = y - 128;
        rotateTo(dialAtan(dx, dy), afternoon(dx, dy), false);
    }
    // `onDragEnd`: to minutes at once, then `onGestureEnd` settles the selector on the chosen
    // value (the minute's own angle: a drag keeps every minute).
    function dragEnd() {
        if (autoSwitchToMinute) selection = "minute";
        settle();
    }
    function settle() { selector.animateTo(nearest(selection === "hour" ? hourAngle : minuteAngle)); }
    // `ClockDialNode.updateNode`: a new selection runs `animateToCurrent`; the Crossfade fades
    // the faces.
    onSelectionChanged: {
        preview.keepView(d.n, "selection", selection);
        if (restoring)
            return;
        settle();
        hourFade.animateTo(selection === "hour" ? 1 : 0);
        minuteFade.animateTo(selection === "minute" ? 1 : 0);
    }
    // A time set from outside (a re-show or a setState) moves the selector without animating
    // (the `hour` / `minute` setters make a new `Animatable`).
    onHourChanged: {
        if (toHour(hourAngle) % 12 === hour % 12) return;
        hourAngle = radiansPerHour * (hour % 12) - fullCircle / 4;
        if (selection === "hour") selector.snapTo(hourAngle);
    }
    onMinuteChanged: {
        if (toMinute(minuteAngle) === minute) return;
        minuteAngle = radiansPerMinute * minute - fullCircle / 4;
        if (selection === "minute") selector.snapTo(minuteAngle);
    }
    Timer {
        id: switchTimer
        interval: 100
        onTriggered: { tp.switchPending = false; tp.selection = "minute"; }
    }

    // Compose's spring from the current value and velocity (SpringSimulation, mass 1), settled
    // within Animatable's 0.01 visibility threshold; with motion off it jumps.
    component Spring: Item {
        id: spring
        property bool moving: true
        property real dampingRatio: 1
        property real stiffness: 1600
        property real value: 0
        property real velocity: 0
        property real target: 0
        property real elapsed: 0  // play seconds into the running animation (read by the tests)
        property real elapsedMs: 0  // real ms into it (the play time times the animator scale)
        readonly property alias running: frames.running
        property real _x0: 0
        property real _v0: 0
        signal settled()
        function snapTo(t) {
            frames.stop();
            target = t; value = t; velocity = 0;
        }
        function animateTo(t) {
            if (!moving) { snapTo(t); settled(); return; }
            if (!frames.running && t === value) { settled(); return; }
            _x0 = value - t; _v0 = velocity; target = t; elapsed = 0; elapsedMs = 0;
            frames.restart();
        }
        function step(t) {
            elapsed = t;
            var w = Math.sqrt(stiffness), z = dampingRatio, x, v;
            if (z < 1) {
                var wd = w * Math.sqrt(1 - z * z), e = Math.exp(-z * w * t);
                var b = (_v0 + z * w * _x0) / wd;
                var c = Math.cos(wd * t), s = Math.sin(wd * t);
                x = e * (_x0 * c + b * s);
                v = e * ((b * wd - z * w * _x0) * c - (_x0 * wd + z * w * b) * s);
            } else {
                var e1 = Math.exp(-w * t), k = _v0 + w * _x0;
                x = (_x0 + k * t) * e1;
                v = (k - w * (_x0 + k * t)) * e1;
            }
            if (Math.abs(x) < 0.01 && Math.abs(v) < 0.01 * w) {
                frames.stop();
                value = target; velocity = 0;
                settled();
                return;
            }
            value = target + x; velocity = v;
        }
        // Play time is the real time over the animator duration scale, read every frame
        // (SuspendAnimation.kt `doAnimationFrameWithScale`); at 0 motion is off and it jumps.
        FrameAnimation {
            id: frames
            onTriggered: {
                spring.elapsedMs = elapsedTime * 1000;
                if (preview.animatorScale > 0) spring.step(elapsedTime / preview.animatorScale);
            }
        }
        onMovingChanged: if (!moving && frames.running) { snapTo(target); settled(); }
    }
    // the selector's angle: `anim`, `MotionSchemeKeyTokens.DefaultSpatial` (the standard scheme:
    // `spring(dampingRatio = 0.9, stiffness = 700)`)
    Spring {
        id: selector
        objectName: "selectorSpring"
        moving: tp.moving
        dampingRatio: 0.9
        stiffness: 700
        onSettled: if (tp.switchPending && !switchTimer.running) switchTimer.start()
    }
    // the faces' alpha in the Crossfade: `DefaultEffects`, `spring(dampingRatio = 1, stiffness =
    // 1600)`
    Spring { id: hourFade; moving: tp.moving; value: 1 }
    Spring { id: minuteFade; moving: tp.moving; value: 0 }

    // One screen of the Crossfade: its 12 numbers (and, while the hour is selected on a 24-hour
    // dial, the 12..23 ring inside), `ClockText`: `value.toLocalString()`, so "0", "5" (no
    // padding). Material reads the live selection in both screens, so the screen fading out
    // shows what the new selection makes of its values (the hours' "12" for 24-hour "0", the
    // minutes mod 12) for the fade's length; so does this.
    component Face: Item {
        id: face
        property var values: []
        property real shown: 1
        // what the face reads of the picker (an inline component sees no outer ids)
        property bool h24: false
        property string selection: "hour"
        property real hx: 0
        property real hy: 0
        anchors.fill: parent
        opacity: shown
        visible: shown > 0
        readonly property bool innerRing: h24 && selection === "hour"
        // how many numbers lie partly under the handle (the dial then draws the handle's part)
        property int partials: 0
        // Paints this face's numbers that reach under the handle, as `drawSelector` leaves them
        // (onPrimary, the face's alpha) into `ctx`, whose origin is at (ox, oy) of the dial.
        function paintUnder(ctx, ox, oy) {
            if (!visible) return;
            ctx.globalAlpha = opacity;
            for (var i = 0; i < numbers.count; i++) {
                var t = numbers.itemAt(i);
                if (!t || t.overlap === 0) continue;
                ctx.font = (t.font.weight >= Font.DemiBold ? "bold " : "") + t.font.pixelSize
                    + "px '" + t.font.family + "'";
                var x = t.x - ox, y = t.y + t.baselineOffset - oy;
                for (var c = 0; c < t.text.length; c++) {  // Context2D has no letter spacing
                    ctx.fillText(t.text[c], x, y);
                    x += ctx.measureText(t.text[c]).width + t.font.letterSpacing;
                }
            }
        }
        Repeater {
            id: numbers
            model: face.innerRing ? 24 : 12
            RoleText {
                required property int index
                readonly property bool inside: index >= 12
                readonly property int slot: index % 12
                readonly property int value: inside ? slot + 12
                    : (!face.h24 || face.selection === "minute") ? face.values[slot] : face.values[slot] % 12
                readonly property real a: slot / 12 * 2 * Math.PI - Math.PI / 2
                readonly property real r: inside ? 69 : 101
                readonly property real cx: 128 + r * Math.cos(a)
                readonly property real cy: 128 + r * Math.sin(a)
                // `drawSelector` draws what lies under the 24 dp handle in
                // clockDialSelectedContentColor (onPrimary): a number wholly under it is drawn so;
                // one partly under it is drawn as the rest and the dial paints the part under the
                // handle. The glyphs' box: the advance wide, the cap height (0.711 em, Roboto) high.
                readonly property real halfW: implicitWidth / 2
                readonly property real halfH: font.pixelSize * 0.711 / 2
                readonly property real dx: Math.abs(cx - face.hx)
                readonly property real dy: Math.abs(cy - face.hy)
                readonly property int overlap: Math.hypot(Math.max(0, dx - halfW), Math.max(0, dy - halfH)) >= 24 ? 0
                    : Math.hypot(dx + halfW, dy + halfH) <= 24 ? 2 : 1
                property int lastOverlap: 0
                function recount() {
                    face.partials += (overlap === 1) - (lastOverlap === 1);
                    lastOverlap = overlap;
                }
                onOverlapChanged: recount()
                Component.onCompleted: recount()
                Component.onDestruction: if (lastOverlap === 1) face.partials--
                role: "bodyLarge"
                text: String(value)
                color: overlap === 2 ? preview.colors.onPrimary : preview.colors.onSurface
                x: cx - implicitWidth / 2
                y: cy - implicitHeight / 2
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
        // `selectorPos`: the inner 69 dp radius while a 24-hour afternoon hour is selected, else
        // the outer 101 dp, at the animated angle (`currentAngle`).
        readonly property bool inner: tp.selection === "hour" && tp.h24 && tp.hour >= 12
        readonly property real reach: inner ? 69 : 101
        readonly property real selectorAngle: selector.value
        readonly property real hx: 128 + reach * Math.cos(selectorAngle)
        readonly property real hy: 128 + reach * Math.sin(selectorAngle)
        // `drawSelector`, in its order (ClockDialSelector* tokens): the 48 dp primary handle with
        // what lies under it cut out of the numbers, the numbers, the 2 dp track from the centre to
        // the handle's edge over them, the 8 dp centre dot, then the numbers' part under the
        // handle in onPrimary.
        Rectangle {
            objectName: "selectorHandle"
            width: 48; height: 48; radius: 24
            x: dial.hx - 24; y: dial.hy - 24
            color: preview.colors.primary
        }
        // A face is made while it shows (and while its selection does): the minutes' face costs
        // nothing until the dial turns to them.
        Loader {
            id: hourFace
            anchors.fill: parent
            active: hourFade.value > 0 || tp.selection === "hour"
            readonly property int partials: item ? item.partials : 0
            function paintUnder(ctx, ox, oy) { if (item) item.paintUnder(ctx, ox, oy); }
            sourceComponent: Face {
                objectName: "hourFace"
                values: tp.hours; shown: hourFade.value
                h24: tp.h24; selection: tp.selection; hx: dial.hx; hy: dial.hy
            }
        }
        Loader {
            id: minuteFace
            anchors.fill: parent
            active: minuteFade.value > 0 || tp.selection === "minute"
            readonly property int partials: item ? item.partials : 0
            function paintUnder(ctx, ox, oy) { if (item) item.paintUnder(ctx, ox, oy); }
            sourceComponent: Face {
                objectName: "minuteFace"
                values: tp.minutes; shown: minuteFade.value
                h24: tp.h24; selection: tp.selection; hx: dial.hx; hy: dial.hy
            }
        }
        Rectangle {
            width: 2; height: dial.reach - 24
            color: preview.colors.primary
            x: 127; y: 128 - height
            transformOrigin: Item.Bottom
            rotation: (dial.selectorAngle + Math.PI / 2) * 180 / Math.PI
        }
        Rectangle { width: 8; height: 8; radius: 4; x: 124; y: 124; color: preview.colors.primary }
        Loader {
            // The handle's circle with the numbers' part under it (the software scene graph
            // clips only to rectangles, so a Canvas draws it); made only while a number lies
            // partly under the handle, a wholly covered one is simply drawn onPrimary.
            objectName: "selectorOverlap"
            active: hourFace.partials + minuteFace.partials > 0
            x: dial.hx - 24; y: dial.hy - 24
            width: 48; height: 48
            sourceComponent: Canvas {
                readonly property var inputs: [dial.hx, dial.hy, hourFade.value, minuteFade.value,
                    tp.selection, tp.h24, preview.colors.primary, preview.colors.onPrimary]
                onInputsChanged: requestPaint()
                onPaint: {
                    var ctx = getContext("2d");
                    ctx.reset();
                    ctx.beginPath();
                    ctx.arc(24, 24, 24, 0, 2 * Math.PI);
                    ctx.closePath();
                    ctx.fillStyle = preview.colors.primary;
                    ctx.fill();
                    ctx.clip();
                    ctx.fillStyle = preview.colors.onPrimary;
                    ctx.textBaseline = "alphabetic";
                    hourFace.paintUnder(ctx, dial.hx - 24, dial.hy - 24);
                    minuteFace.paintUnder(ctx, dial.hx - 24, dial.hy - 24);
                }
            }
        }
        MouseArea {
            // `ClockDialNode`: detectTapGestures (the press only noted, `onTap` at the release
            // point) and detectDragGestures (from the touch slop, 8 dp, on; its first `onDrag`
            // gets only the part past the slop, so the followed point trails the finger by the
            // slop along the first direction; `onDragEnd`).
            anchors.fill: parent
            property real pressX: 0
            property real pressY: 0
            property bool dragging: false
            property real lagX: 0
            property real lagY: 0
            onPressed: (m) => { pressX = m.x; pressY = m.y; dragging = false; }
            onPositionChanged: (m) => {
                if (!pressed) return;
                if (!dragging) {
                    var d = Math.hypot(m.x - pressX, m.y - pressY);
                    if (d <= 8) return;
                    dragging = true;
                    lagX = (m.x - pressX) / d * 8;
                    lagY = (m.y - pressY) / d * 8;
                }
                tp.drag(m.x - lagX, m.y - lagY);
            }
            onReleased: (m) => {
                if (dragging) tp.dragEnd();
                else tp.tap(m.x, m.y);
                dragging = false;
            }
            onCanceled: if (dragging) { dragging = false; tp.dragEnd(); }
        }
    }
}
