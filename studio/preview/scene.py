"""Qt Quick set-up shared by the preview widget and `render`: style, graphics API, QML paths."""

from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtGui import QGuiApplication
from PySide6.QtQml import QQmlEngine
from PySide6.QtQuick import QQuickWindow, QSGRendererInterface
from PySide6.QtQuickControls2 import QQuickStyle

from studio.resources import resource_path

#: Platforms without OpenGL here: Qt Quick must use its software scene graph on them.
SOFTWARE_PLATFORMS = frozenset({"offscreen", "minimal", "vnc"})


_prepared = False


def prepare_quick(software: bool | None = None) -> None:
    """Choose the Controls style and the scene-graph backend, once per process, before any Qt
    Quick window exists. `software=None` picks the software backend on platforms without OpenGL."""
    global _prepared
    if _prepared:
        return
    _prepared = True
    QQuickStyle.setStyle("Material")
    if software is None:
        app = QGuiApplication.instance()
        platform = QGuiApplication.platformName() if app is not None else ""
        software = platform in SOFTWARE_PLATFORMS
    if software:
        QQuickWindow.setGraphicsApi(QSGRendererInterface.GraphicsApi.Software)


def qml_url(name: str = "Preview.qml") -> QUrl:
    """The URL of one of the preview's QML files."""
    return QUrl.fromLocalFile(str(resource_path("qml", name)))


def configure_engine(engine: QQmlEngine) -> None:
    """Engine-wide settings for the preview scene."""
    engine.addImportPath(str(resource_path("qml")))


def add_rounded_images(engine: QQmlEngine) -> None:
    """Register the `image://rounded/` provider (once; its module costs ~70 ms to import, so only
    a spec with a rounded image pays for it)."""
    if engine.imageProvider("rounded") is None:
        from studio.preview.rounded import RoundedImages

        engine.addImageProvider("rounded", RoundedImages())


def add_shadow_images(engine: QQmlEngine) -> None:
    """Register the `image://shadow/` provider of elevation shadows (once, on the first shadow:
    a spec without elevation imports nothing for it)."""
    if engine.imageProvider("shadow") is None:
        from studio.preview.shadow import ShadowImages

        engine.addImageProvider("shadow", ShadowImages())
