"""Preview scenes the user never sees: the agent's `preview` tool renders the draft in one of its
own (`DraftScene`), and library thumbnails are drawn in one; both are built and grabbed on the
GUI thread in small steps, with awaits between them so input and paints get through."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QWindow

if TYPE_CHECKING:
    from studio.preview.render import HeadlessScene

JSON = dict[str, Any]
#: The pause between the steps of building and grabbing a scene.
STEP = 0.02


def show_out_of_sight(view: QWindow) -> None:
    """Show a helper window where the user never sees it: off screen, not in the task bar, never
    focused, and (a tool tip) never counted as the last window closing (which would quit)."""
    view.setFlags(
        Qt.WindowType.ToolTip
        | Qt.WindowType.FramelessWindowHint
        | Qt.WindowType.WindowTransparentForInput
        | Qt.WindowType.WindowDoesNotAcceptFocus
    )
    view.setPosition(-20000, -20000)
    view.show()


async def render_steps(scene: HeadlessScene, spec: JSON, appearance: str) -> QImage:
    """Load an expanded spec into `scene` and grab it, a step at a time (bindings, layout and
    image loads settle between steps). A backend that cannot grab a hidden window gets the view
    shown out of sight first."""
    scene.load(spec, appearance, visible=False)
    for _ in range(3):
        await asyncio.sleep(STEP)
    image = scene.grab_now()
    if image.isNull() and not scene.view.isVisible():
        show_out_of_sight(scene.view)
        await asyncio.sleep(STEP)
        image = scene.grab_now()
    return image


class DraftScene:
    """The agent's `preview` tool (a `studio.agent.driver.DraftRenderer`): the draft in a scene
    of its own, at the size and in the theme the user's preview has, never in the user's
    preview. `size()` and `theme()` read the preview's current choices."""

    def __init__(
        self,
        size: Callable[[], tuple[int, int]] = lambda: (412, 915),
        theme: Callable[[], str] = lambda: "light",
    ) -> None:
        self._size = size
        self._theme = theme
        self._scene: HeadlessScene | None = None
        self._scene_size: tuple[int, int] | None = None

    async def summary(self, spec: JSON) -> list[JSON]:
        from studio.preview.render import HeadlessScene
        from studio.spec import expand

        size = self._size()
        if self._scene is None or self._scene_size != size:
            self.close()
            self._scene = HeadlessScene(*size, appearance=self._theme())
            self._scene_size = size
            await asyncio.sleep(STEP)
        scene = self._scene
        await render_steps(scene, expand(spec), self._theme())
        return list(scene.visible_summary())

    def close(self) -> None:
        scene, self._scene = self._scene, None
        if scene is not None:
            scene.close()
