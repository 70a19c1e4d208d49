"""The on-disk prototype library: entries, drafts and revisions, templates and bundles (no Qt)."""
