"""Tests of the reliability promises (docs/reliability.md), one file per promise."""
