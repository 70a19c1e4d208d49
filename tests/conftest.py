"""Suite-wide fixtures: offscreen Qt, isolated user data, an in-memory keychain, no model calls."""

from __future__ import annotations

import asyncio
import gc
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# Before any Qt import: xcb without a display aborts the whole process.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Real model calls are impossible in tests: the agent's HTTP client refuses any host but loopback.
os.environ["PROTO_STUDIO_ALLOW_MODEL_REQUESTS"] = "0"
os.environ.pop("PROTO_STUDIO_API_KEY", None)

REPO = Path(__file__).resolve().parent.parent

# The stand-in phone (real adbd in a network namespace), shared by tests/device and tests/ui;
# the log-fail handler: a WARNING or ERROR log record a test did not expect fails it.
pytest_plugins = ["tests.device.fixtures", "tests.helpers.logfail"]

# Cyclic garbage that holds Qt objects must be collected on the main (GUI) thread: an automatic
# collection triggered in a worker thread (an HTTP test server, the library executor) would
# destroy Qt objects there, which makes Qt warn or crash (the app uses studio.ui.gc for this).
# So automatic collection is off while a Qt test runs, and what the test left in cycles is
# collected here, on the main thread, when it ends. Everything it made is still in the youngest
# generation (no collection ran meanwhile), so a generation-0 collection finds it cheaply.
QT_FIXTURES = frozenset({"qtbot", "qapp", "qloop"})


@pytest.fixture(autouse=True)
def _no_leaked_windows(request: pytest.FixtureRequest) -> Iterator[None]:
    """A top-level widget that outlives its Qt test (not closed, not registered with qtbot, not
    parented) fails it; pytest-qt closes and deletes what `qtbot.addWidget` registered first."""
    if not QT_FIXTURES & set(request.fixturenames):
        yield
        return
    from tests.helpers.leaks import leaked_widgets, top_level_widgets

    request.getfixturevalue("qapp")
    before = top_level_widgets()
    yield
    leaked = leaked_widgets(before)
    if leaked:
        pytest.fail(f"top-level widgets outlived the test: {', '.join(leaked)}", pytrace=False)


@pytest.fixture(autouse=True)
def _qt_garbage_on_main_thread(request: pytest.FixtureRequest) -> Iterator[None]:
    if not QT_FIXTURES & set(request.fixturenames):
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.collect(0)
        gc.enable()


def _conformance_root() -> Path:
    env = os.environ.get("PROTO_STUDIO_CONFORMANCE")
    return Path(env) if env else REPO.parent / "shared" / "conformance" / "automobile"


@pytest.fixture(scope="session")
def conformance_dir() -> Path:
    """AutoMobile's corpus, read in place from ../shared (never copied into the repo)."""
    root = _conformance_root()
    if not root.is_dir():
        pytest.skip(
            f"AutoMobile conformance corpus not found at {root} (set PROTO_STUDIO_CONFORMANCE)"
        )
    return root


@pytest.fixture(autouse=True)
def _isolated_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Every test gets its own user data/config folder (library, settings, traces)."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("PROTO_STUDIO_HOME", str(home))
    return home


@pytest.fixture(autouse=True)
def _global_masker_as_it_was() -> Iterator[None]:
    """The process-wide masker forgets the secrets a test taught it (server tokens, MCP
    secrets): a stream holds back text that could start a known secret, so a secret beginning
    with "a" from one test held back another test's streamed "a"."""
    from studio.agent.trace import GLOBAL_MASKER

    known = GLOBAL_MASKER.secrets
    yield
    GLOBAL_MASKER.reset(known)


@pytest.fixture(autouse=True)
def _memory_keyring() -> Iterator[object]:
    """An in-memory keychain for every test; the real OS keychain is never touched."""
    import keyring

    from tests.helpers.memory_keyring import MemoryKeyring

    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture
def qloop(qapp: object) -> Iterator[asyncio.AbstractEventLoop]:
    """The studio's qasync event loop on pytest-qt's QApplication; tests call
    `qloop.run_until_complete`."""
    from studio.ui.event_loop import StudioEventLoop

    loop = StudioEventLoop(qapp)
    asyncio.set_event_loop(loop)
    yield loop
    loop.run_until_complete(loop.shutdown_asyncgens())
    loop.close()
    asyncio.set_event_loop(None)
