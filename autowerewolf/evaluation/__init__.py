"""Tournaments between contestants, metrics computed from saved games, ratings and reports."""
