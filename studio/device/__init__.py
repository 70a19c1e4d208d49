"""Android devices over adb: listing, CtrlProxy prototype protocol and screen mirroring (no Qt)."""
