"""One LangGraph node per game phase."""
