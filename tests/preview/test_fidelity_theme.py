"""Theme rows of docs/fidelity.md checked on rendered pixels (the resolution itself is unit-tested
in test_scheme.py): TH PrototypeTheme.kt and AP PrototypeAppearance.kt as the preview draws them."""

from __future__ import annotations

from typing import Any

from tests.preview.fidelity import bounds, close, hex_rgb, rgb_at, spec_of


def test_an_authored_screen_colour_repaints_bars_and_cards_TH_prototypeBaseColorScheme(  # noqa: N802
    scene: Any,
) -> None:
    # compose-renderer.md section 4 item 3: both are #FFFFFF on the phone.
    root = {"type": "column", "style": {"width": "fill", "height": "fill", "background": "#FFFFFF"},
            "children": [{"type": "topAppBar", "id": "bar", "title": "Home"},
                         {"type": "card", "id": "card", "style": {"width": {"dp": 200}, "height": {"dp": 80}},
                          "children": []}]}  # fmt: skip
    b = bounds(scene, spec_of(root))
    image = scene.grab()
    assert rgb_at(image, b["bar"]["x"] + 200, b["bar"]["y"] + 2) == (255, 255, 255)
    assert rgb_at(image, b["card"]["x"] + 100, b["card"]["y"] + 40) == (255, 255, 255)


def test_system_mode_follows_the_device_without_inference_AP_prototypeResolveAppearance(  # noqa: N802
    scene: Any,
) -> None:
    # compose-renderer.md section 4 item 6: a light phone stays light on a dark background.
    spec = spec_of({"type": "column", "style": {"background": "#101010"},
                    "children": [{"type": "text", "text": "Hi"}]}, theme={"mode": "system"})  # fmt: skip
    scene.show(spec)
    assert scene.controller.scheme.dark is False
    scene.controller.set_appearance("dark")
    assert scene.controller.scheme.dark is True


def test_the_screen_colour_follows_the_current_page_TH_prototypeAuthoredTheme(scene: Any) -> None:  # noqa: N802
    pages = [{"type": "box", "style": {"width": "fill", "height": "fill", "background": color},
              "children": []} for color in ("#FFFFFF", "#121212")]  # fmt: skip
    scene.show(spec_of({"type": "pager", "id": "p", "children": pages}))
    assert scene.controller.scheme.dark is False
    scene.controller.runtime.set_page("p", 1)
    assert scene.controller.scheme.dark is True
    image = scene.grab()
    assert close(rgb_at(image, 200, 400), hex_rgb("#121212"))


def test_no_theme_draws_the_baseline_primary_TH_prototypeBaseColorScheme(scene: Any) -> None:  # noqa: N802
    root = {"type": "box", "id": "b", "style": {"width": {"dp": 40}, "height": {"dp": 40},
            "background": "primary"}, "children": []}  # fmt: skip
    b = bounds(scene, spec_of(root))
    assert rgb_at(scene.grab(), b["b"]["x"] + 20, b["b"]["y"] + 20) == (0x67, 0x50, 0xA4)


def test_an_edit_of_the_screen_colour_re_infers_the_mode(scene: Any) -> None:
    spec = spec_of({"type": "column", "style": {"background": "#FFFFFF"}, "children": []})
    scene.show(spec)
    assert scene.controller.scheme.dark is False
    edited = spec_of({"type": "column", "style": {"background": "#101010"}, "children": []})
    scene.controller.apply_change(edited, [])  # the root updated in place
    assert scene.controller.scheme.dark is True
