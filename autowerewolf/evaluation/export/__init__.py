"""Dataset export of finished games: JSONL lines and chat trajectories."""
