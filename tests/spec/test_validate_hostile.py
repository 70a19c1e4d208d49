"""Hostile input to `validate` (issue 17.2, research F10): every input gets a result, never an
exception, at the path AutoMobile's validator reports it, with a message that says what is
wrong; text, bytes and the parsed object agree (`OverlaySpecValidator.kt` and
`prototypeValidation.ts`: a huge integer or `1e400` is Infinity, a lone-surrogate escape parses,
a duplicate key keeps its last value, a byte order mark or a non-JSON token is `Invalid JSON` at
`$`). The studio refuses what it could not store: non-finite numbers in `data`, nesting beyond
the data depth limit, and lone surrogates in any string (at their path)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from studio.spec.io import parse_json_text
from studio.spec.validator import ValidationResult, validate

BASE = '{"id": "t", "window": {"placement": {"type": "fullscreen"}}, "root": {"type": "spacer"}'


def _text(extra: str = "", root: str = '{"type": "spacer"}') -> str:
    """Spec text with `extra` members added at the top and `root` as the root node."""
    return (
        '{"id": "t", "window": {"placement": {"type": "fullscreen"}}, "root": '
        + root
        + (", " + extra if extra else "")
        + "}"
    )


def _forms(text: str) -> list[ValidationResult]:
    """The verdicts on the text, its UTF-8 bytes and the object it parses to."""
    results = [validate(text), validate(text.encode("utf-8"))]
    results.append(validate(parse_json_text(text)))
    return results


def _same(text: str) -> ValidationResult:
    first, *rest = _forms(text)
    assert all(r == first for r in rest), [str(r) for r in [first, *rest]]
    return first


HUGE = "1" * 5000


@pytest.mark.parametrize(
    ("text", "path", "message"),
    [
        (_text(f'"state": {{"n": {HUGE}}}'), "state.n", "Invalid scalar value"),
        (_text(f'"state": {{"n": -{HUGE}}}'), "state.n", "Invalid scalar value"),
        (_text('"state": {"n": 1e400}'), "state.n", "Invalid scalar value"),
        (
            _text(root='{"type": "slider", "stateKey": "v", "min": 0, "max": 1e400}'),
            "root.max",
            "Invalid number value",
        ),
        (
            _text(
                root='{"type": "spacer", "onTap": [{"type": "emit", "name": "e", '
                f'"payload": {{"big": {"9" * 400}}}}}]}}'
            ),
            "root.onTap[0].payload",
            "Invalid json value",
        ),
        (_text('"data": {"n": 1e400}'), "data.n", "Invalid number value"),
        (_text(f'"data": {{"list": [1, {HUGE}]}}'), "data.list[1]", "Invalid number value"),
    ],
)
def test_numbers_beyond_a_double_are_infinity_at_their_path(
    text: str, path: str, message: str
) -> None:
    assert _same(text) == ValidationResult(False, path, message)


def test_nan_and_infinity_in_an_object_are_reported_where_they_are() -> None:
    spec = json.loads(_text('"state": {"n": 1}'))
    spec["state"]["n"] = float("nan")
    assert validate(spec) == ValidationResult(False, "state.n", "Invalid scalar value")
    spec["state"]["n"] = 1
    spec["window"]["opacity"] = float("inf")
    assert validate(spec) == ValidationResult(False, "window.opacity", "Invalid number value")
    del spec["window"]["opacity"]
    spec["data"] = {"a": {"b": [float("-inf")]}}
    assert validate(spec) == ValidationResult(False, "data.a.b[0]", "Invalid number value")
    spec["data"] = {"big": 10**5000}  # a Python int too long to print in base 10
    assert validate(spec) == ValidationResult(False, "data.big", "Invalid number value")


def test_the_corpus_surrogate_key_fixture_as_text(conformance_dir: Any) -> None:
    wrapper = json.loads(
        (conformance_dir / "fixtures/overlay-spec/invalid/surrogate-key.json").read_text("utf-8")
    )
    text = json.dumps(wrapper["spec"])  # ensure_ascii: the key is the escape \ud800
    assert "\\ud800" in text
    assert _same(text) == ValidationResult(False, wrapper["expectedPath"], "Unknown property")
    assert validate(json.dumps(wrapper["spec"], ensure_ascii=False)) == validate(text)


@pytest.mark.parametrize(
    ("extra", "root", "path"),
    [
        ("", '{"type": "text", "text": "x\\ud800y"}', "root.text"),
        ('"data": {"k": ["ok", "\\udfff"]}', '{"type": "spacer"}', "data.k[1]"),
        ('"data": {"\\udbff": 1}', '{"type": "spacer"}', 'data["\\udbff"]'),
        ('"state": {"s": "\\ud83d"}', '{"type": "spacer"}', "state.s"),
    ],
)
def test_a_lone_surrogate_that_would_be_accepted_is_refused_at_its_path(
    extra: str, root: str, path: str
) -> None:
    result = _same(_text(extra, root))
    assert (result.ok, result.path) == (False, path)
    assert result.message is not None and "lone surrogate" in result.message.lower()


def test_paired_surrogate_escapes_are_text() -> None:
    assert _same(_text(root='{"type": "text", "text": "\\ud83d\\ude00"}')).ok


def test_duplicate_keys_keep_the_last_value_in_every_form() -> None:
    good_last = _text(root='{"type": "text", "text": 5, "text": "ok"}')
    assert _same(good_last).ok
    bad_last = _text(root='{"type": "text", "text": "ok", "text": 5}')
    assert _same(bad_last) == ValidationResult(False, "root.text", "Invalid string value")


@pytest.mark.parametrize("form", ["str", "bytes"])
def test_a_byte_order_mark_is_invalid_json_at_the_top(form: str) -> None:
    text = "\ufeff" + _text()
    result = validate(text if form == "str" else text.encode())
    assert (result.path, result.ok) == ("$", False)
    assert result.message is not None and result.message.startswith("Invalid JSON")
    assert "byte order mark" in result.message


@pytest.mark.parametrize("depth", [100, 1_000, 5_000, 100_000])
def test_deep_nesting_under_an_unknown_key_is_an_unknown_property(depth: int) -> None:
    text = _text(root='{"type": "spacer", "zz": ' + "[" * depth + "]" * depth + "}")
    result = validate(text)
    assert result == ValidationResult(False, "root.zz", "Unknown property")
    assert validate(text.encode()) == result
    if depth <= 5_000:
        assert validate(parse_json_text(text)) == result


@pytest.mark.parametrize("depth", [70, 3_000])
def test_deep_data_is_refused_at_the_depth_limit(depth: int) -> None:
    text = _text('"data": {"a": ' + "[" * depth + "]" * depth + "}")
    result = _same(text)
    assert not result.ok and result.message == "Data nesting depth limit exceeded"
    assert result.path is not None and result.path.startswith("data.a[0][0]")


def test_deeply_nested_nodes_stop_at_the_tree_depth_limit() -> None:
    node: dict[str, Any] = {"type": "spacer"}
    for _ in range(3_000):
        node = {"type": "scroll", "child": node}
    spec = json.loads(_text())
    spec["root"] = node
    result = validate(spec)
    assert (result.ok, result.message) == (False, "Tree depth limit exceeded")
    text = _text(root='{"type": "scroll", "child": ' * 3_000 + '{"type": "spacer"}' + "}" * 3_000)
    assert _same(text) == result


def test_a_circular_object_is_not_json() -> None:
    spec = json.loads(_text('"data": {}'))
    spec["data"]["self"] = spec["data"]
    result = validate(spec)
    assert (result.ok, result.path) == (False, "$")
    assert result.message == "Expected JSON: an object contains itself (a cycle)"
    assert "NaN" not in str(result)


@pytest.mark.parametrize(
    "text", ["NaN", "Infinity", "01", "+1", "1.", "1e", '"literal\nnewline"', "{", "", "[1,]"]
)
def test_non_json_text_is_invalid_json_at_the_top(text: str) -> None:
    """AutoMobile's `PrototypeSpecTest`: non-JSON numeric tokens, literal string controls and
    malformed JSON report the envelope path."""
    for form in (text, text.encode()):
        result = validate(form)
        assert (result.ok, result.path) == (False, "$")
        assert result.message is not None and result.message.startswith("Invalid JSON")


def test_odd_python_values_are_not_json() -> None:
    spec = json.loads(_text('"data": {}'))
    spec["data"]["s"] = {1, 2}
    assert validate(spec) == ValidationResult(
        False, "$", "Expected JSON: a set is not a JSON value"
    )
    spec["data"] = {1: "x"}
    assert validate(spec) == ValidationResult(
        False, "$", "Expected JSON: object keys must be strings"
    )
