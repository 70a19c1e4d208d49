"""Agent settings: provider profile, base URL, model, API key (OS keychain, masked), local only,
turn cap and token budget, the model's tool set and reasoning effort and a local model for node
edits (`agent_model_options`), a "Test connection" request, local model servers found on this
machine, and the MCP servers the agent may use (`studio.ui.mcp_servers`, saved to mcp.json).

Every text that can be long (the keychain's trouble, a server's error, a URL) wraps inside the
dialog, so it keeps a laptop-sized width; one Save writes everything and closes it."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from studio.agent.config import AgentConfig, key_account, save_config
from studio.agent.keys import ENV, KeyLookup, KeyStore
from studio.agent.profiles import PROFILES, provider_name
from studio.agent.providers import (
    LOCAL_SERVERS,
    LocalServer,
    check_connection,
    probe_local_servers,
)
from studio.concurrency import TaskOwner, off_loop
from studio.ui.agent_model_options import ModelOptions
from studio.ui.labels import WrapLabel
from studio.ui.mcp_servers import McpServersEditor

MASKED = "••••••••"


def _scrolling(page: QWidget) -> QScrollArea:
    """`page` in a vertical scroll area as wide as the dialog (its text wraps instead)."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setWidget(page)
    return area


class AgentSettingsDialog(QDialog):
    """Non-modal (`open()`); Save writes the settings file atomically and the key to the keychain,
    then emits `saved(AgentConfig)`. The stored key is never read into a widget. The keychain is
    used only through KeyStore.aget/aset/adelete (off the GUI thread): `keyChecked(stored)` says
    when the key status shown is current."""

    saved = Signal(object)
    keyChecked = Signal(bool)
    connectionTested = Signal(object)  # ConnectionResult
    localServersFound = Signal(list)
    mcpSaved = Signal()  # mcp.json was saved (the studio restarts its MCP servers)

    def __init__(
        self,
        config: AgentConfig,
        *,
        http: httpx.AsyncClient,
        keys: KeyStore,
        local_candidates: tuple[tuple[str, str], ...] = LOCAL_SERVERS,
        probe: bool = True,
        probe_seconds: float = 0.5,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("agentSettings")
        self.setWindowTitle("Agent settings")
        self.setModal(False)
        self._http = http
        self._keys = keys
        self._tasks = TaskOwner("agent settings")
        self._candidates = local_candidates
        self._probe_seconds = probe_seconds  # loopback answers fast; nobody waits long for a probe
        self.local_servers: list[LocalServer] = []
        self.key_stored: bool | None = None  # None: not checked yet for the shown profile
        self._key_check: asyncio.Task[Any] | None = None

        self.profile = QComboBox(self)
        for name in PROFILES:
            self.profile.addItem(provider_name(name), name)
        self.base_url = QLineEdit(self)
        self.model = QComboBox(self)
        self.model.setEditable(True)
        self.model.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        # A server may list models with very long names: they never widen the dialog.
        self.model.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.model.setMinimumContentsLength(24)
        self.api = QComboBox(self)
        self.api.addItem("Chat Completions", "chat")
        self.api.addItem("Responses", "responses")
        self.key = QLineEdit(self)
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        self.key.setObjectName("apiKey")
        self.key_status = WrapLabel("", self)
        self.key_status.setObjectName("keyStatus")
        self.remove_key = QPushButton("Remove key", self)
        # Without a usable OS keychain: the one-line notice and the offer to keep the key for
        # this session (shown only then).
        self.session_key = QCheckBox("Keep the key for this session (until the studio quits)", self)
        self.session_key.setObjectName("sessionKey")
        self.session_key.setChecked(True)
        self.session_key.hide()
        self.no_keychain = False
        self.local_only = QCheckBox("Local only: never send anything to a cloud model", self)
        self.max_turns = QSpinBox(self)
        self.max_turns.setRange(1, 200)
        self.max_turns.setSuffix(" turns")
        self.token_budget = QSpinBox(self)
        self.token_budget.setRange(0, 10_000_000)
        self.token_budget.setSingleStep(10_000)
        self.token_budget.setSpecialValueText("No budget")
        self.token_budget.setSuffix(" tokens")
        self.test_button = QPushButton("Test connection", self)
        self.test_result = WrapLabel("", self)
        self.test_result.setObjectName("connectionResult")
        self.test_result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.local_label = WrapLabel("Looking for local model servers…" if probe else "", self)
        self.local_label.setObjectName("localModels")
        self.local_buttons = QVBoxLayout()
        self.use_local_buttons: list[QPushButton] = []
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.message = WrapLabel("", self)
        self.message.setObjectName("settingsMessage")
        self.options = ModelOptions(self)
        self._before = config
        self.mcp_servers = McpServersEditor(self)
        self._mcp_loaded: list[Any] = []

        key_row = QHBoxLayout()
        key_row.addWidget(self.key, 1)
        key_row.addWidget(self.remove_key)
        form = QFormLayout()
        form.addRow("Provider", self.profile)
        form.addRow("Base URL", self.base_url)
        form.addRow("Model", self.model)
        form.addRow("API", self.api)
        form.addRow("API key", key_row)
        form.addRow("", self.key_status)
        form.addRow("", self.session_key)
        form.addRow("", self.local_only)
        form.addRow("Turn cap", self.max_turns)
        form.addRow("Token budget", self.token_budget)
        self.options.add_rows(form)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        test_row = QHBoxLayout()
        test_row.addWidget(self.test_button, 0, Qt.AlignmentFlag.AlignTop)
        test_row.addWidget(self.test_result, 1)
        model_page = QWidget(self)
        model_layout = QVBoxLayout(model_page)
        model_layout.addLayout(form)
        model_layout.addLayout(test_row)
        model_layout.addWidget(self.local_label)
        model_layout.addLayout(self.local_buttons)
        model_layout.addStretch(1)
        # Two pages, each scrolling inside the dialog, so the dialog fits a 1280x720 laptop
        # whatever the page holds (a long keychain error, many MCP servers).
        self.pages = QTabWidget(self)
        self.pages.setObjectName("settingsPages")
        self.pages.addTab(_scrolling(model_page), "Model")
        self.pages.addTab(_scrolling(self.mcp_servers), "MCP servers")
        layout = QVBoxLayout(self)
        layout.addWidget(self.pages, 1)
        layout.addWidget(self.message)
        layout.addWidget(self.buttons)
        self.resize(720, 640)

        self._load(config)
        self.profile.currentIndexChanged.connect(self._profile_changed)
        for combo in (self.api, self.options.effort):
            combo.currentIndexChanged.connect(self._show_options)
        self.test_button.clicked.connect(self._test_clicked)
        self.remove_key.clicked.connect(self._remove_key)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        if probe:
            self._tasks.spawn(self.probe_local(), label="local model probe")
        self._tasks.spawn(self._load_mcp(), label="read mcp.json")

    # -- values ------------------------------------------------------------------------------
    def _load(self, config: AgentConfig) -> None:
        index = self.profile.findData(config.profile)
        self.profile.setCurrentIndex(max(index, 0))
        self.base_url.setText(config.base_url)
        self.model.setEditText(config.model)
        self.api.setCurrentIndex(max(self.api.findData(config.api), 0))
        self.local_only.setChecked(config.local_only)
        self.max_turns.setValue(config.max_turns)
        self.token_budget.setValue(config.token_budget or 0)
        self.options.load(config)
        self._refresh_profile()

    def config(self) -> AgentConfig:
        budget = self.token_budget.value()
        api = self.api.currentData()
        config = AgentConfig(
            profile=str(self.profile.currentData()),
            base_url=self.base_url.text().strip(),
            model=self.model.currentText().strip(),
            api="responses" if api == "responses" else "chat",
            local_only=self.local_only.isChecked(),
            max_turns=self.max_turns.value(),
            token_budget=budget or None,
        )
        return self.options.apply(config, self._before)

    def _show_options(self) -> None:
        self.options.show_profile(str(self.profile.currentData()), str(self.api.currentData()))

    def _profile_changed(self) -> None:
        self.base_url.clear()
        self.test_result.clear()
        self._refresh_profile()

    def _refresh_profile(self) -> None:
        self._show_options()
        profile = PROFILES[str(self.profile.currentData())]
        self.base_url.setPlaceholderText(profile.default_base_url or "https://host/v1")
        self.key_stored = None
        self.key_status.setText("Checking the OS keychain…")
        self.remove_key.setEnabled(False)
        if self._key_check is not None:
            self._key_check.cancel()
        self._key_check = self._tasks.spawn(
            self._check_key(key_account(self.config())), label="keychain check"
        )

    async def _check_key(self, account: str) -> None:
        try:
            lookup = await self._keys.aget(account)
        finally:
            if self._key_check is asyncio.current_task():  # not replaced by a newer check
                self._key_check = None
        self._show_key(lookup)

    def _show_key(self, lookup: KeyLookup) -> None:
        profile = PROFILES[str(self.profile.currentData())]
        stored = lookup.key is not None
        self.key_stored = stored
        self.no_keychain = lookup.no_keychain
        self.session_key.setVisible(lookup.no_keychain and lookup.source is None)
        if lookup.source == "keychain":
            status = f"A key is stored in the OS keychain ({MASKED})."
        elif lookup.source == "session":
            status = (
                f"A key is kept for this session only ({MASKED}): there is no usable OS "
                f"keychain. To keep it, set {ENV} before starting the studio."
            )
        elif lookup.source == "env":
            status = f"The key comes from {ENV} ({MASKED})."
        elif lookup.warning:
            status = lookup.warning
        elif not profile.needs_key:
            status = "This server needs no key; paste one above if yours asks for it."
        else:
            status = "No key stored: paste one above."
        if stored and not profile.needs_key and lookup.source != "env":
            status += " It is sent to this server."
        self.key_status.setText(status)
        self.key.setPlaceholderText(
            MASKED if stored else "paste an API key" + ("" if profile.needs_key else " (optional)")
        )
        self.remove_key.setEnabled(stored and lookup.source != "env")
        self.keyChecked.emit(stored)

    def key_text(self) -> str:
        return self.key.text().strip()

    # -- actions -------------------------------------------------------------------------------
    def save(self) -> None:
        """Save (the key goes to the keychain off the GUI thread; `saved` follows)."""
        self.save_button.setEnabled(False)
        self._tasks.spawn(self._save(), label="save agent settings")

    async def _save(self) -> None:
        config = self.config()
        account = key_account(config)
        problem = self.options.problem(config.profile, config.api)
        if problem is not None:  # refused here, not at the first request
            self.message.setText(f"Reasoning effort: {problem}")
            self.save_button.setEnabled(True)
            return
        try:
            if self.key_text():
                if self.no_keychain:
                    # Known beforehand: no keychain. The key is kept only if the user said so.
                    if self.session_key.isChecked():
                        self._keys.keep_for_session(account, self.key_text())
                else:
                    await self._keys.aset(account, self.key_text())  # falls back to the session
                self.key.clear()
            try:
                await off_loop(save_config, config)  # written atomically
            except OSError as exc:
                self.message.setText(f"Could not save the agent settings ({exc.strerror}).")
                return
            if not await self._save_mcp():
                return
        finally:
            self.save_button.setEnabled(True)
        self.message.setText("")
        self.saved.emit(config)
        self.accept()  # one Save: everything is written, the dialog closes

    async def _load_mcp(self) -> None:
        from studio.agent.mcp_host import load_mcp_config

        servers, problems = await off_loop(load_mcp_config)
        self._mcp_loaded = list(servers)
        self.mcp_servers.load(servers, problems)

    async def _save_mcp(self) -> bool:
        """The MCP servers list, if it changed: its secrets to the keychain, then mcp.json
        (atomically); `mcpSaved` follows. False (with the reason shown) when it failed."""
        from studio.agent.mcp_host import save_mcp_config

        editor = self.mcp_servers
        servers = editor.servers()
        if not editor.loaded or (servers == self._mcp_loaded and not editor.secrets):
            return True
        for account, value in list(editor.secrets.items()):
            lookup = await self._keys.aset(f"mcp:{account}", value)
            if lookup.warning:
                self.message.setText(f"MCP server secret {account}: {lookup.warning}")
                return False
            del editor.secrets[account]
        try:
            await off_loop(save_mcp_config, servers)
        except OSError as exc:
            self.message.setText(f"Could not save the MCP servers ({exc.strerror or exc}).")
            return False
        self._mcp_loaded = servers
        self.mcpSaved.emit()
        return True

    def _remove_key(self) -> None:
        self.remove_key.setEnabled(False)
        self._tasks.spawn(self._delete_key(key_account(self.config())), label="remove key")

    async def _delete_key(self, account: str) -> None:
        await self._keys.adelete(account)
        self._refresh_profile()

    def _test_clicked(self) -> None:
        self._tasks.spawn(self.test_connection(), label="test connection")

    async def test_connection(self) -> None:
        config = self.config()
        self.test_button.setEnabled(False)
        self.test_result.setText("Testing…")
        key = self.key_text() or (await self._keys.aget(key_account(config))).key
        try:
            result = await check_connection(self._http, config.resolved_base_url(), key)
        finally:
            self.test_button.setEnabled(True)
        self.test_result.setText(("✓ " if result.ok else "✗ ") + result.message)
        self.test_result.setProperty("ok", result.ok)
        if result.models:
            current = self.model.currentText()
            self.model.clear()
            self.model.addItems(list(result.models))
            self.model.setEditText(current or result.models[0])
        self.connectionTested.emit(result)

    async def probe_local(self) -> list[LocalServer]:
        """Find Ollama / LM Studio / llama.cpp on their default loopback ports and offer them."""
        found = await probe_local_servers(self._http, self._candidates, seconds=self._probe_seconds)
        self.local_servers = found
        for button in self.use_local_buttons:
            button.deleteLater()
        self.use_local_buttons = []
        if not found:
            self.local_label.setText(
                "No local model server found (Ollama 11434, LM Studio 1234, llama.cpp 8080)."
            )
        else:
            self.local_label.setText("Found on this machine: " + "; ".join(s.label for s in found))
            for server in found:
                button = QPushButton(f"Use {server.label}", self)
                button.clicked.connect(lambda _=False, s=server: self.use_local(s))
                self.local_buttons.addWidget(button)
                self.use_local_buttons.append(button)
        self.localServersFound.emit(found)
        return found

    def use_local(self, server: LocalServer) -> None:
        self.profile.setCurrentIndex(max(self.profile.findData(server.profile), 0))
        self.base_url.setText(server.base_url)
        if server.models:
            self.model.clear()
            self.model.addItems(list(server.models))
            self.model.setEditText(server.models[0])

    def shutdown(self) -> None:
        self._tasks.cancel_all()

    async def aclose(self) -> None:
        """Cancel what still runs and wait for it (the studio's shutdown)."""
        await self._tasks.aclose()

    async def idle(self) -> None:
        """Wait for the keychain, probe and save work started so far (tests)."""
        await self._tasks.idle()

    def closeEvent(self, event: QCloseEvent) -> None:
        self._tasks.cancel_all()
        super().closeEvent(event)

    def done(self, result: int) -> None:
        self._tasks.cancel_all()
        super().done(result)
