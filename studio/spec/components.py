"""Component expansion: replaces every `use` node with its bound component root (authoring only).

A spec may declare `components: {name: {root: node}}` and place `{type: "use", component, props}`
wherever a node goes. Each `use` becomes a copy of the component's root with `{props.<field>}`
bound in the fields `repeat` binds (`studio.spec.binding`), and `components` is dropped, so the
validator, the runtime and devices only ever see plain nodes. One `use` becomes exactly one node,
so every path outside a component is unchanged; a path inside an expansion is mapped back to
where it was authored (`root.children[2] (use postCard) → components.postCard.root.label`).
Errors and their order follow AutoMobile's `expandPrototypeComponents`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from studio.spec.binding import (
    PROPS,
    Instance,
    Raw,
    bind_node_fields,
    bind_typed,
    bindable_fields,
    field_references,
    is_scalar,
    is_state_key,
    js_keys,
    js_string,
    record,
)
from studio.spec.errors import SpecError
from studio.spec.tree import child_nodes, children, map_children

#: How deep `use` nodes may nest (a component using a component ...), as upstream.
MAX_COMPONENT_DEPTH = 8
#: The node limit of the contract, applied to the expanded tree.
MAX_NODES = 2000
_USE_FIELDS = frozenset({"type", "component", "props"})

ComponentError = tuple[str, str]


class _Locations:
    """Expanded paths of component roots and the authored location each one stands for."""

    def __init__(self) -> None:
        self._roots: list[tuple[str, str]] = []

    def add(self, expanded: str, authored: str) -> None:
        self._roots.append((expanded, authored))

    def locate(self, path: str) -> str:
        """The longest recorded root that `path` lies in, with the rest of the path appended."""
        best: tuple[str, str] | None = None
        for expanded, authored in self._roots:
            inside = (
                path == expanded
                or path.startswith(f"{expanded}.")
                or path.startswith(f"{expanded}[")
            )
            if inside and (best is None or len(expanded) > len(best[0])):
                best = (expanded, authored)
        return best[1] + path[len(best[0]) :] if best is not None else path


def _identity(path: str) -> str:
    return path


@dataclass(frozen=True)
class ComponentExpansion:
    """The outcome of expansion: the spec (the input itself when nothing applied), whether
    anything was expanded, `locate` mapping an expanded path to its authored one, or the error."""

    spec: Any
    expanded: bool
    locate: Callable[[str], str]
    error: ComponentError | None = None


class _Failure(Exception):
    """The first error met, carried out of the recursion (already located)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.error: ComponentError = (path, message)


class _Expander:
    def __init__(self, components: dict[str, Raw]) -> None:
        self.components = components
        self.locations = _Locations()
        self.nodes = 0

    def fail(self, expanded_path: str, message: str) -> _Failure:
        return _Failure(self.locations.locate(expanded_path), message)

    def node(self, node: Raw, path: str, stack: tuple[str, ...]) -> Raw:
        if node.get("type") == "use":
            return self.use(node, path, stack)
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise self.fail(path, "Expanded node limit exceeded")
        if not children(node):
            return node
        return map_children(node, path, lambda child, at: self.node(child, at, stack))

    def use(self, use: Raw, path: str, stack: tuple[str, ...]) -> Raw:
        self.check_shape(use, path)
        name: str = use["component"]
        component = self.components.get(name)
        if component is None:
            raise self.fail(f"{path}.component", f"Unknown component {js_string(name)}")
        if name in stack:
            cycle = " → ".join((*stack, name))
            raise self.fail(f"{path}.component", f"Component cycle: {cycle}")
        if len(stack) + 1 > MAX_COMPONENT_DEPTH:
            raise self.fail(path, "Component nesting depth limit exceeded")
        props = record(use.get("props")) or {}
        root = record(component.get("root")) or {}
        self.check_props(props, root, path)
        authored = f"{self.locations.locate(path)} (use {name}) → components.{name}.root"
        self.locations.add(path, authored)
        bound = bind_props(root, Instance(PROPS, props))
        return self.node(bound, path, (*stack, name))

    def check_shape(self, use: Raw, path: str) -> None:
        unknown = next((k for k in js_keys(use) if k not in _USE_FIELDS), None)
        if unknown is not None:
            raise self.fail(f"{path}.{unknown}", "Unknown property")
        if not isinstance(use.get("component"), str):
            raise self.fail(f"{path}.component", "Required property")
        if "props" in use and record(use["props"]) is None:
            raise self.fail(f"{path}.props", "Expected object")
        props = record(use.get("props")) or {}
        for name in js_keys(props):
            if not is_state_key(name):
                raise self.fail(f"{path}.props[{js_string(name)}]", "Invalid prop name")
            if not is_scalar(props[name]):
                message = "Component prop must be a string, number or boolean"
                raise self.fail(f"{path}.props.{name}", message)

    def check_props(self, props: Raw, root: Raw, path: str) -> None:
        """Every prop the root references is passed, and every passed prop is referenced."""
        referenced = prop_references(root)
        missing = next((n for n in referenced if n not in props), None)
        if missing is not None:
            raise self.fail(f"{path}.props", f"Missing component prop {js_string(missing)}")
        unused = next((n for n in js_keys(props) if n not in referenced), None)
        if unused is not None:
            raise self.fail(f"{path}.props.{unused}", "Unused component prop")


def _bindable_strings(node: Raw, out: list[str]) -> None:
    """Every string in a bindable field of a component root, through every node it contains."""
    out.extend(v for v, _, _ in bindable_fields(node) if isinstance(v, str))
    if node.get("type") == "use":
        props = record(node.get("props")) or {}
        out.extend(props[k] for k in js_keys(props) if isinstance(props[k], str))
    for child, _ in children(node):
        _bindable_strings(child, out)


def prop_references(root: Raw) -> dict[str, None]:
    """Prop names a component root references, in first-reference order (an ordered set)."""
    strings: list[str] = []
    _bindable_strings(root, strings)
    return {name: None for text in strings for name in field_references(text, PROPS)}


def bind_props(node: Raw, instance: Instance) -> Raw:
    """Binds `{props.*}` through a whole component root, including nested `use` props."""
    bound = bind_node_fields(node, instance)
    props = record(bound.get("props")) if bound.get("type") == "use" else None
    if props is not None:
        bound["props"] = {k: bind_typed(props[k], instance) for k in js_keys(props)}
    return map_children(bound, "", lambda child, _: bind_props(child, instance))


def _has_use(node: Raw) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.get("type") == "use":
            return True
        stack.extend(child_nodes(current))
    return False


def _definition_error(name: str, entry: object) -> ComponentError | None:
    """The first shape error of one `components` entry: an object holding only a `root` node."""
    if not is_state_key(name):
        return (f"components[{js_string(name)}]", "Invalid component name")
    path = f"components.{name}"
    definition = record(entry)
    if definition is None:
        return (path, "Expected object")
    extra = next((k for k in js_keys(definition) if k != "root"), None)
    if extra is not None:
        return (f"{path}.{extra}", "Unknown property")
    if record(definition.get("root")) is None:
        return (f"{path}.root", "Expected object")
    return None


def _components_of(value: object) -> dict[str, Raw] | ComponentError:
    table = record(value)
    if table is None:
        return ("components", "Expected object")
    for name in js_keys(table):
        error = _definition_error(name, table[name])
        if error is not None:
            return error
    return table


def expand_with_locations(spec: Any) -> ComponentExpansion:
    """Expands every `use` against the spec's `components`; the result also maps expanded paths
    back to authored ones (for errors the validator finds in the expanded spec)."""
    data = record(spec)
    root = record(data.get("root")) if data is not None else None
    if data is None or root is None or ("components" not in data and not _has_use(root)):
        return ComponentExpansion(spec, False, _identity)
    # `components: null` is not "absent" upstream (undefined only): it is "Expected object".
    components = _components_of(data["components"]) if "components" in data else {}
    if isinstance(components, tuple):
        return ComponentExpansion(spec, False, _identity, components)
    expander = _Expander(components)
    try:
        expanded_root = expander.node(root, "root", ())
    except _Failure as failure:
        return ComponentExpansion(spec, False, expander.locations.locate, failure.error)
    rest = {k: v for k, v in data.items() if k != "components"}
    rest["root"] = expanded_root
    return ComponentExpansion(rest, True, expander.locations.locate)


def expand_components(spec: Any) -> tuple[Any, ComponentError | None]:
    """The expanded spec (no `components`, no `use`) and None, or the input and the first error
    `(path, message)` exactly as AutoMobile reports it. A spec without components and without
    `use` is returned as the same object."""
    expansion = expand_with_locations(spec)
    return expansion.spec, expansion.error


def expand(spec: Any) -> Any:
    """The expanded spec; raises `SpecError(path, message)` on the first expansion error."""
    expansion = expand_with_locations(spec)
    if expansion.error is not None:
        raise SpecError(*expansion.error)
    return expansion.spec
