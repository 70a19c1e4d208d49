"""Platform modules a prototype may call, their registry, consent policy and generated surfaces (no Qt)."""
