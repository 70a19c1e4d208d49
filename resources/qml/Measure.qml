// The layout's text measurer (studio/preview/measure.py), one per scene: instances of the items that draw
// text (StyledText, RoleText, ButtonLabel, the text field's input), never shown, asked for their
// implicit sizes. One pair of items per type role, so a role's font is resolved once.
import QtQuick

Item {
    id: m
    visible: false
    property var styledItems: ({})
    property var roleItems: ({})
    Component { id: styledComponent; StyledText {} }
    Component { id: roleComponent; RoleText {} }
    ButtonLabel { id: buttonLabel }
    readonly property var fieldRole: { preview.themeRev; return preview.typeRole("bodyLarge"); }
    TextInput {
        // as nodes/textField.qml's input
        id: input
        font.family: preview.fontFamily
        font.pixelSize: m.fieldRole.size
        font.letterSpacing: m.fieldRole.letterSpacing
    }

    function styledPair(role: string): var {
        var pair = styledItems[role];
        if (!pair) {
            // natural: never given a width; wrapped: laid out at the width asked for
            pair = [styledComponent.createObject(m, {role: role}), styledComponent.createObject(m, {role: role})];
            styledItems[role] = pair;
        }
        return pair;
    }
    // StyledText's (implicitWidth, implicitHeight) at `width` (< 0: unset) and, in `width`, the
    // TextMetrics advance of its text in its font (what an eliding text node reports).
    function styled(text: string, role: string, ts: var, st: var, width: real): rect {
        var pair = styledPair(role);
        var t = width < 0 ? pair[0] : pair[1];
        t.ts = ts;
        t.nodeStyle = st;
        t.text = text;
        if (width >= 0) t.width = width;
        var advance = 0;
        if (width < 0 && st.overflow === "ellipsis") {
            metrics.font = t.font;
            metrics.text = text;
            advance = metrics.advanceWidth;
        }
        return Qt.rect(t.implicitWidth, t.implicitHeight, advance, 0);
    }
    TextMetrics { id: metrics }
    function roleText(text: string, role: string): point {
        var t = roleItems[role];
        if (!t) {
            t = roleComponent.createObject(m, {role: role});
            roleItems[role] = t;
        }
        t.text = text;
        return Qt.point(t.implicitWidth, t.implicitHeight);
    }
    // MButton's implicitWidth: at least 58 dp, its padding around the (18 dp icon, 8 dp gap and)
    // label (its Row is only laid out when polished in a window, so it is added up here).
    function buttonWidth(label: string, icon: string, padStart: real, padEnd: real): real {
        buttonLabel.text = label;
        var row = buttonLabel.implicitWidth + (icon !== "" && preview.glyph(icon) !== "" ? 18 + 8 : 0);
        return Math.max(58, row + padStart + padEnd);
    }
    function fieldHeight(text: string): real {
        input.text = text;
        return input.contentHeight;
    }
    function reset() {
        // after a theme change: items re-resolve their role's font
        for (var r in styledItems) { styledItems[r][0].destroy(); styledItems[r][1].destroy(); }
        for (var q in roleItems) roleItems[q].destroy();
        styledItems = {};
        roleItems = {};
    }
}
