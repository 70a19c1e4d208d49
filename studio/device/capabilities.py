"""Which CtrlProxy capabilities a spec needs, and why a device that lacks them must refuse it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

SHOW = "show_prototype"
PUT_ASSET = "put_prototype_asset"
INSPECT = "inspect_prototypes"
SHOW_IN_PLACE = "prototype_show_in_place_v1"
THEME_MODES = "prototype_theme_modes_v1"
WINDOW_OPTIONS = "prototype_window_options_v1"
APPEARANCE = "prototype_appearance_v1"
DISPLAY_ID = "prototype_display_id_v1"
ANCHOR = "prototype_anchor_v1"
PLATFORM_PREFIX = "prototype_platform_"


def platform_capability(module: str) -> str:
    return f"{PLATFORM_PREFIX}{module}_v1"


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
    theme = spec.get("theme")
    if isinstance(theme, Mapping):
        if "mode" in theme:
            need.setdefault(THEME_MODES, "theme.mode")
        colors = theme.get("colors")
        if isinstance(colors, Mapping):
            for mode in ("light", "dark"):
                if mode in colors:
                    need.setdefault(THEME_MODES, f"theme.colors.{mode}")
    requires = spec.get("requires")
    if isinstance(requires, Mapping):
        for i, module in enumerate(requires.get("platform") or []):
            if isinstance(module, str):
                need.setdefault(platform_capability(module), f"requires.platform[{i}]")
    for path, value in _walk({k: v for k, v in spec.items() if k not in {"state", "data"}}, ""):
        if not isinstance(value, Mapping):
            continue
        where = path.lstrip(".") or "$"
        if set(value) == {"light", "dark"}:
            need.setdefault(THEME_MODES, where)
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
    """One line per reason this device cannot show the spec; empty when it can."""
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
    return reasons
