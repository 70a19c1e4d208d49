// box: children stacked, each measured with the box's maximum and placed by the box's content
// alignment. A child's own `alignment` does not place it (SC "box": `Box(containerModifier,
// contentAlignment = node.style.alignment)`, children get no `Modifier.align`); its `offset`
// moves it from there. The layout (layout.py `_box`) places them.
import QtQuick
import ".."

Item {
    implicitWidth: d.g.cw || 0
    implicitHeight: d.g.ch || 0
    Kids {}
}
