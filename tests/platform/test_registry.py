"""The registry advertises, describes and checks calls the way the agent and validator need."""

from __future__ import annotations

import asyncio
from typing import Any

import keyring
import pytest
from jsonschema import Draft202012Validator

from studio.platform.credentials import ModuleCredentials
from studio.platform.module import CallContext, PlatformCall, PlatformError, PlatformModule
from studio.platform.module import object_schema as obj
from studio.platform.modules.clipboard import MemoryClipboard
from studio.platform.registry import PlatformRegistry, default_registry


def test_capabilities_and_module_listing() -> None:
    registry = default_registry()
    assert registry.capabilities() == [
        "prototype_platform_calc_v1",
        "prototype_platform_clipboard_v1",
        "prototype_platform_device_v1",
        "prototype_platform_share_v1",
        "prototype_platform_test_v1",
        "prototype_platform_units_v1",
    ]
    listing = {m["module"]: m for m in registry.modules()}
    calls = {c["call"]: c for m in listing.values() for c in m["calls"]}
    assert set(calls) == {
        "test.echo", "units.convert", "calc.evaluate", "clipboard.copy", "clipboard.paste",
        "clipboard.hasText", "share.text", "device.info",
    }  # fmt: skip
    assert (calls["share.text"]["sideEffect"], calls["share.text"]["sensitive"]) == (True, False)
    assert calls["clipboard.paste"]["sensitive"] is True
    assert calls["clipboard.copy"]["sideEffect"] is True
    assert not calls["units.convert"]["sensitive"] and not calls["units.convert"]["sideEffect"]
    assert listing["test"]["events"][0]["event"] == "test.tick"
    for call in calls.values():
        Draft202012Validator.check_schema(call["args"])
        assert call["args"]["type"] == "object"
        assert call["args"]["additionalProperties"] is False
        assert call["description"]


def test_catalog_seam_for_the_validator() -> None:
    registry = default_registry()
    assert registry.has_module("units") and not registry.has_module("sms")
    schema = registry.call_schema("units.convert")
    assert schema is not None and set(schema["required"]) == {"value", "from", "to"}
    assert registry.call_schema("units.nope") is None
    assert registry.call_schema("nope.convert") is None
    schema["properties"].clear()  # a copy: callers cannot change the registry
    assert registry.call_schema("units.convert")["properties"]  # type: ignore[index]


@pytest.mark.parametrize(
    ("call", "args", "message"),
    [
        ("units.convert", {"value": 1, "from": "m"}, "units.convert: args: 'to' is required"),
        ("test.echo", {"text": "x", "approved": True}, "unknown argument 'approved'"),
        ("test.echo", {"text": 3}, "args.text: expected string, got int"),
        ("test.echo", {"text": "private " * 1000}, "args.text: must be at most 4096 characters"),
        ("test.echo", [], "test.echo: args must be an object"),
        ("sms.send", {}, "unknown platform module 'sms' (this build has: calc,"),
        ("units", {}, "a platform call is written module.call"),
    ],
)
def test_bad_calls_get_one_line_messages(call: str, args: Any, message: str) -> None:
    with pytest.raises(PlatformError) as caught:
        asyncio.run(default_registry().execute(call, args, context=CallContext()))
    assert message in str(caught.value)
    assert "\n" not in str(caught.value) and "private" not in str(caught.value)


def test_a_module_with_a_non_strict_schema_is_refused() -> None:
    async def nothing(args: dict[str, Any], context: CallContext) -> Any:
        return {}

    loose = PlatformCall("op", "d", {"type": "object"}, obj({}), nothing)
    with pytest.raises(ValueError, match="strict object schema"):
        PlatformRegistry([PlatformModule("loose", "d", {"op": loose})])


def _token_module(leak: bool) -> PlatformModule:
    async def whoami(args: dict[str, Any], context: CallContext) -> Any:
        assert context.credentials is not None
        token = await context.credentials.get("token")
        return {"user": f"user-of-{token}" if leak else "someone"}

    call = PlatformCall(
        "whoami",
        "Who the account is",
        obj({"hint": {"type": "string"}}, required=[]),
        obj({"user": {"type": "string"}}),
        whoami,
    )
    return PlatformModule("acct", "account", {"whoami": call}, credentials=("token",))


def test_credentials_live_in_the_keychain_and_never_cross_args_or_results() -> None:
    asyncio.run(ModuleCredentials("acct", ["token"]).set("token", "s3cr3t-t0ken"))
    assert keyring.get_password("proto-studio.platform.acct", "token") == "s3cr3t-t0ken"

    fine = PlatformRegistry([_token_module(leak=False)])
    assert asyncio.run(fine.execute("acct.whoami", {}, context=CallContext())) == {
        "user": "someone"
    }
    with pytest.raises(PlatformError, match="arguments may not carry a credential"):
        asyncio.run(fine.execute("acct.whoami", {"hint": "x s3cr3t-t0ken"}, context=CallContext()))
    leaky = PlatformRegistry([_token_module(leak=True)])
    with pytest.raises(PlatformError, match="result would expose a credential") as caught:
        asyncio.run(leaky.execute("acct.whoami", {}, context=CallContext()))
    assert "s3cr3t" not in str(caught.value)
    schema = fine.call_schema("acct.whoami")
    assert schema is not None and "token" not in schema["properties"]


@pytest.mark.parametrize("call", ["clipboard.copy", "clipboard.paste", "share.text"])
def test_registry_refuses_unapproved_sensitive_calls(call: str) -> None:
    board = MemoryClipboard("secret clip")
    registry = default_registry(clipboard_backend=board)
    args = {} if call == "clipboard.paste" else {"text": "t"}
    for context in (CallContext(), CallContext(approved_call="clipboard.hasText")):
        with pytest.raises(PlatformError, match=f"{call}: needs the user's consent"):
            asyncio.run(registry.execute(call, args, context=context))
    assert board.value == "secret clip"
