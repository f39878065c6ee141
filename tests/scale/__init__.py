"""The asynchronous runner, PostgreSQL checkpoints, Ray workers, the simulated model."""
