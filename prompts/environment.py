"""The words of the training environment and of agents across a process boundary that the
decision prompts do not already hold (players/observation.py)."""


def waiting_line() -> str:
    """What a seat that is not asked reads in the environment's every-seat modes."""
    return "Nothing to decide now: wait for your turn."


def answer_format(text: str | None) -> str:
    """How a model without structured output answers (the verifiers environment): the
    fields an LLM seat's answer schema has (prompts/answers.py)."""
    extra = f', "{text}": "..."' if text else ""
    return (
        'Answer with one JSON object and nothing else: {"reasoning": "...", "choice": "..."'
        f"{extra}}}, where choice is one of the choices."
    )


def since_last_answer(lines: list[str]) -> str:
    """The events a seat saw since its last question."""
    return "Since your last answer:\n" + ("\n".join(lines) if lines else "(nothing new)")


def invalid_answer(problem: str, played: str) -> str:
    """After an answer that cannot be used: a seeded random legal choice was played."""
    return f"That answer was invalid ({problem}); {played} was played for you."


def game_over(winner: str | None, reason: str, won: bool) -> str:
    if winner is None:
        return f"The game is over: a draw ({reason})."
    return f"The game is over: the {winner} camp wins ({reason}). You {'win' if won else 'lose'}."


def game_intro(board: str) -> str:
    """A dataset row's placeholder prompt: the first question replaces it at the start."""
    return f"A game of Werewolf on the {board} board is about to start."
