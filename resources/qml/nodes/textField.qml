// textField: a Material 3 filled text field bound two-way to a string key (SC
// `RenderPrototypeTextField`: `TextField(shown, onValueChange, placeholder = Text(...))`). Look
// (FilledTextFieldTokens, TextFieldDefaults): at least 280 x 56 dp, surfaceContainerHighest with
// the theme's extraSmall corner on top, a 1 dp onSurfaceVariant line at the bottom (2 dp primary
// while focused), 16 dp padding, input bodyLarge onSurface, placeholder bodyLarge
// onSurfaceVariant, caret primary. Each edit writes the key (RT `TextChange`; a refused edit
// reverts); a tap on the field (its press released) runs the node's onTap.
import QtQuick
import ".."
import "../Corners.js" as Corners

Item {
    id: f
    property bool defaultFillW: false
    readonly property string bound: {
        d.rev;
        var v = preview.value(d.n, d.p.stateKey);
        return v === null || v === undefined ? "" : String(v);
    }
    readonly property var role: { preview.themeRev; return preview.typeRole("bodyLarge"); }
    implicitWidth: 280
    implicitHeight: Math.max(56, input.contentHeight + 32)
    Rectangle {
        anchors.fill: parent
        color: preview.colors.surfaceContainerHighest
        topLeftRadius: Corners.of(preview, "extraSmall")
        topRightRadius: topLeftRadius
    }
    Rectangle {
        anchors.left: parent.left
        anchors.right: parent.right
        anchors.bottom: parent.bottom
        height: input.activeFocus ? 2 : 1
        color: input.activeFocus ? preview.colors.primary : preview.colors.onSurfaceVariant
    }
    TextInput {
        id: input
        objectName: "input"
        x: 16
        width: f.width - 32
        anchors.verticalCenter: parent.verticalCenter
        text: f.bound
        color: d.ts.color || preview.colors.onSurface
        selectionColor: preview.colors.primary
        selectedTextColor: preview.colors.onPrimary
        font.family: preview.fontFamily
        font.pixelSize: f.role.size
        font.letterSpacing: f.role.letterSpacing
        // Set, so that LayoutMirroring puts it at the right under Rtl, and an Arabic value at
        // the left under Ltr: the start of the layout direction, as BasicTextField aligns it
        // (TextAlign.Start in the direction resolved from the layout's). Qt's default follows
        // the value's own first strong character instead.
        horizontalAlignment: TextInput.AlignLeft
        clip: true
        cursorDelegate: Rectangle {
            width: 2
            color: preview.colors.primary
            visible: input.cursorVisible
        }
        onTextEdited: if (!preview.setValue(d.n, d.p.stateKey, text)) text = f.bound  // refused: revert
        // While it has the focus the field stays made wherever a scroll moves it (the phone's
        // verticalScroll composes all of its content): the focus and the keyboard stay.
        onActiveFocusChanged: preview.fieldFocus(d.n, activeFocus)
        TapHandler {
            // a passive watcher of the field's own press (focus and the caret stay the
            // TextInput's): on release it shows a keyboard that Back hid, and runs the node's
            // onTap
            onTapped: { preview.fieldTapped(); preview.tap(d.n, ""); }
        }
    }
    Text {
        // the placeholder, while the field is empty
        visible: input.text === "" && !!d.p.placeholder
        x: 16
        width: f.width - 32
        anchors.verticalCenter: parent.verticalCenter
        text: {
            preview.rtl;  // a Compose Text: a paragraph in the layout direction (bidi.py)
            return preview.directed(d.p.placeholder || "");
        }
        color: preview.colors.onSurfaceVariant
        font: input.font
        elide: Text.ElideRight
        textFormat: Text.PlainText
        // the direction mark's letter spacing given back, as in StyledText.qml
        leftPadding: text.charCodeAt(0) === 0x200E ? -font.letterSpacing : 0
        rightPadding: text.charCodeAt(0) === 0x200F ? -font.letterSpacing : 0
    }
    onBoundChanged: if (input.text !== bound) input.text = bound

    // A re-theme remakes the field (controller `keepingViews`): the new one takes the focus back
    // with the caret and selection where they were, so the keyboard stays up and typing goes on,
    // as the phone's focused text field outlives a recomposition.
    Connections {
        target: preview
        function onKeepingViews() {
            if (input.activeFocus)
                preview.keepView(d.n, "focus", {
                    cursor: input.cursorPosition, start: input.selectionStart, end: input.selectionEnd
                });
        }
    }
    Component.onCompleted: {
        var kept = preview.keptView(d.n, "focus");
        if (!kept) return;
        preview.keepView(d.n, "focus", null);
        input.forceActiveFocus();
        if (kept.start !== kept.end)
            input.select(kept.cursor === kept.start ? kept.end : kept.start, kept.cursor);
        else
            input.cursorPosition = kept.cursor;
    }
}
