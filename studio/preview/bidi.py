"""The paragraph direction of the preview's texts: the layout direction's, as Compose resolves it.

Compose resolves a text style's unset direction from the layout direction, strictly (androidx
ui-text TextStyle.kt `resolveTextDirection(layoutDirection, textDirection)`: `null`, later
`TextDirection.Unspecified`, becomes `TextDirection.Rtl` under `LayoutDirection.Rtl` and
`TextDirection.Ltr` under `LayoutDirection.Ltr`); only an explicit `TextDirection.Content` looks
at the text, and AutoMobile's renderer sets none (RM `mapPrototypeStyle`, SC "text"). So on a
phone in an Arabic locale "Hello!" is a right-to-left paragraph that reads "!Hello" from the
right edge, and under Ltr "שלום!" is a left-to-right one with its "!" at the right.

Qt Quick's Text has no direction property: a paragraph takes the direction of its first strong
character. A zero-width RIGHT-TO-LEFT MARK (LEFT-TO-RIGHT MARK) at the start forces it, and one
after each newline gives each line of a multi-line text the direction too, as Android lays out
each `\\n`-separated paragraph in the resolved direction (Qt's plain Text is one bidi paragraph
whose lines are only separated: without it, a "!" before or after a newline would take the
direction of the letters around it, the mark is a strong character between the two). So every
line starts with one mark, drawn at its start edge. A mark has no advance of its own, but Qt
gives it the font's letter spacing like any glyph: the text items give that back with a negative
padding on the mark's side (StyledText.qml, RoleText.qml, ButtonLabel.qml), so sizes and places
stay those of the unmarked text.

The preview and its layout measure read texts through `directed` (the controller's `text` slot
and `bind_text`), so what is measured is what is drawn, and a text measured under one direction
is a different string, hence a different cache entry, from the same text under the other.
"""

from __future__ import annotations

import re

LRM = "\u200e"
RLM = "\u200f"

#: A character of a right-to-left script (Hebrew, Arabic, Syriac, Thaana, NKo ... and their
#: presentation forms, and the supplementary planes' right-to-left blocks) or a right-to-left
#: control. A superset of bidi classes R and AL: a false hit only adds a harmless mark.
_RIGHT_TO_LEFT = re.compile(
    "[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u200f\u202b\u202e"
    "\U00010800-\U00010fff\U0001e800-\U0001efff]"
)


def directed(text: str, rtl: bool) -> str:
    """`text` as a paragraph of the layout direction (right to left when `rtl`). Left to right,
    a text without a right-to-left character is returned as it is: Qt draws it left to right
    already, so the default direction changes no string (no cost, no cache difference)."""
    if not text or (not rtl and _RIGHT_TO_LEFT.search(text) is None):
        return text
    mark = RLM if rtl else LRM
    if "\n" in text:
        text = text.replace("\n", "\n" + mark)
    return mark + text


def unmarked(text: str) -> str:
    """`text` without direction marks (what a reader of the screen is told; the marks are
    invisible, so an authored one goes too)."""
    return text.replace(LRM, "").replace(RLM, "") if LRM in text or RLM in text else text
