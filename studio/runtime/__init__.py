"""A running prototype: typed state, pagers, actions, conditions, bindings and events (no Qt)."""
