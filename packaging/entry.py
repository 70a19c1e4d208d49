"""The frozen build's entry point: `proto-studio [FILE]` and its subcommands."""

from studio.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
