"""The prototype spec format as a rule table: AutoMobile's format plus the studio extensions.

Hand-written from the facts of AutoMobile's contract (docs/research/automobile-spec.md). It is
the single source of the format: `studio.spec.structure` generates the checking functions from
it (with AutoMobile's traversal order and messages) and `studio.spec.schema` renders it as our JSON
Schema (resources/schema/prototype-spec.schema.json). A tiny rule language of our own is used
instead of interpreting JSON Schema because AutoMobile's first-error semantics (sorted keys,
choice candidates picked by JSON type, tagged unions, limit counters) are not JSON Schema's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from studio.resources import resource_path

# --- limits (AutoMobile's contract and validator) ---------------------------------------------

MAX_NODES = 2000
MAX_DEPTH = 24
MAX_IMAGES = 32
MAX_SPEC_BYTES = 1_048_576
MAX_PAYLOAD_BYTES = 4096
MAX_PAYLOAD_DEPTH = 24
#: Studio extension: how deep `data` and platform `args` may nest (levels below the object).
MAX_DATA_DEPTH = 64
MAX_SELECTOR_DEPTH = 8
MAX_CONDITION_DEPTH = 8
MAX_INT32 = 2_147_483_647

#: A literal state key (also repeat aliases and field names).
STATE_KEY_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]{0,63}$"
#: A state-key field: a literal key, or key characters mixed with at least one `{index}` /
#: `{alias.field}` placeholder (bound per repeat item, then re-checked as a literal key).
BOUND_KEY_PATTERN = (
    r"^(?:[A-Za-z_][A-Za-z0-9_]{0,63}|(?=[^{]*\{)(?:[A-Za-z0-9_]|"
    r"\{(?:index|[A-Za-z_][A-Za-z0-9_]{0,63}\.[A-Za-z_][A-Za-z0-9_]{0,63})\})+)$"
)
COLOR_PATTERN = r"^#(?:[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$"
#: Studio extension: `module.call` of a platform module.
PLATFORM_CALL_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]{0,63}\.[A-Za-z_][A-Za-z0-9_]{0,63}$"
#: Studio extension: a platform module name in `requires.platform`.
MODULE_PATTERN = STATE_KEY_PATTERN
#: Studio extension: an RFC 6901 JSON pointer below `/data` (`~` only as `~0` / `~1`).
DATA_POINTER_PATTERN = r"^/data(?:/(?:[^~/]|~[01])*)+$"


# --- the rule language ------------------------------------------------------------------------


@dataclass(frozen=True)
class Str:
    """A string; non-empty unless `empty`; `nonblank` also refuses whitespace only."""

    empty: bool = False
    nonblank: bool = False


@dataclass(frozen=True)
class Key:
    """A literal state key (`Invalid key value`)."""


@dataclass(frozen=True)
class BoundKey:
    """A state key that may hold repeat placeholders (`Invalid key value`)."""


@dataclass(frozen=True)
class Color:
    """`#RRGGBB` or `#AARRGGBB`."""


@dataclass(frozen=True)
class Num:
    """A finite number (booleans are not numbers); `integer` is by value (`1e2`, `500.0`)."""

    integer: bool = False
    min: float | None = None
    max: float | None = None


@dataclass(frozen=True)
class Bool:
    """true or false."""


@dataclass(frozen=True)
class Scalar:
    """A string, a boolean or a finite number."""


@dataclass(frozen=True)
class Enum:
    """One of a closed set of strings."""

    values: tuple[str, ...]


@dataclass(frozen=True)
class Json:
    """Any JSON within a payload cost budget (`Invalid json value`)."""

    max_bytes: int | None = None


@dataclass(frozen=True)
class Pattern:
    """Studio extension: a string matching `pattern`, reported as `message` when it does not."""

    pattern: str
    message: str


@dataclass(frozen=True)
class AnyObject:
    """Studio extension: any JSON object (`data`, platform `args`)."""


@dataclass(frozen=True)
class Arr:
    """An array; `unique` compares items as JSON text with JavaScript numbers (240 == 240.0)."""

    item: Rule
    min: int = 0
    max: int | None = None
    unique: bool = False


@dataclass(frozen=True)
class Map:
    """An object whose keys are state keys (`Invalid state key`) and whose values match `item`."""

    item: Rule


@dataclass(frozen=True)
class Ref:
    """A named definition. `node`, `condition`, `container` and `item` also count limits."""

    name: str


@dataclass(frozen=True)
class Choice:
    """The first option that accepts the value; candidates are picked by JSON type."""

    options: tuple[Rule, ...]


@dataclass(frozen=True)
class Field:
    rule: Rule
    optional: bool


@dataclass(frozen=True)
class Obj:
    """A closed object. Constraints run after the fields, in this order: `binding` (exactly one
    of pager/stateKey), `exclusive`, `exactly_one`, `dependents`, `at_least_one`."""

    fields: dict[str, Field]
    at_least_one: bool = False
    exactly_one: tuple[str, ...] = ()
    dependents: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclusive: tuple[str, ...] = ()
    binding: bool = False


@dataclass(frozen=True)
class Tagged:
    """An object tagged by `type`; each variant is an `Obj` whose `type` is its one value."""

    variants: dict[str, Obj] = field(default_factory=dict)


Rule = (
    Str
    | Key
    | BoundKey
    | Color
    | Num
    | Bool
    | Scalar
    | Enum
    | Json
    | Pattern
    | AnyObject
    | Arr
    | Map
    | Ref
    | Choice
    | Obj
    | Tagged
)


def req(rule: Rule) -> Field:
    return Field(rule, optional=False)


def opt(rule: Rule) -> Field:
    return Field(rule, optional=True)


def tagged(**variants: dict[str, Field]) -> Tagged:
    """A tagged union; each keyword is a variant name and its fields besides `type`."""
    return Tagged(
        {name: Obj({"type": req(Enum((name,))), **fields}) for name, fields in variants.items()}
    )


# --- value types ------------------------------------------------------------------------------


@cache
def icon_names() -> tuple[str, ...]:
    """The 2,075 Material icon names a spec may use (resources/schema/material-icon-names.txt)."""
    text = resource_path("schema", "material-icon-names.txt").read_text(encoding="utf-8")
    return tuple(
        line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")
    )


COLOR_ROLES = (
    "primary",
    "onPrimary",
    "primaryContainer",
    "onPrimaryContainer",
    "inversePrimary",
    "secondary",
    "onSecondary",
    "secondaryContainer",
    "onSecondaryContainer",
    "tertiary",
    "onTertiary",
    "tertiaryContainer",
    "onTertiaryContainer",
    "background",
    "onBackground",
    "surface",
    "onSurface",
    "surfaceVariant",
    "onSurfaceVariant",
    "surfaceTint",
    "inverseSurface",
    "inverseOnSurface",
    "error",
    "onError",
    "errorContainer",
    "onErrorContainer",
    "outline",
    "outlineVariant",
    "scrim",
    "surfaceBright",
    "surfaceDim",
    "surfaceContainer",
    "surfaceContainerHigh",
    "surfaceContainerHighest",
    "surfaceContainerLow",
    "surfaceContainerLowest",
)
ALIGNMENTS = (
    "topStart",
    "topCenter",
    "topEnd",
    "centerStart",
    "center",
    "centerEnd",
    "bottomStart",
    "bottomCenter",
    "bottomEnd",
)
TEXT_STYLES = tuple(
    f"{size}{scale}"
    for size in ("display", "headline", "title", "body", "label")
    for scale in ("Large", "Medium", "Small")
)

NUMBER = Num()
NONNEG = Num(min=0)
POSITIVE = Num(min=1e-6)
ACTIONS = Arr(Ref("action"), min=1, max=32)


def _definitions() -> dict[str, Rule]:
    d: dict[str, Rule] = {}
    d["offset"] = Obj({"x": req(NUMBER), "y": req(NUMBER)})
    d["bounds"] = Obj(
        {"x": req(NUMBER), "y": req(NUMBER), "width": req(NONNEG), "height": req(NONNEG)}
    )
    d["container"] = Obj(
        {
            "elementId": opt(Str()),
            "text": opt(Str(nonblank=True)),
            "index": opt(Num(integer=True, min=0, max=MAX_INT32)),
            "selectionStrategy": opt(Enum(("unique",))),
            "container": opt(Ref("container")),
        },
        exclusive=("elementId", "text"),
    )
    d["selector"] = Obj(
        {
            "elementId": opt(Str()),
            "text": opt(Str()),
            "testTag": opt(Str()),
            "container": opt(Ref("container")),
        },
        at_least_one=True,
    )
    d["condition"] = Obj(
        {
            "key": opt(BoundKey()),
            "equals": opt(Scalar()),
            "notEquals": opt(Scalar()),
            "gt": opt(NUMBER),
            "lt": opt(NUMBER),
            "all": opt(Arr(Ref("condition"), min=1, max=16)),
            "any": opt(Arr(Ref("condition"), min=1, max=16)),
            "not": opt(Ref("condition")),
        },
        exactly_one=("key", "all", "any", "not"),
        dependents=(("key", ("equals", "notEquals", "gt", "lt")),),
    )
    d["sheetCondition"] = Obj({"key": req(BoundKey()), "equals": req(Bool())})
    d["safeAreaPadding"] = Obj(
        {
            "edges": req(Arr(Enum(("top", "bottom", "start", "end")), 1, 4, unique=True)),
            "types": req(Arr(Enum(("systemBars", "cutout", "ime")), 1, 3, unique=True)),
        }
    )
    d["dimension"] = Choice((Enum(("fill", "wrap")), Obj({"dp": req(NONNEG)})))
    d["detent"] = Choice((Enum(("half", "full")), Obj({"dp": req(POSITIVE)})))
    d["padding"] = Obj({side: opt(NONNEG) for side in ("top", "bottom", "start", "end")})
    d["border"] = Obj({"width": req(NONNEG), "color": req(Ref("colorValue"))})
    d["gradientStop"] = Obj({"color": req(Ref("colorValue")), "position": opt(Num(min=0, max=1))})
    stops = Arr(Ref("gradientStop"), min=2, max=4)
    d["gradient"] = tagged(
        linear={"angle": req(NUMBER), "stops": req(stops)}, radial={"stops": req(stops)}
    )
    d["colorRole"] = Enum(COLOR_ROLES)
    d["colorToken"] = Choice((Color(), Ref("colorRole")))
    d["colorValue"] = Choice(
        (
            Ref("colorToken"),
            Obj({"light": req(Ref("colorToken")), "dark": req(Ref("colorToken"))}),
        )
    )
    d["imageAsset"] = Choice((Str(), Obj({"light": req(Str()), "dark": req(Str())})))
    corners = ("topStart", "topEnd", "bottomEnd", "bottomStart")
    d["cornerRadius"] = Choice(
        (
            NONNEG,
            Enum(("none", "extraSmall", "small", "medium", "large", "extraLarge", "full")),
            Obj({corner: opt(NONNEG) for corner in corners}),
        )
    )
    d["style"] = Obj(
        {
            "width": opt(Ref("dimension")),
            "height": opt(Ref("dimension")),
            "weight": opt(POSITIVE),
            "minWidth": opt(NONNEG),
            "maxWidth": opt(NONNEG),
            "minHeight": opt(NONNEG),
            "maxHeight": opt(NONNEG),
            "padding": opt(Ref("padding")),
            "background": opt(Ref("colorValue")),
            "cornerRadius": opt(Ref("cornerRadius")),
            "border": opt(Ref("border")),
            "elevation": opt(NONNEG),
            "shadowColor": opt(Ref("colorValue")),
            "gradient": opt(Ref("gradient")),
            "aspectRatio": opt(POSITIVE),
            "offset": opt(Ref("offset")),
            "alpha": opt(Num(min=0, max=1)),
            "pressScale": opt(Num(min=0.5, max=1)),
            "alignment": opt(Enum(ALIGNMENTS)),
            "arrangement": opt(
                Enum(("start", "center", "end", "spaceBetween", "spaceAround", "spaceEvenly"))
            ),
            "spacing": opt(NONNEG),
            "textSize": opt(POSITIVE),
            "fontWeight": opt(Num(integer=True, min=100, max=900)),
            "color": opt(Ref("colorValue")),
            "textAlign": opt(Enum(("start", "center", "end", "justify"))),
            "maxLines": opt(Num(integer=True, min=1, max=MAX_INT32)),
            "lineHeight": opt(POSITIVE),
            "letterSpacing": opt(NUMBER),
            "textDecoration": opt(
                Enum(("none", "underline", "lineThrough", "underlineLineThrough"))
            ),
            "fontStyle": opt(Enum(("normal", "italic"))),
            "overflow": opt(Enum(("clip", "ellipsis", "visible"))),
            "fontFamily": opt(
                Choice(
                    (
                        Enum(("default", "sansSerif", "serif", "monospace")),
                        Obj({"asset": req(Str())}),
                    )
                )
            ),
            "textStyle": opt(Enum(TEXT_STYLES)),
        }
    )
    d["styleWhenEntry"] = Obj({"when": req(Ref("condition")), "style": req(Ref("style"))})
    d["item"] = Obj(
        {"label": req(Str()), "icon": opt(Ref("iconName")), "image": opt(Ref("imageAsset"))}
    )
    anchor_alignment = Enum(("cover", "top", "bottom", "start", "end"))
    d["anchor"] = tagged(
        bounds={
            "bounds": req(Ref("bounds")),
            "alignment": opt(anchor_alignment),
            "offset": opt(Ref("offset")),
        },
        element={
            "selector": req(Ref("selector")),
            "alignment": req(anchor_alignment),
            "offset": opt(Ref("offset")),
        },
    )
    d["placement"] = tagged(
        fullscreen={"scrim": opt(Ref("colorValue"))},
        sheet={"edge": req(Enum(("top", "bottom"))), "height": req(POSITIVE)},
        floating={"gravity": req(Enum(ALIGNMENTS)), "offset": req(Ref("offset"))},
    )
    d["action"] = tagged(
        emit={"name": req(Str()), "payload": opt(Json(MAX_PAYLOAD_BYTES))},
        setPage={
            "pager": req(Str()),
            "page": req(Choice((Enum(("next", "prev")), Num(integer=True, min=0, max=MAX_INT32)))),
        },
        setState={"key": req(BoundKey()), "value": req(Scalar())},
        toggle={"key": req(BoundKey())},
        increment={"key": req(BoundKey()), "by": opt(NUMBER)},
        dismiss={},
        decrement={"key": req(BoundKey()), "by": opt(NUMBER)},
        # Studio extension (architecture decision 2): a call into a platform module.
        platform={
            "call": req(
                Pattern(PLATFORM_CALL_PATTERN, 'Invalid platform call (expected "module.call")')
            ),
            "args": opt(AnyObject()),
            "into": opt(Pattern(DATA_POINTER_PATTERN, "Expected a JSON pointer under /data/")),
            "statusKey": opt(Key()),
        },
    )
    d["window"] = Obj(
        {
            "placement": req(Ref("placement")),
            "opacity": opt(Num(integer=True, min=0, max=100)),
            "layer": opt(Enum(("app", "system"))),
            "persistence": opt(Enum(("session", "device"))),
        }
    )
    d["iconName"] = Enum(icon_names())
    d["iconVariant"] = Enum(("filled", "outlined", "rounded", "sharp", "twoTone"))
    d["themeModeColors"] = Obj({role: opt(Color()) for role in COLOR_ROLES}, at_least_one=True)
    d["themeColors"] = Obj(
        {
            "seed": opt(Color()),
            "source": opt(Enum(("device",))),
            "light": opt(Ref("themeModeColors")),
            "dark": opt(Ref("themeModeColors")),
            **{role: opt(Color()) for role in COLOR_ROLES},
        },
        at_least_one=True,
    )
    d["themeTypography"] = Obj(
        {
            "scale": opt(Num(min=0.75, max=1.5)),
            "fontFamily": opt(Enum(("sans", "serif", "mono"))),
        },
        at_least_one=True,
    )
    d["themeShapes"] = Obj(
        {"corner": opt(Enum(("none", "small", "medium", "large", "full")))}, at_least_one=True
    )
    d["theme"] = Obj(
        {
            "mode": opt(Enum(("light", "dark", "system"))),
            "colors": opt(Ref("themeColors")),
            "typography": opt(Ref("themeTypography")),
            "shapes": opt(Ref("themeShapes")),
        },
        at_least_one=True,
    )
    d["radioOption"] = Obj({"value": req(Str()), "label": req(Str())})
    d["listItemTrailing"] = tagged(
        switch={"stateKey": req(BoundKey())},
        checkbox={"stateKey": req(BoundKey())},
        icon={"name": req(Ref("iconName"))},
    )
    d["repeat"] = Obj({"items": req(Arr(Map(Scalar()), min=1, max=128)), "as": req(Key())})
    d["appBarAction"] = Obj(
        {"icon": req(Ref("iconName")), "label": req(Str()), "onTap": opt(ACTIONS)}
    )
    d["dialogButton"] = Obj({"label": req(Str()), "onTap": opt(ACTIONS)})
    d["node"] = _node_rule()
    d["requires"] = Obj(
        {"platform": req(Arr(Pattern(MODULE_PATTERN, "Invalid platform module name"), unique=True))}
    )
    d["spec"] = Obj(
        {
            "id": req(Str()),
            "window": req(Ref("window")),
            "theme": opt(Ref("theme")),
            "state": opt(Map(Scalar())),
            "motion": opt(Enum(("none", "standard"))),
            "root": req(Ref("node")),
            # Studio extensions (architecture decision 2).
            "requires": opt(Ref("requires")),
            "data": opt(AnyObject()),
        }
    )
    return d


def _node_rule() -> Tagged:
    common: dict[str, Field] = {
        "id": opt(Str()),
        "testTag": opt(Str()),
        "contentDescription": opt(Str()),
        "onTap": opt(ACTIONS),
        "style": opt(Ref("style")),
        "styleWhen": opt(Arr(Ref("styleWhenEntry"), min=1, max=8)),
        "visibleWhen": opt(Ref("condition")),
        "transition": opt(Enum(("none", "fade", "expand", "slide"))),
        "anchor": opt(Ref("anchor")),
        "safeAreaPadding": opt(Ref("safeAreaPadding")),
    }
    children = req(Arr(Ref("node")))
    container = {"children": children, "repeat": opt(Ref("repeat"))}
    state_key = req(BoundKey())
    icon = Ref("iconName")
    open_when = req(Ref("sheetCondition"))
    own: dict[str, dict[str, Field]] = {
        "box": container,
        "row": container,
        "column": container,
        "text": {"text": req(Str(empty=True))},
        "image": {
            "asset": req(Ref("imageAsset")),
            "contentScale": opt(Enum(("fit", "crop", "fill"))),
        },
        "icon": {"name": req(icon), "variant": opt(Ref("iconVariant"))},
        "spacer": {},
        "textField": {"stateKey": state_key, "placeholder": opt(Str(empty=True))},
        "switch": {"stateKey": state_key, "label": opt(Str())},
        "checkbox": {"stateKey": state_key, "label": opt(Str())},
        "button": {
            "label": req(Str()),
            "variant": opt(Enum(("filled", "tonal", "elevated", "outlined", "text"))),
            "icon": opt(icon),
        },
        "radioGroup": {
            "stateKey": state_key,
            "options": req(Arr(Ref("radioOption"), min=2, max=16)),
        },
        "listItem": {
            "headline": req(Str()),
            "supporting": opt(Str()),
            "leadingIcon": opt(icon),
            "trailing": opt(Ref("listItemTrailing")),
        },
        "slider": {
            "stateKey": state_key,
            "label": opt(Str()),
            "min": req(NUMBER),
            "max": req(NUMBER),
            "step": opt(NUMBER),
        },
        "chip": {
            "label": req(Str()),
            "variant": opt(Enum(("assist", "filter", "input", "suggestion"))),
            "stateKey": opt(BoundKey()),
        },
        "card": {
            "variant": opt(Enum(("filled", "elevated", "outlined"))),
            "children": children,
        },
        "iconButton": {
            "icon": req(icon),
            "variant": opt(Enum(("standard", "filled", "tonal", "outlined"))),
        },
        "fab": {
            "icon": req(icon),
            "label": opt(Str()),
            "size": opt(Enum(("small", "regular", "large"))),
        },
        "segmentedButton": {
            "stateKey": state_key,
            "options": req(Arr(Ref("radioOption"), min=2, max=5)),
        },
        "topAppBar": {
            "title": req(Str()),
            "variant": opt(Enum(("small", "centerAligned", "medium", "large"))),
            "navigationIcon": opt(Ref("appBarAction")),
            "actions": opt(Arr(Ref("appBarAction"), min=1, max=3)),
        },
        "divider": {"orientation": opt(Enum(("horizontal", "vertical")))},
        "badge": {"text": opt(Str())},
        "progress": {
            "variant": opt(Enum(("linear", "circular"))),
            "stateKey": opt(BoundKey()),
            "max": opt(NUMBER),
        },
        "dialog": {
            "openWhen": open_when,
            "title": opt(Str()),
            "text": opt(Str()),
            "icon": opt(icon),
            "confirm": req(Ref("dialogButton")),
            "dismiss": opt(Ref("dialogButton")),
            "child": opt(Ref("node")),
        },
        "snackbar": {
            "openWhen": open_when,
            "text": req(Str()),
            "action": opt(Ref("dialogButton")),
            "durationMs": opt(Num(integer=True, min=1, max=600_000)),
        },
        "timePicker": {
            "hourKey": state_key,
            "minuteKey": state_key,
            "is24Hour": opt(Bool()),
        },
        "datePicker": {"stateKey": state_key},
        "scroll": {"axis": opt(Enum(("vertical", "horizontal"))), "child": req(Ref("node"))},
        "pager": {"id": req(Str()), "children": req(Arr(Ref("node"), min=1))},
        "tabBar": {
            "items": req(Arr(Ref("item"), min=1, max=32)),
            "pager": opt(Str()),
            "stateKey": opt(BoundKey()),
            "scrollable": opt(Bool()),
        },
        "bottomNav": {
            "items": req(Arr(Ref("item"), min=2, max=5)),
            "pager": opt(Str()),
            "stateKey": opt(BoundKey()),
        },
        "bottomSheet": {
            "child": req(Ref("node")),
            "openWhen": open_when,
            "detents": req(Arr(Ref("detent"), min=1, max=8, unique=True)),
            "scrim": opt(Ref("colorValue")),
            "dragHandle": opt(Bool()),
            "dismissOnSwipe": opt(Bool()),
        },
    }
    variants: dict[str, Obj] = {}
    for name, fields in own.items():
        variants[name] = Obj(
            {"type": req(Enum((name,))), **common, **fields},
            binding=name in ("tabBar", "bottomNav"),
        )
    return Tagged(variants)


#: Every node type (32), in the order AutoMobile's contract lists them.
NODE_TYPES: tuple[str, ...]


@cache
def definitions() -> dict[str, Rule]:
    """The rule table: every named definition; `spec` is the top level."""
    return _definitions()


NODE_TYPES = tuple(_node_rule().variants)
