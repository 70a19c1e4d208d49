// column: children top to bottom, measured as Compose's Column (children in order against the
// height left, then weights; a weighted child makes a bounded column take its whole height);
// spacing, arrangement (AR `prototypeVerticalArrangement`), horizontal alignment (start default).
// The layout (layout.py `_linear`) places the children; in a scroll only those in view exist.
import QtQuick
import ".."

Item {
    implicitWidth: d.g.cw || 0
    implicitHeight: d.g.ch || 0
    Kids {}
}
