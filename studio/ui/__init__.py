"""The studio window and its panels (PySide6 widgets)."""
