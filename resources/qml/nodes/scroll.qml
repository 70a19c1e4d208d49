// scroll: a vertical (default) or horizontal scrolling container. Its child is measured without a
// bound on the scrolling axis; the scroll wraps it up to the space available (SC "scroll":
// `Box(modifier.verticalScroll(scroll))`, layout.py `_scroll`). Only the part of the child in view
// (and half a viewport ahead) is instantiated: each move tells the layout where the view is.
//
// It scrolls as the phone's: `verticalScroll` / `horizontalScroll` keep Compose's default
// overscroll and fling (SC "scroll" passes neither). A drag past an edge stretches the content
// (EdgeStretch.qml), and a fling runs Compose's spline decay (SplineFling.qml) in place of Qt's
// constant deceleration.
import QtQuick
import ".."
import "../Overscroll.js" as Overscroll

Flickable {
    id: f
    readonly property bool horizontal: d.p.axis === "horizontal"
    implicitWidth: d.g.cw || 0
    implicitHeight: d.g.ch || 0
    contentWidth: d.g.contentW || 0
    contentHeight: d.g.contentH || 0
    clip: true
    flickableDirection: horizontal ? Flickable.HorizontalFlick : Flickable.VerticalFlick
    // Past a bound the content stays (the stretch draws the pull); without the stretch a drag
    // stops at the bound as before.
    boundsBehavior: edges.on ? Flickable.DragOverBounds : Flickable.StopAtBounds
    boundsMovement: Flickable.StopAtBounds
    contentItem.transform: EdgeStretch {
        id: edges
        flick: f
        vertical: !f.horizontal
    }
    // Right to left a horizontal scroll starts at its content's right end (horizontalScroll
    // places its content relative to the layout direction), until the designer moves it.
    readonly property bool fromEnd: preview.rtl === 1 && horizontal
    property bool moved: false
    function toStart() {
        if (!moved) contentX = fromEnd ? Math.max(0, contentWidth - width) : 0;
    }
    // (Only once made: while it is being made the view has not yet taken the place it was left
    // at, and reporting its moves would overwrite that place in the layout.)
    property bool made: false
    onFromEndChanged: {
        if (!made) return;
        moved = false;
        preview.keepView(d.n, "moved", null);
        toStart();
    }
    onContentWidthChanged: if (made && fromEnd) toStart()
    onWidthChanged: if (made && fromEnd) toStart()
    onMovementStarted: {
        moved = true;
        preview.keepView(d.n, "moved", true);
    }
    // A remade scroll (a re-theme, an edit of it, its row scrolled back into view) shows what
    // the one before showed: the layout kept that offset (`scrollOffset`), as the phone's
    // `rememberScrollState` outlives a recomposition. Right to left, one never moved starts at
    // its right end.
    Component.onCompleted: {
        moved = preview.keptView(d.n, "moved") === true;
        var o = preview.scrollOffset(d.n);
        contentX = Math.max(0, Math.min(o[0], contentWidth - implicitWidth));
        contentY = Math.max(0, Math.min(o[1], contentHeight - implicitHeight));
        if (fromEnd) toStart();
        made = true;
        if (contentX !== o[0] || contentY !== o[1]) preview.scrolled(d.n, contentX, contentY);
    }
    onContentXChanged: if (made) preview.scrolled(d.n, contentX, contentY)
    onContentYChanged: if (made) preview.scrolled(d.n, contentX, contentY)
    Kids {}

    // Qt caps the release velocity it reports with this (2500 by default); Compose with
    // ViewConfiguration's maximum fling velocity, 8000 dp/s.
    maximumFlickVelocity: Overscroll.MAX_FLING_VELOCITY
    // The release's fling, a press that stops it and the press it takes (ComposeFling.qml).
    ComposeFling {
        flick: f
        horizontal: f.horizontal
        stretch: edges
    }
}
