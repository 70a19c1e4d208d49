"""New from description (seed 004 §4.1, §4.7): the starting spec (a template, or a minimal valid
spec, so a small model is never asked for a whole spec at once), the instruction the agent builds
it from as a series of validated patches, and the library fields the result is saved with
(source `generated`)."""

from __future__ import annotations

import copy
import re
from typing import Any

JSON = dict[str, Any]
SOURCE = "generated"
"""The library source of a prototype the agent created (seed 004 §4.1)."""
MAX_DESCRIPTION = 4000


class DescriptionError(ValueError):
    """A description the agent cannot start from (one line saying what to fix)."""


def prototype_id(name: str) -> str:
    """A spec id from a display name: lower-case words joined by '-' ("prototype" if none)."""
    words = re.findall(r"[a-z0-9]+", name.lower())
    return "-".join(words)[:64].strip("-") or "prototype"


def minimal_spec(name: str) -> JSON:
    """The smallest valid spec to grow by patches: a full-screen column `app` holding one empty
    column `screen` (replaceNode works on `screen`; the root goes through reviseSpec)."""
    return {
        "id": prototype_id(name),
        "window": {"placement": {"type": "fullscreen"}},
        "state": {},
        "root": {
            "type": "column",
            "id": "app",
            "children": [{"type": "column", "id": "screen", "children": []}],
        },
    }


def starting_spec(name: str, template: JSON | None = None) -> JSON:
    """The draft's base: the template (with the new prototype's id) or the minimal spec;
    validated, so the run starts from a valid spec."""
    from studio.spec import validate

    spec = copy.deepcopy(template) if template is not None else minimal_spec(name)
    spec["id"] = prototype_id(name)
    checked = validate(spec)
    if not checked.ok:
        raise DescriptionError(f"the starting spec is not valid: {checked.path}: {checked.message}")
    return spec


def generation_instruction(description: str, *, template_name: str | None = None) -> str:
    """The instruction for the agent: build what the description says on the draft, by
    patches, several screens as pages."""
    text = " ".join(description.split())
    if not text:
        raise DescriptionError("Describe the prototype to create (what it shows and does)")
    if len(text) > MAX_DESCRIPTION:
        raise DescriptionError(
            f"The description is {len(text)} characters; keep it under {MAX_DESCRIPTION}"
        )
    start = (
        f"The draft starts from the template “{template_name}”: keep what fits, change the rest."
        if template_name
        else "The draft is a minimal empty spec: a column `app` holding an empty column `screen`."
    )
    return (
        f"Create a new prototype from this description: {text}\n\n"
        f"{start} Build it step by step, one screen or part per change, each change small and "
        "valid. Several screens become pages: a tabBar or bottomNav with a pager holding one "
        "page per screen. Declare the state each control binds. Change the theme, window or "
        "root as a whole-spec revision only when a patch cannot express it."
    )


def library_fields(description: str, template_id: str | None) -> JSON:
    """The extra fields of the new library entry (its source is `SOURCE`)."""
    return {"description": " ".join(description.split())[:MAX_DESCRIPTION], "template": template_id}
