"""Debate and belief metrics: what the probes of one game measured, and their summaries."""
