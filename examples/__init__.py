"""Examples: tournament files and a plug-in agent design (examples/agents/)."""
