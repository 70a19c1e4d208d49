"""Editing `data` by hand (`studio.spec.data_edit`): values typed as their kind, the changes
made on copies, and what cannot be made refused in one line naming the place."""

from __future__ import annotations

import pytest

from studio.spec import data_edit as D

DATA = {"profile": {"name": "Ada", "tags": ["a/b", "c"]}, "n": 1}


def test_pointers_and_placeholders_escape_as_rfc_6901() -> None:
    assert D.pointer(("profile", "tags", 0)) == "/data/profile/tags/0"
    assert D.placeholder(("a/b", "x~y")) == "{/data/a~1b/x~0y}"
    assert D.where(("profile", "tags", 1)) == "data.profile.tags[1]"


@pytest.mark.parametrize(
    ("kind", "text", "value"),
    [("number", " 2.5 ", 2.5), ("number", "3", 3), ("boolean", "true", True),
     ("text", " x ", " x "), ("null", "", None), ("list", "[1]", [1]), ("object", "{}", {})],
)  # fmt: skip
def test_a_value_is_parsed_as_its_kind(kind: D.Kind, text: str, value: object) -> None:
    assert D.parse_value(kind, text) == value


@pytest.mark.parametrize(
    ("kind", "text", "message"),
    [("number", "ten", "data.n: 'ten' is not a number"),
     ("number", "inf", "data.n: 'inf' is not a finite number"),
     ("boolean", "yes", "data.n: true or false, not 'yes'"),
     ("object", "[]", "data.n: expected an object")],
)  # fmt: skip
def test_a_value_not_of_its_kind_is_one_line(kind: D.Kind, text: str, message: str) -> None:
    with pytest.raises(D.DataError) as caught:
        D.parse_value(kind, text, ("n",))
    assert str(caught.value) == message


def test_changes_are_copies_and_keep_the_order() -> None:
    renamed = D.rename(DATA, ("profile", "name"), "fullName")
    assert list(renamed["profile"]) == ["fullName", "tags"] and DATA["profile"]["name"] == "Ada"
    added, path = D.add(DATA, ("profile", "tags"), "d")
    assert path == ("profile", "tags", 2) and added["profile"]["tags"][-1] == "d"
    added, path = D.add(DATA, ())
    assert path == ("key1",) and added["key1"] == ""
    assert D.remove(DATA, ("profile", "tags", 0))["profile"]["tags"] == ["c"]
    assert D.set_at(DATA, ("n",), [1])["n"] == [1] and DATA["n"] == 1


def test_kinds_convert_keeping_what_carries_over() -> None:
    assert D.convert("3", "number") == 3
    assert D.convert("x", "number") == 0
    assert D.convert(4, "text") == "4"
    assert D.convert({"a": 1}, "list") == []
    assert D.convert("true", "boolean") is True


def test_a_taken_or_empty_key_and_a_missing_value_are_refused() -> None:
    with pytest.raises(D.DataError, match=r"^data\.n: the key is already there$"):
        D.rename(DATA, ("profile",), "n")
    with pytest.raises(D.DataError, match="cannot be empty"):
        D.rename(DATA, ("n",), "")
    with pytest.raises(D.DataError, match=r"^data\.nope: no such value$"):
        D.remove(DATA, ("nope",))


def test_uses_are_placeholders_arguments_and_results() -> None:
    spec = {
        "root": {"type": "column", "children": [
            {"type": "text", "text": "{{/data/profile/name} and {/data/n}"},
            {"type": "button", "label": "Go", "onTap": [
                {"type": "platform", "call": "calc.evaluate",
                 "args": {"expression": {"data": "/data/n"}}, "into": "/data/profile"}]},
        ]},
    }  # fmt: skip
    found = D.uses(spec)
    assert [(u.pointer, u.path, u.where, u.how) for u in found] == [
        ("/data/profile/name", "root.children[0]", "text", "text"),
        ("/data/n", "root.children[0]", "text", "text"),
        ("/data/n", "root.children[1]", "onTap[0].args.expression.data", "argument"),
        ("/data/profile", "root.children[1]", "onTap[0].into", "into"),
    ]
    assert [u.how for u in D.uses_of(found, ("profile",))] == ["text", "into"]
    assert [u.how for u in D.uses_of(found, ("profile", "name"))] == ["text", "into"]
    assert D.uses_of(found, ("nothing",)) == []
