"""Result links in generated surfaces (seed 004 §5.2, Pocket's ToolResultAction): the links are
registry data checked against both schemas; calc.evaluate's result links to units.convert; the
linked surface opens pre-filled from the result and runs."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import studio.spec as spec_api
from studio.platform.consent import ConsentBroker
from studio.platform.host import PlatformHost
from studio.platform.module import CallContext, PlatformCall, PlatformModule, ResultLink, numeric
from studio.platform.module import object_schema as obj
from studio.platform.registry import PlatformRegistry, default_registry
from studio.platform.surfaces import surface_for
from studio.runtime import Runtime
from tests.platform.test_host import find, tap


async def _none(args: dict[str, Any], context: CallContext) -> Any:
    return None


def _registry(*links: ResultLink, with_target: bool = True) -> PlatformRegistry:
    source = PlatformCall(
        "make",
        "Makes a thing",
        obj({"name": {"type": "string"}}),
        obj({"size": {"type": "number"}, "tag": {"type": "string"}}),
        _none,
        links=links,
    )
    target = PlatformCall(
        "use",
        "Uses a thing",
        obj({"amount": numeric("Amount"), "flag": {"type": "boolean"}}),
        {},
        _none,
    )
    modules = [PlatformModule("src", "Source", {"make": source})]
    if with_target:
        modules.append(PlatformModule("dst", "Target", {"use": target}))
    return PlatformRegistry(modules)


def test_links_are_checked_against_both_schemas_when_the_registry_is_built() -> None:
    good = ResultLink("dst.use", "Use it", {"amount": "/size"})
    assert _registry(good).links_of("src.make") == [good]
    cases = [
        (ResultLink("dst.use", "Use", {"nope": "/size"}), "dst.use has no argument 'nope'"),
        (ResultLink("dst.use", "Use", {"amount": "/width"}), "'/width' is not in the result"),
        (ResultLink("dst.use", "Use", {"flag": "/tag"}), "cannot be the argument 'flag'"),
        (ResultLink("dst.use", " ", {"amount": "/size"}), "a link needs a label"),
    ]
    for link, message in cases:
        with pytest.raises(ValueError, match=r"src\.make links\[0\] \(dst\.use\): ") as caught:
            _registry(link)
        assert message in str(caught.value)
    # A link to a module this build lacks is not offered (and not an error).
    assert _registry(good, with_target=False).links_of("src.make") == []
    surface = surface_for(_registry(good, with_target=False), "src.make")
    assert surface["requires"] == {"platform": ["src"]}


def test_calc_links_its_result_to_units_convert_in_the_generated_surface() -> None:
    registry = default_registry()
    [link] = registry.links_of("calc.evaluate")
    assert (link.call, dict(link.args)) == ("units.convert", {"value": "/value"})
    spec = surface_for(registry, "calc.evaluate")
    assert spec_api.validate(spec, catalog=registry).ok
    assert spec["requires"] == {"platform": ["calc", "units"]}
    button = find(spec["root"], "link1")
    assert button["label"] == "Convert the result"
    assert button["visibleWhen"] == {"key": "status", "equals": "ok"}
    assert button["onTap"] == [{"type": "setState", "key": "link1Open", "value": True}]
    run = find(spec["root"], "link1_run")["onTap"][0]
    assert run["call"] == "units.convert" and run["into"] == "/data/link1"
    assert run["args"]["value"] == {"data": "/data/result/value"}
    assert run["args"]["from"] == {"state": "arg_l1_from"}


def test_a_linked_surface_opens_pre_filled_from_the_result_and_runs() -> None:
    registry = default_registry()
    runtime = Runtime(spec_api.expand(surface_for(registry, "calc.evaluate")))
    host = PlatformHost(registry, ConsentBroker(), prototype_id="surface")
    root = runtime.spec["root"]
    button, sheet = find(root, "link1"), find(root, "link1_sheet")
    assert not runtime.is_visible(button) and not runtime.is_open(sheet)  # nothing to link yet
    runtime.set_value("arg_expression", "6 * 7")

    async def run(node_id: str) -> None:
        host.dispatch(runtime, tap(runtime, node_id))
        await host.drain()

    asyncio.run(run("run"))
    assert runtime.state["status"] == "ok" and runtime.data["result"] == {"value": 42}
    assert runtime.is_visible(button)
    tap(runtime, "link1")  # push: the linked call's form opens, its argument set
    assert runtime.is_open(sheet)
    shown = find(root, "link1_arg_value")["supporting"]
    assert runtime.bind_text(shown) == "42 (from the result)"
    runtime.set_values({"arg_l1_from": "m", "arg_l1_to": "ft"})
    asyncio.run(run("link1_run"))
    assert runtime.state["link1Status"] == "ok"
    assert runtime.data["link1"]["unit"] == "ft"
    assert runtime.data["link1"]["value"] == pytest.approx(137.795, abs=1e-3)
    assert runtime.state["status"] == "ok"  # the first call's result is untouched
    tap(runtime, "link1_close")
    assert not runtime.is_open(sheet)
