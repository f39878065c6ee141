"""Pure rules engine for Werewolf: no I/O, no LLM, no global randomness."""
