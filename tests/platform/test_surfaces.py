"""Generated surfaces: golden specs per argument type, all valid, runnable, and the CLI."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest

import studio.spec as spec_api
from studio.cli import main
from studio.platform.consent import ConsentBroker
from studio.platform.host import PlatformHost
from studio.platform.module import CallContext, PlatformCall, PlatformModule, numeric
from studio.platform.registry import PlatformRegistry, default_registry
from studio.platform.surfaces import SurfaceError, generate_surface, surface_for
from studio.runtime import Runtime
from tests.platform.test_host import tap

GOLDEN = Path(__file__).resolve().parent.parent / "fixtures" / "platform" / "golden"
REGENERATE = os.environ.get("PROTO_STUDIO_REGEN_GOLDEN") == "1"

OBJECT_RESULT = {
    "type": "object",
    "properties": {"value": {"type": "number", "description": "Value"}},
    "required": ["value"],
    "additionalProperties": False,
}


def one_arg(schema: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"choice": schema},
        "required": ["choice"],
        "additionalProperties": False,
    }


# argument type -> (argument schema, the control it must become)
ARGUMENT_TYPES: dict[str, tuple[dict[str, Any], str]] = {
    "string": ({"type": "string", "description": "Name"}, "textField"),
    "number-bounded": ({"type": "number", "minimum": 0, "maximum": 10}, "slider"),
    "integer-bounded": ({"type": "integer", "minimum": 1, "maximum": 12, "default": 3}, "slider"),
    "number-unbounded": (numeric("Amount"), "textField"),
    "boolean": ({"type": "boolean", "description": "Enabled"}, "switch"),
    "enum-small": ({"type": "string", "enum": ["s", "m", "l"]}, "segmentedButton"),
    "enum-medium": ({"type": "string", "enum": [f"o{i}" for i in range(6)]}, "radioGroup"),
    "enum-large": ({"type": "string", "enum": [f"o{i}" for i in range(20)]}, "textField"),
    "date": ({"type": "string", "format": "date"}, "datePicker"),
    "time": ({"type": "string", "format": "time"}, "textField"),
    "array-of-enum": (
        {"type": ["array", "string"], "items": {"type": "string", "enum": ["a", "b", "c"]}},
        "textField",
    ),
}
RESULT_SHAPES: dict[str, dict[str, Any]] = {
    "result-object": OBJECT_RESULT,
    "result-array": {"type": "array", "items": {"type": "string"}},
    "result-scalar": {"type": "string"},
}


def golden_catalog(args: dict[str, Any], result: dict[str, Any]) -> PlatformRegistry:
    """A build with one module, `golden.form`, taking `args` and returning `result`."""

    async def form(checked: dict[str, Any], context: CallContext) -> Any:
        return None

    call = PlatformCall("form", "A generated form", args, result, form)
    return PlatformRegistry([PlatformModule("golden", "Golden cases", {"form": call})])


def golden_cases() -> dict[str, tuple[dict[str, Any], PlatformRegistry]]:
    cases: dict[str, tuple[dict[str, Any], PlatformRegistry]] = {}
    shapes = [
        (f"arg-{n}", one_arg(schema), OBJECT_RESULT) for n, (schema, _) in ARGUMENT_TYPES.items()
    ]
    shapes += [(n, one_arg({"type": "string"}), result) for n, result in RESULT_SHAPES.items()]
    for name, args, result in shapes:
        catalog = golden_catalog(args, result)
        cases[name] = (surface_for(catalog, "golden.form"), catalog)
    registry = default_registry()
    for call in registry.calls():
        cases[f"call-{call}"] = (surface_for(registry, call), registry)
    return cases


CASES = golden_cases()
SPECS = {name: spec for name, (spec, _) in CASES.items()}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_surface(name: str) -> None:
    path = GOLDEN / f"{name}.json"
    generated, catalog = CASES[name]
    if REGENERATE:
        path.write_text(json.dumps(generated, indent=2) + "\n")
    assert path.exists(), f"{path} missing: run with PROTO_STUDIO_REGEN_GOLDEN=1"
    assert json.loads(path.read_text()) == generated, f"{name} changed; regenerate if intended"
    result = spec_api.validate(generated, catalog=catalog)
    assert result.ok, f"{name}: {result.path}: {result.message}"


@pytest.mark.parametrize("kind", sorted(ARGUMENT_TYPES))
def test_argument_type_becomes_its_control(kind: str) -> None:
    schema, control = ARGUMENT_TYPES[kind]
    spec = SPECS[f"arg-{kind}"]
    body = spec["root"]["children"][-1]["child"]["children"]
    field = next(n for n in body if n.get("id") == "field_arg_choice")
    assert field["type"] == control
    run = next(n for n in body if n.get("id") == "run")
    assert run["onTap"] == [
        {
            "type": "platform",
            "call": "golden.form",
            "args": {"choice": {"state": "arg_choice"}},
            "into": "/data/result",
            "statusKey": "status",
        }
    ]


def test_generation_is_deterministic() -> None:
    again = {name: spec for name, (spec, _) in golden_cases().items()}
    assert json.dumps(again, sort_keys=True) == json.dumps(SPECS, sort_keys=True)


def test_result_views_follow_the_result_shape() -> None:
    obj_body = SPECS["result-object"]["root"]["children"][-1]["child"]["children"]
    assert obj_body[-1] == {
        "type": "listItem",
        "headline": "Value",
        "supporting": "{/data/result/value}",
    }
    arr_body = SPECS["result-array"]["root"]["children"][-1]["child"]["children"]
    assert arr_body[-1]["repeat"]["as"] == "row"
    assert arr_body[-1]["children"][0]["text"] == "{/data/result/{row.slot}}"
    scalar_body = SPECS["result-scalar"]["root"]["children"][-1]["child"]["children"]
    assert scalar_body[-1]["supporting"] == "{/data/result}"


def test_generated_units_surface_runs() -> None:
    runtime = Runtime(spec_api.expand(SPECS["call-units.convert"]))
    runtime.set_value("arg_value", "3")
    host = PlatformHost(default_registry(), ConsentBroker(), prototype_id="surface")

    async def go() -> None:
        host.dispatch(runtime, tap(runtime, "run"))
        await host.drain()

    asyncio.run(go())
    assert runtime.state["status"] == "ok"
    assert runtime.data["result"] == {"value": 9.84251968504, "unit": "ft", "quantity": "length"}


def test_cli_prints_the_surface(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["surface", "units.convert"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == SPECS["call-units.convert"]


def test_cli_unknown_call(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["surface", "units.teleport"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "units.teleport: module 'units' has no call 'teleport'" in err


@pytest.mark.parametrize(
    "schema", [{"type": "number"}, {"type": "array", "items": {"type": "string"}}]
)
def test_arguments_a_text_field_cannot_hold_are_refused(schema: dict[str, Any]) -> None:
    with pytest.raises(
        SurfaceError, match="golden.form: argument 'choice' can only be typed as text"
    ):
        generate_surface("golden.form", one_arg(schema), OBJECT_RESULT)
