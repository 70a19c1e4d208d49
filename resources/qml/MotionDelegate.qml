// A NodeDelegate for a node that can animate its visibility: one with a `visibleWhen` (Kids
// picks this type for those), and the delegates a node file or the window declares. Only these
// pay for the transition's bindings and Behavior.
//
// visibleWhen transitions as the phone's (PrototypeMotion.kt `prototypeEnterTransition`,
// `prototypeExitTransition`): every node with a visibleWhen animates when it appears and when
// it goes, `transition` unset too (fade + expand in, fade + shrink out); "fade" fades,
// "expand" expands/shrinks, "slide" slides vertically (half its height from above) and fades,
// "none" and `motion: "none"` switch it off (`prototypeMotionEnabled`). `reveal` runs 0..1
// and the layout sizes the node with it (it is reported); a leaving node stays drawn (and in
// its parent's layout) until it reaches 0.
import QtQuick

NodeDelegate {
    id: m
    readonly property string transitionKind: p.transition || "default"
    readonly property bool animated: n !== null && n.conditional === 1 && transitionKind !== "none"
        && preview.motion && !preview.editMode
    property real reveal: shown ? 1 : 0
    // Compose's enter and exit specs (EnterExitTransition.kt `fadeIn`, `expandIn`,
    // `slideInVertically` and their exits): `spring(stiffness = Spring.StiffnessMediumLow)`, no
    // bounce (dampingRatio 1, stiffness 400: w = 20 rad/s), from rest: x(t) = 1 - (1 + wt)e^-wt,
    // done when within the 0.01 visibility threshold, at wt = 6.64 (332 ms). The Bezier below
    // follows that curve within 1.6 % of the way, never past the end.
    Behavior on reveal {
        enabled: m.animated
        NumberAnimation {
            objectName: "revealSpring"
            duration: 332
            easing.type: Easing.BezierSpline
            easing.bezierCurve: [0.17, 0, 0.15, 1, 1, 1]
        }
    }
    onRevealChanged: if (animated) preview.revealed(n, reveal)
    readonly property bool fades: transitionKind !== "expand"
    lift: transitionKind === "slide" ? -(1 - reveal) * height / 2 : 0
    growing: (transitionKind === "expand" || transitionKind === "default") && reveal < 1
    visible: (shown || reveal > 0) && nodeType !== "dialog" && nodeType !== "snackbar" && nodeType !== "bottomSheet"
    clip: growing
    opacity: (st.alpha === undefined ? 1 : st.alpha) * (fades ? reveal : 1)
}
