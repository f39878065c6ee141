"""Server flags against one another: the same saved decisions asked of the managed
llama-server started with each variant's extra flags, to see whether a flag (speculative
decoding, a batch size, a thread count) makes the embedded default's answers cheaper.

    flock /tmp/autowerewolf-model.lock python benchmarks/server_options.py \\
        --db bench-models/qwen0.5b.db --every 5 --limit 30 --budget terse \\
        --variant none= --variant ngram-mod="--spec-type ngram-mod"

The decisions are every `--every`-th checkpoint's first asked seat of the finished games in
`--db` (read-only), the first `--limit` of them. Each is asked twice through the `plain` LLM
player, as a game asks it (temperature 0.7, speech acts, the budget's schema, second
looks): once to fill the slot's prompt cache, then again, timed. The timed call's prompt is
then all cached but its last token, so what differs between variants is generation: the
output is, per variant, the tokens generated, the seconds the timed calls took and their
ratio.
"""

import argparse
import shlex
import sys
import time
from contextlib import closing
from itertools import islice
from pathlib import Path

from autowerewolf.backends.local_server import LocalServer
from autowerewolf.backends.model_file import ensure_local_model
from autowerewolf.players.base import DecisionRequest
from autowerewolf.players.factory import DEFAULT_MODELS, ModelPool
from autowerewolf.players.llm.player import LLMPlayer
from autowerewolf.prompts.answers import BUDGETS

# Run as a script, the repository root is not on the path.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.decision_replay import waiting_checkpoints


def saved_requests(db: Path, every: int, limit: int) -> list[DecisionRequest]:
    """The first asked seat of every `every`-th checkpoint of each finished game of `db`
    that waits for a decision, up to `limit` of them."""
    with closing(waiting_checkpoints(db)) as waiting:
        chosen = ((table, pending) for _, n, table, pending in waiting if n % every == 0)
        return [
            table.request(min(pending.options), pending) for table, pending in islice(chosen, limit)
        ]


def measure(
    requests: list[DecisionRequest], model: Path, budget: str, flags: list[str]
) -> tuple[int, float]:
    """Tokens generated and seconds taken by the timed calls on a server with `flags`."""
    tokens, seconds = 0, 0.0
    with LocalServer(model_path=model, alias="options", extra_args=flags) as server:
        config = DEFAULT_MODELS.default.model_copy(
            update={"model": "options", "timeout_s": 900, "budget": budget}
        )
        pool = ModelPool(local=server)
        bounds = config.bounds()
        players = {
            seat: LLMPlayer(pool.chat(config, seat), "options", bounds) for seat in range(12)
        }
        for request in requests:
            seats = [p.seat for p in request.view.players]
            player = players[seats.index(request.view.seat) % 12]
            player.decide(request)  # fills the slot's cache with this prompt
            began = time.perf_counter()
            answer = player.decide(request)
            seconds += time.perf_counter() - began
            tokens += answer.record.tokens_out or 0
    return tokens, seconds


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--model", type=Path, help="a .gguf file (default: the embedded model)")
    parser.add_argument("--every", type=int, default=5)
    parser.add_argument("--limit", type=int, default=30)
    parser.add_argument("--budget", choices=sorted(BUDGETS), default="compact")
    parser.add_argument(
        "--variant",
        action="append",
        required=True,
        help="LABEL=FLAGS: the server's extra flags (none for LABEL=)",
    )
    args = parser.parse_args()
    requests = saved_requests(args.db, args.every, args.limit)
    model = args.model or ensure_local_model()
    print(f"{len(requests)} decisions, budget {args.budget}", flush=True)
    for variant in args.variant:
        label, _, flags = variant.partition("=")
        tokens, seconds = measure(requests, model, args.budget, shlex.split(flags))
        print(
            f"{label}: {tokens} tokens generated in {seconds:.1f} s "
            f"({tokens / seconds:.1f} tokens/s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
