// row: children start to end, measured as Compose's Row (children in order against the width
// left, then weights; a weighted child makes a bounded row take its whole width); spacing,
// arrangement (AR `prototypeHorizontalArrangement`), vertical alignment (RM
// `prototypeVerticalAlignment`: top default). The layout (layout.py `_linear`) places them.
import QtQuick
import ".."

Item {
    implicitWidth: d.g.cw || 0
    implicitHeight: d.g.ch || 0
    Kids {}
}
