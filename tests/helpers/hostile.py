"""Hostile inputs shared by the tests and the deep-fuzz script (research failures.md F1, F10):
specs at the byte limit, and hypothesis strategies for spec text with huge numbers, 1e400, NaN,
lone surrogates, a byte order mark, duplicate keys and deep nesting put where a spec can hold
them. The validator's tests (tests/spec/test_validate_fuzz.py) and the library and bundle tests
build on these; `benchmarks/fuzz_validate.py` runs them with a long budget."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from studio.spec.errors import SpecInputError
from studio.spec.io import parse_json_text, spec_file_bytes
from studio.spec.validator import ValidationResult, validate

MAX_SPEC_BYTES = 1_048_576


def base_spec(**extra: Any) -> dict[str, Any]:
    """A small valid spec."""
    spec: dict[str, Any] = {
        "id": "hostile",
        "window": {"placement": {"type": "fullscreen"}},
        "root": {"type": "column", "children": [{"type": "text", "text": "hi"}]},
    }
    spec.update(extra)
    return spec


def near_limit_spec(compact_bytes: int = 999_095) -> dict[str, Any]:
    """A valid spec of 1,500 text nodes whose compact JSON (what the validator counts for an
    object) is exactly `compact_bytes` long. At research F1's 999,095 bytes, or more, its 2-space
    indented form is over the 1 MiB limit."""
    children = [{"type": "text", "text": ""} for _ in range(1500)]
    spec = base_spec(id="big", root={"type": "column", "children": children})
    room = compact_bytes - len(json.dumps(spec, separators=(",", ":")).encode())
    assert room >= 0, f"{compact_bytes} bytes is too small for 1,500 nodes"
    for child in children:
        child["text"] = "x" * (room // len(children))
    children[-1]["text"] += "x" * (room % len(children))
    assert len(json.dumps(spec, separators=(",", ":")).encode()) == compact_bytes
    return spec


def slots(value: Any) -> list[tuple[Any, Any]]:
    """(container, key) of every value below the objects and arrays of `value`, in document
    order: the places a mutation can put something."""
    out: list[tuple[Any, Any]] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict | list):
            keys = list(item) if isinstance(item, dict) else list(range(len(item)))
            out.extend((item, key) for key in keys)
            stack.extend(item[key] for key in reversed(keys))
    return out


def spec_text(members: dict[str, str] | None = None, root: str = '{"type": "spacer"}') -> str:
    """Spec text with `members` (already JSON text) added at the top level and `root` as the
    root node's text."""
    parts = [
        '"id": "hostile"',
        '"window": {"placement": {"type": "fullscreen"}}',
        f'"root": {root}',
    ]
    parts.extend(f"{json.dumps(key)}: {text}" for key, text in (members or {}).items())
    return "{" + ", ".join(parts) + "}"


#: JSON number text that no double holds: JavaScript and Kotlin read each as +-Infinity.
huge_numbers = st.one_of(
    st.integers(309, 6000).map(lambda n: "9" * n),
    st.integers(309, 6000).map(lambda n: "-" + "1" * n),
    st.sampled_from(["1e400", "-1e400", "1E309", "2e308", "1.5e99999", "0.1e400"]),
)
#: A JSON string with a lone surrogate, as its escape (what a model or a broken file sends).
lone_surrogate_strings = st.sampled_from(
    ['"\\ud800"', '"x\\udfffy"', '"\\ud83d"', '"\\ude00\\ud83d"', '"ok\\udbff"', '"\\uDC00"']
)
#: Values of each hostile kind, as JSON text.
hostile_values = st.one_of(
    huge_numbers,
    lone_surrogate_strings,
    st.integers(1, 3000).map(lambda depth: "[" * depth + "]" * depth),
    st.integers(1, 3000).map(lambda depth: '{"a": ' * depth + "0" + "}" * depth),
    st.sampled_from(["1", '"s"', "true", "null", "{}", "[]", "0.5", "-0"]),
)

#: Where a value can sit in a node (JSON text templates; VALUE is replaced).
PLACES = (
    '{"type": "spacer", "zz": VALUE}',  # an unknown key: AutoMobile reports it, not the value
    '{"type": "text", "text": VALUE}',
    '{"type": "slider", "stateKey": "v", "min": 0, "max": VALUE}',
    '{"type": "spacer", "onTap": [{"type": "emit", "name": "e", "payload": VALUE}]}',
    '{"type": "spacer", "onTap": [{"type": "setState", "key": "v", "value": VALUE}]}',
    '{"type": "column", "children": [VALUE]}',
)


@st.composite
def hostile_spec_texts(draw: st.DrawFn) -> str:
    """Spec text with one hostile value in a node, in `state` or in `data`, sometimes with a
    duplicate key, sometimes under a byte order mark."""
    value = draw(hostile_values)
    where = draw(st.sampled_from(["root", "state", "data", "data-key"]))
    members: dict[str, str] = {"state": '{"v": 0.5}'}
    root = '{"type": "spacer"}'
    if where == "root":
        root = draw(st.sampled_from(PLACES)).replace("VALUE", value)
    elif where == "state":
        members["state"] = '{"v": 0.5, "w": ' + value + "}"
    elif where == "data":
        members["data"] = '{"n": ' + value + "}"
    else:
        key = value if value.startswith('"') else '"k"'
        members["data"] = "{" + key + ": 1}"
    text = spec_text(members, root)
    if draw(st.booleans()):  # a duplicate key: the last one counts, in every form
        text = text[:-1] + ', "id": ' + draw(st.sampled_from(['"dup"', "5", "null"])) + "}"
    if draw(st.integers(0, 9)) == 0:
        text = "\ufeff" + text
    return text


#: Python values for the object form that text cannot spell: NaN, the infinities, huge ints.
non_json_numbers = st.sampled_from(
    [float("nan"), float("inf"), float("-inf"), 10**5000, -(10**400)]
)


# --- the properties (shared by the bounded tests and the deep-fuzz script) --------------------


def _agree(a: ValidationResult, b: ValidationResult) -> bool:
    """One verdict: the same result, or both `Invalid JSON` at `$` (where the text breaks may
    be worded per form: a NUL byte in bytes, the control character in text)."""
    if a == b:
        return True
    both = (a.message or "", b.message or "")
    return a.path == b.path == "$" and all(m.startswith("Invalid JSON") for m in both)


def problems_of_text(text: str) -> list[str]:
    """What is wrong with how `validate` treats this text (empty list: nothing): it must not
    raise, text, bytes and the parsed object must agree (the byte limit aside: text is counted
    as it comes, an object as `JSON.stringify` writes it, as AutoMobile counts them), text that
    does not parse is judged at `$`, and an accepted spec must be storable."""
    from studio.spec.size import NotJSON, measure

    found: list[str] = []
    verdicts = {"str": validate(text)}
    try:
        verdicts["bytes"] = validate(text.encode("utf-8"))
    except UnicodeEncodeError:
        pass
    try:
        parsed: Any = parse_json_text(text)
    except SpecInputError:
        parsed = None
        if verdicts["str"].path != "$":
            found.append(f"text that does not parse is judged at {verdicts['str'].path}")
    else:
        verdicts["object"] = validate(parsed)
    for form, result in verdicts.items():
        if result.message is not None and result.message.startswith("Cannot validate"):
            found.append(f"{form}: {result}")
    raw = len(text.encode("utf-8", "surrogatepass"))
    sizes = {"str": raw, "bytes": raw}
    if parsed is not None:
        try:
            sizes["object"] = measure(parsed, exact=True).bytes
        except NotJSON:
            sizes["object"] = 0
    over = {form for form, size in sizes.items() if size > MAX_SPEC_BYTES}
    for form in over & set(verdicts):
        if str(verdicts[form]) != "$: Spec byte limit exceeded":
            found.append(f"{form} is {sizes[form]} bytes but gives {verdicts[form]}")
    judged = {form: result for form, result in verdicts.items() if form not in over}
    if judged:
        first_form, first = next(iter(judged.items()))
        for form, result in judged.items():
            if not _agree(result, first):
                found.append(f"{form} gives {result}, {first_form} gives {first}")
    if verdicts["str"].ok and parsed is not None:
        found.extend(problems_of_storing(parsed))
    return found


def problems_of_storing(spec: Any) -> list[str]:
    """An accepted spec must be writable and read back the same (research F3, F9)."""
    try:
        data = spec_file_bytes(spec)
    except (ValueError, UnicodeError) as exc:
        return [f"accepted but not writable: {exc!r}"]
    if len(data) > MAX_SPEC_BYTES:
        return [f"accepted but stored as {len(data)} bytes"]
    if not validate(data).ok:
        return [f"accepted but its stored file is not: {validate(data)}"]
    if parse_json_text(data.decode("utf-8")) != spec:
        return ["accepted but read back differently"]
    return []


def problems_of_object(spec: Any) -> list[str]:
    """What is wrong with how `validate` treats this object: it must give a result, and an
    accepted spec must be storable."""
    result = validate(spec)
    if not isinstance(result, ValidationResult):
        return [f"not a result: {result!r}"]
    if result.message is not None and result.message.startswith("Cannot validate"):
        return [str(result)]
    return problems_of_storing(spec) if result.ok else []
