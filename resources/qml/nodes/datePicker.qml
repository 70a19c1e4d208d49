// datePicker: the Material 3 date picker without its mode toggle (MC `RenderPrototypeDatePicker`:
// `DatePicker(rememberDatePickerState(initialSelectedDateMillis), modifier, showModeToggle =
// false)`, so the Picker display mode and DatePickerDefaults.YearRange 1900..2100), bound to a
// `YYYY-MM-DD` key. Layout (DatePicker.kt `DateEntryContainer`, DatePickerModalTokens): at least
// 360 dp wide on surfaceContainerHigh, square; a 120 dp header (HeaderContainerHeight: "Select
// date" labelLarge, then the picked date headlineLarge, 24 dp in, then its divider); a 56 dp row
// with the year menu button (the month
// and year, then the drop-down arrow) and the previous/next month buttons; the weekday initials;
// six 48 dp week rows of this month's days only (no neighbouring days), bodyLarge, the picked day
// onPrimary on a 40 dp primary circle, today (`preview.today`, the device's date) in primary in a
// 1 dp primary ring unless it is picked. The months are a horizontal list paged by a drag
// (`HorizontalMonthsList`), and the menu button shows the year list over them (`YearPicker`).
// Picking a day binds the key and runs onTap (RT `Choose`); the arrows, a drag and the year list
// only change the month shown. Under Rtl (the window's LayoutMirroring) it mirrors as
// DatePicker.kt does: header and month label 24 dp from the right, the arrows at the left and
// flipped, the week and the year list's rows from the right, the next month to the left.
//
// Only the month on screen has a delegate (its neighbour too while a drag or slide moves them),
// and the year list is made only while it is open.
import QtQuick
import QtQuick.Controls
import ".."
import "../Pager.js" as Pager
import "../ColorSpring.js" as ColorSpring

Rectangle {
    id: dp
    objectName: "datePicker"
    readonly property string iso: { d.rev; return String(preview.value(d.n, d.p.stateKey) || "2024-01-01"); }
    readonly property int year: Number(iso.slice(0, 4))
    readonly property int month: Number(iso.slice(5, 7)) - 1
    readonly property int day: Number(iso.slice(8, 10))
    // CalendarModel `today`: the device's date (PreviewController `today`).
    readonly property string todayIso: preview.today
    readonly property int todayYear: Number(todayIso.slice(0, 4))
    readonly property int todayMonth: Number(todayIso.slice(5, 7)) - 1
    readonly property int todayDay: Number(todayIso.slice(8, 10))
    // The month shown, as months since January 1900 (DatePickerDefaults.YearRange.first): the
    // months list's first visible item (`updateDisplayedMonth`: `firstVisibleItemIndex`).
    property int shown: 0
    readonly property int shownYear: 1900 + Math.floor(shown / 12)
    readonly property int shownMonth: shown % 12
    // DatePickerContent's `yearPickerVisible`; never a state key (only a day tap picks a date).
    property bool yearsOpen: false
    readonly property bool animate: preview.motion && !preview.editMode
    readonly property int lastMonth: (2100 - 1900 + 1) * 12 - 1  // numberOfMonthsInRange - 1
    function monthIndex(y, m) { return Math.max(0, Math.min(lastMonth, (y - 1900) * 12 + m)); }
    // RenderPrototypeDatePicker's LaunchedEffect(millis): a new bound date shows its month
    // (`displayedMonthMillis`, then DatePickerContent's `scrollToItem(monthIndex)`, not animated).
    // (read from `iso` itself: in its change handler `year` and `month` may not have caught up)
    function showPicked() {
        months.jump(monthIndex(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1));
    }
    onIsoChanged: {
        var was = lastIso;
        lastIso = iso;
        prevYear = Number(was.slice(0, 4));
        prevMonth = Number(was.slice(5, 7)) - 1;
        prevDay = Number(was.slice(8, 10));
        dayFade.begin(dayFadeLength());
        showPicked();
    }
    // A remade picker (a re-theme, its row scrolled back into view) shows the month and the list
    // the one before showed: the phone remembers DatePickerState's displayed month and
    // `yearPickerVisible` in composition, and its LaunchedEffect(millis) runs again only for
    // another date (then that date's month shows, as `onIsoChanged` does here).
    property bool restoring: false
    // (kept once made: while it is being made the list passes through its first month)
    property bool made: false
    function keepShown() {
        if (made) preview.keepView(d.n, "shown", {month: shown, iso: iso});
    }
    onShownChanged: keepShown()
    onYearsOpenChanged: {
        if (!made) return;
        preview.keepView(d.n, "yearsOpen", yearsOpen);
        if (!yearsOpen) preview.keepView(d.n, "yearsY", null);  // opened again: at the shown year
    }
    Component.onCompleted: {
        lastIso = iso;
        var kept = preview.keptView(d.n, "shown");
        if (kept && kept.iso === iso)
            months.jump(Math.max(0, Math.min(lastMonth, Math.round(kept.month))));
        else
            showPicked();
        if (preview.keptView(d.n, "yearsOpen") === true) {
            restoring = true;
            yearsOpen = true;
            restoring = false;
        }
        made = true;
        keepShown();
    }

    // -- colour moves ---------------------------------------------------------------------------
    // DatePickerColors `dayContentColor`, `dayContainerColor(animate = animateChecked)`,
    // `yearContentColor` and `yearContainerColor`: `animateColorAsState` on
    // MotionSchemeKeyTokens.DefaultEffects (the standard scheme's `spring(dampingRatio = 1,
    // stiffness = 1600)`, w = 40 rad/s; ColorSpring.js), a Compose animation, so its play time is
    // the real time over the animator duration scale. A day's container animates only on the day
    // being picked (`animateChecked = startDateSelected`): the day picked before loses its circle
    // at once, its number fades; a year's container and number both fade. The today ring is not
    // animated (`Day`'s `border`, `Year`'s `remember(currentYear, selected)`).
    readonly property real fadeOmega: 40
    readonly property color clear: Qt.rgba(0, 0, 0, 0)  // Color.Transparent
    property string lastIso: ""
    property int prevYear: -1
    property int prevMonth: -1
    property int prevDay: -1
    function dayInk(picked, today) {
        return picked ? preview.colors.onPrimary : today ? preview.colors.primary : preview.colors.onSurface;
    }
    function isToday(y, m, d) { return y === todayYear && m === todayMonth && d === todayDay; }
    // the longest of the picked day's container and number and the day before's number
    function dayFadeLength() {
        var old = dayInk(false, isToday(prevYear, prevMonth, prevDay));
        var now = dayInk(false, isToday(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1,
                                        Number(iso.slice(8, 10))));
        return Math.max(ColorSpring.duration(clear, preview.colors.primary, fadeOmega),
                        ColorSpring.duration(now, preview.colors.onPrimary, fadeOmega),
                        ColorSpring.duration(preview.colors.onPrimary, old, fadeOmega));
    }
    // a colour `fade` moves from `from` to `to` (`to` at rest)
    function faded(fade, from, to) {
        return fade.running ? ColorSpring.at(from, to, fadeOmega, fade.play) : to;
    }
    function yearInk(selected, current) {
        return selected ? preview.colors.onPrimary : current ? preview.colors.primary : preview.colors.onSurfaceVariant;
    }
    property int lastShownYear: -1
    property int prevShownYear: -1
    onShownYearChanged: {
        prevShownYear = lastShownYear;
        lastShownYear = shownYear;
        // only the years on screen animate (the list is made only while open)
        if (box.yearsReveal > 0) {
            var ink = yearInk(false, prevShownYear === todayYear);
            yearFade.begin(Math.max(ColorSpring.duration(clear, preview.colors.primary, fadeOmega),
                ColorSpring.duration(yearInk(false, shownYear === todayYear), preview.colors.onPrimary, fadeOmega),
                ColorSpring.duration(preview.colors.onPrimary, ink, fadeOmega)));
        }
    }
    Fade { id: dayFade; on: dp.animate }
    Fade { id: yearFade; on: dp.animate }
    // the fades' clocks as the picker's (what the tests read)
    readonly property real dayFadePlay: dayFade.play
    readonly property real dayFadeReal: dayFade.real
    readonly property bool dayFading: dayFade.running
    readonly property real yearFadePlay: yearFade.play
    readonly property bool yearFading: yearFade.running
    // A colour move's clock: `play`, ms of play time since it began, up to `length`.
    component Fade: QtObject {
        id: fade
        property bool on: true  // motion on (the picker's `animate`)
        property real play: 0
        property real real: 0  // real ms since it began
        property real length: 0
        readonly property bool running: clock.running
        function begin(ms) {
            clock.stop();
            play = 0;
            real = 0;
            length = ms;
            if (on && preview.animatorScale > 0 && ms > 0) clock.start();
        }
        property FrameAnimation clock: FrameAnimation {
            onTriggered: {
                var scale = preview.animatorScale;
                fade.real += frameTime * 1000;
                var next = scale > 0 ? fade.play + frameTime * 1000 / scale : fade.length;
                if (next >= fade.length) {
                    fade.clock.stop();
                    fade.play = fade.length;
                } else {
                    fade.play = next;
                }
            }
        }
    }
    function pad(v) { return (v < 10 ? "0" : "") + v; }
    implicitWidth: 360
    implicitHeight: col.implicitHeight
    color: preview.colors.surfaceContainerHigh
    Column {
        id: col
        width: parent.width
        Item {
            // DatePickerHeader: `defaultMinSize(minHeight = HeaderContainerHeight)` (120 dp), a
            // Column (`Arrangement.SpaceBetween`) of the title and of the headline's Row with the
            // HorizontalDivider under it, so the divider is the header's last 1 dp.
            width: parent.width
            height: 120 - 1
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
                // DatePickerDefaults.dateFormatter's `selectedDateSkeleton`,
                // YearAbbrMonthDaySkeleton ("yMMMd"), is "Feb 10, 2026" in en_US.
                text: Qt.locale("en_US").toString(new Date(dp.year, dp.month, dp.day), "MMM d, yyyy")
            }
        }
        Rectangle { width: parent.width; height: 1; color: preview.colors.outlineVariant }
        Item {
            width: parent.width
            height: 56
            // DatePicker.kt `MonthsNavigation`: a Row (`Arrangement.SpaceBetween`, 12 dp in) of the
            // year menu button at the start, then a Row of the previous and next IconButtons at the
            // end (only while the year list is closed); under Rtl the button is at the right, the
            // pair at the left with previous at its right.
            Item {
                // `YearPickerMenuButton`: a TextButton (CircleShape, 40 dp high, ButtonDefaults
                // TextButtonContentPadding 12 dp at each side) of the month and year (labelLarge in
                // `navigationContentColor`, onSurfaceVariant), ButtonDefaults.IconSpacing (8 dp),
                // then Icons.Filled.ArrowDropDown in the button's content colour, which is
                // `textButtonColors(contentColor = LocalContentColor.current)`: the colour the
                // picker sits in (onSurface), rotated 180° while the year list is open.
                id: yearButton
                objectName: "yearMenuButton"
                anchors.left: parent.left
                anchors.leftMargin: 12
                anchors.verticalCenter: parent.verticalCenter
                width: 12 + monthYear.implicitWidth + 8 + 24 + 12
                height: 40
                RoleText {
                    id: monthYear
                    objectName: "datePickerMonthYear"
                    anchors.left: parent.left
                    anchors.leftMargin: 12
                    anchors.verticalCenter: parent.verticalCenter
                    role: "labelLarge"
                    color: preview.colors.onSurfaceVariant
                    // DatePickerDefaults.YearMonthSkeleton ("yMMMM"): "February 2026" in en_US.
                    text: Qt.locale("en_US").standaloneMonthName(dp.shownMonth) + " " + dp.shownYear
                }
                MIcon {
                    objectName: "yearMenuArrow"
                    anchors.left: monthYear.right
                    anchors.leftMargin: 8
                    anchors.verticalCenter: parent.verticalCenter
                    name: "arrow_drop_down"
                    color: d.contentColor
                    rotation: dp.yearsOpen ? 180 : 0  // `Modifier.rotate`, not animated
                }
                MouseArea {
                    anchors.fill: parent
                    property Item ripple: null
                    onPressed: (e) => {
                        ripple = screen.ripple(parent, e.x, e.y, d.contentColor,
                            {z: 1, tl: 20, tr: 20, br: 20, bl: 20});
                    }
                    onReleased: if (ripple) ripple.finish()
                    onCanceled: if (ripple) ripple.finish()
                    onClicked: dp.yearsOpen = !dp.yearsOpen  // `onYearPickerButtonClicked`
                }
            }
            Row {
                anchors.right: parent.right
                anchors.rightMargin: 12
                anchors.verticalCenter: parent.verticalCenter
                visible: !dp.yearsOpen
                Repeater {
                    model: ["chevron_left", "chevron_right"]
                    Item {
                        id: arrow
                        required property string modelData
                        required property int index
                        // IconButton `enabled = previousAvailable / nextAvailable`: the months
                        // list can scroll that way (not before January 1900, after December 2100);
                        // a disabled IconButton draws its content at 0.38.
                        readonly property bool available: index === 0 ? dp.shown > 0 : dp.shown < dp.lastMonth
                        objectName: index === 0 ? "previousMonth" : "nextMonth"
                        width: 48; height: 48
                        MIcon {
                            // `Icons.AutoMirrored.Filled.KeyboardArrowLeft` / `...Right`: the
                            // vector is drawn flipped under Rtl, so previous points right there
                            // (unlike a spec's own icons, from the non-mirrored `filled` package).
                            anchors.centerIn: parent
                            name: parent.modelData
                            color: preview.colors.onSurfaceVariant
                            opacity: arrow.available ? 1 : 0.38
                            transform: Scale { origin.x: 12; xScale: preview.rtl ? -1 : 1 }
                        }
                        // The arrows are IconButtons: a 40 dp circle ripple in the navigation
                        // content colour (onSurfaceVariant, `MonthsNavigation`'s
                        // LocalContentColor).
                        MouseArea {
                            anchors.fill: parent
                            enabled: arrow.available
                            property Item ripple: null
                            onPressed: (e) => {
                                ripple = screen.ripple(parent, e.x - 4, e.y - 4, preview.colors.onSurfaceVariant,
                                    {x: 4, y: 4, width: 40, height: 40, z: 1, tl: 20, tr: 20, br: 20, bl: 20});
                            }
                            onReleased: if (ripple) ripple.finish()
                            onCanceled: if (ripple) ripple.finish()
                            onClicked: months.go(arrow.index === 0 ? -1 : 1)
                        }
                    }
                }
            }
        }
        Item {
            // DatePickerContent's Box: the weekdays and the months list, and over them, while
            // open, the year list.
            id: box
            width: parent.width
            height: 48 + 6 * 48
            Column {
                id: weeks
                x: 12
                // DatePickerContent's Column, `padding(horizontal = DatePickerHorizontalPadding)`
                // (12 dp) of the picker's width.
                width: parent.width - 24
                // DatePicker.kt `WeekDays` and `Month`: Rows of the week from its first day at the
                // start, `fillMaxWidth()` with `Arrangement.SpaceEvenly`: the seven 48 dp cells
                // with equal gaps before, between and after them (none at 360 dp; wider, the
                // cells spread across the row). The Row and each month's Grid follow
                // LayoutMirroring (the right first under Rtl), and a cell's own MouseArea picks
                // the date that cell draws (`Day`'s onClick).
                readonly property real gap: Math.max(0, (width - 7 * 48) / 8)
                Row {
                    objectName: "weekDays"
                    width: parent.width
                    height: 48
                    leftPadding: weeks.gap
                    rightPadding: weeks.gap
                    spacing: weeks.gap
                    Repeater {
                        // CalendarModel `weekdayNames` from `firstDayOfWeek`, their narrow
                        // (first-letter) names
                        model: 7
                        RoleText {
                            required property int index
                            readonly property var en: Qt.locale("en_US")
                            width: 48
                            height: 48
                            text: en.dayName((en.firstDayOfWeek + index) % 7, Locale.ShortFormat).slice(0, 1)
                            role: "bodyLarge"
                            horizontalAlignment: Text.AlignHCenter
                            verticalAlignment: Text.AlignVCenter
                        }
                    }
                }
                ListView {
                    // DatePicker.kt `HorizontalMonthsList`: a LazyRow of every month of the year
                    // range, each the list's width, with
                    // DatePickerDefaults.rememberSnapFlingBehavior: `snapFlingBehavior` of
                    // `SnapLayoutInfoProvider(lazyListState)` whose `calculateApproachOffset` is
                    // 0, and `snapAnimationSpec = MotionSchemeKeyTokens.DefaultEffects.value()`:
                    // the standard motion scheme's `spring(dampingRatio = 1, stiffness = 1600)`
                    // (Material 3 before its motion scheme passed spring(StiffnessMediumLow),
                    // 400, the pager's).
                    // So a released drag has no decay approach (SnapFlingBehavior `tryApproach`:
                    // no offset, no approach; the `exponentialDecay()` it is given is never
                    // run): the month is chosen at once from the release velocity
                    // (Pager.closestTarget: LazyListSnapLayoutInfoProvider `calculateSnapOffset`,
                    // at most the next month), then the list springs there from that velocity
                    // and stops on the month (`animateWithTarget`, `coerceToTarget`). Qt's own
                    // flick and snap are not used: its flick is cancelled as it starts and its
                    // velocity taken (as nodes/pager.qml does). Right to left, a LazyRow puts
                    // its first item at the right: the next month is to the left, and a drag to
                    // the right brings it in.
                    id: months
                    objectName: "monthsList"
                    width: parent.width
                    height: 6 * 48
                    orientation: ListView.Horizontal
                    snapMode: ListView.NoSnap
                    // Qt caps the release velocity it reports (2500 by default); Compose's
                    // fling velocity is capped at ViewConfiguration's maximum, 8000 dp/s.
                    maximumFlickVelocity: 8000
                    boundsBehavior: Flickable.StopAtBounds
                    clip: true
                    interactive: !preview.editMode
                    cacheBuffer: 0
                    // No current item (a ListView keeps that one made wherever the view is), and
                    // not a month whose edge only touches the view's (a LazyRow composes only
                    // what its viewport shows).
                    currentIndex: -1
                    displayMarginBeginning: -1
                    displayMarginEnd: -1
                    model: dp.lastMonth + 1
                    readonly property bool rtl: effectiveLayoutDirection === Qt.RightToLeft
                    // Where the viewport's start edge is, in months (a ListView lays right to left
                    // from x = 0 leftwards: month i at x = -(i + 1) * width).
                    readonly property real position: (rtl ? -(contentX + width) : contentX) / width
                    // A switch of the layout direction lays the list out afresh from its first
                    // month: the month shown stays (a phone's recomposition keeps its state).
                    property bool relaying: false
                    onRtlChanged: {
                        if (!placed) return;  // (the picker places it once made)
                        var keep = dp.shown;
                        relaying = true;
                        Qt.callLater(function() { relaying = false; jump(keep); });
                    }
                    onPositionChanged: {
                        if (relaying) return;
                        var first = Math.floor(position + 0.001);
                        if (first >= 0 && first <= dp.lastMonth && first !== dp.shown) dp.shown = first;
                    }
                    function startOf(i) { return rtl ? -(i + 1) * width : i * width; }
                    // The view fills from its first month when it is completed, before the
                    // picker places it: that month is made empty (`placed` false), not with its
                    // 42 cells only to be dropped.
                    property bool placed: false
                    function jump(i) {
                        slide.stop();
                        settle.stop();
                        placed = true;
                        positionViewAtIndex(i, ListView.Beginning);
                        dp.shown = i;
                    }
                    // MonthsNavigation's onNextClicked / onPreviousClicked:
                    // `animateScrollToItem(firstVisibleItemIndex ± 1)`, the lazy list's animated
                    // scroll (LazyAnimateScroll.kt: AnimationState `animateTo`, the default
                    // `spring()`: no bounce, StiffnessMedium 1500, w = 38.7 rad/s).
                    function go(step) {
                        var to = Math.max(0, Math.min(dp.lastMonth, dp.shown + step));
                        if (!dp.animate) { jump(to); return; }
                        slide.stop();
                        settle.stop();
                        slide.to = startOf(to);
                        slide.start();
                    }
                    NumberAnimation {
                        // The critically damped spring from rest, x(t) = 1 - (1 + wt)e^-wt, to 1 %
                        // at wt = 6.64 (171 ms at w = 38.7), on MotionDelegate.qml's Bezier fit of
                        // that curve.
                        id: slide
                        objectName: "monthSlide"
                        target: months
                        property: "contentX"
                        // stretched by the animator duration scale, as Compose's play time is
                        // (SuspendAnimation.kt `doAnimationFrameWithScale`)
                        duration: 171 * preview.animatorScale
                        easing.type: Easing.BezierSpline
                        easing.bezierCurve: [0.17, 0, 0.15, 1, 1, 1]
                    }
                    onMovementStarted: slide.stop()
                    // Whether an arrow's slide is under way (the tests wait for it to end).
                    readonly property bool sliding: slide.running

                    // -- a released drag's snap (SnapFlingBehavior) -------------------------
                    // Where it goes (a month), from where (its displacement from there, dp, and
                    // velocity, dp/s of contentX, at the release), elapsed and duration in ms.
                    // The snap runs inside the scroll, under Scrollable's
                    // `DefaultScrollMotionDurationScale` (1): in real time, whatever the
                    // device's animator duration scale.
                    readonly property real snapStiffness: 1600  // DefaultEffects
                    property int targetMonth: -1
                    property real x0: 0
                    property real v0: 0
                    property real elapsed: 0
                    property real realElapsed: 0  // real ms since the release
                    property real duration: 0
                    readonly property bool settling: settle.running
                    FrameAnimation {
                        id: settle
                        running: false
                        onTriggered: months.step(frameTime)
                    }
                    function springTo(i, velocity) {
                        settle.stop();
                        targetMonth = i;
                        x0 = contentX - startOf(i);
                        v0 = velocity;
                        elapsed = 0;
                        realElapsed = 0;
                        // Spring.DefaultDisplacementThreshold, 0.01 px, in dp
                        duration = Pager.springDuration(x0, v0, Math.sqrt(snapStiffness),
                            Pager.DISPLACEMENT_THRESHOLD_PX / Math.max(1, preview.density));
                        // On the month already: `coerceToTarget` of 0 is 0, nothing moves.
                        if (duration <= 0 || Math.abs(x0) < Pager.EPSILON) {
                            arrive();
                            return;
                        }
                        settle.start();
                    }
                    function step(dt) {
                        realElapsed += dt * 1000;
                        elapsed += dt * 1000;  // DefaultScrollMotionDurationScale: play = real
                        if (elapsed >= duration) {
                            arrive();
                            return;
                        }
                        var x = Pager.springDisplacement(x0, v0, Math.sqrt(snapStiffness),
                                                         elapsed / 1000);
                        // `animateWithTarget`'s `coerceToTarget`: never past the month
                        if (x === 0 || (x < 0) !== (x0 < 0)) {
                            arrive();
                            return;
                        }
                        contentX = startOf(targetMonth) + x;
                    }
                    function arrive() {
                        settle.stop();
                        contentX = startOf(targetMonth);
                    }
                    // towards the later month, as dp/s
                    function towardsLater(v) { return rtl ? -v : v; }
                    function release(v) {
                        var to = Pager.closestTarget(position, towardsLater(v), dp.lastMonth + 1);
                        springTo(to, v);
                    }
                    property bool released: false
                    onDraggingChanged: {
                        if (dragging) {
                            settle.stop();
                            released = false;
                        } else {
                            released = true;  // a flick starts next, or the movement ends
                        }
                    }
                    // The finger lifted moving: Qt's flick gives way to the snap, from the
                    // finger's velocity as Compose's VelocityTracker estimates it
                    // (studio/preview/fingers.py), also on a release too slow for Qt to flick.
                    onFlickStarted: {
                        released = false;
                        cancelFlick();
                        release(-preview.releaseVelocity(months).x);
                    }
                    onMovementEnded: {
                        if (released) {
                            released = false;
                            release(-preview.releaseVelocity(months).x);
                        }
                    }
                    // A touch while the months move (a snap, or an arrow's slide) stops them
                    // where they are: Scrollable starts its drag at the press while a scroll is
                    // in progress (`startDragImmediately`), which cancels the running scroll
                    // and consumes the press, so the day under it is not clicked (`clickable`
                    // gives up on a consumed pointer); lifted without a drag, the months snap
                    // from there with no velocity (`onDragStopped` flings at 0). The touch is
                    // seen by `catcher`, over the list.
                    property bool caught: false
                    function touched(down) {
                        if (down) {
                            caught = settling || sliding;
                            if (caught) {
                                settle.stop();
                                slide.stop();
                            }
                        } else if (caught) {
                            // after the release's click, which `caught` holds back
                            Qt.callLater(function() {
                                months.caught = false;
                                months.resume();
                            });
                        }
                    }
                    function resume() {
                        if (!dragging && !flicking && !settling) release(0);
                    }
                    delegate: Grid {
                        // DatePicker.kt `Month`: MaxCalendarRows (6) Rows of DaysInWeek cells, the
                        // month's days from cell `daysFromStartOfWeekToFirstOfMonth`
                        // (CalendarModelImpl `getMonth`: the 1st's weekday less the week's first
                        // day, mod 7), so a month whose 1st starts the week fills the first row
                        // (Qt's MonthGrid leads with a week of the month before).
                        id: grid
                        required property int index
                        readonly property int gy: 1900 + Math.floor(index / 12)
                        readonly property int gm: index % 12
                        objectName: "monthDays"
                        columns: 7
                        leftPadding: weeks.gap
                        rightPadding: weeks.gap
                        columnSpacing: weeks.gap
                        width: months.width
                        height: months.height
                        readonly property int lead:
                            (new Date(gy, gm, 1).getDay() - Qt.locale("en_US").firstDayOfWeek + 7) % 7
                        readonly property int days: new Date(gy, gm + 1, 0).getDate()
                        readonly property bool hasPicked: gy === dp.year && gm === dp.month
                        readonly property bool hasToday: gy === dp.todayYear && gm === dp.todayMonth
                        readonly property bool hadPicked: gy === dp.prevYear && gm === dp.prevMonth
                        Repeater {
                            Component.onCompleted: model = months.placed ? 6 * 7 : 0
                            Item {
                                id: cell
                                required property int index
                                readonly property int day: index - grid.lead + 1
                                readonly property bool inMonth: day >= 1 && day <= grid.days
                                readonly property bool picked: inMonth && grid.hasPicked && day === dp.day
                                // `Month`: `isToday = dateInMillis == todayMillis`; `Day` draws
                                // BorderStroke(DateTodayContainerOutlineWidth 1 dp,
                                // todayDateBorderColor) only `if (today && !selected)`.
                                readonly property bool today: inMonth && grid.hasToday && day === dp.todayDay
                                // DatePickerColors `dayContentColor`: selected first, then today
                                // (DateTodayLabelTextColor, primary), then onSurface.
                                readonly property color ink: dp.dayInk(picked, today)
                                // picked before this one: its number fades back
                                readonly property bool wasPicked: inMonth && grid.hadPicked && day === dp.prevDay
                                readonly property color shownInk: dayFade.running && (picked || wasPicked)
                                    ? dp.faded(dayFade, dp.dayInk(wasPicked, today), ink) : ink
                                width: 48
                                height: 48
                                Rectangle {
                                    // `Day`'s Surface: DateContainerShape (full) 40 dp, the
                                    // selected container primary; the today ring inside its edge
                                    // (a BorderStroke is drawn within the shape).
                                    objectName: cell.picked ? "pickedDay" : cell.today ? "todayRing" : ""
                                    anchors.centerIn: parent
                                    visible: cell.picked || cell.today
                                    width: 40; height: 40; radius: 20
                                    color: cell.picked ? dp.faded(dayFade, dp.clear, preview.colors.primary)
                                        : "transparent"
                                    border.width: cell.picked ? 0 : 1
                                    border.color: preview.colors.primary
                                }
                                RoleText {
                                    anchors.centerIn: parent
                                    visible: cell.inMonth
                                    role: "bodyLarge"
                                    text: cell.day
                                    color: cell.shownInk
                                }
                                // A press ripples in the day's 40 dp circle (`Day`: a Surface with
                                // CircleShape and onClick) in the day's content colour, over its
                                // number.
                                MouseArea {
                                    anchors.fill: parent
                                    enabled: cell.inMonth
                                    property Item ripple: null
                                    onPressed: (m) => {
                                        if (months.caught) return;  // the touch stopped the months
                                        ripple = screen.ripple(cell, m.x - 4, m.y - 4, cell.ink,
                                            {x: 4, y: 4, width: 40, height: 40, z: 1, tl: 20, tr: 20, br: 20, bl: 20});
                                    }
                                    onReleased: if (ripple) ripple.finish()
                                    onCanceled: if (ripple) ripple.finish()
                                    onClicked: if (!months.caught) preview.choose(d.n, d.p.stateKey || "",
                                        grid.gy + "-" + dp.pad(grid.gm + 1) + "-" + dp.pad(cell.day))
                                }
                            }
                        }
                    }
                }
            }
            Item {
                // Over the months list: sees every touch on it (a PointHandler's passive grab
                // leaves the press to the days and the list below) for `months.touched`.
                id: catcher
                x: weeks.x
                y: months.y
                width: months.width
                height: months.height
                PointHandler {
                    enabled: months.interactive
                    onActiveChanged: months.touched(active)
                }
            }
            // The year list over the weekdays and months (DatePickerContent's AnimatedVisibility:
            // `expandVertically() + fadeIn(initialAlpha = 0.6f)` on MotionSchemeKeyTokens
            // DefaultEffects, `shrinkVertically() + fadeOut()` on FastEffects, clipped). Both
            // springs are critically damped: stiffness 1600 (w = 40 rad/s) in, 3800 (w = 61.6) out,
            // to 1 % at wt = 6.64: 166 ms and 108 ms. `expandVertically`'s default `expandFrom =
            // Alignment.Bottom` shows the list's bottom first in a clip growing down.
            property real yearsReveal: dp.yearsOpen ? 1 : 0
            Behavior on yearsReveal {
                enabled: dp.animate && !dp.restoring
                NumberAnimation {
                    duration: (dp.yearsOpen ? 166 : 108) * preview.animatorScale  // the animator scale's
                    easing.type: Easing.BezierSpline
                    easing.bezierCurve: [0.17, 0, 0.15, 1, 1, 1]
                }
            }
            Item {
                id: yearsClip
                objectName: "yearPickerClip"
                visible: box.yearsReveal > 0
                width: parent.width
                height: Math.round(parent.height * box.yearsReveal)
                clip: true
                z: 1
                Loader {
                    y: yearsClip.height - height
                    width: parent.width
                    height: box.height
                    active: yearsClip.visible
                    opacity: dp.yearsOpen ? 0.6 + 0.4 * box.yearsReveal : box.yearsReveal
                    sourceComponent: yearPicker
                }
            }
        }
    }
    Component {
        // DatePicker.kt `YearPicker`: `requiredHeight(RecommendedSizeForAccessibility *
        // (MaxCalendarRows + 1) - DividerDefaults.Thickness)` (335 dp), 12 dp in at each side, on
        // the container colour; a LazyVerticalGrid of GridCells.Fixed(YearsInRow = 3) columns
        // (`Arrangement.SpaceEvenly`: a year centred in each third) and rows
        // `Arrangement.spacedBy(YearsVerticalPadding = 16 dp)`, first showing the row of
        // `displayedYear - yearRange.first - YearsInRow` (the year shown in the second row);
        // then a HorizontalDivider. Right to left, the grid's rows start at the right.
        id: yearPicker
        Rectangle {
            objectName: "yearPicker"
            color: preview.colors.surfaceContainerHigh
            GridView {
                id: yearGrid
                objectName: "yearGrid"
                x: 12
                width: parent.width - 24
                height: 6 * 48 + 48 - 1
                cellWidth: width / 3
                cellHeight: 36 + 16
                clip: true
                // A LazyVerticalGrid: Compose's default stretch and fling, as a scroll node
                // (EdgeStretch.qml, ComposeFling.qml).
                boundsBehavior: yearEdges.on ? Flickable.DragOverBounds : Flickable.StopAtBounds
                boundsMovement: Flickable.StopAtBounds
                contentItem.transform: EdgeStretch {
                    id: yearEdges
                    flick: yearGrid
                }
                maximumFlickVelocity: 8000
                ComposeFling {
                    flick: yearGrid
                    stretch: yearEdges
                }
                interactive: !preview.editMode
                cacheBuffer: 0
                model: 2100 - 1900 + 1
                // As the months list: the years the grid fills from 1900 before it is placed are
                // made empty.
                property bool placed: false
                Component.onCompleted: {
                    placed = true;
                    // A remade picker's open list (a re-theme, its row scrolled back into view)
                    // is where the one before had it: YearPicker's `rememberLazyGridState` lives
                    // as long as the open list stays composed.
                    var kept = preview.keptView(d.n, "yearsY");
                    if (typeof kept === "number")
                        contentY = Math.max(originY, Math.min(kept, originY + contentHeight - height));
                    else
                        positionViewAtIndex(Math.max(0, dp.shownYear - 1900 - 3), GridView.Beginning);
                }
                onContentYChanged: if (placed && dp.yearsOpen) preview.keepView(d.n, "yearsY", contentY)
                delegate: Item {
                    id: yearCell
                    required property int index
                    readonly property int year: 1900 + index
                    // `Year`: selected is the displayed month's year; the current year (today's)
                    // gets the day's today ring (DateTodayContainerOutlineWidth,
                    // todayDateBorderColor) unless selected. DatePickerColors `yearContentColor`:
                    // selected onPrimary, current primary, else onSurfaceVariant
                    // (SelectionYearUnselectedLabelTextColor).
                    readonly property bool selected: year === dp.shownYear
                    readonly property bool current: year === dp.todayYear
                    readonly property color ink: dp.yearInk(selected, current)
                    readonly property bool wasSelected: year === dp.prevShownYear
                    readonly property bool fading: yearFade.running && (selected || wasSelected)
                    readonly property color shownInk:
                        fading ? dp.faded(yearFade, dp.yearInk(wasSelected, current), ink) : ink
                    width: yearGrid.cellWidth
                    height: yearGrid.cellHeight
                    Repeater {
                        Component.onCompleted: model = yearGrid.placed ? 1 : 0
                        Rectangle {
                            // SelectionYearContainerWidth x Height (72 x 36 dp), its state layer
                            // shape full; the selected container primary.
                            id: pill
                            objectName: "year" + yearCell.year
                            x: (parent.width - width) / 2
                            width: 72; height: 36; radius: 18
                            color: !yearCell.fading ? (yearCell.selected ? preview.colors.primary : "transparent")
                                : yearCell.selected ? dp.faded(yearFade, dp.clear, preview.colors.primary)
                                : dp.faded(yearFade, preview.colors.primary, dp.clear)
                            border.width: yearCell.current && !yearCell.selected ? 1 : 0
                            border.color: preview.colors.primary
                            RoleText {
                                anchors.centerIn: parent
                                role: "bodyLarge"  // SelectionYearLabelTextFont
                                text: yearCell.year
                                color: yearCell.shownInk
                            }
                            MouseArea {
                                anchors.fill: parent
                                property Item ripple: null
                                onPressed: (m) => {
                                    ripple = screen.ripple(pill, m.x, m.y, yearCell.ink,
                                        {z: 1, tl: 18, tr: 18, br: 18, bl: 18});
                                }
                                onReleased: if (ripple) ripple.finish()
                                onCanceled: if (ripple) ripple.finish()
                                // `onYearSelected`: the list closes and the months list scrolls
                                // (`scrollToItem`, not animated) to that year's displayed month.
                                onClicked: {
                                    dp.yearsOpen = false;
                                    months.jump(dp.monthIndex(yearCell.year, dp.shownMonth));
                                }
                            }
                        }
                    }
                }
            }
            Rectangle {
                y: yearGrid.height
                width: parent.width
                height: 1
                color: preview.colors.outlineVariant
            }
        }
    }
}
