"""One validation gate (issue 14): every edit path validates the very spec that becomes the
revision, so the document never holds a spec the library refuses to save.

The walkthrough's case (docs/research/walkthrough.md, step 3): in the Settings template a
slider's `max` set below its `min` through the inspector's JSON tab became a revision. The cause:
the one-node revalidation checked a spec it built itself with its own copy of "replace the node
at this path", which for a path through a `.child` step (the slider sits under a scroll) wrote
the new node into a copy that was then dropped, so the unchanged spec was validated while the
patch's own copy was committed. Now one `tree.replace_node` builds the spec, and the
revalidation checks that very object (`CachedValidation.check`), in full whenever it differs
from the validated spec anywhere but the replaced node.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from studio.document import Document, RevisionRefused
from studio.library.revisions import Revision, RevisionLog
from studio.library.store import Library
from studio.resources import resource_path
from studio.spec import tree, validate
from studio.spec.incremental import CachedValidation, validate_replaced
from studio.spec.patch import PatchError, apply_patch

SLIDER = "root.children[1].child.children[13].children[1]"


def settings() -> dict[str, Any]:
    return json.loads(resource_path("templates", "settings.json").read_text(encoding="utf-8"))


def test_the_walkthrough_slider_max_below_min_is_refused_and_nothing_changes(
    tmp_path: Path,
) -> None:
    library = Library(tmp_path)
    entry = library.create("Settings draft", settings(), "template")
    document = Document(library.load_spec(entry.id), name=entry.name, entry_id=entry.id)
    before = document.spec
    slider = copy.deepcopy(tree.node_at(before, SLIDER))
    assert slider["type"] == "slider" and slider["min"] == 0.75
    slider["max"] = 0.5
    for _ in range(2):  # it was accepted both times it was tried
        with pytest.raises(PatchError) as info:
            document.apply_ops(
                [{"op": "replaceNode", "address": SLIDER, "node": slider}],
                summary="Edit slider (JSON)",
            )
        assert info.value.path == f"{SLIDER}.max"
        assert info.value.message == "Slider max must be greater than min"
        assert document.spec is before and not document.revisions.can_undo()
    # The next edit of the same node is judged on its own (min as a string), not by the old
    # error.
    slider = copy.deepcopy(tree.node_at(before, SLIDER))
    slider["min"] = "0.75"
    with pytest.raises(PatchError) as info:
        document.apply_ops([{"op": "replaceNode", "address": SLIDER, "node": slider}])
    assert info.value.path == f"{SLIDER}.min"
    # A valid edit lands, and the library saves what the document holds.
    slider["min"] = 0.5
    document.apply_ops([{"op": "replaceNode", "address": SLIDER, "node": slider}])
    library.save_spec(entry.id, document.spec)
    library.save_revisions(entry.id, document.revisions)
    assert tree.node_at(library.load_spec(entry.id), SLIDER)["min"] == 0.5


def every_template() -> list[tuple[str, dict[str, Any]]]:
    index = json.loads(resource_path("templates", "index.json").read_text(encoding="utf-8"))
    return [
        (t["id"], json.loads(resource_path("templates", f"{t['id']}.json").read_text("utf-8")))
        for t in index["templates"]
    ]


@pytest.mark.parametrize(
    ("name", "spec"), every_template(), ids=lambda v: v if isinstance(v, str) else ""
)
def test_an_invalid_replace_anywhere_is_refused_as_validate_refuses_it(
    name: str, spec: dict[str, Any]
) -> None:
    """At every node of every template (paths through `child` and `children` alike), a
    replacement with an unknown type is refused by the patch exactly where `validate` of the
    patched spec says, and a replacement by the same node is accepted."""
    for path, node, _, _ in tree.walk(spec):
        broken = {**node, "type": "nosuchtype"}
        patched, _ = tree.replace_node(spec, path, broken)
        expected = validate(patched)
        assert not expected.ok
        if path == "root":
            with pytest.raises(PatchError):
                apply_patch(spec, [{"op": "replaceNode", "address": path, "node": broken}])
        with pytest.raises(PatchError) as info:
            apply_patch(spec, [{"op": "replaceNode", "address": path, "node": broken}], root=True)
        assert (info.value.path, info.value.message) == (expected.path, expected.message)
        same = apply_patch(spec, [{"op": "replaceNode", "address": path, "node": node}], root=True)
        assert validate(same.spec).ok


def test_the_revalidation_checks_the_object_it_is_given() -> None:
    """A patched spec that differs from the cached one beyond the replaced node is validated in
    full: the fast path never vouches for an object it did not look at."""
    spec = settings()
    cached = CachedValidation(spec)
    assert cached.incremental
    slider = tree.node_at(spec, SLIDER)
    patched, _ = tree.replace_node(spec, SLIDER, dict(slider))  # a valid one-node replace
    assert cached.check(patched, SLIDER).ok
    # The same node, but the header elsewhere broken in the copy: refused where it is.
    elsewhere = copy.deepcopy(patched)
    elsewhere["root"]["children"][0]["type"] = "nosuchtype"
    result = cached.check(elsewhere, SLIDER)
    assert not result.ok and result.path == validate(elsewhere).path
    assert not validate_replaced(spec, elsewhere, SLIDER).ok


def test_a_pushed_revision_is_validated_too() -> None:
    spec = settings()
    document = Document(spec, name="Settings")
    bad = copy.deepcopy(spec)
    tree.node_at(bad, SLIDER)["max"] = 0.1
    with pytest.raises(PatchError) as info:
        document.push_revision(Revision(spec=bad, author="agent", summary="Agent edit"))
    assert info.value.path == f"{SLIDER}.max"
    assert document.spec is spec and not document.revisions.can_undo()


def test_undo_and_redo_refuse_an_invalid_revision_read_from_disk() -> None:
    """A drafts file written by an older build can hold the refused slider in its history:
    undo and redo never bring it back (one line saying why; nothing moves)."""
    spec = settings()
    bad = copy.deepcopy(spec)
    tree.node_at(bad, SLIDER)["max"] = 0.5
    good = copy.deepcopy(spec)
    tree.node_at(good, SLIDER)["label"] = "Size"
    revisions = [
        Revision(spec=bad, author="user", summary="Edit slider (JSON)"),
        Revision(spec=good, author="user", summary="Edit slider (form)"),
    ]
    # At the valid last revision: undo would restore the invalid one.
    document = Document(good, name="Settings", revisions=RevisionLog(spec, revisions))
    with pytest.raises(RevisionRefused) as info:
        document.undo()
    assert "Slider max must be greater than min" in str(info.value)
    assert document.spec is good
    # At the base with the invalid one to redo.
    document = Document(spec, name="Settings", revisions=RevisionLog(spec, revisions, 0))
    with pytest.raises(RevisionRefused):
        document.redo()
    assert document.spec is spec and document.revisions.cursor == 0
