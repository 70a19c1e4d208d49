"""studio/preview/bidi.py: the direction marks that make a Qt paragraph take the layout
direction (androidx TextStyle.kt `resolveTextDirection`: strict, not content-based)."""

from __future__ import annotations

from studio.preview.bidi import LRM, RLM, directed, unmarked


def test_left_to_right_a_text_without_right_to_left_characters_is_left_as_it_is() -> None:
    text = "Hello, world!\nSecond line"
    assert directed(text, rtl=False) is text
    assert directed("", rtl=True) == ""


def test_right_to_left_every_line_starts_with_a_right_to_left_mark() -> None:
    assert directed("Hello!", rtl=True) == RLM + "Hello!"
    assert directed("Two\nlines!", rtl=True) == f"{RLM}Two\n{RLM}lines!"


def test_left_to_right_a_hebrew_or_arabic_text_gets_left_to_right_marks() -> None:
    assert directed("\u05e9\u05dc\u05d5\u05dd!", rtl=False) == LRM + "\u05e9\u05dc\u05d5\u05dd!"
    assert directed("a\n\u0645\u0631\u062d\u0628\u0627", rtl=False).count(LRM) == 2


def test_unmarked_gives_the_text_back_without_the_marks() -> None:
    for text in ("Hello!", "Two\nlines!", "\u05e9\u05dc\u05d5\u05dd!\nb"):
        for rtl in (False, True):
            assert unmarked(directed(text, rtl)) == text
