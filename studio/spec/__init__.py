"""The spec core: AutoMobile prototype spec schema, validation, expansion, reading and patching (no Qt)."""
