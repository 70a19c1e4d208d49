"""`proto-studio agent --out` at the spec byte limit (issue 17.1, research F1): the written spec
is one that `proto-studio validate` accepts and the library imports, even when its indented
form would be over 1 MiB (it is then written compact, as the validator counted it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from studio.agent.testing import call, calls, reply
from studio.cli import main
from studio.library.store import Library
from studio.spec.rules import MAX_SPEC_BYTES
from studio.spec.size import measure
from tests.agent.server import ModelServer
from tests.agent.test_cli import KEY, to_chat_reply
from tests.helpers.hostile import near_limit_spec


def test_agent_out_at_the_limit_validates_and_imports(
    server: ModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROTO_STUDIO_API_KEY", KEY)  # a long key: the masker is process-wide
    base = near_limit_spec(999_000)
    room = MAX_SPEC_BYTES - measure(base, exact=True).bytes - len(',"state":{"s":""}')
    ops = [{"op": "add", "path": "/state", "value": {"s": "y" * room}}]
    server.queue(
        to_chat_reply(calls(call("patch", {"ops": ops, "summary": "fill"}, id="p1"))),
        to_chat_reply(reply("Filled the spec to the limit.")),
    )
    source, out = tmp_path / "big.json", tmp_path / "out.json"
    source.write_text(json.dumps(base, separators=(",", ":")), encoding="utf-8")
    code = main(
        [
            "agent",
            "--spec",
            str(source),
            "--instruction",
            "fill it",
            "--base-url",
            server.base_url,
            "--model",
            "m",
            "--out",
            str(out),
            "--snapshot",
            str(tmp_path / "run.json"),
        ]
    )
    assert code == 0
    written = out.read_bytes()
    assert len(written) == MAX_SPEC_BYTES
    assert json.loads(written)["state"]["s"] == "y" * room
    assert main(["validate", str(out)]) == 0
    entry = Library().import_spec_file(out)
    assert Library().load_spec(entry.id) == json.loads(written)
