"""visible_summary(): what is on screen, for the agent when no renderer is attached."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from studio.runtime import Runtime

Make = Callable[..., Runtime]


def texts(rt: Runtime) -> list[str]:
    return [entry["text"] for entry in rt.visible_summary()]


def test_tabbed_spec_shows_only_the_current_page(make_runtime: Make) -> None:
    rt = make_runtime("tabs")
    summary = rt.visible_summary()
    assert [e["text"] for e in summary] == [
        "Shop",
        "Home | Cart | Profile",
        "Welcome home",
        "Page 1 of 3",
        "Go to cart",
    ]
    assert summary[2] == {
        "address": "root.children[2].children[0].children[0]",
        "type": "text",
        "text": "Welcome home",
    }

    rt.set_page("main", 1)
    assert rt.visible_summary()[1] == {
        "address": "root.children[1]",
        "type": "tabBar",
        "text": "Home | Cart | Profile",
        "id": "tabs",
    }
    assert texts(rt) == ["Shop", "Home | Cart | Profile", "Your cart is empty", "Inner 1/2"]
    rt.set_page("inner", 1)
    assert texts(rt)[-1] == "Inner second"
    rt.set_page("main", 2)
    assert "Profile details" in texts(rt) and "Welcome home" not in texts(rt)


def test_closed_modals_and_hidden_nodes_are_left_out(make_runtime: Make) -> None:
    rt = make_runtime("tabs")
    assert not any("Checkout" in t or "Hint" in t or "Paying" in t for t in texts(rt))
    rt.set_value("confirm", True)
    rt.set_value("showHint", True)
    shown = texts(rt)
    assert "Hint: search" in shown
    assert "Checkout? | You will be charged. | Pay | Cancel" in shown
    assert "Paying..." in shown


def test_controls_report_their_values(make_runtime: Make) -> None:
    rt = make_runtime("controls")
    by_type = {e["type"]: e for e in rt.visible_summary()}
    assert by_type["textField"]["text"] == "Your name" and by_type["textField"]["value"] == ""
    rt.set_value("name", "Ada")
    by_type = {e["type"]: e for e in rt.visible_summary()}
    assert by_type["textField"]["text"] == "Ada"
    assert by_type["slider"] == {
        "address": "root.children[5]",
        "type": "slider",
        "text": "Volume",
        "value": 5,
    }
    assert by_type["progress"]["value"] == 0.25
    assert by_type["timePicker"]["text"] == "7:30"
    assert by_type["datePicker"]["text"] == "2000-01-31"
    assert by_type["listItem"]["value"] is True
    assert "Count 3, label start" in texts(rt)
    assert "Sheet body" not in texts(rt)
    rt.set_value("sheetOpen", True)
    assert "Sheet body" in texts(rt)


def test_repeat_instances_are_listed_per_item(make_runtime: Make) -> None:
    rt = make_runtime("repeat")
    summary = rt.visible_summary()
    rows = [(e.get("item"), e["text"]) for e in summary if e["type"] in ("text", "button")]
    assert rows == [(0, "Like Ada"), (1, "1. Bo (4.5) {person.missing}"), (1, "Like Bo")]
    assert all(e["address"].startswith("root.children[") for e in summary)
    assert [e["text"] for e in summary if e["type"] == "listItem"] == [
        "Count for Ada",
        "Count for Bo",
    ]
    rt.set_value("open_b", True)
    assert "About Bo | Close Bo" in texts(rt)


# --- the AutoMobile corpus, read in place ---------------------------------------------------------


def _valid_specs(conformance_dir: Path) -> list[Path]:
    """Every valid spec of both corpora (the older overlay-spec one still validates)."""
    fixtures = conformance_dir / "fixtures"
    return sorted(fixtures.glob("prototype-spec/valid/*.json")) + sorted(
        fixtures.glob("overlay-spec/valid/*.json")
    )


def _plain_texts(node: dict[str, Any]) -> Iterator[str]:
    """Text nodes on the first screen, found independently of the runtime: first pager page only,
    no modal, no visibleWhen, no repeat, no placeholder."""
    if (
        "visibleWhen" in node
        or "repeat" in node
        or node.get("type") in ("dialog", "snackbar", "bottomSheet")
    ):
        return
    if node.get("type") == "text" and node["text"] and "{" not in node["text"]:
        yield node["text"]
    children = node.get("children", [])
    if node.get("type") == "pager":
        children = children[:1]
    if isinstance(node.get("child"), dict):
        children = [node["child"]]
    for child in children:
        yield from _plain_texts(child)


def test_every_valid_corpus_spec_loads_and_shows_its_texts(conformance_dir: Path) -> None:
    paths = _valid_specs(conformance_dir)
    assert len(paths) >= 18 + 25
    checked = 0
    for path in paths:
        spec = json.loads(path.read_text(encoding="utf-8"))
        rt = Runtime(spec)
        shown = " || ".join(texts(rt))
        for text in _plain_texts(spec["root"]):
            assert text in shown, f"{path.name}: {text!r} missing from {shown!r}"
            checked += 1
    assert checked >= 25


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("doc-example-1.json", ["Original | Edited", "Page 1 of 2", "Feedback", "Next"]),
        (
            "material-app-bar-dialog-pickers.json",
            ["Alarms | Settings", "Once | Weekdays | Daily", "New alarm"],
        ),
        ("repeat-state-keys.json", ["Alexey", "Save Alexey", "Bea", "Liked", "Save Bea"]),
        ("repeat.json", ["Pick one", "1: Beta costs 4.5 ({other.label}) false", "-"]),
        (
            "repeat-component-labels.json",
            ["Open Alpha", "Alpha (3) | Delete Alpha", "Beta one | 1 two"],
        ),
        ("content-description.json", ["Drafts panel", "Close drafts", "Send"]),
    ],
)
def test_corpus_specs_show_bound_texts(
    conformance_dir: Path, name: str, expected: list[str]
) -> None:
    path = conformance_dir / "fixtures" / "prototype-spec" / "valid" / name
    rt = Runtime(json.loads(path.read_text(encoding="utf-8")))
    shown = texts(rt)
    for text in expected:
        assert text in shown, f"{name}: {text!r} missing from {shown!r}"


def test_corpus_interactions(conformance_dir: Path) -> None:
    valid = conformance_dir / "fixtures" / "prototype-spec" / "valid"
    rt = Runtime(json.loads((valid / "doc-example-1.json").read_text(encoding="utf-8")))
    next_button = rt.spec["root"]["children"][3]
    rt.run_actions(next_button["onTap"])
    assert rt.pages["pages"] == 1
    assert "Page 1 of 2" not in texts(rt)

    alarm = Runtime(
        json.loads((valid / "material-app-bar-dialog-pickers.json").read_text(encoding="utf-8"))
    )
    fab = alarm.spec["root"]["children"][9]
    alarm.run_actions(fab["onTap"])
    assert "Edit alarm | Set the time and date. | Save | Cancel" in texts(alarm)
    alarm.set_values({"hour": 6, "minute": 5})
    alarm.run_actions(alarm.spec["root"]["children"][11]["confirm"]["onTap"])
    assert "Alarm set for 6:5 | Undo" in texts(alarm)  # `{minute}` renders the number as is

    repeat = Runtime(json.loads((valid / "repeat.json").read_text(encoding="utf-8")))
    (_, _), (instance, scope) = repeat.instances(repeat.spec["root"]["children"][1])
    repeat.run_actions(instance["children"][0]["children"][1]["onTap"], scope)
    assert repeat.state["selected"] == "b" and repeat.state["last"] == 1
    assert [e.name for e in repeat.events] == ["pick_b", "change"]


def test_corpus_all_nodes_tap_is_rejected_whole(conformance_dir: Path) -> None:
    """overlay-spec fullscreen-all-nodes: the 8th action steps the bottomNav key to 0.5, which
    the device's validator refuses, so the atomic list applies nothing (not even the emit)."""
    path = conformance_dir / "fixtures" / "overlay-spec" / "valid" / "fullscreen-all-nodes.json"
    rt = Runtime(json.loads(path.read_text(encoding="utf-8")))
    text = rt.spec["root"]["children"][1]["children"][0]["children"][0]["child"]
    assert rt.run_actions(text["onTap"]) == []
    assert rt.events == ()
    (refusal,) = rt.refusals
    assert refusal.action == 7
    assert refusal.key == "selected" and "integer" in refusal.message
    assert rt.state["open"] is False and rt.state["selected"] == 0 and rt.active
    assert rt.bind_text(text["text"], pager="variants") == "Page 1 / 2; Prototype"


# --- text_field_on_screen: when the phone's window takes the focus, and so Back -------------------
# RM PrototypeRenderModel.kt `hasVisibleTextField` / `inlineTextFieldVisible` /
# `modalPrototypeSheets`; HO PrototypeHost.kt `prototypeBackDecision` reads it.


def _field(**extra: Any) -> dict[str, Any]:
    return {"type": "textField", "stateKey": "q", **extra}


def _spec(root: dict[str, Any], **state: Any) -> dict[str, Any]:
    return {"id": "t", "root": root, "state": {"q": "", "show": False, "open": False, **state}}


def test_a_field_in_the_tree_is_on_screen_RM_hasVisibleTextField(make_runtime: Make) -> None:  # noqa: N802
    rt = make_runtime(_spec({"type": "column", "children": [{"type": "text", "text": "a"}]}))
    assert not rt.text_field_on_screen()
    rt = make_runtime(_spec({"type": "column", "children": [{"type": "card", "children": [_field()]}]}))  # fmt: skip
    assert rt.text_field_on_screen()


def test_a_field_hidden_by_visibleWhen_is_not_until_it_shows_RM_inlineTextFieldVisible(  # noqa: N802
    make_runtime: Make,
) -> None:
    hidden = {"type": "column", "visibleWhen": {"key": "show", "equals": True},
              "children": [_field()]}  # fmt: skip
    rt = make_runtime(_spec({"type": "column", "children": [hidden]}))
    assert not rt.text_field_on_screen()
    rt.set_value("show", True)
    assert rt.text_field_on_screen()


def test_only_the_settled_pages_field_counts_RM_inlineTextFieldVisible_pager(  # noqa: N802
    make_runtime: Make,
) -> None:
    pager = {"type": "pager", "id": "p",
             "children": [{"type": "text", "text": "one"}, {"type": "column", "children": [_field()]}]}  # fmt: skip
    rt = make_runtime(_spec(pager))
    assert not rt.text_field_on_screen()
    rt.set_page("p", 1)
    assert rt.text_field_on_screen()


def test_a_field_in_a_sheet_counts_while_the_sheet_is_open_RM_modalPrototypeSheets(  # noqa: N802
    make_runtime: Make,
) -> None:
    sheet = {"type": "bottomSheet", "openWhen": {"key": "open", "equals": True},
             "children": [_field()]}  # fmt: skip
    rt = make_runtime(_spec({"type": "column", "children": [{"type": "text", "text": "a"}, sheet]}))
    assert not rt.text_field_on_screen()
    rt.set_value("open", True)
    assert rt.text_field_on_screen()


def test_a_repeated_field_counts_once_the_list_has_an_item_RM_prototypeChildEntries(  # noqa: N802
    make_runtime: Make,
) -> None:
    def rows(items: list[dict[str, Any]]) -> dict[str, Any]:
        return {"type": "column", "repeat": {"items": items, "as": "it"}, "children": [_field()]}

    assert not make_runtime(_spec(rows([]))).text_field_on_screen()
    assert make_runtime(_spec(rows([{"id": "a"}]))).text_field_on_screen()
