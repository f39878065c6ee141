"""Agent designs for LLM seats (docs/agents.md): `plain`, `estimator`, `adaptive` (and its
fixed-strategy ablations `support` and `attack`), `experience`, and plug-ins loaded by
name. Which design a seat plays is data saved with the game (`Seating.agents`)."""
