"""The authoring agent: model clients, the guarded tool loop, spec tools, traces and replay (no Qt)."""
