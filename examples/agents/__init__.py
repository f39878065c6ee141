"""Example plug-in agent designs."""
