"""Seats' players: random, scripted, human and LLM, behind one interface."""
