"""LangGraph wiring of the game."""
