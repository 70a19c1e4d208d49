"""Where the studio keeps its configuration files (UI state, agent settings, platform grants):
under PROTO_STUDIO_HOME when set, else the platformdirs user config folder."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "proto-studio"


def config_dir() -> Path:
    """`$PROTO_STUDIO_HOME/config`, or e.g. `~/.config/proto-studio` (the one definition)."""
    home = os.environ.get("PROTO_STUDIO_HOME")
    if home:
        return Path(home) / "config"
    return Path(platformdirs.user_config_dir(APP, appauthor=False))


def consent_grants_path() -> Path:
    """The JSON file of remembered "Always allow" and "Always deny" answers."""
    return config_dir() / "platform-consent.json"
