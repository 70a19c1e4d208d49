// radioGroup: Material radio buttons bound to a string state key.
import QtQuick
import QtQuick.Controls
import QtQuick.Controls.Material

Column {
    id: g
    readonly property var current: {
        d.n.rev;
        return preview.value(d.n, d.p.stateKey);
    }
    Repeater {
        model: d.p.options || []
        RadioButton {
            required property var modelData
            text: preview.text(d.n, modelData.label)
            checked: g.current === modelData.value
            font.family: preview.fontFamily
            font.pixelSize: 16 * preview.typeScale
            onClicked: {
                preview.setValue(d.n, d.p.stateKey, modelData.value);
                preview.tap(d.n, "");
            }
            onCheckedChanged: if (checked !== (g.current === modelData.value)) checked = Qt.binding(() => g.current === modelData.value)
        }
    }
}
