"""Agent settings' MCP servers list: the servers mcp.json declares (stdio or streamable HTTP),
added, changed, turned off and removed in a form; secrets typed into it go to the OS keychain and
mcp.json keeps only `keychain:ACCOUNT` (studio.agent.mcp_host reads them when a server starts)."""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from studio.agent.mcp_host import CALL_TIMEOUT, SECRET_NAME, McpServerConfig

KEYCHAIN = "keychain:"
SHOWN_SECRET = "keychain:…"
"""What the form shows for a value kept in the keychain (the account name is not a secret, but
the form need not show it either; leaving the text as is keeps the stored value)."""


class McpServersEditor(QWidget):
    """The list and the form. `load(servers, problems)` shows mcp.json; `servers()` is the list
    as edited (enabled by each row's check box); `secrets` the values to put in the keychain
    (account -> value) before mcp.json is saved. `edited` fires on every change."""

    edited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mcpServers")
        self._servers: list[McpServerConfig] = []
        self.secrets: dict[str, str] = {}
        self.loaded = False

        self.list = QListWidget(self)
        self.list.setObjectName("mcpServerList")
        self.name = QLineEdit(self)
        self.name.setPlaceholderText("notes (letters, digits, _ or -)")
        self.transport = QComboBox(self)
        self.transport.addItem("stdio (a command the studio starts)", "stdio")
        self.transport.addItem("streamable HTTP (a URL)", "http")
        self.command = QLineEdit(self)
        self.command.setPlaceholderText("python -m notes_server --flag (as in a shell)")
        self.url = QLineEdit(self)
        self.url.setPlaceholderText("https://mcp.example.com/mcp")
        self.values = QPlainTextEdit(self)
        self.values.setPlaceholderText(
            "One NAME=VALUE a line: environment (stdio) or headers (HTTP). Header values and "
            "secret-looking names (token, key, password) are kept in the OS keychain."
        )
        self.values.setMaximumHeight(72)
        self.timeout = QDoubleSpinBox(self)
        self.timeout.setRange(1, 3600)
        self.timeout.setSuffix(" s per call")
        self.timeout.setValue(CALL_TIMEOUT)
        self.add_button = QPushButton("Add", self)
        self.update_button = QPushButton("Update", self)
        self.remove_button = QPushButton("Remove", self)
        self.message = QLabel("", self)
        self.message.setObjectName("mcpMessage")
        self.message.setWordWrap(True)

        form = QFormLayout()
        form.addRow("Name", self.name)
        form.addRow("Transport", self.transport)
        form.addRow("Command", self.command)
        form.addRow("URL", self.url)
        form.addRow("Env / headers", self.values)
        form.addRow("Timeout", self.timeout)
        buttons = QHBoxLayout()
        for button in (self.add_button, self.update_button, self.remove_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("MCP servers (their tools are offered to the agent)", self))
        layout.addWidget(self.list)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.message)

        self.transport.currentIndexChanged.connect(self._transport_changed)
        self.list.currentRowChanged.connect(self._row_changed)
        self.list.itemChanged.connect(lambda _: self.edited.emit())
        self.add_button.clicked.connect(self.add)
        self.update_button.clicked.connect(self.update_selected)
        self.remove_button.clicked.connect(self.remove_selected)
        self._transport_changed()
        self._row_changed(-1)

    # -- the list -----------------------------------------------------------------------------
    def load(self, servers: Sequence[McpServerConfig], problems: Sequence[str]) -> None:
        self._servers = list(servers)
        self._fill()
        self.message.setText("\n".join(problems))
        self.loaded = True

    def servers(self) -> list[McpServerConfig]:
        out: list[McpServerConfig] = []
        for row, server in enumerate(self._servers):
            item = self.list.item(row)
            enabled = item is None or item.checkState() == Qt.CheckState.Checked
            out.append(_replace(server, enabled=enabled))
        return out

    def _fill(self) -> None:
        self.list.blockSignals(True)
        self.list.clear()
        for server in self._servers:
            item = QListWidgetItem(_describe(server))
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if server.enabled else Qt.CheckState.Unchecked)
            self.list.addItem(item)
        self.list.blockSignals(False)

    # -- the form -----------------------------------------------------------------------------
    def add(self) -> None:
        server = self._from_form(replacing=None)
        if server is None:
            return
        self._servers.append(server)
        self._fill()
        self.list.setCurrentRow(len(self._servers) - 1)
        self.message.setText(f"Added {server.name!r}: Save starts it.")
        self.edited.emit()

    def update_selected(self) -> None:
        row = self.list.currentRow()
        if row < 0:
            self.message.setText("Choose a server in the list to update it.")
            return
        server = self._from_form(replacing=row)
        if server is None:
            return
        enabled = self.servers()[row].enabled
        self._servers[row] = _replace(server, enabled=enabled)
        self._fill()
        self.list.setCurrentRow(row)
        self.message.setText(f"Updated {server.name!r}: Save restarts it.")
        self.edited.emit()

    def remove_selected(self) -> None:
        row = self.list.currentRow()
        if row < 0:
            return
        enabled = self.servers()
        gone = self._servers.pop(row)
        del enabled[row]
        self._servers = enabled
        self._fill()
        self.message.setText(f"Removed {gone.name!r}.")
        self.edited.emit()

    def _from_form(self, replacing: int | None) -> McpServerConfig | None:
        """The form as a server (its secrets moved to `secrets`), or None with the problem shown."""
        name = self.name.text().strip()
        transport = str(self.transport.currentData())
        taken = {s.name for i, s in enumerate(self._servers) if i != replacing}
        if name in taken:
            self.message.setText(f"Name: {name!r} is used by another server.")
            return None
        old = self._servers[replacing] if replacing is not None else None
        values: dict[str, str] = {}
        for number, line in enumerate(self.values.toPlainText().splitlines(), 1):
            if not line.strip():
                continue
            key, sep, value = line.partition("=")
            if not sep or not key.strip():
                self.message.setText(f"Env / headers, line {number}: write NAME=VALUE.")
                return None
            values[key.strip()] = value.strip()
        data: dict[str, object] = {"name": name, "transport": transport}
        data["timeout"] = self.timeout.value()
        if transport == "stdio":
            try:
                words = shlex.split(self.command.text())
            except ValueError as exc:
                self.message.setText(f"Command: {exc}.")
                return None
            data.update(command=words[0] if words else "", args=words[1:])
        else:
            data["url"] = self.url.text().strip()
        kept = (old.headers if old and old.transport == "http" else old.env) if old else {}
        pending: dict[str, str] = {}
        for key, value in list(values.items()):
            if value == SHOWN_SECRET and key in kept:
                values[key] = kept[key]  # unchanged: the keychain's value stays
            elif not value.startswith(KEYCHAIN) and (
                transport == "http" or SECRET_NAME.search(key)
            ):
                account = f"{name}.{key}"
                pending[account] = value
                values[key] = KEYCHAIN + account
        data["env" if transport == "stdio" else "headers"] = values
        try:
            server = McpServerConfig.from_json(data, where="MCP server")
        except ValueError as exc:
            self.message.setText(str(exc))
            return None
        self.secrets.update(pending)
        return server

    def _row_changed(self, row: int) -> None:
        has = 0 <= row < len(self._servers)
        self.update_button.setEnabled(has)
        self.remove_button.setEnabled(has)
        if not has:
            return
        server = self._servers[row]
        self.name.setText(server.name)
        self.transport.setCurrentIndex(0 if server.transport == "stdio" else 1)
        self.command.setText(shlex.join([server.command, *server.args]) if server.command else "")
        self.url.setText(server.url)
        shown = server.env if server.transport == "stdio" else server.headers
        self.values.setPlainText(
            "\n".join(
                f"{k}={SHOWN_SECRET if v.startswith(KEYCHAIN) else v}" for k, v in shown.items()
            )
        )
        self.timeout.setValue(server.timeout)

    def _transport_changed(self) -> None:
        stdio = self.transport.currentData() == "stdio"
        self.command.setEnabled(stdio)
        self.url.setEnabled(not stdio)


def _describe(server: McpServerConfig) -> str:
    if server.transport == "stdio":
        where = shlex.join([server.command, *server.args])
    else:
        where = server.url
    return f"{server.name}  ·  {server.transport}  ·  {where}"


def _replace(server: McpServerConfig, *, enabled: bool) -> McpServerConfig:
    import dataclasses

    return dataclasses.replace(server, enabled=enabled)
