"""Whole-input handling of `validate`: bytes, text and objects; byte counting; JSON strictness;
component expansion before validation."""

from __future__ import annotations

import json
from typing import Any

import pytest

from studio.spec.rules import MAX_SPEC_BYTES
from studio.spec.validator import ValidationResult, validate


def _spec(root: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {"id": "t", "window": {"placement": {"type": "fullscreen"}}}
    spec["root"] = root or {"type": "spacer"}
    spec.update(extra)
    return spec


def test_result_is_a_frozen_truthy_value() -> None:
    result = validate(_spec())
    assert result == ValidationResult(True) and bool(result)
    with pytest.raises(AttributeError):
        result.ok = False  # type: ignore[misc]
    bad = validate(_spec({"type": "nope"}))
    assert not bad and str(bad) == "root.type: Unknown or missing discriminator"


@pytest.mark.parametrize("form", ["dict", "str", "bytes"])
def test_the_three_input_forms_agree(form: str) -> None:
    spec = _spec({"type": "text", "text": 5})
    value = {"dict": spec, "str": json.dumps(spec), "bytes": json.dumps(spec).encode()}[form]
    assert validate(value) == ValidationResult(False, "root.text", "Invalid string value")


def _padded(size: int) -> str:
    """Spec text of exactly `size` UTF-8 bytes (whitespace padding counts for text input)."""
    text = json.dumps(_spec())
    return text[:-1] + " " * (size - len(text.encode())) + "}"


def test_text_input_counts_raw_bytes_including_whitespace() -> None:
    assert validate(_padded(MAX_SPEC_BYTES)).ok
    over = validate(_padded(MAX_SPEC_BYTES + 1).encode())
    assert (over.path, over.message) == ("$", "Spec byte limit exceeded")


def test_object_input_counts_compact_json_like_javascript() -> None:
    base = len(json.dumps(_spec(), separators=(",", ":")).encode())
    # 1.0 is written "1" by JavaScript: the object below is exactly at the limit.
    filler = MAX_SPEC_BYTES - base - len(',"state":{"a":"","n":1}')
    spec = _spec(state={"a": "x" * filler, "n": 1.0})
    assert validate(spec).ok
    spec["state"]["a"] += "x"
    assert validate(spec) == ValidationResult(False, "$", "Spec byte limit exceeded")


def test_multibyte_text_counts_utf8_bytes() -> None:
    text = json.dumps(_spec(state={"a": "é" * 600_000}), ensure_ascii=False)
    assert len(text) < MAX_SPEC_BYTES < len(text.encode())
    assert validate(text).message == "Spec byte limit exceeded"


@pytest.mark.parametrize(
    "text",
    [
        '{"id": "t",',
        '{"id": NaN}',
        '{"id": Infinity}',
        '{"id": -Infinity}',
        '{"id": "a\tb"}',
        '{"id": 01}',
        "\ufeff{}",
        "",
    ],
)
def test_bad_json_text_is_rejected_at_the_top(text: str) -> None:
    result = validate(text)
    assert result.path == "$" and result.message is not None
    assert result.message.startswith("Invalid JSON")


def test_invalid_utf8_is_rejected_at_the_top() -> None:
    assert validate(b'{"id": "\xff"}').message.startswith("Invalid JSON")  # type: ignore[union-attr]


def test_a_raw_lone_surrogate_in_text_is_read_as_the_escape_is() -> None:
    """As in JavaScript, where a string may hold one: the studio refuses it at its path."""
    spec = _spec()
    spec["id"] = "a\ud800"
    raw = json.dumps(spec, ensure_ascii=False)
    assert "\ud800" in raw
    assert validate(raw) == validate(json.dumps(spec)) == validate(spec)
    assert validate(raw).path == "id"


def test_paired_surrogate_escapes_are_fine() -> None:
    spec = json.dumps(_spec({"type": "text", "text": "😀"}))  # ensure_ascii: \ud83d\ude00
    assert "\\ud83d" in spec and validate(spec).ok


def test_non_json_objects_are_rejected_at_the_top() -> None:
    assert validate({"id": {1, 2}}) == ValidationResult(  # type: ignore[arg-type]
        False, "$", "Expected JSON: a set is not a JSON value"
    )


def test_non_string_keys_are_not_json() -> None:
    spec = _spec({"type": "spacer", 1: "x", "a": 2})  # type: ignore[dict-item]
    assert validate(spec) == ValidationResult(
        False, "$", "Expected JSON: object keys must be strings"
    )


def test_non_object_json_is_expected_object() -> None:
    assert validate("[]") == ValidationResult(False, "$", "Expected object")
    assert validate("null") == ValidationResult(False, "$", "Expected object")


def test_integers_are_judged_by_value() -> None:
    text = json.dumps(_spec()).replace('"fullscreen"}', '"fullscreen"}, "opacity": 1e2')
    assert validate(text).ok
    assert validate(_spec(window={"placement": {"type": "fullscreen"}, "opacity": 100.0})).ok


def test_lone_surrogate_key_in_an_object_is_an_ordinary_unknown_key() -> None:
    spec = _spec({"type": "spacer", "\ud800": 1})
    assert validate(spec) == ValidationResult(False, 'root["\\ud800"]', "Unknown property")


def test_non_ascii_unknown_keys_follow_javascript_order() -> None:
    # JavaScript sorts UTF-16 code units: U+10000 (a surrogate pair, 0xD800...) sorts before U+FFFF.
    spec = _spec({"type": "spacer", "\uffff": 1, "\U00010000": 2})
    assert validate(spec).path == 'root["\U00010000"]'


def test_components_are_expanded_before_validation() -> None:
    components = {"title": {"root": {"type": "text", "text": "{props.t}"}}}
    use = {"type": "use", "component": "title", "props": {"t": "Hi"}}
    assert validate(_spec({"type": "column", "children": [use]}, components=components)).ok
    bad = {"type": "use", "component": "title", "props": {"t": 5}}
    result = validate(
        _spec(
            {"type": "column", "children": [{"type": "spacer", "x": 1}, bad]}, components=components
        )
    )
    # the first error in walk order is the unknown key, reported after expansion succeeded
    assert result == ValidationResult(False, "root.children[0].x", "Unknown property")


def test_use_without_components_is_an_expansion_error() -> None:
    result = validate(_spec({"type": "column", "children": [{"type": "use", "component": "x"}]}))
    assert result == ValidationResult(False, "root.children[0].component", 'Unknown component "x"')


def test_use_after_an_earlier_error_still_expands_first() -> None:
    spec = _spec(
        {"type": "column", "children": [{"type": "text"}, {"type": "use", "component": "x"}]}
    )
    assert validate(spec).message == 'Unknown component "x"'


def test_expanded_spec_byte_limit() -> None:
    big = {"type": "text", "text": "x" * 300_000}
    components = {"big": {"root": big}}
    children = [{"type": "use", "component": "big"} for _ in range(4)]
    result = validate(_spec({"type": "column", "children": children}, components=components))
    assert result == ValidationResult(False, "$", "Expanded spec byte limit exceeded")
