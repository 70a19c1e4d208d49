"""The shipped templates as a designer first sees them: the three layout bugs stay fixed, and every
template matches its golden image on the software and the OpenGL scene graph."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.preview import goldens
from tests.preview.fidelity import bounds

NAMES = goldens.template_names()


def _entries(scene: Any, node_type: str) -> list[dict[str, Any]]:
    scene.grab()
    return [e for e in scene.visible_summary() if e["type"] == node_type]


def test_list_and_detail_shows_its_contacts_in_render(scene: Any) -> None:
    # Root cause: a column with a weighted child did not take the height its pager page
    # offered, so the weighted scroll got none (Compose's Column takes its whole bounded height
    # when a child has a weight; pages fill the pager, PG `prototypePageFill`).
    scene.show(goldens.load_template("list-detail"))
    rows = _entries(scene, "listItem")
    assert len(rows) >= 6 and all(r["bounds"]["height"] >= 56 for r in rows)
    assert rows[0]["text"].startswith("Ada Lovelace")


def test_list_and_detail_shows_its_contacts_in_the_window(preview: Any, qtbot: Any) -> None:
    preview.set_spec(goldens.load_template("list-detail"))
    qtbot.waitUntil(
        lambda: sum(1 for e in preview.visible_summary() if e["type"] == "listItem") >= 6
    )


@pytest.mark.parametrize(("width", "height"), [(412, 915), (673, 841)])
def test_tabbed_app_past_cards_span_the_page(scene: Any, width: int, height: int) -> None:
    # Root cause: a wrapping column counted its `fill` children as zero wide, so it was only as
    # wide as its widest other child (the chip row; on a foldable the 360 dp app bar default)
    # and the cards inside filled that. Compose gives a fill child the column's maximum width,
    # which makes the column itself that wide.
    scene.controller.set_device_size(width, height)
    scene.show(goldens.load_template("tabbed-app"))
    for page in (0, 1):
        scene.controller.runtime.set_page("tabs", page)
        cards = _entries(scene, "card")
        assert cards and all(c["bounds"]["width"] == pytest.approx(width - 32) for c in cards)
    texts = {e["text"]: e["bounds"] for e in _entries(scene, "text")}
    assert texts["Barcelona"]["height"] == pytest.approx(24)  # one titleMedium line: no break


@pytest.mark.parametrize(("name", "box_index"), [("feed", 1), ("tabbed-app", 2)])
def test_the_fab_sits_at_the_bottom_end_of_its_box(scene: Any, name: str, box_index: int) -> None:
    # On the phone a box places every child at its own content alignment (SC "box"), so the
    # templates align the box, not the FAB.
    spec = goldens.load_template(name)
    b = bounds(scene, spec)
    area = b[f"root.children[{box_index}]"]
    fab = next(e["bounds"] for e in _entries(scene, "fab"))
    assert fab["x"] + fab["width"] == pytest.approx(area["x"] + area["width"] - 16, abs=0.5)
    assert fab["y"] + fab["height"] == pytest.approx(area["y"] + area["height"] - 16, abs=0.5)


@pytest.mark.parametrize("theme", goldens.THEMES)
@pytest.mark.parametrize("name", NAMES)
def test_every_template_matches_its_software_golden(quick: Any, name: str, theme: str) -> None:
    golden = goldens.golden_path(name, theme, "software")
    assert golden.is_file(), f"{golden} missing: run python -m tests.preview.goldens"
    with tempfile.TemporaryDirectory() as tmp:
        spec_dir = Path(tmp)
        job = next(j for j in goldens.jobs(spec_dir) if j["name"] == f"{name}-{theme}")
        shot = spec_dir / "shot.png"
        goldens.render_software(job, shot)
        mean, off = goldens.difference(shot, golden)
    assert mean <= goldens.MAX_MEAN_DIFF and off <= goldens.MAX_OFF_SHARE, (mean, off)


@pytest.mark.xvfb
def test_every_template_matches_its_opengl_golden(quick: Any, tmp_path: Path) -> None:
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (apt-get install xvfb; see scripts/system-deps)")
    job_list = goldens.jobs(tmp_path)
    report = goldens.render_opengl(job_list, tmp_path)
    failures = []
    for job, entry in zip(job_list, report, strict=True):
        name, theme = job["name"].rsplit("-", 1)
        warnings = [m["text"] for m in entry["messages"] if m["kind"] != "debug"]
        if not entry["ok"] or entry.get("api") != "OpenGL" or warnings:
            failures.append(
                f"{job['name']}: {entry.get('error') or entry.get('api')} {warnings[:1]}"
            )
            continue
        mean, off = goldens.difference(
            tmp_path / f"{job['name']}.png", goldens.golden_path(name, theme, "opengl")
        )
        if mean > goldens.MAX_MEAN_DIFF or off > goldens.MAX_OFF_SHARE:
            failures.append(f"{job['name']}: differs from its golden ({mean:.2f}, {off:.4f})")
    assert not failures, "\n".join(failures)
