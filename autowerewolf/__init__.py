"""AutoWerewolf: LLM agents playing Werewolf under a pure rules engine."""
