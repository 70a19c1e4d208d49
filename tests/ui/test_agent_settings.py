"""Agent settings: the key goes to the keychain and is never shown; Test connection makes a real
request to a local HTTP server; local model servers are found on loopback and offered."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import keyring
import keyring.backends.fail
import pytest
from PySide6.QtWidgets import QLabel, QLineEdit

from studio.agent.config import AgentConfig, config_path, load_config
from studio.agent.keys import SERVICE, KeyStore
from studio.agent.providers import probe_local_servers
from studio.ui.agent_settings import AgentSettingsDialog
from tests.agent.util import ThreadRecordingKeyring
from tests.helpers.waiting import run_until
from tests.ui.agent_helpers import collect, collect_qt_garbage

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

KEY = "sk-proj-TESTKEY0123456789abcdef"


class _Models(BaseHTTPRequestHandler):
    """GET /v1/models: the model list with the right key (or when no key is required), else 401."""

    required: str | None = KEY
    seen: list[dict[str, str]] = []

    def do_GET(self) -> None:  # noqa: N802 - the http.server API
        type(self).seen.append(dict(self.headers))
        if self.path != "/v1/models":
            self.send_response(404)
            self.end_headers()
            return
        if self.required and self.headers.get("Authorization") != f"Bearer {self.required}":
            body = json.dumps({"error": {"message": "Incorrect API key provided"}}).encode()
            self.send_response(401)
        else:
            body = json.dumps(
                {"object": "list", "data": [{"id": "llama3.2"}, {"id": "qwen2.5"}]}
            ).encode()
            self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        return None


def _serve(required: str | None) -> Iterator[str]:
    handler = type("Handler", (_Models,), {"required": required, "seen": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
    )
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture(autouse=True)
def _keep_running_when_the_dialog_closes(qapp: Any) -> Iterator[None]:
    """As in the studio (app.py): closing the last window (here the dialog) does not quit."""
    before = qapp.quitOnLastWindowClosed()
    qapp.setQuitOnLastWindowClosed(False)
    yield
    qapp.setQuitOnLastWindowClosed(before)


@pytest.fixture(autouse=True)
def _no_qt_garbage_for_other_threads() -> None:
    collect_qt_garbage()  # before this test's HTTP server thread could collect it


@pytest.fixture
def server() -> Iterator[str]:
    yield from _serve(KEY)


@pytest.fixture
def open_server() -> Iterator[str]:
    yield from _serve(None)


@pytest.fixture
def http(qloop: Any) -> Iterator[httpx.AsyncClient]:
    client = httpx.AsyncClient()
    yield client
    qloop.run_until_complete(client.aclose())


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _dialog(
    qtbot: Any, http: httpx.AsyncClient, config: AgentConfig | None = None, **kw: Any
) -> AgentSettingsDialog:
    dialog = AgentSettingsDialog(
        config or AgentConfig(),
        http=http,
        keys=kw.pop("keys", None) or KeyStore(),
        probe=False,
        **kw,
    )
    qtbot.addWidget(dialog)
    _key_checked(dialog)
    return dialog


def _key_checked(dialog: AgentSettingsDialog) -> None:
    """Run the loop until the dialog shows what the keychain holds (it is read off the GUI thread)."""
    import asyncio

    run_until(asyncio.get_event_loop(), lambda: dialog.key_stored is not None)


def _all_text(dialog: AgentSettingsDialog) -> str:
    texts = [w.text() for w in dialog.findChildren(QLabel)]
    texts += [
        w.text()
        for w in dialog.findChildren(QLineEdit)
        if w.echoMode() == QLineEdit.EchoMode.Normal
    ]
    texts += [w.placeholderText() for w in dialog.findChildren(QLineEdit)]
    return "\n".join(texts)


def test_the_key_goes_to_the_keychain_and_is_never_shown(
    qtbot: Any, qloop: Any, http: httpx.AsyncClient, _memory_keyring: Any
) -> None:
    dialog = _dialog(qtbot, http, AgentConfig(profile="openai"))
    assert dialog.key.echoMode() == QLineEdit.EchoMode.Password  # masked while typed
    assert dialog.key_status.text() == "No key stored: paste one above."
    dialog.model.setEditText("gpt-4o-mini")
    dialog.max_turns.setValue(12)
    dialog.token_budget.setValue(50_000)
    dialog.local_only.setChecked(False)
    dialog.key.setText(KEY)
    saved = collect(dialog.saved)
    dialog.save_button.click()
    run_until(qloop, lambda: bool(saved))
    assert _memory_keyring.store[(SERVICE, "openai")] == KEY
    assert dialog.key.text() == ""
    assert KEY not in _all_text(dialog)
    config: AgentConfig = saved[0]
    assert (config.model, config.max_turns, config.token_budget) == ("gpt-4o-mini", 12, 50_000)
    # The settings file has everything but the key.
    on_disk = config_path().read_text()
    assert KEY not in on_disk and json.loads(on_disk)["model"] == "gpt-4o-mini"
    assert load_config()[0] == config

    again = _dialog(qtbot, http, config)
    assert again.key.text() == ""  # the stored key is never read into a widget
    assert again.key_status.text() == "A key is stored in the OS keychain (••••••••)."
    assert KEY not in _all_text(again)
    again.remove_key.click()
    run_until(qloop, lambda: again.key_stored is False)
    assert (SERVICE, "openai") not in _memory_keyring.store
    assert again.key_status.text() == "No key stored: paste one above."
    assert not again.remove_key.isEnabled()


def test_test_connection_reports_success_and_fills_the_models(
    qtbot: Any, qloop: Any, http: httpx.AsyncClient, server: str
) -> None:
    dialog = _dialog(qtbot, http, AgentConfig(profile="generic", base_url=server))
    dialog.key.setText(KEY)
    qloop.run_until_complete(dialog.test_connection())
    assert dialog.test_result.text().startswith("✓ Connected in ")
    assert "2 model(s): llama3.2, qwen2.5" in dialog.test_result.text()
    assert [dialog.model.itemText(i) for i in range(dialog.model.count())] == [
        "llama3.2",
        "qwen2.5",
    ]
    assert dialog.model.currentText() == "llama3.2"


def test_test_connection_uses_the_stored_key_and_says_when_it_is_rejected(
    qtbot: Any, qloop: Any, http: httpx.AsyncClient, server: str
) -> None:
    KeyStore().set("generic", "sk-wrong-key-000000")
    dialog = _dialog(qtbot, http, AgentConfig(profile="generic", base_url=server))
    tested = collect(dialog.connectionTested)
    dialog.test_button.click()
    run_until(qloop, lambda: bool(tested))
    assert not tested[0].ok
    assert (
        dialog.test_result.text() == f"✗ {server}/models: HTTP 401, the server rejected the API key"
    )
    assert "sk-wrong" not in _all_text(dialog)


def test_test_connection_names_an_unreachable_server(
    qtbot: Any, qloop: Any, http: httpx.AsyncClient
) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    dialog = _dialog(qtbot, http, AgentConfig(profile="generic", base_url=url))
    qloop.run_until_complete(dialog.test_connection())
    assert dialog.test_result.text().startswith(f"✗ {url}/models: cannot connect")


def test_test_connection_never_leaves_the_machine_in_tests(
    qtbot: Any, qloop: Any, http: httpx.AsyncClient
) -> None:
    dialog = _dialog(qtbot, http, AgentConfig(profile="openai"))
    qloop.run_until_complete(dialog.test_connection())
    assert (
        "model requests to https://api.openai.com/v1/models are disabled"
        in dialog.test_result.text()
    )


def test_a_local_model_server_is_found_and_offered(
    qtbot: Any, qloop: Any, http: httpx.AsyncClient, open_server: str
) -> None:
    closed = f"http://127.0.0.1:{_closed_port()}/v1"
    dialog = _dialog(
        qtbot,
        http,
        AgentConfig(profile="openai"),
        local_candidates=(("ollama", open_server), ("lmstudio", closed)),
        probe_seconds=5.0,  # a loaded CI machine may be slow to answer even on loopback
    )
    found = qloop.run_until_complete(dialog.probe_local())
    port = open_server.split(":")[2].split("/")[0]
    assert [s.profile for s in found] == ["ollama"]
    assert dialog.local_label.text() == f"Found on this machine: Ollama on port {port} (llama3.2)"
    assert [b.text() for b in dialog.use_local_buttons] == [f"Use Ollama on port {port} (llama3.2)"]
    dialog.use_local_buttons[0].click()
    _key_checked(dialog)
    config = dialog.config()
    assert (config.profile, config.base_url, config.model) == ("ollama", open_server, "llama3.2")
    assert dialog.key_status.text().startswith("This server needs no key")


def test_the_probe_stays_on_loopback(qloop: Any, http: httpx.AsyncClient) -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(200, json={"data": []})

    fake = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    found = qloop.run_until_complete(
        probe_local_servers(
            fake, [("ollama", "http://10.0.0.5:11434/v1"), ("lmstudio", "http://127.0.0.1:1234/v1")]
        )
    )
    qloop.run_until_complete(fake.aclose())
    assert seen == ["http://127.0.0.1:1234/v1/models"]
    assert [s.profile for s in found] == ["lmstudio"]


def test_settings_dialog_is_non_modal_and_closing_cancels_its_work(
    qtbot: Any, qloop: Any, http: httpx.AsyncClient
) -> None:
    dialog = AgentSettingsDialog(AgentConfig(), http=http, keys=KeyStore(), probe=True,
                                 local_candidates=(("ollama", f"http://127.0.0.1:{_closed_port()}/v1"),))  # fmt: skip
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.isModal()
    assert dialog.local_label.text() == "Looking for local model servers…"
    tasks = set(dialog._tasks.tasks)
    assert len(tasks) == 3  # the local-server probe, the keychain check, reading mcp.json
    dialog.reject()
    qloop.run_until_complete(_settle(tasks))
    assert all(t.cancelled() for t in tasks)


async def _settle(tasks: set[Any]) -> None:
    import asyncio

    await asyncio.gather(*tasks, return_exceptions=True)


def test_the_keychain_is_used_off_the_gui_thread(
    qtbot: Any, qloop: Any, http: httpx.AsyncClient
) -> None:
    backend = ThreadRecordingKeyring()
    keyring.set_keyring(backend)
    dialog = _dialog(qtbot, http, AgentConfig(profile="openai", model="gpt-4o-mini"))
    assert dialog.key_status.text() == "No key stored: paste one above."
    dialog.key.setText(KEY)
    saved = collect(dialog.saved)
    dialog.save_button.click()
    run_until(qloop, lambda: bool(saved))
    assert backend.store[(SERVICE, "openai")] == KEY
    # The read on opening, the write on Save and the read after it: none on the GUI thread.
    assert len(backend.threads) >= 2
    assert all(t is not threading.main_thread() for t in backend.threads)


def test_without_a_keychain_the_dialog_says_so_in_one_wrapped_line_and_offers_the_session(
    qtbot: Any, qloop: Any, http: httpx.AsyncClient
) -> None:
    keyring.set_keyring(keyring.backends.fail.Keyring())
    keys = KeyStore()
    dialog = _dialog(qtbot, http, AgentConfig(profile="openai", model="gpt-4o-mini"), keys=keys)
    dialog.show()
    notice = dialog.key_status.text()
    assert notice == (
        "No usable OS keychain (no Secret Service or other keychain is running): the API key can "
        "be kept for this session only, or set PROTO_STUDIO_API_KEY before starting the studio."
    )
    # One line of text, wrapped inside the dialog: it never makes it wider than a laptop screen.
    assert dialog.key_status.wordWrap()
    assert dialog.sizeHint().width() <= 900 and dialog.minimumSizeHint().width() <= 900
    offer = dialog.session_key
    assert offer.isVisibleTo(dialog) and offer.isChecked()
    assert offer.text() == "Keep the key for this session (until the studio quits)"
    dialog.key.setText(KEY)
    saved = collect(dialog.saved)
    dialog.save_button.click()
    run_until(qloop, lambda: bool(saved))
    assert not dialog.isVisible()  # one Save closes the dialog, keychain or not
    assert load_config()[0].model == "gpt-4o-mini"  # the settings themselves were saved
    lookup = qloop.run_until_complete(keys.aget("openai"))
    assert lookup.source == "session" and lookup.key == KEY

    again = _dialog(qtbot, http, load_config()[0], keys=keys)
    assert again.key_status.text() == (
        "A key is kept for this session only (••••••••): there is no usable OS keychain. To "
        "keep it, set PROTO_STUDIO_API_KEY before starting the studio."
    )
    assert not again.session_key.isVisibleTo(again)  # already kept
    assert KEY not in _all_text(again)


def test_without_a_keychain_a_key_the_user_chose_not_to_keep_is_not_kept(
    qtbot: Any, qloop: Any, http: httpx.AsyncClient
) -> None:
    keyring.set_keyring(keyring.backends.fail.Keyring())
    keys = KeyStore()
    dialog = _dialog(qtbot, http, AgentConfig(profile="openai", model="gpt-4o-mini"), keys=keys)
    dialog.session_key.setChecked(False)
    dialog.key.setText(KEY)
    saved = collect(dialog.saved)
    dialog.save_button.click()
    run_until(qloop, lambda: bool(saved))
    assert qloop.run_until_complete(keys.aget("openai")).key is None


def test_one_save_closes_the_dialog(qtbot: Any, qloop: Any, http: httpx.AsyncClient) -> None:
    dialog = _dialog(qtbot, http, AgentConfig(profile="openai"))
    dialog.show()
    dialog.model.setEditText("gpt-4o-mini")
    dialog.key.setText(KEY)
    saved = collect(dialog.saved)
    dialog.save_button.click()
    run_until(qloop, lambda: bool(saved) and not dialog.isVisible())
    assert len(saved) == 1 and dialog.result() == 1  # accepted


@pytest.mark.parametrize(
    ("profile", "name"),
    [
        ("generic", "Other OpenAI-compatible server"),
        ("litellm", "LiteLLM proxy"),
        ("ollama", "Ollama (local)"),
        ("llamacpp", "llama.cpp server (local)"),
    ],
)
def test_servers_that_need_no_key_are_not_asked_for_one(
    qtbot: Any, qloop: Any, http: httpx.AsyncClient, profile: str, name: str
) -> None:
    dialog = _dialog(qtbot, http, AgentConfig(profile=profile))
    assert dialog.profile.currentText() == name  # the provider's one name
    assert dialog.key_status.text() == (
        "This server needs no key; paste one above if yours asks for it."
    )
    assert dialog.key.placeholderText() == "paste an API key (optional)"


def test_tool_set_effort_and_local_model_are_chosen_per_model_and_saved(
    qtbot: Any, qloop: Any, http: httpx.AsyncClient, _memory_keyring: Any
) -> None:
    before = AgentConfig(
        profile="ollama", model="qwen3:4b", tool_sets={"other": "standard"}, efforts={"x": "high"}
    )
    dialog = _dialog(qtbot, http, before)
    options = dialog.options
    assert options.tool_set.currentText() == "Profile default (compound)"
    assert options.effort.currentText() == "provider-default"
    options.tool_set.setCurrentIndex(options.tool_set.findData("standard"))
    # An effort the provider cannot take is named at once and refused on Save.
    options.effort.setCurrentIndex(options.effort.findData("minimal"))
    assert "ollama" in options.effort_problem.text()
    dialog.save_button.click()
    run_until(qloop, lambda: "Reasoning effort:" in dialog.message.text())
    assert not config_path().exists()
    options.effort.setCurrentIndex(options.effort.findData("low"))
    assert options.effort_problem.text() == ""
    saved = collect(dialog.saved)
    dialog.save_button.click()
    run_until(qloop, lambda: bool(saved))
    config: AgentConfig = saved[0]
    assert config.tool_sets == {"other": "standard", "qwen3:4b": "standard"}
    assert config.efforts == {"x": "high", "qwen3:4b": "low"}
    assert load_config()[0] == config

    cloud = _dialog(qtbot, http, AgentConfig(profile="openai", model="gpt-4.1"))
    cloud.options.local_profile.setCurrentIndex(cloud.options.local_profile.findData("llamacpp"))
    cloud.options.local_model.setText("qwen")
    config = cloud.config()
    assert config.has_local_model() and config.local_url() == "http://localhost:8080/v1"
    assert cloud.options.tool_set.currentText() == "Profile default (standard)"
