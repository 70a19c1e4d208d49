"""Properties: calc never fails other than cleanly, paste truncation keeps whole characters."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from studio.platform.modules.calc import CalcError, evaluate
from studio.platform.modules.clipboard import truncate_utf8

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
