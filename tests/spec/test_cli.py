"""`proto-studio validate` and `proto-studio expand`: one line per problem, no traceback, the
documented exit codes (0 valid, 1 invalid, 2 unreadable or usage). A file that can be read is
judged as AutoMobile's validator judges text: not JSON, or over 1 MiB, is invalid at `$`
(`PrototypeSpecTest`: "non JSON numeric tokens and literal string controls are rejected",
"malformed JSON reports the envelope path")."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from studio.cli import main

VALID_SPEC = {
    "id": "t",
    "window": {"placement": {"type": "fullscreen"}},
    "root": {"type": "spacer"},
}


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _bad_inputs(tmp_path: Path) -> dict[str, Path]:
    big = json.dumps({**VALID_SPEC, "state": {"a": "x" * (1 << 20)}}).encode()
    lone = json.dumps({**VALID_SPEC, "id": "vari\udc00nts"}).encode()  # the escape, ASCII
    return {
        "not JSON": _write(tmp_path, "broken.json", b'{"id": "t",\n  "window": }'),
        "truncated": _write(tmp_path, "open.json", b"{"),
        "leading zero": _write(tmp_path, "zero.json", b"01"),
        "raw newline": _write(tmp_path, "newline.json", b'"literal\nnewline"'),
        "over 1 MiB": _write(tmp_path, "big.json", big),
        "binary": _write(tmp_path, "bin.json", b"\x89PNG\r\n\x1a\n\x00\x00"),
        "directory": tmp_path / "adir",
        "missing": tmp_path / "nope.json",
        "invalid UTF-8": _write(tmp_path, "latin1.json", b'{"id": "caf\xe9"}'),
        "byte order mark": _write(
            tmp_path, "bom.json", b"\xef\xbb\xbf" + json.dumps(VALID_SPEC).encode()
        ),
        "lone surrogate": _write(tmp_path, "sur.json", lone),
        "NaN": _write(tmp_path, "nan.json", b"NaN"),
        "not an object": _write(tmp_path, "list.json", b"[1, 2]"),
    }


@pytest.fixture
def bad(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "adir").mkdir()
    return _bad_inputs(tmp_path)


UNREADABLE = {"directory": "is a directory", "missing": "no such file"}
#: Files that can be read but are no valid spec: (path, words in the message).
INVALID = {
    "not JSON": ("$", "Invalid JSON: Expecting value at line 2:13"),
    "truncated": ("$", "Invalid JSON"),
    "leading zero": ("$", "Invalid JSON: Extra data"),
    "raw newline": ("$", "Invalid JSON: Invalid control character"),
    "over 1 MiB": ("$", "Spec byte limit exceeded"),
    "binary": ("$", "NUL byte"),
    "invalid UTF-8": ("$", "not UTF-8"),
    "byte order mark": ("$", "byte order mark"),
    "lone surrogate": ("id", "Lone surrogate U+DC00"),
    "NaN": ("$", "Invalid JSON: NaN is not a JSON number"),
    "not an object": ("$", "Expected object"),
}


@pytest.mark.parametrize("kind", sorted(UNREADABLE))
def test_unreadable_file_is_one_line_on_stderr_exit_2(
    kind: str, bad: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    path = bad[kind]
    assert main(["validate", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{path}: ")
    assert UNREADABLE[kind] in lines[0]
    assert "Traceback" not in err


@pytest.mark.parametrize("kind", sorted(UNREADABLE))
def test_unreadable_file_in_json_mode(
    kind: str, bad: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    path = bad[kind]
    assert main(["validate", "--json", str(path)]) == 2
    out, err = capsys.readouterr()
    assert err == ""
    (line,) = out.splitlines()
    record = json.loads(line)
    assert record["file"] == str(path) and record["valid"] is False and record["path"] is None
    assert UNREADABLE[kind] in record["message"]


@pytest.mark.parametrize("kind", sorted(INVALID))
def test_a_readable_file_that_is_no_spec_is_invalid_exit_1(
    kind: str, bad: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    path, words = INVALID[kind]
    assert main(["validate", "--json", str(bad[kind])]) == 1
    out, err = capsys.readouterr()
    assert err == ""
    (line,) = out.splitlines()
    record = json.loads(line)
    assert (record["valid"], record["path"]) == (False, path)
    assert words in record["message"]
    assert main(["validate", str(bad[kind])]) == 1
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"{bad[kind]}: {path}: ")


def test_valid_invalid_and_mixed_exit_codes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _write(tmp_path, "good.json", json.dumps(VALID_SPEC, indent=2).encode())
    invalid_spec = {**VALID_SPEC, "root": {"type": "switch", "stateKey": "on"}}
    wrong = _write(tmp_path, "wrong.json", json.dumps(invalid_spec).encode())
    assert main(["validate", str(good)]) == 0
    assert capsys.readouterr().out == f"{good}: valid\n"
    assert main(["validate", str(good), str(wrong)]) == 1
    out, err = capsys.readouterr()
    assert err == f"{wrong}: root.stateKey: Toggle control requires a boolean state key\n"
    assert main(["validate", "--json", str(wrong), str(good), str(tmp_path / "missing.json")]) == 2
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["valid"] for r in records] == [False, True, False]
    assert records[0]["path"] == "root.stateKey"


def test_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate"]) == 2
    assert "usage" in capsys.readouterr().err


def test_subprocess_has_no_traceback_and_right_codes(bad: dict[str, Path], tmp_path: Path) -> None:
    good = _write(tmp_path, "good.json", json.dumps(VALID_SPEC).encode())
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "studio.cli",
            "validate",
            "--json",
            str(good),
            str(bad["binary"]),
            str(bad["NaN"]),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 1 and "Traceback" not in run.stderr
    records = [json.loads(line) for line in run.stdout.splitlines()]
    assert [(r["valid"], r["path"]) for r in records] == [(True, None), (False, "$"), (False, "$")]
    run = subprocess.run(
        [sys.executable, "-m", "studio.cli", "validate", str(bad["not JSON"]), str(bad["missing"])],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert len(run.stderr.splitlines()) == 2


def test_expand_prints_the_expanded_spec(
    conformance_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixtures = conformance_dir / "fixtures"
    gallery = fixtures / "prototype-spec" / "components" / "gallery.json"
    assert main(["expand", str(gallery)]) == 0
    printed = json.loads(capsys.readouterr().out)
    expected = json.loads(
        (fixtures / "overlay-spec" / "valid" / "component-gallery.json").read_text(encoding="utf-8")
    )
    assert printed == expected


def test_expand_errors_are_one_line(
    tmp_path: Path, bad: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    spec = {**VALID_SPEC, "root": {"type": "use", "component": "missing"}}
    path = _write(tmp_path, "use.json", json.dumps(spec).encode())
    assert main(["expand", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == f'{path}: root.component: Unknown component "missing"\n'
    assert main(["expand", str(bad["missing"])]) == 2
    assert capsys.readouterr().err.count("\n") == 1
