"""Which CtrlProxy capabilities a spec needs, and why a device that lacks them must refuse it: the
gates AutoMobile's host applies (kaeawc/auto-mobile `src/features/observe/android/
CtrlProxyPrototypes.ts`, `src/features/prototype/prototypeThemeModes.ts`), plus the studio's own
extensions; and the host's refusal of anchors a floating window cannot show, whatever the device
(`prototypeAnchors.ts` `prototypeAnchorPlacementError`, `studio.spec.anchors`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from studio.spec.anchors import anchor_placement_error

SHOW = "show_prototype"
PUT_ASSET = "put_prototype_asset"
INSPECT = "inspect_prototypes"
#: What AutoMobile's host gates inspect on (CtrlProxyPrototypes.ts `requestInspectPrototypes`).
PERSISTENCE_REPLAY = "prototype_persistence_replay_v1"
SHOW_IN_PLACE = "prototype_show_in_place_v1"
THEME_MODES = "prototype_theme_modes_v1"
WINDOW_OPTIONS = "prototype_window_options_v1"
APPEARANCE = "prototype_appearance_v1"
DISPLAY_ID = "prototype_display_id_v1"
ANCHOR = "prototype_anchor_v1"
PLATFORM_PREFIX = "prototype_platform_"


def platform_capability(module: str) -> str:
    return f"{PLATFORM_PREFIX}{module}_v1"


def summary(supported: frozenset[str] | set[str]) -> tuple[str, str]:
    """(one line, the full list) of what a device's CtrlProxy advertises."""
    everything = "\n".join(sorted(supported))
    if SHOW not in supported:
        return ("CtrlProxy without prototype support (no show_prototype)", everything)
    named = [
        ("in-place re-show", SHOW_IN_PLACE),
        ("appearance", APPEARANCE),
        ("theme modes", THEME_MODES),
        ("window options", WINDOW_OPTIONS),
        ("anchors", ANCHOR),
        ("inspect", PERSISTENCE_REPLAY),
    ]
    have = [label for label, cap in named if cap in supported]
    lacks = [label for label, cap in named if cap not in supported]
    line = "CtrlProxy: prototypes" + (f", {', '.join(have)}" if have else "")
    if lacks:
        line += f"; lacks {', '.join(lacks)}"
    return (line, everything)


def can_inspect(supported: frozenset[str] | set[str]) -> bool:
    """`inspect_prototypes` is sent only to a device advertising persistence replay, as
    AutoMobile's host does: an older one answers without the buffered events first."""
    return INSPECT in supported and PERSISTENCE_REPLAY in supported


# ---- theme modes: prototypeThemeModes.ts `prototypeThemeModeFields` ------------------------------


def _newly_themed(value: Any) -> bool:
    """A colour slot that took hex only before: a {light, dark} pair or a role name."""
    return isinstance(value, Mapping) or (isinstance(value, str) and not value.startswith("#"))


def _style_fields(style: Any, path: str) -> Iterator[str]:
    if not isinstance(style, Mapping):
        return
    for key in ("background", "color", "shadowColor"):
        if isinstance(style.get(key), Mapping):
            yield f"{path}.{key}"
    border = style.get("border")
    if isinstance(border, Mapping) and isinstance(border.get("color"), Mapping):
        yield f"{path}.border.color"
    gradient = style.get("gradient")
    if isinstance(gradient, Mapping):
        for i, stop in enumerate(gradient.get("stops") or []):
            if isinstance(stop, Mapping) and _newly_themed(stop.get("color")):
                yield f"{path}.gradient.stops[{i}].color"


def _node_fields(node: Any, path: str) -> Iterator[str]:
    if not isinstance(node, Mapping):
        return
    yield from _style_fields(node.get("style"), f"{path}.style")
    for i, entry in enumerate(node.get("styleWhen") or []):
        if isinstance(entry, Mapping):
            yield from _style_fields(entry.get("style"), f"{path}.styleWhen[{i}].style")
    if node.get("type") == "image" and isinstance(node.get("asset"), Mapping):
        yield f"{path}.asset"
    if node.get("type") == "bottomSheet" and _newly_themed(node.get("scrim")):
        yield f"{path}.scrim"
    for i, item in enumerate(node.get("items") or []):
        if isinstance(item, Mapping) and isinstance(item.get("image"), Mapping):
            yield f"{path}.items[{i}].image"
    for i, child in enumerate(node.get("children") or []):
        yield from _node_fields(child, f"{path}.children[{i}]")
    yield from _node_fields(node.get("child"), f"{path}.child")


def theme_mode_fields(spec: Mapping[str, Any]) -> list[str]:
    """The spec fields only a device with `prototype_theme_modes_v1` can draw, in document order:
    `theme.colors.light`/`.dark`, {light, dark} colour and image pairs, role names in gradient
    stops and scrims. `theme.mode` alone needs nothing (every prototype APK reads it)."""
    fields: list[str] = []
    theme = spec.get("theme")
    colors = theme.get("colors") if isinstance(theme, Mapping) else None
    if isinstance(colors, Mapping):
        fields += [f"theme.colors.{mode}" for mode in ("light", "dark") if mode in colors]
    window = spec.get("window")
    placement = window.get("placement") if isinstance(window, Mapping) else None
    if isinstance(placement, Mapping) and _newly_themed(placement.get("scrim")):
        fields.append("window.placement.scrim")
    fields += list(_node_fields(spec.get("root"), "root"))
    return fields


def _walk(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    yield path, value
    if isinstance(value, Mapping):
        for key, child in value.items():
            yield from _walk(child, f"{path}.{key}")
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _walk(child, f"{path}[{i}]")


def required_capabilities(
    spec: Mapping[str, Any],
    *,
    appearance: str | None = None,
    display: str | int | None = None,
    assets: bool = False,
) -> dict[str, str]:
    """capability -> the first place in the spec (or the show option) that needs it.

    Per AutoMobile's show-time gates (automobile-spec.md 6.1 item 4) plus the studio extensions
    (architecture decision 2: `requires`, `data` and `platform` actions need
    `prototype_platform_<module>_v1`).
    """
    need: dict[str, str] = {SHOW: "showing a prototype"}
    if assets:
        need[PUT_ASSET] = "uploading assets"
    if appearance in {"light", "dark"}:
        need[APPEARANCE] = f"appearance {appearance}"
    if display is not None:
        need[DISPLAY_ID] = f"display {display}"
    window = spec.get("window")
    if isinstance(window, Mapping):
        if window.get("layer") == "app":
            need.setdefault(WINDOW_OPTIONS, 'window.layer "app"')
        if window.get("persistence") == "device":
            need.setdefault(WINDOW_OPTIONS, 'window.persistence "device"')
    themed = theme_mode_fields(spec)
    if themed:
        more = f" (and {len(themed) - 1} more)" if len(themed) > 1 else ""
        need[THEME_MODES] = themed[0] + more
    requires = spec.get("requires")
    if isinstance(requires, Mapping):
        for i, module in enumerate(requires.get("platform") or []):
            if isinstance(module, str):
                need.setdefault(platform_capability(module), f"requires.platform[{i}]")
    for path, value in _walk({k: v for k, v in spec.items() if k not in {"state", "data"}}, ""):
        if not isinstance(value, Mapping):
            continue
        where = path.lstrip(".") or "$"
        if value.get("type") == "platform" and isinstance(value.get("call"), str):
            module = value["call"].split(".", 1)[0]
            need.setdefault(platform_capability(module), where)
        anchor = value.get("anchor")
        if isinstance(anchor, Mapping):
            need.setdefault(ANCHOR, f"{where}.anchor")
    return need


def refusals(
    spec: Mapping[str, Any],
    supported: frozenset[str] | set[str],
    *,
    appearance: str | None = None,
    display: str | int | None = None,
    assets: bool = False,
) -> list[str]:
    """One line per reason this device cannot show the spec; empty when it can. Give it the
    expanded spec (as `DeviceShow.show` does): the host's rules read it so."""
    reasons = []
    for capability, where in required_capabilities(
        spec, appearance=appearance, display=display, assets=assets
    ).items():
        if capability not in supported:
            if capability == SHOW:
                reasons.append(
                    "this device's CtrlProxy has no prototype support (no show_prototype); "
                    "update the AutoMobile CtrlProxy APK"
                )
            elif capability.startswith(PLATFORM_PREFIX):
                module = capability[len(PLATFORM_PREFIX) : -len("_v1")]
                reasons.append(
                    f"{where}: uses the studio platform module {module!r}, which this device does "
                    f"not advertise ({capability})"
                )
            else:
                reasons.append(f"{where}: needs {capability}, which this device's CtrlProxy lacks")
    if "data" in spec and not any(c.startswith(PLATFORM_PREFIX) for c in supported):
        reasons.append(
            "data: the studio extension `data` needs a device with platform modules "
            f"({PLATFORM_PREFIX}<module>_v1); this device advertises none"
        )
    for path, value in _walk(spec.get("root"), "root"):
        if isinstance(value, Mapping) and value.get("type") == "element" and "selector" in value:
            reasons.append(
                f"{path}: element anchors are not resolved by the studio yet; use bounds"
            )
            break
    # prototypeTools.ts `assertAnchorsShowable`: refused before anything is sent to the phone.
    placement = anchor_placement_error(spec)
    if placement is not None:
        reasons.append(placement)
    return reasons
