"""Hostile bundles and library operations, shared by the bounded tests (tests/library/test_fuzz.py)
and the deep-fuzz script (benchmarks/fuzz_library.py), research failures.md F6, F9, F12.

Strategies: `hostile_bundles()` (zip archives built entry by entry: odd names and modes, damaged
or hostile JSON in the manifest and the spec, hostile assets, duplicate and extra entries, byte
damage and truncation of a good bundle); `hostile_texts` (JSON text with huge numbers, NaN,
lone surrogates, a BOM, deep nesting, duplicate keys); `library_ops()` (a sequence of library
operations with hostile names, specs, extras, thumbnails and pasted text).

Properties (empty list: nothing wrong): `problems_of_bundle(data)` reads a bundle and imports it
into a fresh library; `problems_of_ops(ops)` runs operations on a library and reopens it. The
spec validator's own strategies live in tests/helpers/hostile.py (issue 17.8, validate part).
"""

from __future__ import annotations

import io
import json
import stat
import tempfile
import warnings
import zipfile
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from studio.library.bundle import Bundle, bundle_bytes, read_bundle
from studio.library.errors import BundleError, LibraryError
from studio.library.store import Library
from tests.library.helpers import JPEG, SPEC, TTF, png, spec

# --- hostile JSON text -------------------------------------------------------------------------

#: Number text no double holds (JavaScript and Kotlin read each as +-Infinity), and NaN spellings.
huge_numbers = st.one_of(
    st.integers(309, 5000).map(lambda n: "9" * n),
    st.sampled_from(["1e400", "-1e400", "1E309", "NaN", "Infinity", "-Infinity", "01", "1."]),
)
#: JSON strings with a lone surrogate (as escapes), odd controls and bidi overrides.
odd_strings = st.sampled_from(
    [
        '"\\ud800"', '"x\\udfffy"', '"\\ud83d"', '"\\u0000"', '"\\u202e"', '"\\ufeff"',
        '"a\\u2028b"', '"\\\\"', '"' + "é" * 300 + '"', '""',
    ]
)  # fmt: skip
deep_values = st.integers(100, 20_000).map(lambda depth: "[" * depth + "]" * depth)
scalars = st.sampled_from(["1", '"s"', "true", "null", "{}", "[]", "0.5", "-0"])
hostile_values = st.one_of(huge_numbers, odd_strings, deep_values, scalars)


@st.composite
def hostile_texts(draw: st.DrawFn, base: dict[str, Any] | None = None) -> str:
    """JSON text of `base` (a valid spec by default) with one hostile value in a field, maybe
    a duplicate key, maybe a BOM or a cut."""
    doc = json.dumps(base if base is not None else SPEC)
    value = draw(hostile_values)
    place = draw(st.sampled_from(["id", "text", "state", "extra", "key", "whole"]))
    if place == "whole":
        text = value
    elif place == "id":
        text = doc.replace('"counter"', value, 1)
    elif place == "text":
        text = doc.replace('"Count: {count}"', value, 1)
    elif place == "state":
        text = doc.replace('"count": 0', '"count": ' + value, 1)
    elif place == "key":
        key = value if value.startswith('"') else '"k"'
        text = doc[:-1] + ", " + key + ": 1}"
    else:
        text = doc[:-1] + ', "zz": ' + value + "}"
    if draw(st.integers(0, 5)) == 0:
        text = text[:-1] + ', "id": "dup"}'  # a duplicate key
    if draw(st.integers(0, 7)) == 0:
        text = "\ufeff" + text
    if draw(st.integers(0, 9)) == 0:
        text = text[: draw(st.integers(0, len(text)))]  # cut anywhere
    return text


# --- hostile bundles ---------------------------------------------------------------------------

odd_names = st.one_of(
    st.sampled_from(
        [
            "manifest.json", "spec.json", "assets/", "assets/logo.png", "assets/LOGO.png",
            "assets/logo.jpg", "../x", "/abs", "C:/x", "a\\b", "assets/../spec.json",
            "assets/a/b.png", "./spec.json", "spec.json/", "assets/.png", "assets/x.exe",
            "assets/con.png", "assets/" + "n" * 300 + ".png", "assets/\u202eevil.png",
            "assets/é.png", "assets/\x01.png", "", "assets//x.png",
        ]
    ),
    st.text(min_size=1, max_size=40).map(lambda t: "assets/" + t + ".png"),
)  # fmt: skip
asset_blobs = st.sampled_from([png(), JPEG, TTF, b"", b"\x89PNG\r\n\x1a\n", b"MZ" + b"\0" * 64])


@st.composite
def _entries(draw: st.DrawFn) -> list[tuple[str, bytes, int]]:
    files: dict[str, bytes] = {
        "manifest.json": json.dumps(
            {"format": 1, "id": "counter", "name": "Counter", "createdBy": "fuzz"}
        ).encode(),
        "spec.json": json.dumps(SPEC).encode(),
        "assets/logo.png": png(),
    }
    entries = [(name, data, stat.S_IFREG | 0o644) for name, data in files.items()]
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(st.sampled_from(["manifest", "spec", "asset", "extra", "mode", "drop"]))
        if kind == "manifest" and entries and entries[0][0] == "manifest.json":
            field = draw(st.sampled_from(["format", "id", "name", "createdBy", "zz"]))
            members = {"format": "1", "id": '"counter"', "name": '"Counter"', "createdBy": '"f"'}
            members[field] = draw(hostile_values)
            text = "{" + ", ".join(f'"{k}": {v}' for k, v in members.items()) + "}"
            entries[0] = ("manifest.json", text.encode("utf-8", "surrogatepass"), entries[0][2])
        elif kind == "spec" and len(entries) > 1 and entries[1][0] == "spec.json":
            text = draw(hostile_texts())
            entries[1] = ("spec.json", text.encode("utf-8", "surrogatepass"), entries[1][2])
        elif kind == "asset":
            entries.append((draw(odd_names), draw(asset_blobs), stat.S_IFREG | 0o644))
        elif kind == "extra":
            entries.append((draw(odd_names), draw(st.binary(max_size=64)), stat.S_IFREG | 0o644))
        elif kind == "mode":
            i = draw(st.integers(0, len(entries) - 1))
            mode = draw(st.sampled_from([stat.S_IFLNK | 0o777, stat.S_IFIFO | 0o644, 0o4755]))
            entries[i] = (entries[i][0], entries[i][1], mode)
        elif kind == "drop" and entries:
            entries.pop(draw(st.integers(0, len(entries) - 1)))
    return entries


def zip_of(entries: list[tuple[str, bytes, int]], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A zip with exactly these entries (names as given, duplicates kept)."""
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # duplicate names are the point
        with zipfile.ZipFile(buf, "w", method) as zf:
            for name, data, mode in entries:
                info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
                info.compress_type = method
                info.create_system = 3
                info.external_attr = mode << 16
                zf.writestr(info, data)
    return buf.getvalue()


@st.composite
def hostile_bundles(draw: st.DrawFn) -> bytes:
    """A bundle someone made to hurt: built entry by entry, or a good one damaged byte-wise."""
    kind = draw(st.sampled_from(["entries", "entries", "damaged", "truncated", "noise"]))
    if kind == "noise":
        return b"PK\x03\x04" + draw(st.binary(max_size=512))
    method = draw(st.sampled_from([zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED]))
    try:
        data = zip_of(draw(_entries()), method)
    except (ValueError, UnicodeEncodeError):  # zipfile cannot spell that name
        data = bundle_bytes(spec(), "Counter")
    if kind == "damaged":
        raw = bytearray(data)
        for _ in range(draw(st.integers(1, 8))):
            raw[draw(st.integers(0, len(raw) - 1))] = draw(st.integers(0, 255))
        data = bytes(raw)
    elif kind == "truncated":
        data = data[: draw(st.integers(0, len(data)))]
    return data


# --- the properties ----------------------------------------------------------------------------


def _one_line(exc: BaseException) -> list[str]:
    message = str(exc)
    found = []
    if not message or "\n" in message:
        found.append(f"not one line: {message!r}")
    try:
        message.encode("utf-8")
    except UnicodeEncodeError:
        found.append(f"cannot be printed: {message!r}")
    return found


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != "library.lock"
    }


def problems_of_bundle(data: bytes) -> list[str]:
    """A bundle is read and imported whole, or refused in one line with nothing written."""
    found: list[str] = []
    try:
        bundle: Bundle | None = read_bundle(data)
    except BundleError as exc:
        bundle = None
        found += _one_line(exc)
    except Exception as exc:  # noqa: BLE001 (any other exception is the finding)
        return [f"read_bundle raised {type(exc).__name__}: {exc}"]
    with tempfile.TemporaryDirectory(prefix="fuzz-bundle-") as tmp:
        root = Path(tmp)
        path = root / "in.protobundle"
        path.write_bytes(data)
        library = Library(root / "home")
        before = _tree(library.folder)
        try:
            entry = library.import_bundle(path)
        except LibraryError as exc:
            found += _one_line(exc)
            if bundle is not None:
                found.append(f"read but not imported: {exc}")
            if _tree(library.folder) != before:
                found.append("a refused import changed the library")
            return found
        except Exception as exc:  # noqa: BLE001
            return [*found, f"import_bundle raised {type(exc).__name__}: {exc}"]
        if bundle is None:
            found.append("refused by read_bundle but imported")
            return found
        reopened = Library(root / "home")
        if reopened.problems:
            found.append(f"imported, then on reopening: {reopened.problems}")
        elif reopened.load_spec(entry.id) != bundle.spec:
            found.append("imported spec reads back differently")
        else:
            out = root / "out.protobundle"
            reopened.export_bundle(entry.id, out)
            again = read_bundle(out)
            if again.spec != bundle.spec or set(again.assets) != set(bundle.assets):
                found.append("export does not round-trip")
    return found


names = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["", " ", "\ud800", "a\ud800b", "\u202e", "x" * 201, "é" * 200, "\n\t"]),
)
extras = st.dictionaries(
    st.sampled_from(["note", "tag", "\ud800"]),
    st.one_of(st.text(max_size=10), st.just("\ud800"), st.just(float("nan")), st.integers()),
    max_size=2,
)
hostile_specs = st.sampled_from(
    [
        spec(),
        spec(id="\ud800"),
        spec(state={"count": float("nan"), "name": ""}),
        spec(state={"count": 10**400, "name": ""}),
        spec(root={"type": "text", "text": "ok\udfff"}),
        spec(data={"deep": [[[[[[[[[[[]]]]]]]]]]]}),
        spec(root={"type": "nope"}),
        {"not": "a spec"},
    ]
)
library_op = st.one_of(
    st.tuples(st.just("create"), names, hostile_specs, extras),
    st.tuples(st.just("rename"), names),
    st.tuples(st.just("save_spec"), hostile_specs),
    st.tuples(st.just("paste"), hostile_texts()),
    st.tuples(st.just("thumbnail"), st.one_of(st.just(png()), st.binary(max_size=64))),
    st.tuples(st.just("duplicate"), names),
    st.tuples(st.just("delete")),
    st.tuples(st.just("restore")),
)


def library_ops() -> st.SearchStrategy[list[tuple[Any, ...]]]:
    return st.lists(library_op, min_size=1, max_size=8)


def problems_of_ops(ops: list[tuple[Any, ...]]) -> list[str]:
    """Each operation works or raises one LibraryError line; a refused one changes nothing;
    the library reopens without problems and lists what the live one lists."""
    found: list[str] = []
    with tempfile.TemporaryDirectory(prefix="fuzz-library-") as tmp:
        library = Library(tmp)
        base = library.create("Base", spec(), "paste")
        for op in ops:
            entries = library.list_entries()
            target = entries[-1].id if entries else base.id
            trashed = library.trashed()
            before = _tree(library.folder)
            try:
                _run(library, op, target, trashed[-1].id if trashed else target)
            except LibraryError as exc:
                found += [f"{op[0]}: {line}" for line in _one_line(exc)]
                if _tree(library.folder) != before:
                    found.append(f"{op[0]} was refused but changed the library")
            except Exception as exc:  # noqa: BLE001
                found.append(f"{op[0]} raised {type(exc).__name__}: {exc!r}"[:300])
        reopened = Library(tmp)
        if reopened.problems:
            found.append(f"reopened with problems: {reopened.problems}")
        live = sorted((e.id, e.name) for e in library.list_entries())
        if sorted((e.id, e.name) for e in reopened.list_entries()) != live:
            found.append("reopened library lists other entries")
    return found


def _run(library: Library, op: tuple[Any, ...], target: str, trashed: str) -> None:
    kind = op[0]
    if kind == "create":
        library.create(op[1], op[2], "paste", extra=op[3])
    elif kind == "rename":
        library.rename(target, op[1])
    elif kind == "save_spec":
        library.save_spec(target, op[1])
    elif kind == "paste":
        library.import_spec_text(op[1])
    elif kind == "thumbnail":
        library.set_thumbnail(target, op[1])
    elif kind == "duplicate":
        library.duplicate(target, op[1] or None)
    elif kind == "delete":
        library.delete(target)
    elif kind == "restore":
        library.restore(trashed)
