// slider: a Material slider (optional label) bound to a numeric state key, min..max by step.
import QtQuick
import QtQuick.Controls
import QtQuick.Controls.Material
import ".."

Item {
    id: root
    property bool defaultFillW: true
    readonly property real bound: {
        d.n.rev;
        var v = Number(preview.value(d.n, d.p.stateKey));
        return isNaN(v) ? (d.p.min || 0) : v;
    }
    implicitWidth: 240
    implicitHeight: col.implicitHeight
    Column {
        id: col
        width: root.width
        StyledText {
            visible: !!d.p.label
            width: col.width
            role: "bodyMedium"
            text: {
                d.n.rev;
                return d.p.label ? preview.text(d.n, d.p.label) : "";
            }
        }
        Slider {
            id: s
            width: col.width
            from: d.p.min
            to: d.p.max
            stepSize: d.p.step || 0
            snapMode: d.p.step ? Slider.SnapAlways : Slider.NoSnap
            value: root.bound
            // A refused write (another control on the key forbids it): back to the stored value.
            onMoved: if (!preview.setValue(d.n, d.p.stateKey, value)) value = root.bound
        }
    }
    onBoundChanged: if (s.value !== bound) s.value = bound
}
