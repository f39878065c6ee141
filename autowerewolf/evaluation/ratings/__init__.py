"""Ratings of contestants from game outcomes: Bradley-Terry, Elo, OpenSkill, GTE and pairs."""
