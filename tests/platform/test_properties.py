"""Properties: calc never fails other than cleanly, paste truncation keeps whole characters,
the validator and the registry agree on typed numbers."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import studio.spec as spec_api
from studio.platform.module import CallContext, PlatformCall, PlatformError, PlatformModule
from studio.platform.modules.calc import CalcError, evaluate
from studio.platform.modules.clipboard import truncate_utf8
from studio.platform.registry import PlatformRegistry

ARITHMETIC = st.text(alphabet="0123456789.+-*/%() eabsqrtminxround,_", max_size=80)


@settings(max_examples=300, deadline=None)
@given(ARITHMETIC)
def test_calc_returns_a_number_or_a_clean_error(expression: str) -> None:
    try:
        value = evaluate(expression)
    except CalcError as exc:
        assert str(exc).startswith("calc.evaluate: ") and "\n" not in str(exc)
    else:
        assert isinstance(value, int | float) and not isinstance(value, bool)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=64), st.integers(min_value=0, max_value=80))
def test_truncation_is_a_whole_character_prefix(text: str, limit: int) -> None:
    cut, truncated = truncate_utf8(text, limit)
    assert text.startswith(cut)
    assert len(cut.encode("utf-8", "surrogatepass")) <= limit
    assert truncated == (cut != text)
    if truncated:  # nothing more would fit
        nxt = text[len(cut)]
        assert len((cut + nxt).encode("utf-8", "surrogatepass")) > limit


NUMBER_ARGS = {
    "type": "object",
    "properties": {
        "n": {"type": "number", "minimum": -100, "maximum": 100},
        "i": {"type": "integer"},
    },
    "required": ["n", "i"],
    "additionalProperties": False,
}
NUMBER_TEXT = st.one_of(
    st.text(alphabet="0123456789.eE+- _,xinfa", max_size=8),
    st.floats(allow_nan=True).map(str),
    st.integers(min_value=-1000, max_value=1000).map(str),
)


def _typed_spec(n: str, i: str) -> dict[str, object]:
    return {
        "id": "typed",
        "window": {"placement": {"type": "fullscreen"}},
        "requires": {"platform": ["golden"]},
        "state": {"n": n, "i": i, "status": "idle"},
        "root": {
            "type": "button",
            "label": "Run",
            "onTap": [
                {
                    "type": "platform",
                    "call": "golden.form",
                    "args": {"n": {"state": "n"}, "i": {"state": "i"}},
                    "statusKey": "status",
                }
            ],
        },
    }


@settings(max_examples=300, deadline=None)
@given(NUMBER_TEXT, NUMBER_TEXT)
def test_validator_and_registry_accept_the_same_numeric_text(n: str, i: str) -> None:
    """A spec saves with typed numbers exactly when the call would accept them at run time."""

    async def form(checked: dict[str, object], context: CallContext) -> object:
        return None

    call = PlatformCall("form", "typed numbers", NUMBER_ARGS, {}, form)
    registry = PlatformRegistry([PlatformModule("golden", "typed", {"form": call})])
    saved = spec_api.validate(_typed_spec(n, i), catalog=registry).ok
    try:
        registry.check_args("golden.form", {"n": n, "i": i})
    except PlatformError:
        runs = False
    else:
        runs = True
    assert saved == runs, (n, i)
