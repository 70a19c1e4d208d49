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
    // Compose's enter and exit specs (EnterExitTransition.kt `fadeIn`, `expandIn`,
    // `slideInVertically` and their exits): `spring(stiffness = Spring.StiffnessMediumLow)`, no
    // bounce (dampingRatio 1, stiffness 400: w = 20 rad/s), from rest: x(t) = 1 - (1 + wt)e^-wt,
    // done within the 0.01 visibility threshold, at wt = 6.64 (332 ms). AnimatedVisibility's
    // Transition retargets a running animation from where it is, moving: a node shown again
    // while it fades out turns back with its velocity (Spring.qml), it does not restart.
    readonly property real revealTarget: shown ? 1 : 0
    property QtObject revealSpring: null
    readonly property real reveal: revealSpring !== null ? Math.max(0, Math.min(1, revealSpring.value)) : revealTarget
    // A node on screen when it is made is simply there (AnimatedVisibility starts at its current
    // visibility): only later changes animate.
    property bool made: false
    Component.onCompleted: made = true
    onRevealTargetChanged: {
        if (!made || (!revealSpring && !animated)) return;
        if (!revealSpring)  // made on the first change, from where the node was
            revealSpring = screen.spring(m, 400, 1 - revealTarget);
        revealSpring.enabled = animated;
        revealSpring.target = revealTarget;
    }
    onRevealChanged: if (animated) preview.revealed(n, reveal)
    readonly property bool fades: transitionKind !== "expand"
    lift: transitionKind === "slide" ? -(1 - reveal) * height / 2 : 0
    growing: (transitionKind === "expand" || transitionKind === "default") && reveal < 1
    visible: (shown || reveal > 0) && nodeType !== "dialog" && nodeType !== "snackbar" && nodeType !== "bottomSheet"
    clip: growing
    opacity: (st.alpha === undefined ? 1 : st.alpha) * (fades ? reveal : 1)
}
