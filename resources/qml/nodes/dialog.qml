// dialog: a Material 3 basic dialog over a scrim, open while its openWhen holds (MC
// `RenderPrototypeDialog`). The scrim is the scheme's scrim at 0.32 (TH
// `prototypeDialogScrimFallback`) and a tap on it only closes the dialog (RT `SheetDismiss`). The
// surface: surfaceContainerHigh, the theme's extraLarge corner, tonal elevation only (no shadow),
// 24 dp from the window's sides and 280..560 dp wide around its content, 24 dp padding, 16 dp
// between its parts: an optional icon (secondary, centred), the title (headlineSmall onSurface,
// start-aligned: the Text has no textAlign), the text (bodyMedium onSurfaceVariant), the child,
// then the dismiss and confirm TextButtons at the end, 8 dp apart. A button closes the dialog
// first, then runs its own onTap (RT `CloseModal`); a tap on the body runs the dialog's onTap.
import QtQuick
import ".."
import "../Corners.js" as Corners

Item {
    implicitWidth: 0
    implicitHeight: 0
    Overlay {
        id: layer
        Rectangle {
            anchors.fill: parent
            color: preview.colors.scrim || "#000000"
            opacity: 0.32  // PROTOTYPE_DIALOG_SCRIM_ALPHA
            MouseArea { anchors.fill: parent; onClicked: preview.closeOverlay(d.n, "scrim") }
        }
        Item {
            id: card
            anchors.centerIn: parent
            readonly property real widest: Math.min(560, Math.max(280, layer.width - 48))
            width: Math.max(Math.min(280, widest), Math.min(widest, body.naturalWidth + 48))
            height: Math.min(layer.height - 48, body.implicitHeight + 48)
            Rectangle {
                anchors.fill: parent
                radius: Corners.of(preview, "extraLarge")
                color: preview.colors.surfaceContainerHigh
                MouseArea { anchors.fill: parent; onClicked: preview.tap(d.n, "") }
            }
            Column {
                id: body
                x: 24; y: 24
                width: parent.width - 48
                spacing: 16
                readonly property real naturalWidth: Math.max(title.implicitWidth, text.implicitWidth,
                    child.visible ? child.implicitWidth : 0, buttons.implicitWidth)
                MIcon {
                    visible: !!d.p.icon
                    name: d.p.icon || ""
                    color: preview.colors.secondary
                    anchors.horizontalCenter: parent.horizontalCenter
                }
                RoleText {
                    id: title
                    visible: !!d.p.title
                    width: parent.width
                    role: "headlineSmall"
                    wrapMode: Text.Wrap
                    horizontalAlignment: Text.AlignLeft
                    text: { d.rev; return d.p.title ? preview.text(d.n, d.p.title) : ""; }
                }
                RoleText {
                    id: text
                    visible: !!d.p.text
                    width: parent.width
                    role: "bodyMedium"
                    wrapMode: Text.Wrap
                    color: preview.colors.onSurfaceVariant
                    text: { d.rev; return d.p.text ? preview.text(d.n, d.p.text) : ""; }
                }
                MotionDelegate {
                    id: child
                    visible: d.kids.length > 0 && shown
                    n: d.kids.length > 0 && d.kids[0].layered !== 1 ? d.kids[0] : null
                    inh: d.ts
                    width: g.fillW === true ? parent.width : Math.min(implicitWidth, parent.width)
                }
                Row {
                    id: buttons
                    anchors.right: parent.right
                    spacing: 8
                    MButton {
                        visible: !!d.p.dismiss
                        variant: "text"
                        padStart: 12; padEnd: 12  // ButtonDefaults.TextButtonContentPadding
                        text: {
                            preview.rtl;  // read again in the other direction (bidi.py)
                            return d.p.dismiss ? preview.text(d.n, d.p.dismiss.label) : "";
                        }
                        onClicked: preview.closeOverlay(d.n, "dismiss")
                    }
                    MButton {
                        variant: "text"
                        padStart: 12; padEnd: 12
                        text: {
                            preview.rtl;  // read again in the other direction (bidi.py)
                            return d.p.confirm ? preview.text(d.n, d.p.confirm.label) : "";
                        }
                        onClicked: preview.closeOverlay(d.n, "confirm")
                    }
                }
            }
        }
        // An anchored child is drawn above the modal at its anchor, not inside it (SC
        // `layeredPrototypeAnchorsIn`; AnchoredKid.qml).
        Loader {
            anchors.fill: parent
            z: 100
            active: d.kids.length > 0 && d.kids[0].layered === 1
            sourceComponent: AnchoredKid {
                authored: parent ? parent.parent : null  // the Overlay
                node: d.kids[0]
                locals: d.ts
            }
        }
    }
}
