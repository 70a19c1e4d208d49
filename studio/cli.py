"""The `proto-studio` command: open the studio, or run one of the headless subcommands."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

# subcommand -> (module, function, one-line help). Each owner module defines
# `add_arguments(name, parser)`-free handlers: `fn(args: argparse.Namespace) -> int` plus a
# `configure_<name>(parser)` that declares its arguments. Imports are lazy so that
# `proto-studio validate` never loads Qt.
SUBCOMMANDS: dict[str, tuple[str, str, str]] = {
    "validate": ("studio.spec.cli", "validate", "validate spec files"),
    "expand": ("studio.spec.cli", "expand", "print a spec with components expanded"),
    "render": ("studio.preview.cli", "render", "headless render of the first screen to PNG"),
    "agent": ("studio.agent.cli", "agent", "headless agent run on a spec"),
    "eval": ("studio.agent.evaluate", "eval", "the authoring eval: tasks, scores, an HTML report"),
    "surface": ("studio.platform.cli", "surface", "print the generated surface of a platform call"),
    "device": ("studio.device.cli", "device", "list devices, or show a spec on one"),
}


def _load(name: str) -> tuple[Callable[[argparse.ArgumentParser], None], Callable[..., int]]:
    module_name, fn, _ = SUBCOMMANDS[name]
    module = importlib.import_module(module_name)
    return getattr(module, f"configure_{fn}"), getattr(module, f"run_{fn}")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in SUBCOMMANDS:
        name = args[0]
        parser = argparse.ArgumentParser(
            prog=f"proto-studio {name}", description=SUBCOMMANDS[name][2]
        )
        try:
            configure, run = _load(name)
        except ImportError as exc:  # a subcommand whose module is not built yet
            print(f"proto-studio {name}: not available in this build ({exc})", file=sys.stderr)
            return 2
        configure(parser)
        try:
            ns = parser.parse_args(args[1:])
        except SystemExit as exc:  # argparse exits 2 on usage errors
            return int(exc.code or 0)
        return int(run(ns))
    if args and args[0] in {"-V", "--version"}:
        from studio.version import version

        print(f"proto-studio {version()}")
        return 0
    if args and args[0] in {"-h", "--help"}:
        print(
            "usage: proto-studio [FILE] | proto-studio --version | proto-studio {"
            + ",".join(SUBCOMMANDS)
            + "} ..."
        )
        for name, (_, _, help_text) in SUBCOMMANDS.items():
            print(f"  {name:<10} {help_text}")
        return 0
    from studio.ui.app import run_studio

    return run_studio(args)


if __name__ == "__main__":
    raise SystemExit(main())
