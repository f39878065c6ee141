"""LLM players: prompts from the seat's view, structured answers, bounded memory."""
