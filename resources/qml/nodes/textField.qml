// textField: a Material outlined text field bound two-way to a string state key.
import QtQuick
import QtQuick.Controls
import QtQuick.Controls.Material

TextField {
    id: f
    property bool defaultFillW: false
    readonly property string bound: {
        d.n.rev;
        var v = preview.value(d.n, d.p.stateKey);
        return v === null || v === undefined ? "" : String(v);
    }
    implicitWidth: 280
    placeholderText: d.p.placeholder || ""
    text: bound
    color: d.ts.color || preview.colors.onSurface
    font.family: preview.fontFamily
    font.pixelSize: 16 * preview.typeScale
    onTextEdited: if (!preview.setValue(d.n, d.p.stateKey, text)) text = bound  // refused: revert
    onBoundChanged: if (text !== bound) text = bound
}
