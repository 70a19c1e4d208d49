"""`studio.spec` exports functions, whatever submodules were imported before."""

from __future__ import annotations

import importlib


def test_every_export_is_the_function_or_class_not_a_module() -> None:
    import studio.spec
    import studio.spec.outline  # noqa: F401  (the submodule shares the function's name)

    for name in studio.spec.__all__ + ["outline"]:
        value = getattr(importlib.import_module("studio.spec"), name)
        assert callable(value), name
        assert not isinstance(value, type(studio)), f"studio.spec.{name} is a module"
