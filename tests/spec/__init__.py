"""Tests of the spec core."""
