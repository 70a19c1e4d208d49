// A Material 3 common button drawn with plain items (so filled/tonal/elevated backgrounds and the
// elevation shadow show on the software scene graph too): filled, tonal, elevated, outlined, text.
// Sizes as Compose's Button: a 40 dp pill at least 58 dp wide (ButtonDefaults.MinHeight/MinWidth)
// centred in a 48 dp touch target (Surface's minimumInteractiveComponentSize); content padding
// 24 dp a side, or 16/24 with an 18 dp icon and an 8 dp gap (ButtonDefaults.ContentPadding,
// ButtonWithIconContentPadding, IconSize, IconSpacing). AutoMobile passes that padding to every
// variant, text buttons included (CO `RenderPrototypeButton`); the dialog's and snackbar's own
// TextButtons keep TextButtonContentPadding (12 dp, MC `PrototypeDialogTextButton`). The layout
// sizes it from its label (layout.py `_button`): keep the two in step.
import QtQuick
import QtQuick.Controls

AbstractButton {
    id: b
    property string variant: "filled"
    property string iconName: ""
    property real padStart: iconName !== "" ? 16 : 24
    property real padEnd: 24
    readonly property var c: preview.colors
    readonly property color fill: variant === "filled" ? c.primary
        : variant === "tonal" ? c.secondaryContainer
        : variant === "elevated" ? c.surfaceContainerLow : "transparent"
    readonly property color ink: variant === "filled" ? c.onPrimary
        : variant === "tonal" ? c.onSecondaryContainer : c.primary
    property color textColor: ink
    readonly property real visualHeight: Math.min(height, 40)
    implicitHeight: 48
    implicitWidth: Math.max(58, row.implicitWidth + padStart + padEnd)
    leftPadding: 0; rightPadding: 0; topPadding: 0; bottomPadding: 0

    background: Item {
        Item {
            id: pill
            anchors.left: parent.left
            anchors.right: parent.right
            anchors.verticalCenter: parent.verticalCenter
            height: b.visualHeight
            Loader {
                // only an elevated button makes its shadow (two nine-patch images)
                anchors.fill: parent
                active: b.variant === "elevated"
                sourceComponent: Shadow {
                    elevation: 1  // ElevatedButton: level1 at rest and pressed
                    radius: height / 2
                }
            }
            Rectangle {
                anchors.fill: parent
                radius: height / 2
                color: b.fill
                border.width: b.variant === "outlined" ? 1 : 0
                border.color: b.c.outlineVariant || "#CAC4D0"  // OutlinedButtonTokens.OutlineColor
            }
        }
    }
    // A press ripples in the pill (Surface: `clickable(indication = ripple())` inside its
    // `clip(shape)`) in the button's content colour (LocalContentColor inside the Surface, which
    // `style.color` does not change: CO `prototypeForeground` colours only the label and icon).
    // No hover layer: the preview stands for a touch phone, which never hovers (Android sends
    // hover only for a mouse or stylus).
    property color rippleColor: ink
    property Item ripple: null
    onPressed: {
        // Over the label, as Compose draws the indication after the content.
        var top = pill.mapToItem(b, 0, 0).y, r = pill.height / 2;
        ripple = screen.ripple(b, pressX, pressY - top, rippleColor,
                               {x: 0, y: top, width: b.width, height: pill.height, z: 2,
                                tl: r, tr: r, br: r, bl: r});
    }
    onReleased: if (ripple) ripple.finish()
    onCanceled: if (ripple) ripple.finish()
    contentItem: Item {
        Row {
            id: row
            x: b.padStart + Math.max(0, (b.width - b.padStart - b.padEnd - implicitWidth) / 2)
            anchors.verticalCenter: parent.verticalCenter
            spacing: 8
            Loader {
                // only a button with an icon makes one
                active: b.iconName !== ""
                visible: active && item !== null && item.known
                anchors.verticalCenter: parent.verticalCenter
                sourceComponent: MIcon { name: b.iconName; size: 18; color: b.textColor }
            }
            ButtonLabel {
                text: b.text
                color: b.textColor
                anchors.verticalCenter: parent.verticalCenter
            }
        }
    }
}
