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

# The stand-in phone (real adbd in a network namespace), shared by tests/device and tests/ui.
pytest_plugins = ["tests.device.fixtures"]

# Cyclic garbage is collected on the main (GUI) thread only, after every test, as the app does
# with studio.ui.gc: a collection triggered in a worker thread (an HTTP test server, the library
# executor) would destroy Qt objects off the GUI thread, which makes Qt warn or crash.
gc.disable()


@pytest.fixture(autouse=True)
def _collect_on_main_thread() -> Iterator[None]:
    yield
    gc.collect()


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
    """A qasync event loop on pytest-qt's QApplication; tests call `qloop.run_until_complete`."""
    import qasync

    loop = qasync.QEventLoop(qapp)
    asyncio.set_event_loop(loop)
    yield loop
    loop.run_until_complete(loop.shutdown_asyncgens())
    loop.close()
    asyncio.set_event_loop(None)
