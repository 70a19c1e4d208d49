"""Test helpers shared by the suite (fakes at the seams)."""
