"""The shipped modules do what a user of a generated surface would check."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from studio.platform.module import CallContext, PlatformCancelled, PlatformError
from studio.platform.modules.calc import CalcError, evaluate
from studio.platform.modules.clipboard import MAX_BYTES, MemoryClipboard, truncate_utf8
from studio.platform.modules.share import FileShareTarget
from studio.platform.registry import default_registry


def run(call: str, args: dict[str, Any], **inject: Any) -> tuple[Any, CallContext]:
    context = CallContext(prototype_id="p1", approved_call=call)  # as the host does after consent
    registry = default_registry(**inject)
    return asyncio.run(registry.execute(call, args, context=context)), context


@pytest.mark.parametrize(
    ("value", "source", "target", "expected"),
    [
        (1, "mi", "km", 1.609344),
        (0.1, "m", "cm", 10),
        (100, "C", "F", 212),
        (32, "F", "C", 0),
        (0, "K", "C", -273.15),
        (1, "gal", "l", 3.785411784),
        (100, "km/h", "m/s", 27.7777777778),
        (1, "lb", "oz", 16),
    ],
)
def test_units_convert(value: float, source: str, target: str, expected: float) -> None:
    result, _ = run("units.convert", {"value": value, "from": source, "to": target})
    assert result["value"] == pytest.approx(expected, rel=1e-12)
    assert result["unit"] == target


def test_units_reject_incompatible_and_impossible_values() -> None:
    with pytest.raises(PlatformError, match=r"cannot convert length \(m\) to mass \(kg\)"):
        run("units.convert", {"value": 1, "from": "m", "to": "kg"})
    with pytest.raises(PlatformError, match="below absolute zero"):
        run("units.convert", {"value": -300, "from": "C", "to": "K"})
    with pytest.raises(PlatformError, match=r"args\.to: 'parsec' is not one of"):
        run("units.convert", {"value": 1, "from": "m", "to": "parsec"})


def test_units_accepts_numeric_text_from_a_text_field() -> None:
    result, _ = run("units.convert", {"value": " 2.5 ", "from": "km", "to": "m"})
    assert result["value"] == 2500
    with pytest.raises(PlatformError, match=r"args\.value"):
        run("units.convert", {"value": "two", "from": "km", "to": "m"})


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("0.1 + 0.2", 0.3),
        ("(1 + 2) * 3 - -4", 13),
        ("7 % 3 + -7 % 3", 3),
        ("2 ** 10", 1024),
        ("round(2.345, 2)", 2.35),
        ("min(3, 1, 2) + max(4, 5) + abs(-2) + sqrt(16)", 12),
        ("10 / 4", 2.5),
    ],
)
def test_calc_evaluates_arithmetic(expression: str, expected: float) -> None:
    assert evaluate(expression) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("1 / 0", "division by zero"),
        ("5 % 0", "division by zero"),
        ("__import__('os').system('true')", "only round, min, max, abs and sqrt"),
        ("(1).__class__", "attribute is not allowed"),
        ("9 ** 9 ** 9", "exponent larger than 1000"),
        (" * ".join(["10 ** 999"] * 11), "result is too large"),
        ("1 + " * 80 + "1", "longer than 256"),
        ("x + 1", "unknown name 'x'"),
        ("sqrt(-1)", "sqrt of a negative number"),
        ("1 +", "syntax error"),
        ("'a' * 3", "is not a number"),
        ("[1, 2]", "list is not allowed"),
        ("1 if 1 else 2", "ifexp is not allowed"),
        ("-" * 200 + "1", "more than 128 parts"),
    ],
)
def test_calc_refuses_cleanly(expression: str, message: str) -> None:
    with pytest.raises(CalcError, match=message) as caught:
        evaluate(expression)
    assert "\n" not in str(caught.value)
    assert str(caught.value).startswith("calc.evaluate: ")


def test_calc_inputs_come_from_named_arguments() -> None:
    result, _ = run(
        "calc.evaluate", {"expression": "a * (1 + c / 100) / b", "a": "120", "b": 4, "c": "15"}
    )
    assert result == {"value": 34.5}
    with pytest.raises(PlatformError, match=r"unknown argument 'g'"):
        run("calc.evaluate", {"expression": "g", "g": 1})


def test_clipboard_round_trip_and_audit_has_no_text() -> None:
    board = MemoryClipboard()
    registry = default_registry(clipboard_backend=board)

    async def go() -> tuple[Any, Any, dict[str, Any], dict[str, Any]]:
        copy_ctx = CallContext(approved_call="clipboard.copy")
        paste_ctx = CallContext(approved_call="clipboard.paste")
        copied = await registry.execute(
            "clipboard.copy", {"text": "héllo", "sensitive": True}, context=copy_ctx
        )
        pasted = await registry.execute("clipboard.paste", {}, context=paste_ctx)
        return copied, pasted, copy_ctx.audit, paste_ctx.audit

    copied, pasted, copy_audit, paste_audit = asyncio.run(go())
    assert copied == {"copied": True, "bytes": 6}
    assert board.sensitive is True
    assert pasted == {"text": "héllo", "truncated": False}
    assert copy_audit == {"op": "copy", "bytes": 6}
    assert paste_audit == {"op": "paste", "bytes": 6}
    assert "héllo" not in repr(copy_audit) + repr(paste_audit)


def test_clipboard_bounds() -> None:
    big = "é" * (MAX_BYTES // 2) + "x"  # 65,537 bytes
    with pytest.raises(PlatformError, match="65537 bytes, the limit is 65536"):
        run("clipboard.copy", {"text": big})
    result, _ = run("clipboard.paste", {}, clipboard_backend=MemoryClipboard("a" + "é" * MAX_BYTES))
    assert result["truncated"] is True
    assert len(result["text"].encode()) == MAX_BYTES - 1  # "a" + whole two-byte characters only
    assert result["text"].endswith("é")
    assert truncate_utf8("😀😀", 5) == ("😀", True)
    result, _ = run("clipboard.hasText", {}, clipboard_backend=MemoryClipboard(""))
    assert result == {"hasText": False}


def test_share_writes_where_the_user_picked(tmp_path: Path) -> None:
    target = tmp_path / "note.txt"
    asked: list[str] = []

    async def pick(suggested: str) -> Path | None:
        asked.append(suggested)
        return target

    result, context = run(
        "share.text", {"text": "to share", "title": "My note"}, share_target=FileShareTarget(pick)
    )
    assert result == {"shared": True, "bytes": 8}
    assert target.read_text() == "to share"
    assert asked == ["My note.txt"]
    assert context.audit == {"op": "share", "bytes": 8}
    assert [p.name for p in tmp_path.iterdir()] == ["note.txt"]  # no temp file left


def test_share_cancelled_or_unavailable(tmp_path: Path) -> None:
    async def cancel(suggested: str) -> Path | None:
        return None

    with pytest.raises(PlatformCancelled, match="share.text: cancelled by the user"):
        run("share.text", {"text": "x"}, share_target=FileShareTarget(cancel))
    with pytest.raises(PlatformError, match="no share target"):
        run("share.text", {"text": "x"})

    async def missing_dir(suggested: str) -> Path | None:
        return tmp_path / "nope" / "x.txt"

    with pytest.raises(PlatformError, match="share.text: cannot write"):
        run("share.text", {"text": "x"}, share_target=FileShareTarget(missing_dir))


class Phone:
    def __init__(self, info: dict[str, Any] | None):
        self.info = info

    async def phone_info(self) -> dict[str, Any] | None:
        return self.info


def test_device_info_host_and_phone() -> None:
    result, _ = run("device.info", {})
    assert result["phone"] is None
    assert result["host"]["cpus"] >= 1 and result["host"]["os"]
    phone = {"model": "Pixel 8", "batteryPercent": 81, "charging": True, "connectivity": "wifi"}
    result, _ = run("device.info", {}, device_source=Phone(phone))
    assert result["phone"] == phone
    with pytest.raises(PlatformError, match="module returned a bad result"):
        run("device.info", {}, device_source=Phone({**phone, "batteryPercent": 180}))


def test_echo() -> None:
    assert run("test.echo", {"text": "hi"})[0] == {"text": "hi"}
