"""`proto-studio validate` and `proto-studio expand`: headless spec commands (no Qt).

validate: exit 0 when every file is valid, 1 when any is invalid, 2 when any cannot be read at
all (missing, a directory, no permission) or on a usage error. A file that can be read is a spec
to judge, as AutoMobile's validator judges it: text that is not JSON (binary, not UTF-8, `NaN`,
`{`, `01`, a raw newline in a string) or over 1 MiB is an invalid spec at `$` (exit 1). `--json`
prints one line per file `{"file", "valid", "path", "message"}`; otherwise valid files get a line
on stdout and problems one line each on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from studio.spec.binding import escape_lone_surrogates
from studio.spec.errors import SpecError, SpecInputError
from studio.spec.io import parse_spec_text, read_file_bytes, read_spec_bytes
from studio.spec.validator import validate

OK, INVALID, UNREADABLE = 0, 1, 2


def configure_validate(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="one JSON line per file")
    parser.add_argument("files", nargs="+", metavar="FILE", help="spec files (JSON)")


def _one_line(text: str) -> str:
    """One printable line: whitespace runs become one space; what UTF-8 cannot write (a file
    name's undecodable bytes, a lone surrogate) is written as a backslash escape."""
    return " ".join(text.split()).encode("utf-8", "backslashreplace").decode("utf-8")


def _check_file(name: str) -> tuple[int, dict[str, Any]]:
    """(exit status, the JSON line's fields) for one file."""
    try:
        data = read_file_bytes(name)
    except SpecInputError as exc:
        message = str(exc)
        if not message.startswith(f"{name}:"):
            message = f"{name}: {message}"
        return UNREADABLE, {"file": name, "valid": False, "path": None, "message": message}
    result = validate(data)  # raw bytes: counted exactly as AutoMobile counts a file
    line = {"file": name, "valid": result.ok, "path": result.path, "message": result.message}
    return (OK if result.ok else INVALID), line


def run_validate(args: argparse.Namespace) -> int:
    status = OK
    for name in args.files:
        try:
            code, line = _check_file(name)
        except Exception as exc:  # never a traceback on the command line
            code = UNREADABLE
            line = {"file": name, "valid": False, "path": None, "message": f"{name}: {exc!r}"}
        status = max(status, code)
        if args.json:
            print(escape_lone_surrogates(json.dumps(line, ensure_ascii=False)), flush=True)
        elif code == OK:
            print(f"{name}: valid", flush=True)
        elif code == INVALID:
            print(_one_line(f"{name}: {line['path']}: {line['message']}"), file=sys.stderr)
        else:
            print(_one_line(str(line["message"])), file=sys.stderr)
    return status


def configure_expand(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="a spec file using components/use")


def run_expand(args: argparse.Namespace) -> int:
    name = args.file
    try:
        spec = parse_spec_text(read_spec_bytes(name))
    except SpecInputError as exc:
        message = str(exc)
        print(
            _one_line(message if message.startswith(f"{name}:") else f"{name}: {message}"),
            file=sys.stderr,
        )
        return UNREADABLE
    try:
        from studio.spec.components import expand

        expanded = expand(spec)
    except SpecError as exc:
        print(_one_line(f"{name}: {exc.path}: {exc.message}"), file=sys.stderr)
        return INVALID
    except Exception as exc:  # never a traceback on the command line
        print(_one_line(f"{name}: cannot expand ({exc!r})"), file=sys.stderr)
        return UNREADABLE
    print(escape_lone_surrogates(json.dumps(expanded, indent=2, ensure_ascii=False)))
    return OK
