// button: Material 3 common button (filled, tonal, elevated, outlined, text), optional icon.
import QtQuick
import ".."

MButton {
    variant: d.p.variant || "filled"
    iconName: d.p.icon || ""
    radius: d.st.hasRadius ? d.st.radius : 20
    textColor: d.ts.color ? d.ts.color : ink
    text: {
        d.n.rev;
        return preview.text(d.n, d.p.label || "");
    }
    onClicked: preview.tap(d.n, "")
}
