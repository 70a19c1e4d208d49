"""The live preview: a Qt Quick (Controls Material) renderer of a running prototype."""
