"""The served web page in a real browser: Debian's Chromium, headless, driven by Selenium through
/usr/bin/chromedriver. A designer opens the link `proto-studio serve` printed, types a change,
answers the agent's question, watches the draft land and applies it; a wrong token is refused on
the page. On Debian (where scripts/system-deps --tests installs chromium and chromium-driver, as
CI does) a missing browser fails the tests; elsewhere (macOS, Windows, other Linux systems) they
are skipped with that reason. Each test is bounded (120 s; the page load 30 s, every wait 20 s)."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from studio.agent.testing import ScriptedModel, calls, reply
from studio.library.store import Library
from tests.helpers.demo import RENAME_GO
from tests.service.helpers import TOKEN, make_library, running_server

CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
INSTALLED = CHROMIUM is not None and shutil.which(DRIVER) is not None
#: Where scripts/system-deps --tests installs Debian's chromium: there it must be present.
DEBIAN = sys.platform.startswith("linux") and os.path.exists("/etc/debian_version")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(120),
    pytest.mark.skipif(
        not INSTALLED and not DEBIAN,
        reason="the web client is tested in Debian's chromium and chromium-driver, which this "
        f"system ({sys.platform}, not Debian) does not have",
    ),
]


class ServerThread:
    """The harness server on its own event loop in a thread (the browser runs in this one)."""

    def __init__(self, model: Any, library: Library) -> None:
        self.url = ""
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = threading.Thread(target=self._main, args=(model, library), daemon=True)
        self._thread.start()
        assert self._ready.wait(20), "the server did not start"

    def _main(self, model: Any, library: Library) -> None:
        async def serve() -> None:
            self._loop = asyncio.get_running_loop()
            self._stop = asyncio.Event()
            async with running_server(model, library=library) as (_, ws_url, _):
                self.url = ws_url.replace("ws://", "http://").rsplit("/", 1)[0] + "/"
                self._ready.set()
                await self._stop.wait()

        asyncio.run(serve())

    def close(self) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(20)


@pytest.fixture
def browser() -> Iterator[Any]:
    if not INSTALLED:
        pytest.fail(
            "chromium and chromium-driver are missing on this Debian system: run "
            "scripts/system-deps --tests (as root)",
            pytrace=False,
        )
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM or ""
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",  # containers give /dev/shm 64 MiB
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={profile}",
        "--window-size=412,915",  # a phone's viewport
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def wait_text(driver: Any, element_id: str, words: str, timeout: float = 20) -> str:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, timeout).until(
        lambda d: words in d.find_element(By.ID, element_id).text,
        message=f"#{element_id} never said {words!r}",
    )
    return str(driver.find_element(By.ID, element_id).text)


def test_a_designer_types_a_change_on_the_page_and_applies_it(browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    library, entry_id = make_library()
    model = ScriptedModel(
        [
            calls(("askUser", {"question": "Which label?", "options": ["Send", "Go on"]})),
            calls(("patch", RENAME_GO), text="Renaming the button."),
            reply("Renamed it to Send."),
        ]
    )
    server = ServerThread(model, library)
    try:
        browser.get(server.url + "#token=" + TOKEN)  # the link proto-studio serve prints
        wait_text(browser, "status", "connected")
        assert "token" not in browser.current_url  # the token does not stay in the address bar
        WebDriverWait(browser, 10).until(
            lambda d: d.find_element(By.ID, "prototype").get_attribute("value") == entry_id
        )
        browser.find_element(By.ID, "instruction").send_keys("Rename the button")
        browser.find_element(By.ID, "send").click()
        wait_text(browser, "ask-question", "Which label?")
        options = browser.find_elements(By.CSS_SELECTOR, "#ask-options button")
        assert [o.text for o in options] == ["Send", "Go on"]
        options[0].click()
        log = wait_text(browser, "log", "completed: Renamed it to Send.")
        assert "✎ Rename the button to Send" in log
        assert "Renaming the button." in log
        wait_text(browser, "review-text", "1 change(s)")
        assert "tokens" in browser.find_element(By.ID, "counters").text
        browser.find_element(By.ID, "apply").click()
        wait_text(browser, "log", "applied: Rename the button to Send")
        browser.save_screenshot(str(tempfile.gettempdir() + "/proto-studio-web-client.png"))
    finally:
        server.close()
    assert Library().load_spec(entry_id)["root"]["children"][1]["label"] == "Send"


def test_the_page_says_a_wrong_token_was_refused(browser: Any) -> None:
    from selenium.webdriver.common.by import By

    library, _ = make_library()
    server = ServerThread(ScriptedModel(), library)
    try:
        browser.get(server.url)
        browser.find_element(By.ID, "token").send_keys("not-the-token")
        browser.find_element(By.ID, "connect").click()
        assert "wrong token" in wait_text(browser, "status", "refused")
        assert browser.find_element(By.ID, "signin").is_displayed()
        assert not browser.find_element(By.ID, "work").is_displayed()
    finally:
        server.close()
