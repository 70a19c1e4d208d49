"""Images from assets (placeholder when missing), icons from the installed font, the phone frame."""

from __future__ import annotations

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
