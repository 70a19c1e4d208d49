"""Text bindings: `{key}`, `{page}`/`{pageCount}`, repeat fields and `{index}`, unknown kept."""

from __future__ import annotations

from collections.abc import Callable

from studio.runtime import Runtime
from tests.runtime.conftest import minimal

Make = Callable[..., Runtime]


def test_state_placeholders_render_like_the_device(make_runtime: Make) -> None:
    rt = make_runtime(minimal(state={"name": "Ada", "n": 3, "half": 0.5, "whole": 2.0, "on": True}))
    assert rt.bind_text("Hi {name}, {n} new") == "Hi Ada, 3 new"
    assert rt.bind_text("{half} {whole} {on}") == "0.5 2 true"
    assert rt.bind_text("{missing} {name") == "{missing} {name"
    assert rt.bind_text("{{name}}") == "{Ada}"
    assert rt.bind_text("") == ""


def test_bound_values_are_not_rescanned(make_runtime: Make) -> None:
    rt = make_runtime(minimal(state={"a": "{b}", "b": "no"}))
    assert rt.bind_text("{a}") == "{b}"


def test_page_placeholders_read_the_given_pager(make_runtime: Make) -> None:
    rt = make_runtime("tabs")
    assert rt.bind_text("Page {page} of {pageCount}", pager="main") == "Page 1 of 3"
    rt.set_page("main", 2)
    assert rt.bind_text("Page {page} of {pageCount}", pager="main") == "Page 3 of 3"
    assert rt.bind_text("{page}/{pageCount}", pager="inner") == "1/2"
    assert rt.bind_text("Page {page}") == "Page {page}"  # no pager: left as written
    assert rt.bind_text("Page {page}", pager="unknown") == "Page {page}"


def test_repeat_fields_and_index_from_a_scope(make_runtime: Make) -> None:
    rt = make_runtime(minimal(state={"total": 9}))
    scope = {"as": "item", "item": {"name": "Bo", "price": 4.5, "on": False}, "index": 1}
    text = "{index}: {item.name} costs {item.price} of {total} ({item.nope}) {other.name} {item.on}"
    assert rt.bind_text(text, scope) == "1: Bo costs 4.5 of 9 ({item.nope}) {other.name} false"
    # the plain {alias: fields} scope form works too
    assert rt.bind_text("{item.name}", {"item": {"name": "Cy"}, "index": 0}) == "Cy"


def test_bind_key_makes_a_concrete_key(make_runtime: Make) -> None:
    rt = make_runtime(minimal())
    scope = {"as": "row", "item": {"id": "x7"}, "index": 3}
    assert rt.bind_key("liked_{row.id}", scope) == "liked_x7"
    assert rt.bind_key("slot_{index}", scope) == "slot_3"
    assert rt.bind_key("plain", None) == "plain"


def test_data_pointer_placeholders_show_platform_results() -> None:
    """Studio extension: `{/data/...}` shows a platform call's result once it has landed."""
    from studio.runtime import Runtime

    spec = {
        "id": "bill",
        "window": {"placement": {"type": "fullscreen"}},
        "state": {"status": "idle"},
        "data": {"result": {"value": 34.5, "items": ["a", "b"]}},
        "root": {"type": "text", "text": "Each pays {/data/result/value} ({/data/missing})"},
    }
    rt = Runtime(spec)
    assert rt.bind_text(spec["root"]["text"]) == "Each pays 34.5 ({/data/missing})"
    assert rt.bind_text("{/data/result/items/1}") == "b"
