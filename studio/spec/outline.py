"""Reading a spec compactly: the outline tree, one node's subtree, and state/data by pointer.

These are what the agent's `outline`, `readNode` and `readData` tools and the UI's tree show;
the model sees the outline instead of the whole spec (seed section 4.3).
"""

from __future__ import annotations

import copy
import json
from typing import Any

from studio.spec.address import addresses, iter_nodes, resolve
from studio.spec.binding import Raw, record
from studio.spec.errors import SpecError
from studio.spec.tree import children

#: Outline labels are cut to this many characters (an ellipsis marks the cut).
LABEL_LIMIT = 60
_LABEL_FIELDS = ("text", "label", "title", "headline", "placeholder")


def node_label(node: Raw) -> str:
    """The node's visible text (text/label/title/headline/placeholder), cut to 60 characters."""
    for field in _LABEL_FIELDS:
        value = node.get(field)
        if isinstance(value, str) and value:
            one_line = " ".join(value.split())
            if len(one_line) > LABEL_LIMIT:
                return one_line[: LABEL_LIMIT - 1] + "…"
            return one_line
    return ""


def outline(spec: Any) -> list[dict[str, Any]]:
    """One entry per node in document order: {address, path, id?, type, label, children, depth}
    (plus `component` for a `use` node and `repeat` = item count for a repeat container)."""
    addressed = addresses(spec)
    entries: list[dict[str, Any]] = []
    for path, node, depth, _ in iter_nodes(spec):
        entry: dict[str, Any] = {"address": addressed[path], "path": path}
        if isinstance(node.get("id"), str):
            entry["id"] = node["id"]
        entry["type"] = node.get("type") if isinstance(node.get("type"), str) else "?"
        entry["label"] = node_label(node)
        entry["children"] = len(children(node, path))
        entry["depth"] = depth
        if node.get("type") == "use" and isinstance(node.get("component"), str):
            entry["component"] = node["component"]
        repeat = record(node.get("repeat"))
        if repeat is not None and isinstance(repeat.get("items"), list):
            entry["repeat"] = len(repeat["items"])
        entries.append(entry)
    return entries


def outline_text(spec: Any) -> str:
    """The outline as indented lines for the model, e.g. `  title: text "Inbox"` or
    `  root.children[1]: column [3] repeat×4`; then the component names, if any."""
    lines: list[str] = []
    for entry in outline(spec):
        parts = [f"{'  ' * entry['depth']}{entry['address']}: {entry['type']}"]
        if "component" in entry:
            parts.append(entry["component"])
        if entry["label"]:
            parts.append(json.dumps(entry["label"], ensure_ascii=False))
        if entry["children"]:
            parts.append(f"[{entry['children']}]")
        if "repeat" in entry:
            parts.append(f"repeat×{entry['repeat']}")
        lines.append(" ".join(parts))
    components = record(spec.get("components")) if isinstance(spec, dict) else None
    if components:
        lines.append("components: " + ", ".join(components))
    return "\n".join(lines)


def read_node(spec: Any, address: str) -> Raw:
    """A deep copy of the full JSON of the subtree at `address` (an id or a path)."""
    _, node = resolve(spec, address)
    return copy.deepcopy(node)


def _unescape(token: str, pointer: str) -> str:
    if "~" in token.replace("~0", "").replace("~1", ""):
        raise SpecError(pointer, f"Invalid JSON pointer {json.dumps(pointer)} (bad ~ escape)")
    return token.replace("~1", "/").replace("~0", "~")


def split_pointer(pointer: str) -> list[str]:
    """The reference tokens of an RFC 6901 pointer (`""` -> [])."""
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise SpecError(pointer, f"Invalid JSON pointer {json.dumps(pointer)} (must start with /)")
    return [_unescape(token, pointer) for token in pointer[1:].split("/")]


def _array_index(token: str) -> int | None:
    # RFC 6901: an array index is "0" or digits without a leading zero.
    if token == "0" or (token.isdigit() and token.isascii() and not token.startswith("0")):
        return int(token)
    return None


def read_data(spec: Any, pointer: str) -> Any:
    """A deep copy of the value at an RFC 6901 pointer into {"state": declared state, "data":
    the studio `data` object}; `""` or `"/"` returns both. Unknown pointers raise SpecError."""
    state = spec.get("state", {}) if isinstance(spec, dict) else {}
    data = spec.get("data", {}) if isinstance(spec, dict) else {}
    if pointer in ("", "/"):
        return copy.deepcopy({"state": state, "data": data})
    tokens = split_pointer(pointer)
    current: Any = {"state": state, "data": data}
    for token in tokens:
        if isinstance(current, dict) and token in current:
            current = current[token]
            continue
        index = _array_index(token) if isinstance(current, list) else None
        if isinstance(current, list) and index is not None and index < len(current):
            current = current[index]
            continue
        raise SpecError(
            pointer,
            f"Unknown data pointer {json.dumps(pointer, ensure_ascii=False)}"
            " (readable: /state, /state/<key>, /data/...)",
        )
    return copy.deepcopy(current)
