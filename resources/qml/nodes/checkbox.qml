// checkbox: a Material checkbox (optional label) bound to a boolean state key.
import QtQuick
import QtQuick.Controls
import QtQuick.Controls.Material

CheckBox {
    readonly property bool on: {
        d.n.rev;
        return preview.value(d.n, d.p.stateKey) === true;
    }
    checked: on
    text: {
        d.n.rev;
        return d.p.label ? preview.text(d.n, d.p.label) : "";
    }
    font.family: preview.fontFamily
    font.pixelSize: 16 * preview.typeScale
    onToggled: if (!preview.setValue(d.n, d.p.stateKey, checked)) checked = Qt.binding(() => on)  // refused
    onOnChanged: if (checked !== on) checked = on
}
