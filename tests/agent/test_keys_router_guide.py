"""Keys (keychain, env, session-only fallback), masking, the router and the generated spec guide."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path

import keyring
import keyring.backends.fail
import pytest

from studio.agent.guide import guide_from_schema, spec_guide, system_prompt
from studio.agent.keys import ENV, SERVICE, KeyStore
from studio.agent.router import Router, RoutingError, Task
from studio.agent.testing import ScriptedModel
from studio.agent.trace import Masker, Tracer


def test_key_from_keychain_env_and_session_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    store = KeyStore(Masker())
    assert store.get("openai").key is None
    assert store.set("openai", "sk-fromkeychain123").source == "keychain"
    assert keyring.get_password(SERVICE, "openai") == "sk-fromkeychain123"
    lookup = store.get("openai")
    assert (lookup.key, lookup.source) == ("sk-fromkeychain123", "keychain")
    assert "sk-" not in repr(lookup)
    monkeypatch.setenv(ENV, "sk-fromenv456789")
    assert store.get("openai").source == "env"


def test_no_keychain_gives_a_warning_and_a_session_key() -> None:
    keyring.set_keyring(keyring.backends.fail.Keyring())
    store = KeyStore(Masker())
    lookup = store.get("openai")
    assert lookup.key is None and lookup.warning and "No usable OS keychain" in lookup.warning
    stored = store.set("openai", "sk-sessiononly999")
    assert stored.source == "session" and stored.warning and "this session only" in stored.warning
    assert store.get("openai").key == "sk-sessiononly999"
    assert lookup.no_keychain and stored.no_keychain
    assert "\n" not in lookup.warning and "keyrings.alt" not in lookup.warning  # one plain line


@pytest.mark.expected_log(r"^oops \*\*\*$", logger="studio.agent")  # logged by the test, masked
def test_masking_in_logs_and_traces(caplog: pytest.LogCaptureFixture) -> None:
    masker = Masker(["hunter2-secret"])
    tracer = Tracer(masker=masker)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    log = logging.getLogger("studio.agent")
    log.addHandler(handler)
    log.setLevel(logging.DEBUG)
    try:
        tracer.step(
            "model_request",
            logging.INFO,
            header="Authorization: Bearer abcdef123456",
            note="key hunter2-secret",
            other="sk-proj-abcdefghijkl",
        )
        log.warning("oops %s", "sk-live-zzzzzzzzzzzzzzzz")
    finally:
        log.removeHandler(handler)
        log.setLevel(logging.NOTSET)
    text = stream.getvalue() + json.dumps(tracer.steps)
    for secret in (
        "abcdef123456",
        "hunter2-secret",
        "sk-proj-abcdefghijkl",
        "sk-live-zzzzzzzzzzzzzzzz",
    ):
        assert secret not in text
    assert "Bearer ***" in text


def test_router_local_for_scoped_edits_cloud_for_new_prototypes() -> None:
    cloud, local = ScriptedModel(model="cloud"), ScriptedModel(model="local")
    router = Router(cloud, local)
    assert router.choose(Task("edit", selected="title")).client is local
    assert router.choose(Task("edit", selected="title")).guide == "short"
    assert router.choose(Task("create")).client is cloud
    assert router.choose(Task("edit")).client is cloud
    forced = Router(cloud, local, local_only=True)
    assert forced.choose(Task("create")).client is local
    with pytest.raises(RoutingError, match="Local only"):
        Router(cloud, None, local_only=True).choose(Task("create"))
    assert Router(None, local).choose(Task("create")).client is local


SCHEMA = {
    "description": "A prototype spec. More text.",
    "type": "object",
    "required": ["id", "root"],
    "properties": {
        "id": {"type": "string"},
        "root": {"$ref": "#/$defs/node"},
        "state": {"type": "object"},
    },
    "$defs": {
        "node": {
            "oneOf": [
                {
                    "type": "object",
                    "description": "Shows text. Long details.",
                    "required": ["type", "text"],
                    "properties": {
                        "type": {"const": "text"},
                        "text": {"type": "string"},
                        "id": {"type": "string"},
                    },
                },
                {
                    "type": "object",
                    "required": ["type", "label"],
                    "properties": {
                        "type": {"const": "button"},
                        "label": {"type": "string"},
                        "onTap": {"type": "array", "items": {"$ref": "#/$defs/action"}},
                    },
                },
            ]
        },
        "action": {
            "oneOf": [
                {
                    "type": "object",
                    "required": ["type", "name"],
                    "properties": {"type": {"const": "emit"}, "name": {"type": "string"}},
                },
            ]
        },
    },
}


def test_guide_is_generated_from_the_schema(tmp_path: Path) -> None:
    full = guide_from_schema(SCHEMA, "full")
    assert "- text (text) [id]: Shows text." in full
    assert "- button (label) [onTap]" in full
    assert "Actions" in full and "- emit (name)" in full
    assert "Top level: id*, root*, state" in full
    short = guide_from_schema(SCHEMA, "short")
    assert "- text (text)" in short and "Shows text" not in short and len(short) < len(full)
    path = tmp_path / "schema.json"
    path.write_text(json.dumps(SCHEMA))
    assert spec_guide("full", path) == full
    assert "patch" in system_prompt("short", path)
    assert "outline" in spec_guide("full", tmp_path / "missing.json")


def test_guide_from_the_shipped_schema_when_present() -> None:
    from studio.resources import resource_path

    path = resource_path("schema", "prototype-spec.schema.json")
    if not path.exists():
        pytest.skip("resources/schema/prototype-spec.schema.json is not written yet")
    full = spec_guide("full", path)
    for node in ("textField", "tabBar", "listItem"):
        assert f"- {node}" in full
    assert len(spec_guide("short", path)) < len(full)
