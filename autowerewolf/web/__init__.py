"""The web app on the LangGraph server: watch games live, replay them, play a human seat.
See docs/architecture.md ("The web app")."""
