"""The agent as a service: the WebSocket harness server for thin clients (no Qt).

- protocol.py  the turn-scoped protocol: client messages (checked) and server events (docs/service.md)
- server.py    HarnessServer: sessions (a workspace, document and run driver each), resume by seq,
               the token, the web client page (resources/service/client.html)
- token.py     the server's token in the OS keychain (generated, shown once)
- client.py    `proto-studio client`: the terminal thin client
- cli.py       `proto-studio serve` and `proto-studio client`
"""
