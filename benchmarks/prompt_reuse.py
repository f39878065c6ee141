"""What the server would compute of each prompt, with today's prompts, over games already
played: a prompt change weighed in seconds, before hours of games.

    python benchmarks/prompt_reuse.py --db DIR/qwen0.5b-q40-grammar.db
    python benchmarks/prompt_reuse.py --db DB --fold-days 3    # the memory folded less often

Every checkpoint of the finished games of `--db` (read-only) that waits for a decision is
turned back into the prompt each asked LLM seat would read now (the `plain` design's
system prompt and question, speeches in acts, as the local default asks them). A seat
keeps its own server slot (backends/local_server.py), so what the server computes of a
prompt is what follows the longest prefix it shares with the same seat's previous prompt;
the rest comes from the slot's cache. Printed: per game and in all, the characters computed,
the part of them that is the question (the tail, new at every call), the share from the
cache, and the longest prompt. Characters, not tokens: the embedded model reads about 2.4
characters a token. Second looks, re-prompts and role estimates are not counted, so the
share from the cache is a little higher than a game's (`embedded_models.py profile`).
"""

import argparse
import sys
from collections import Counter
from pathlib import Path

from autowerewolf.players.factory import DEFAULT_MODELS
from autowerewolf.prompts import recall as memory
from autowerewolf.prompts.seat_prompt import decision_question, prompt_messages
from autowerewolf.rules.steps import takes_text

# Run as a script, the repository root is not on the path.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.decision_replay import waiting_checkpoints
from benchmarks.prompt_cost import shared_prefix


def measure(db: Path) -> dict[str, Counter[str]]:
    """Per game: characters in all prompts, computed, computed of the question, the longest
    prompt and the prompts counted."""
    bounds = DEFAULT_MODELS.default.bounds()  # the local default's: focused, speeches in acts
    games: dict[str, Counter[str]] = {}
    previous: dict[tuple[str, str], str] = {}
    for record, _, table, pending in waiting_checkpoints(db):
        counts = games.setdefault(record.game_id, Counter())
        for seat, options in pending.options.items():
            if len(options) < 2 and takes_text(pending.step) is None:
                continue  # a seat with one choice and nothing to say is not asked
            view = table.request(seat, pending).view
            asked = decision_question(view, pending.step)
            prompt = prompt_messages(
                view, asked.instruction, asked.notes, asked.choices, asked.memory, asked.text,
                acts=bounds.speech_acts, reasoning=bounds.for_decision(asked.key).reasoning > 0,
            )  # fmt: skip
            text = f"{prompt.system}\n{prompt.user}"
            before = previous.get((record.game_id, seat), prompt.system)  # primed slot
            computed = len(text) - shared_prefix(before, text)
            counts["all"] += len(text)
            counts["computed"] += computed
            counts["question"] += min(len(prompt.tail), computed)
            counts["longest"] = max(counts["longest"], len(text))
            counts["prompts"] += 1
            previous[(record.game_id, seat)] = text
    return games


def line(name: str, c: Counter[str], games: int = 1) -> str:
    return (
        f"{name}: {c['prompts'] // games} prompts, {c['computed'] // games:,} characters"
        f" computed ({c['question'] / c['computed']:.0%} of them the question),"
        f" {1 - c['computed'] / c['all']:.1%} from the cache, longest {c['longest']:,}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument(
        "--fold-days",
        type=int,
        help=f"fold the memory every this many days (now {memory.FOLD_EVERY_DAYS})",
    )
    args = parser.parse_args()
    if args.fold_days:
        memory.FOLD_EVERY_DAYS = args.fold_days
    games = measure(args.db)
    total: Counter[str] = Counter()
    for game_id, counts in games.items():
        print(line(game_id, counts))
        longest = max(total["longest"], counts["longest"])
        total.update(counts)
        total["longest"] = longest
    print(line(f"per game over {len(games)}", total, len(games)))


if __name__ == "__main__":
    main()
