"""The harness of the OpenGL probes: child processes that drive a preview scene on the platform
they are started on (xcb under a private Xvfb: the OpenGL scene graph, which the offscreen tests
cannot reach) and print one JSON line with what they saw, and the test side that starts one and
reads that line.

A probe module keeps only its spec and what it does:

    def body(scene: HeadlessScene, out: dict[str, Any]) -> None:
        scene.show(SPEC)
        out["seen"] = ...

    if __name__ == "__main__":
        sys.exit(run_probe(body))

and its test asserts what it saw: `seen = opengl_probe("tests.preview.name_probe")`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtGui import QGuiApplication

if TYPE_CHECKING:
    from studio.preview.render import HeadlessScene

#: The probes' screen: the `scene` fixture's frameless 412x915 light phone.
SIZE = (412, 915)


@contextmanager
def open_scene(*, rtl: bool = False) -> Iterator[HeadlessScene]:
    """A frameless 412x915 light scene (laid out right to left with `rtl`), closed after."""
    from studio.preview.render import HeadlessScene

    scene = HeadlessScene(*SIZE, "light", chrome=False, rtl=rtl)
    try:
        yield scene
    finally:
        scene.close()


def run_probe(body: Callable[[HeadlessScene, dict[str, Any]], None]) -> int:
    """The probe's process: Qt Quick prepared for this platform, `body(scene, out)` on a fresh
    scene while Qt's messages are captured, then `out` with the scene's graphics API ("api")
    and those messages ("messages") printed as one JSON line. Returns the exit status."""
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    from studio.preview.render import captured_messages, graphics_api
    from studio.preview.scene import prepare_quick

    prepare_quick(None)
    out: dict[str, Any] = {}
    with captured_messages() as messages, open_scene() as scene:
        body(scene, out)
        out["api"] = graphics_api(scene)
    out["messages"] = messages
    print(json.dumps(out))
    del app
    return 0


def wait_for(condition: Callable[[], bool], timeout_s: float = 5.0) -> bool:
    """Runs the event loop until `condition` holds (True) or the time is up (False): the probes'
    qtbot.waitUntil, whose outcome they report rather than raise."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        loop = QEventLoop()
        QTimer.singleShot(10, loop.quit)
        loop.exec()
    return True


# --- the test side ----------------------------------------------------------------------------


def opengl_probe(module: str, timeout_s: float = 100) -> dict[str, Any]:
    """Runs the probe `module` (e.g. "tests.preview.ripple_probe") on the OpenGL scene graph (xcb
    on a private Xvfb; skips where Xvfb is missing) and returns what it printed, once it drew
    through OpenGL with no Qt message and nothing on stderr. Fails in one line naming the probe
    and the tail of its stderr where it times out, exits badly, prints no JSON or logs."""
    import pytest

    from studio.preview.cli import OPENGL_CHILD_ENV
    from studio.preview.xvfb import VirtualDisplay, xvfb_available
    from tests.preview.conftest import REPO

    if not xvfb_available():
        pytest.skip("Xvfb is not installed (apt-get install xvfb; see scripts/system-deps)")
    with VirtualDisplay() as display:
        env = dict(os.environ, **OPENGL_CHILD_ENV, DISPLAY=display.display)
        try:
            done = subprocess.run(
                [sys.executable, "-m", module],
                env=env, cwd=REPO, capture_output=True, text=True, timeout=timeout_s, check=False,
            )  # fmt: skip
        except subprocess.TimeoutExpired as timed_out:
            tail = _tail(timed_out.stderr)
            pytest.fail(f"{module}: no answer in {timeout_s:g} s; stderr: {tail}", pytrace=False)
    tail = _tail(done.stderr)
    if done.returncode != 0:
        pytest.fail(f"{module}: exit status {done.returncode}; stderr: {tail}", pytrace=False)
    try:
        seen: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        pytest.fail(f"{module}: no JSON line on stdout; stderr: {tail}", pytrace=False)
    if seen.get("api") != "OpenGL":
        pytest.fail(f"{module}: drew on {seen.get('api')!r}, not OpenGL", pytrace=False)
    if seen["messages"] or done.stderr.strip():
        logged = " | ".join(m["text"] for m in seen["messages"])[:1500] or "nothing"
        pytest.fail(f"{module}: Qt logged {logged}; stderr: {tail}", pytrace=False)
    return seen


def _tail(stderr: str | bytes | None, lines: int = 6) -> str:
    """The last lines of a child's stderr as one line ("(empty)" for none)."""
    if isinstance(stderr, bytes):
        stderr = stderr.decode(errors="replace")
    kept = [line.strip() for line in (stderr or "").splitlines() if line.strip()][-lines:]
    return " | ".join(kept)[-1500:] or "(empty)"
