"""Images from assets (placeholder when missing), icons from the installed font, the phone frame."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtGui import QColor, QImage

from studio.preview.assets import directory_resolver
from tests.preview.helpers import pixels

SPEC = {
    "id": "img",
    "window": {"placement": {"type": "fullscreen"}},
    "root": {
        "type": "row",
        "children": [
            {
                "type": "image",
                "asset": "red",
                "style": {"width": {"dp": 100}, "height": {"dp": 100}},
            },
            {
                "type": "image",
                "asset": "missing",
                "style": {"width": {"dp": 100}, "height": {"dp": 100}},
            },
        ],
    },
}


def test_asset_images_and_missing_placeholder(quick: Any, tmp_path: Path) -> None:
    from studio.preview.render import HeadlessScene

    red = QImage(20, 20, QImage.Format.Format_ARGB32)
    red.fill(QColor("#FF0000"))
    assert red.save(str(tmp_path / "red.png"))
    scene = HeadlessScene(412, 915, "light", directory_resolver(tmp_path), chrome=False)
    try:
        scene.show(SPEC)
        px = pixels(scene.grab())
        b, g, r = px[50, 50][:3]
        assert (r, g, b) == (255, 0, 0)  # the asset, scaled to fit
        b, g, r = px[5, 105][:3]
        assert (r, g, b) != (255, 0, 0) and not (r > 250 and g > 250 and b > 250)  # neutral box
    finally:
        scene.close()


def test_directory_resolver_never_leaves_its_folder(tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(b"x")
    resolve = directory_resolver(tmp_path)
    assert resolve("a") == (tmp_path / "a.png").resolve()
    assert resolve("../a") is None and resolve("nope") is None


def test_phone_frame_scales_the_screen_to_fit(quick: Any, qtbot: Any) -> None:
    from studio.preview.widget import PreviewWidget

    widget = PreviewWidget()
    qtbot.addWidget(widget)
    widget.resize(300, 500)
    widget.show()
    qtbot.waitExposed(widget)
    widget.set_spec(SPEC)
    widget.set_device_size(360, 800)
    qtbot.waitUntil(lambda: widget.grab_image().height() < 500)
    shot = widget.grab_image()
    assert abs(shot.width() / shot.height() - 360 / 800) < 0.02


def test_edit_mode_picks_nodes_through_the_scaled_frame(quick: Any, qtbot: Any) -> None:
    from PySide6.QtCore import QPointF, Qt

    from studio.preview.widget import PreviewWidget

    widget = PreviewWidget()
    qtbot.addWidget(widget)
    widget.resize(320, 560)
    widget.show()
    qtbot.waitExposed(widget)
    spec = {
        "id": "f",
        "window": {"placement": {"type": "fullscreen"}},
        "root": {"type": "column", "children": [
            {"type": "text", "text": "Title", "style": {"textStyle": "headlineLarge"}},
            {"type": "button", "id": "go", "label": "Go", "onTap": [{"type": "emit", "name": "go"}]},
        ]},
    }  # fmt: skip
    widget.set_spec(spec)
    widget.set_edit_mode(True)
    entry = next(e for e in widget.visible_summary() if e["type"] == "button")
    b = entry["bounds"]
    screen = widget.screen_item()
    assert screen.scale() < 1  # the 412x915 screen is scaled down into the frame
    point = screen.mapToScene(QPointF(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2))
    with qtbot.waitSignal(widget.nodeClicked) as clicked:
        qtbot.mouseClick(widget.quick_widget, Qt.MouseButton.LeftButton, pos=point.toPoint())
    assert clicked.args == ["go"]
    assert widget.runtime is not None and not widget.runtime.events


def test_the_preview_lists_missing_assets_as_the_phone_reports_them_IM_prototypeAssetReferences(  # noqa: N802
    quick: Any, qtbot: Any, tmp_path: Path
) -> None:
    """PrototypeController.kt `missingAssets`: the referenced ids the store lacks, hidden nodes
    and other pages included, first use first; the show still succeeds."""
    from studio.preview.widget import PreviewWidget

    red = QImage(4, 4, QImage.Format.Format_ARGB32)
    red.fill(QColor("#FF0000"))
    assert red.save(str(tmp_path / "red.png"))
    widget = PreviewWidget(asset_resolver=directory_resolver(tmp_path))
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    spec = json.loads(json.dumps(SPEC))
    hidden = {"type": "image", "asset": {"light": "day", "dark": "red"},
              "visibleWhen": {"key": "never", "equals": True}}  # fmt: skip
    spec["state"] = {"never": False}
    spec["root"]["children"].append(hidden)
    with qtbot.waitSignal(widget.missingAssetsChanged) as shown:
        widget.set_spec(spec)
        # The whole tree's walk waits for the show's first frame, out of its way.
        assert shown.signal_triggered is False
    assert shown.args == [["missing", "day"]] and widget.missing_assets == ["missing", "day"]
    # An edit that changes no reference says nothing again.
    edited = json.loads(json.dumps(spec))
    edited["root"]["children"][0]["style"]["width"] = {"dp": 90}
    with qtbot.assertNotEmitted(widget.missingAssetsChanged):
        widget.apply_change(edited, ["root.children[0]"])
    # One that adds a font asset the folder lacks does; one that drops them all clears it.
    edited = json.loads(json.dumps(edited))
    edited["root"]["children"][0]["style"]["fontFamily"] = {"asset": "brand"}
    with qtbot.waitSignal(widget.missingAssetsChanged) as changed:
        widget.apply_change(edited, ["root.children[0]"])
    assert changed.args == [["brand", "missing", "day"]]
    edited = json.loads(json.dumps(edited))
    edited["root"]["children"] = edited["root"]["children"][:1]
    del edited["root"]["children"][0]["style"]["fontFamily"]
    with qtbot.waitSignal(widget.missingAssetsChanged) as cleared:
        widget.apply_change(edited, ["root"])
    assert cleared.args == [[]] and widget.missing_assets == []
