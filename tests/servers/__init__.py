"""Real servers for tests and benchmarks, on this machine only: PostgreSQL, a Ray cluster."""
