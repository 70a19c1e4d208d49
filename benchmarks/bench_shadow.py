"""First frame of 20 elevated cards against the same 20 cards flat (elevation shadows' cost).

Every card casts a shadow (a card of `variant: "elevated"` and a box with `style.elevation: 6`,
alternating), so this measures what `bench_render.py`'s big spec (no elevation) cannot: the
shadow images and the items drawing them. Prints CPU and wall medians and their ratio.

Run: `.venv/bin/python benchmarks/bench_shadow.py [--runs N]` (offscreen, software scene graph).
"""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

CARDS = 20
PAD = {"start": 16, "top": 16, "end": 16, "bottom": 16}


def cards_spec(elevated: bool) -> dict[str, Any]:
    """20 cards with a title and a line each; `elevated`: each casts a shadow."""
    children = []
    for i in range(CARDS):
        texts = [
            {"type": "text", "text": f"Card {i}", "textStyle": "titleMedium"},
            {"type": "text", "text": "A line of supporting text " * (1 + i % 3)},
        ]
        if i % 2:
            children.append(
                {
                    "type": "card",
                    "variant": "elevated" if elevated else "filled",
                    "style": {"width": "fill", "padding": PAD},
                    "children": texts,
                }
            )
        else:
            style: dict[str, Any] = {
                "width": "fill",
                "padding": PAD,
                "background": "#FFFFFF",
                "cornerRadius": 12,
            }
            if elevated:
                style["elevation"] = 6
            children.append({"type": "column", "style": style, "children": texts})
    return {
        "id": "cards",
        "window": {"placement": {"type": "fullscreen"}},
        "root": {"type": "scroll", "child": {"type": "column", "style": {
            "width": "fill", "padding": PAD, "spacing": 12}, "children": children}},
    }  # fmt: skip


def main() -> None:
    from PySide6.QtGui import QGuiApplication

    from benchmarks.bench_render import first_frame

    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 7
    app = QGuiApplication.instance() or QGuiApplication(sys.argv)
    from studio.preview.scene import prepare_quick

    prepare_quick()
    first_frame(cards_spec(False))  # warm: QML compiled, fonts loaded
    first_frame(cards_spec(True))
    flat = [first_frame(cards_spec(False)) for _ in range(runs)]
    shadowed = [first_frame(cards_spec(True)) for _ in range(runs)]
    for name, rows in (("flat", flat), ("elevated", shadowed)):
        wall = statistics.median(r[0] for r in rows)
        cpu = statistics.median(r[1] for r in rows)
        complete = all(r[2] for r in rows)
        print(f"first frame, {CARDS} {name} cards: {cpu:.1f} ms CPU, {wall:.1f} ms wall"
              f"{'' if complete else ' (first frame INCOMPLETE)'}")  # fmt: skip
    ratio = statistics.median(r[1] for r in shadowed) / statistics.median(r[1] for r in flat)
    print(f"elevated / flat = {ratio:.2f}x (CPU)")
    del app


if __name__ == "__main__":
    main()
