"""Property tests: mutated valid specs never crash the validator, nothing over a limit is
accepted, and jsonschema (an independent engine, on our schema) agrees on the structure."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from studio.spec.rules import MAX_DEPTH, MAX_IMAGES, MAX_NODES, MAX_SPEC_BYTES
from studio.spec.schema import schema_path
from studio.spec.size import measure
from studio.spec.structure import Ctx, UseNode, spec_check
from studio.spec.validator import ValidationResult, validate

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "spec" / "valid"
BASES = [
    json.loads(p.read_text(encoding="utf-8"))
    for p in sorted(FIXTURES.glob("*.json"))
    if not p.stem.startswith(("ext-", "limit-nodes"))
]
SCHEMA = Draft202012Validator(json.loads(schema_path().read_text(encoding="utf-8")))

# Strings without the two characters where a generic engine (Python `re`) differs from
# JavaScript: a final newline before `$`, and U+FEFF counted as non-blank.
text = st.text(
    alphabet=st.characters(blacklist_characters="\n\ufeff", blacklist_categories=("Cs",)),
    max_size=8,
)
words = st.sampled_from(
    [
        "type",
        "text",
        "children",
        "stateKey",
        "primary",
        "#FF0000",
        "fill",
        "home",
        "next",
        "",
        "{item.k}",
        "a b",
        "box",
        "image",
        "pager",
        "p",
    ]
)
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3000), st.floats(-2, 2, allow_nan=False), words, text
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(words | text, inner, max_size=3),
    max_leaves=6,
)


def _containers(value: Any, out: list[Any]) -> list[Any]:
    if isinstance(value, dict | list):
        out.append(value)
        for item in value.values() if isinstance(value, dict) else value:
            _containers(item, out)
    return out


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any]:
    spec = copy.deepcopy(draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(1, 3))):
        target = draw(st.sampled_from(_containers(spec, [])))
        op = draw(st.sampled_from(["set", "delete", "add", "grow"]))
        if isinstance(target, dict):
            keys = list(target)
            if op == "delete" and keys:
                del target[draw(st.sampled_from(keys))]
            elif op == "add" or not keys:
                target[draw(words | text)] = draw(values)
            else:
                key = draw(st.sampled_from(keys))
                target[key] = (
                    draw(values) if op == "set" else [target[key]] * draw(st.integers(2, 40))
                )
        elif target:
            index = draw(st.integers(0, len(target) - 1))
            if op == "delete":
                del target[index]
            elif op == "grow":
                target.extend(copy.deepcopy(target) * draw(st.integers(1, 300)))
            else:
                target[index] = draw(values)
    return spec


def _tree(node: Any, depth: int, stats: dict[str, int]) -> None:
    stats["nodes"] += 1
    stats["depth"] = max(stats["depth"], depth)
    if node.get("type") == "image":
        stats["images"] += 1
    copies = len(node["repeat"]["items"]) if "repeat" in node else 1
    kids = [node["child"]] if isinstance(node.get("child"), dict) else node.get("children", [])
    for _ in range(copies):
        for kid in kids:
            _tree(kid, depth + 1, stats)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_validate_never_raises_and_accepts_nothing_over_a_limit(spec: dict[str, Any]) -> None:
    result = validate(spec)
    assert isinstance(result, ValidationResult)
    assert result.ok or (isinstance(result.path, str) and isinstance(result.message, str))
    text_result = validate(json.dumps(spec))
    assert isinstance(text_result, ValidationResult)
    if result.ok:
        stats = {"nodes": 0, "depth": 0, "images": 0}
        _tree(spec["root"], 1, stats)
        assert stats["nodes"] <= MAX_NODES and stats["depth"] <= MAX_DEPTH
        assert stats["images"] <= MAX_IMAGES
        assert measure(spec, exact=True).bytes <= MAX_SPEC_BYTES


CODE_ONLY = ("limit", "Invalid json value")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_jsonschema_agrees_with_the_structural_walk(spec: dict[str, Any]) -> None:
    """Intentional differences: limits and payload cost are code-only (jsonschema cannot count),
    so only walk errors other than those must be jsonschema errors too."""
    try:
        error = spec_check("ordered")(spec, Ctx(), 0)
    except UseNode:  # a mutation wrote type "use": components are not the schema's business
        return
    if error is None:
        assert SCHEMA.is_valid(spec), [e.message for e in SCHEMA.iter_errors(spec)][:3]
    elif not any(word in error.message for word in CODE_ONLY):
        assert not SCHEMA.is_valid(spec), error.message
