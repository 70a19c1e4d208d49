// button: Material 3 common button (filled, tonal, elevated, outlined, text), optional leading
// icon; a tap runs its onTap (CO `RenderPrototypeButton`). The label and icon take the node's own
// `style.color`, else the variant's content colour (CO `prototypeForeground`). The pill keeps
// ButtonDefaults.shape: an authored cornerRadius only clips and shapes the authored background.
import QtQuick
import ".."

MButton {
    variant: d.p.variant || "filled"
    iconName: d.p.icon || ""
    textColor: d.ts.color ? d.ts.color : ink
    text: {
        d.rev;
        return preview.text(d.n, d.p.label || "");
    }
    onClicked: preview.tap(d.n, "")
}
