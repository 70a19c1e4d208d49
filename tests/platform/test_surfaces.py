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
    "number-plain": ({"type": "number", "description": "Amount"}, "textField"),
    "integer-plain": ({"type": "integer", "minimum": 0}, "textField"),
    "date": ({"type": "string", "format": "date"}, "datePicker"),
    "time": ({"type": "string", "format": "time", "default": "07:05"}, "timePicker"),
    "array-of-enum": (
        {"type": ["array", "string"], "items": {"type": "string", "enum": ["a", "b", "c"]}},
        "scroll",
    ),
    "array-of-string": ({"type": "array", "items": {"type": "string"}}, "textField"),
}
#: Argument types whose control writes more than one state key (so not `{"state": KEY}`).
MULTI_KEY = {"time", "array-of-enum"}
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


def body_of(spec: dict[str, Any]) -> list[dict[str, Any]]:
    children: list[dict[str, Any]] = spec["root"]["children"][-1]["child"]["children"]
    return children


def run_args(spec: dict[str, Any]) -> Any:
    run = next(n for n in body_of(spec) if n.get("id") == "run")
    assert [a["type"] for a in run["onTap"]] == ["platform"]
    return run["onTap"][0]["args"]


@pytest.mark.parametrize("kind", sorted(ARGUMENT_TYPES))
def test_argument_type_becomes_its_control(kind: str) -> None:
    schema, control = ARGUMENT_TYPES[kind]
    spec = SPECS[f"arg-{kind}"]
    field = next(n for n in body_of(spec) if n.get("id") == "field_arg_choice")
    assert field["type"] == control
    run = next(n for n in body_of(spec) if n.get("id") == "run")
    assert run["onTap"][0]["call"] == "golden.form"
    assert run["onTap"][0]["into"] == "/data/result"
    assert run["onTap"][0]["statusKey"] == "status"
    if kind not in MULTI_KEY:
        assert run_args(spec) == {"choice": {"state": "arg_choice"}}


def test_time_argument_becomes_a_time_picker_read_as_hh_mm() -> None:
    spec = SPECS["arg-time"]
    picker = next(n for n in body_of(spec) if n.get("type") == "timePicker")
    assert picker["hourKey"] == "arg_choice_hour" and picker["minuteKey"] == "arg_choice_minute"
    assert spec["state"]["arg_choice_hour"] == 7 and spec["state"]["arg_choice_minute"] == 5
    assert run_args(spec) == {
        "choice": {"time": {"hour": "arg_choice_hour", "minute": "arg_choice_minute"}}
    }


def test_array_of_enum_becomes_filter_chips_in_order() -> None:
    spec = SPECS["arg-array-of-enum"]
    row = next(n for n in body_of(spec) if n.get("id") == "field_arg_choice")
    chips = row["child"]["children"]
    assert [(c["type"], c["variant"], c["label"]) for c in chips] == [
        ("chip", "filter", "a"),
        ("chip", "filter", "b"),
        ("chip", "filter", "c"),
    ]
    keys = {c["label"]: c["stateKey"] for c in chips}
    assert all(spec["state"][k] is False for k in keys.values())
    assert run_args(spec) == {"choice": {"chips": keys}}
    assert list(run_args(spec)["choice"]["chips"]) == ["a", "b", "c"]


def test_chip_defaults_are_selected_and_keys_stay_distinct() -> None:
    schema = {
        "type": "array",
        "items": {"type": "string", "enum": ["a-b", "a_b", "c"]},
        "default": ["a_b"],
    }
    spec = generate_surface("golden.form", one_arg(schema), OBJECT_RESULT)
    chips = run_args(spec)["choice"]["chips"]
    assert list(chips) == ["a-b", "a_b", "c"]
    assert len(set(chips.values())) == 3
    assert [spec["state"][chips[v]] for v in ("a-b", "a_b", "c")] == [False, True, False]
    catalog = golden_catalog(one_arg(schema), OBJECT_RESULT)
    assert spec_api.validate(spec, catalog=catalog).ok


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


def test_arrays_of_non_strings_are_refused() -> None:
    schema = {"type": "array", "items": {"type": "integer"}}
    with pytest.raises(
        SurfaceError,
        match=r"golden.form: argument 'choice' is an array of \['integer'\]: only arrays of "
        "strings can be typed as text",
    ):
        generate_surface("golden.form", one_arg(schema), OBJECT_RESULT)


ECHO_RESULT = {
    "type": "object",
    "properties": {"got": {}},
    "required": ["got"],
    "additionalProperties": False,
}


def run_surface(kind: str, values: dict[str, Any], audit: list[Any] | None = None) -> Runtime:
    """The golden surface of argument type `kind`, run with a call that returns its argument."""
    schema = ARGUMENT_TYPES[kind][0]

    async def form(checked: dict[str, Any], context: CallContext) -> Any:
        return {"got": checked["choice"]}

    call = PlatformCall("form", "Echoes its argument", one_arg(schema), ECHO_RESULT, form)
    registry = PlatformRegistry([PlatformModule("golden", "Golden cases", {"form": call})])
    spec = generate_surface("golden.form", one_arg(schema), ECHO_RESULT)
    assert spec_api.validate(spec, catalog=registry).ok
    runtime = Runtime(spec_api.expand(spec))
    runtime.set_values(values)
    host = PlatformHost(registry, ConsentBroker(), prototype_id="surface")

    async def go() -> None:
        host.dispatch(runtime, tap(runtime, "run"))
        await host.drain()

    asyncio.run(go())
    if audit is not None:
        audit.extend(host.audit)
    return runtime


def test_plain_number_typed_as_text_runs_end_to_end() -> None:
    runtime = run_surface("number-plain", {"arg_choice": " 2.5 "})
    assert runtime.state["status"] == "ok"
    assert runtime.data["result"] == {"got": 2.5}


def test_plain_number_with_bad_text_is_a_clear_error() -> None:
    audit: list[Any] = []
    runtime = run_surface("number-plain", {"arg_choice": "2,5"}, audit)
    assert runtime.state["status"] == "error"
    assert "result" not in runtime.data
    assert audit[-1]["message"] == "golden.form: args.choice: a number was expected, got '2,5'"


def test_integer_text_must_be_whole() -> None:
    assert run_surface("integer-plain", {"arg_choice": "12"}).data["result"] == {"got": 12}
    audit: list[Any] = []
    assert run_surface("integer-plain", {"arg_choice": "1.5"}, audit).state["status"] == "error"
    assert audit[-1]["message"] == (
        "golden.form: args.choice: a whole number was expected, got '1.5'"
    )


def test_time_picker_surface_passes_hh_mm() -> None:
    runtime = run_surface("time", {"arg_choice_hour": 9, "arg_choice_minute": 0})
    assert runtime.state["status"] == "ok"
    assert runtime.data["result"] == {"got": "09:00"}


def test_filter_chips_surface_passes_the_chosen_values_in_order() -> None:
    runtime = run_surface("array-of-enum", {"arg_choice_c": True, "arg_choice_a": True})
    assert runtime.state["status"] == "ok"
    assert runtime.data["result"] == {"got": ["a", "c"]}


def test_no_chip_chosen_passes_an_empty_list() -> None:
    assert run_surface("array-of-enum", {}).data["result"] == {"got": []}


def test_generated_calc_surface_evaluates_typed_numbers() -> None:
    runtime = Runtime(spec_api.expand(SPECS["call-calc.evaluate"]))
    runtime.set_values({"arg_expression": "a * b + c", "arg_a": "1.5", "arg_b": "4", "arg_c": "-1"})
    host = PlatformHost(default_registry(), ConsentBroker(), prototype_id="surface")

    async def go() -> None:
        host.dispatch(runtime, tap(runtime, "run"))
        await host.drain()

    asyncio.run(go())
    assert runtime.state["status"] == "ok"
    assert runtime.data["result"] == {"value": 5}
    entry = list(host.audit)[-1]
    assert (entry["call"], entry["status"]) == ("calc.evaluate", "ok")
