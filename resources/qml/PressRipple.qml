// Material's press ripple (the phone's `LocalIndication`: Material 3's `ripple()`, which
// MaterialTheme provides and `Modifier.clickable` draws over the node's content). Made on a press
// by `screen.ripple` (DeviceScreen.qml) into the item it is bounded by, and gone once faded: a
// delegate pays nothing for it until it is pressed.
//
// As material-ripple's RippleAnimation (RippleHostView drives the platform's RippleDrawable the
// same way): a circle in the content colour at StateTokens.PressedStateLayerOpacity (0.1), from
// 30 % of the larger side (`getRippleStartRadius`) to half the diagonal plus 10 dp
// (`getRippleEndRadius`, bounded) in 225 ms (FastOutSlowIn), its centre moving linearly from the
// press point to the middle; it fades in over 75 ms and, once released and grown, out over
// 150 ms (released while fading in, it is drawn at full alpha until grown). Bounded: clipped to
// the host's rectangle, or to its rounded shape when corner radii are given. A Canvas draws it,
// as the software scene graph clips only to rectangles (and Qt's Material `Ripple` item ignores
// `clipRadius` there, and takes its press point only from an AbstractButton).
//
// Its times are the platform animators', which the phone's animator duration scale stretches
// when they are set (ValueAnimator / RenderNodeAnimator `setDuration`: the duration times
// `getDurationScale()`, `sDurationScale` from Settings.Global ANIMATOR_DURATION_SCALE): the maker
// passes the scale at the press; at 0 the ripple is at once full and goes at once on release.
import QtQuick

Canvas {
    id: ripple
    // The host's box unless the maker places it (x, y, width, height).
    width: parent ? parent.width : 0
    height: parent ? parent.height : 0
    // The content colour, before the pressed alpha.
    property color color: "black"
    property real originX: width / 2
    property real originY: height / 2
    // Corner radii by screen side (0: square), clamped to half the shorter side.
    property real tl: 0
    property real tr: 0
    property real br: 0
    property real bl: 0
    property real durationScale: 1  // the animator duration scale at the press
    property bool held: true
    property real grow: 0  // the radius's progress (eased)
    property real move: 0  // the centre's progress (linear)
    property real fade: 0
    readonly property real pressedAlpha: 0.1  // StateTokens.PressedStateLayerOpacity
    readonly property real alphaNow: !held && enter.running ? 1 : fade

    // The press ends (released or cancelled): fade out once grown.
    function finish() {
        held = false;
        if (!enter.running)
            exit.start();
    }

    ParallelAnimation {
        id: enter
        running: true
        NumberAnimation { target: ripple; property: "fade"; to: 1; duration: 75 * ripple.durationScale }
        NumberAnimation {
            target: ripple; property: "grow"; to: 1; duration: 225 * ripple.durationScale
            easing.type: Easing.BezierSpline
            easing.bezierCurve: [0.4, 0, 0.2, 1, 1, 1]  // FastOutSlowInEasing
        }
        NumberAnimation { target: ripple; property: "move"; to: 1; duration: 225 * ripple.durationScale }
        onFinished: {
            ripple.fade = 1;
            if (!ripple.held)
                exit.start();
        }
    }
    NumberAnimation {
        id: exit
        target: ripple; property: "fade"; to: 0; duration: 150 * ripple.durationScale
        onFinished: ripple.destroy()
    }

    onAlphaNowChanged: requestPaint()
    onGrowChanged: requestPaint()
    onWidthChanged: requestPaint()
    onHeightChanged: requestPaint()

    function corner(r) {
        return Math.max(0, Math.min(r, width / 2, height / 2));
    }
    onPaint: {
        var ctx = getContext("2d");
        ctx.reset();
        if (width <= 0 || height <= 0)
            return;
        var w = width, h = height;
        var a = corner(tl), b = corner(tr), c = corner(br), e = corner(bl);
        ctx.beginPath();
        ctx.moveTo(a, 0);
        ctx.lineTo(w - b, 0);
        ctx.arcTo(w, 0, w, b, b);
        ctx.lineTo(w, h - c);
        ctx.arcTo(w, h, w - c, h, c);
        ctx.lineTo(e, h);
        ctx.arcTo(0, h, 0, h - e, e);
        ctx.lineTo(0, a);
        ctx.arcTo(0, 0, a, 0, a);
        ctx.closePath();
        ctx.clip();
        var start = Math.max(w, h) * 0.3;
        var end = Math.sqrt(w * w + h * h) / 2 + 10;
        var radius = start + (end - start) * grow;
        var cx = originX + (w / 2 - originX) * move;
        var cy = originY + (h / 2 - originY) * move;
        ctx.beginPath();
        ctx.arc(cx, cy, radius, 0, 2 * Math.PI);
        ctx.fillStyle = Qt.rgba(color.r, color.g, color.b, color.a * pressedAlpha * alphaNow);
        ctx.fill();
    }
}
