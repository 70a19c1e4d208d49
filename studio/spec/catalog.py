"""The node catalog: every node type with its name, icon and one-line description (the palette's
entries), which types hold children, and a valid minimal new node of each type.

A new node has a fresh id; a control that binds state gets a new state key of the type it
needs, declared for it (`NewNode.state`), so inserting it keeps the spec valid. Which fields
hold children comes from the rule table (`studio.spec.rules`), the types a key must hold from
the state-typing table (`studio.spec.state_rules`): nothing here restates the format.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from studio.spec import rules as R
from studio.spec import tree
from studio.spec.state_rules import CONTROLS, Kind

__all__ = [
    "KINDS",
    "NewNode",
    "NodeKind",
    "container",
    "kind",
    "new_node",
    "node_ids",
    "state_default",
    "unique_id",
    "unique_key",
]

JSON = dict[str, Any]
Container = Literal["list", "slot"]


@dataclass(frozen=True)
class NodeKind:
    """A palette entry: the node `type`, its `name`, a Material `icon`, what it is for and its
    `group`."""

    type: str
    name: str
    icon: str
    description: str
    group: str


def _k(type_: str, name: str, icon: str, description: str, group: str) -> NodeKind:
    return NodeKind(type_, name, icon, description, group)


#: Every node type, in the palette's order (groups a designer knows from Compose and Figma).
KINDS: tuple[NodeKind, ...] = (
    _k("column", "Column", "view_agenda", "Stacks its children from top to bottom", "Layout"),
    _k("row", "Row", "view_column", "Places its children side by side", "Layout"),
    _k("box", "Box", "crop_square", "Layers its children on top of each other", "Layout"),
    _k("card", "Card", "credit_card", "A surface that groups related content", "Layout"),
    _k("scroll", "Scroll", "swap_vert", "Scrolls one child that is taller than the screen", "Layout"),
    _k("pager", "Pager", "view_carousel", "Pages of content, one shown at a time", "Layout"),
    _k("spacer", "Spacer", "space_bar", "Empty space between nodes", "Layout"),
    _k("divider", "Divider", "horizontal_rule", "A thin line that separates content", "Layout"),
    _k("text", "Text", "title", "A line or paragraph of text", "Content"),
    _k("image", "Image", "image", "A picture from the prototype's assets", "Content"),
    _k("icon", "Icon", "star", "A Material icon", "Content"),
    _k("listItem", "List item", "format_list_bulleted", "A row with a headline, text and icons", "Content"),
    _k("badge", "Badge", "notifications", "A small count or status dot", "Content"),
    _k("progress", "Progress", "hourglass_empty", "A linear or circular progress indicator", "Content"),
    _k("button", "Button", "smart_button", "A button with a label that runs actions", "Controls"),
    _k("iconButton", "Icon button", "touch_app", "A compact button showing an icon", "Controls"),
    _k("fab", "Floating action button", "add_circle", "The screen's main action, floating", "Controls"),
    _k("textField", "Text field", "input", "Lets the user type text into a state key", "Controls"),
    _k("switch", "Switch", "toggle_on", "Turns a boolean state key on or off", "Controls"),
    _k("checkbox", "Checkbox", "check_box", "Checks or unchecks a boolean state key", "Controls"),
    _k("radioGroup", "Radio group", "radio_button_checked", "Picks one of a few options", "Controls"),
    _k("segmentedButton", "Segmented button", "view_week", "Picks one of two to five options", "Controls"),
    _k("slider", "Slider", "tune", "Picks a number in a range", "Controls"),
    _k("chip", "Chip", "label", "A compact choice, filter or action", "Controls"),
    _k("datePicker", "Date picker", "calendar_today", "Picks a calendar date", "Controls"),
    _k("timePicker", "Time picker", "schedule", "Picks an hour and minute", "Controls"),
    _k("topAppBar", "Top app bar", "web_asset", "The screen's title bar with actions", "Navigation"),
    _k("tabBar", "Tab bar", "tab", "Tabs that switch between views", "Navigation"),
    _k("bottomNav", "Bottom navigation", "call_to_action", "Two to five destinations at the bottom", "Navigation"),
    _k("dialog", "Dialog", "chat_bubble", "A modal question or message, opened by a state key", "Overlays"),
    _k("bottomSheet", "Bottom sheet", "horizontal_split", "A panel that slides up, opened by a state key", "Overlays"),
    _k("snackbar", "Snackbar", "short_text", "A brief message at the bottom, shown by a state key", "Overlays"),
)  # fmt: skip

_BY_TYPE = {k.type: k for k in KINDS}


def kind(type_: str) -> NodeKind | None:
    """The palette entry of a node type (None for an unknown type)."""
    return _BY_TYPE.get(type_)


@cache
def _containers() -> dict[str, tuple[Container, bool]]:
    """Per node type that holds nodes: "list" (`children`) or "slot" (`child`), and whether
    the field is required; read from the rule table."""
    node_rule = R.definitions()["node"]
    assert isinstance(node_rule, R.Tagged)
    out: dict[str, tuple[Container, bool]] = {}
    for name, variant in node_rule.variants.items():
        for key, shape in (("children", "list"), ("child", "slot")):
            found = variant.fields.get(key)
            if found is not None:
                out[name] = (shape, not found.optional)  # type: ignore[assignment]  # literal
    return out


def container(type_: object) -> Container | None:
    """ "list" for a type whose children are a list, "slot" for one that holds one `child`,
    None for a leaf."""
    found = _containers().get(type_) if isinstance(type_, str) else None
    return found[0] if found is not None else None


def slot_required(type_: object) -> bool:
    """True when the type's one `child` is required (a scroll, a bottom sheet)."""
    found = _containers().get(type_) if isinstance(type_, str) else None
    return found is not None and found[0] == "slot" and found[1]


def min_children(type_: object) -> int:
    """How many children a list container needs at least (a pager: 1)."""
    node_rule = R.definitions()["node"]
    assert isinstance(node_rule, R.Tagged)
    variant = node_rule.variants.get(type_) if isinstance(type_, str) else None
    found = variant.fields.get("children") if variant is not None else None
    return found.rule.min if found is not None and isinstance(found.rule, R.Arr) else 0


# --- ids and state keys ------------------------------------------------------------------------


def node_ids(spec: object) -> set[str]:
    """Every node id used in the spec (its root and its components)."""
    ids: set[str] = set()
    for node in _all_nodes(spec):
        value = node.get("id")
        if isinstance(value, str) and value:
            ids.add(value)
    return ids


def _all_nodes(spec: object) -> Iterable[JSON]:
    for _, node, _, _ in tree.walk(spec):
        yield node
    components = spec.get("components") if isinstance(spec, dict) else None
    if isinstance(components, dict):
        for definition in components.values():
            for _, node, _, _ in tree.walk(definition):
                yield node


_TRAILING_NUMBER = re.compile(r"^(.*?)(\d+)$")


def unique_id(base: str, taken: Collection[str]) -> str:
    """`base` when free, else `base2`, `base3`, ... (`button1` -> `button2`)."""
    if base not in taken:
        return base
    match = _TRAILING_NUMBER.match(base)
    stem, start = (match.group(1), int(match.group(2)) + 1) if match else (base, 2)
    number = start
    while f"{stem}{number}" in taken:
        number += 1
    return f"{stem}{number}"


def unique_key(base: str, taken: Collection[str]) -> str:
    """A state key like `unique_id`, kept to the key pattern (64 characters at most)."""
    cleaned = re.sub(r"[^A-Za-z0-9_]", "_", base)[:56] or "value"
    if cleaned[0].isdigit():
        cleaned = f"k{cleaned}"[:56]
    return unique_id(cleaned, taken)


_DEFAULTS: dict[Kind, Any] = {
    "string": "",
    "boolean": False,
    "number": 0,
    "integer": 0,
    "date": "2025-01-01",
}


def state_default(kind_: Kind, low: float | None = None) -> Any:
    """The initial value a new state key of this kind gets (a number starts at its minimum)."""
    if kind_ in ("number", "integer") and low is not None:
        return low
    return copy.deepcopy(_DEFAULTS[kind_])


# --- new nodes ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class NewNode:
    """A valid minimal node and the state keys it binds that must be declared with it."""

    node: JSON
    state: dict[str, Any] = field(default_factory=dict)


_MINIMAL: dict[str, JSON] = {
    "box": {"children": []},
    "row": {"children": []},
    "column": {"children": []},
    "card": {"children": []},
    "text": {"text": "Text"},
    "image": {"asset": "image"},
    "icon": {"name": "star"},
    "spacer": {"style": {"height": {"dp": 16}}},
    "textField": {"placeholder": "Text"},
    "switch": {"label": "Switch"},
    "checkbox": {"label": "Checkbox"},
    "button": {"label": "Button"},
    "radioGroup": {
        "options": [{"value": "a", "label": "Option A"}, {"value": "b", "label": "Option B"}]
    },
    "listItem": {"headline": "Headline"},
    "slider": {"min": 0, "max": 10},
    "chip": {"label": "Chip"},
    "iconButton": {"icon": "favorite"},
    "fab": {"icon": "add"},
    "segmentedButton": {
        "options": [{"value": "a", "label": "One"}, {"value": "b", "label": "Two"}]
    },
    "topAppBar": {"title": "Title"},
    "divider": {},
    "badge": {"text": "1"},
    "progress": {"variant": "linear"},
    "dialog": {"title": "Title", "text": "Message", "confirm": {"label": "OK"}},
    "snackbar": {"text": "Message"},
    "timePicker": {},
    "datePicker": {},
    "scroll": {"child": {"type": "column", "children": []}},
    "pager": {"children": [{"type": "column", "children": []}]},
    "tabBar": {"items": [{"label": "One"}, {"label": "Two"}]},
    "bottomNav": {"items": [{"label": "Home", "icon": "home"}, {"label": "Search", "icon": "search"}]},
    "bottomSheet": {"child": {"type": "column", "children": []}, "detents": ["half"]},
}  # fmt: skip

_MODAL_KEY = {"dialog": "Open", "bottomSheet": "Open", "snackbar": "Shown"}


def new_node(spec: object, type_: str, *, taken_ids: Collection[str] = ()) -> NewNode:
    """A valid minimal node of `type_` with a fresh id (not in the spec nor `taken_ids`), and
    the state it needs declared. ValueError for an unknown type."""
    if type_ not in _MINIMAL:
        raise ValueError(f"unknown node type {type_!r} (one of {', '.join(R.NODE_TYPES)})")
    ids = node_ids(spec) | set(taken_ids)
    node_id = unique_id(f"{type_}1", ids)
    node: JSON = {"type": type_, "id": node_id, **copy.deepcopy(_MINIMAL[type_])}
    declared = spec.get("state") if isinstance(spec, dict) else None
    keys = set(declared) if isinstance(declared, dict) else set()
    state: dict[str, Any] = {}

    def declare(base: str, kind_: Kind, low: float | None = None) -> str:
        key = unique_key(base, keys | set(state))
        state[key] = state_default(kind_, low)
        return key

    if type_ in _MODAL_KEY:
        key = declare(f"{node_id}{_MODAL_KEY[type_]}", "boolean")
        node["openWhen"] = {"key": key, "equals": True}
        if type_ == "dialog":
            node["confirm"]["onTap"] = [{"type": "setState", "key": key, "value": False}]
    for binding in CONTROLS.get(type_, ()):
        if binding.field[0] in ("openWhen", "trailing"):
            continue  # modals above; a list item's trailing control is optional
        if type_ == "chip":
            continue  # only a filter chip binds a key
        low = node.get(binding.minimum_field) if binding.minimum_field else binding.minimum
        suffix = binding.field[-1].removesuffix("Key").removesuffix("state")
        key = declare(f"{node_id}{suffix.capitalize()}", binding.kind, low)
        node[binding.field[-1]] = key
    return NewNode(node, state)
