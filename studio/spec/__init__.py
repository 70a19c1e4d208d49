"""The spec core: AutoMobile prototype spec schema, validation, expansion, reading and patching (no Qt).

Public API (re-exported lazily so that importing one part never pays for the others):

- `validate(spec) -> ValidationResult` (`.ok`, `.path`, `.message`), in AutoMobile's order, for
  any input (text, bytes or an object; never raises)
- `CachedValidation(spec).replace(path, node)` / `validate_replace`: one-node revalidation
- `load_spec_file(path)`, `parse_spec_text(text)`: strict reading (raises `SpecInputError`)
- `spec_file_bytes(spec)`: the bytes a spec file is written as (always within the spec limit)
- `expand(spec) -> dict` (components/`use` expanded; raises `SpecError`)
- `outline(spec)`, `read_node(spec, address)`, `read_data(spec, pointer)`
- `apply_patch(spec, ops) -> PatchResult` (raises `PatchError` with op index, path, message);
  `revise_spec(spec, members)`: whole new root/window/theme; `reapply(spec, ops)` for a rebase
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "ValidationResult": "studio.spec.validator",
    "validate": "studio.spec.validator",
    "CachedValidation": "studio.spec.incremental",
    "validate_replace": "studio.spec.incremental",
    "load_spec_file": "studio.spec.io",
    "parse_spec_text": "studio.spec.io",
    "spec_file_bytes": "studio.spec.io",
    "SpecError": "studio.spec.errors",
    "SpecInputError": "studio.spec.errors",
    "expand": "studio.spec.components",
    "outline": "studio.spec.outline",
    "read_node": "studio.spec.outline",
    "read_data": "studio.spec.outline",
    "apply_patch": "studio.spec.patch",
    "PatchError": "studio.spec.patch",
    "PatchResult": "studio.spec.patch",
    "replace_spec": "studio.spec.patch",
    "revise_spec": "studio.spec.patch",
    "reapply": "studio.spec.patch",
    "expand_components": "studio.spec.components",
    "expand_with_locations": "studio.spec.components",
}

__all__ = sorted(_EXPORTS)


# `studio.spec.outline` is both a submodule and a function. Importing the submodule sets the
# package attribute to the module, which would hide the function from `__getattr__`; binding the
# function once here, after that import, keeps `from studio.spec import outline` a function. The
# module is small (no validator import) so this costs little.
from studio.spec import outline as _outline_module  # noqa: E402

outline = _outline_module.outline


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'studio.spec' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
