"""How fast the embedded llama.cpp server computes a prompt and generates, on this machine
now: one uncached prompt of about 2,100 tokens and 60 generated tokens, asked `--rounds`
times on the server as the local backend starts it (backends/local_server.py).

    flock /tmp/autowerewolf-model.lock python benchmarks/server_speed.py --rounds 3
    flock /tmp/autowerewolf-model.lock python benchmarks/server_speed.py \\
        --binary /path/to/llama-server   # another build of the server, same flags
    flock /tmp/autowerewolf-model.lock python benchmarks/server_speed.py \\
        --model /path/to/model.gguf      # another GGUF (another quantization), same flags
    flock /tmp/autowerewolf-model.lock python benchmarks/server_speed.py \\
        --cached 1000 2500 4000          # new text after that many cached characters

Prints each round's prompt and generation tokens per second as the server itself times
them, then their medians. A game's time is about its prompt tokens computed over the first
figure plus its generated tokens over the second (`embedded_models.py profile`).

With `--cached`, each round is a game's call instead: a prompt whose first N characters
(about N/3 tokens of this text) the slot already holds, then about 650 new tokens and 40
generated, once for each N. The server attends to the whole context for each new token, so
the rates fall as a seat's prompt grows.
"""

import argparse
import statistics
from pathlib import Path

import httpx

from autowerewolf.backends.local_server import LocalServer

# Distinct words in every round, so nothing comes from the prompt cache.
RULES = " ".join(
    f"Rule {n}: player P{n % 12 + 1:02d} follows rule {n} and says something new."
    for n in range(110)
)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--binary", type=Path, help="a llama-server other than the extra's")
    parser.add_argument("--model", type=Path, help="a GGUF other than the embedded model")
    parser.add_argument(
        "--cached", type=int, nargs="+", help="characters of the prompt already cached"
    )
    args = parser.parse_args()
    if args.cached:
        after_cached(args.binary, args.model, args.cached)
        return
    prompt_speeds, generation_speeds = [], []
    with (
        LocalServer(binary=args.binary, model_path=args.model) as server,
        httpx.Client(base_url=server.root_url, timeout=900) as client,
    ):
        for round_ in range(args.rounds):
            body = {
                "messages": [{"role": "user", "content": f"Round {round_}. {RULES}"}],
                "max_tokens": 60,
                "ignore_eos": True,
                "cache_prompt": False,
                "id_slot": 0,
            }
            timings = client.post("/v1/chat/completions", json=body).json()["timings"]
            prompt_speeds.append(timings["prompt_per_second"])
            generation_speeds.append(timings["predicted_per_second"])
            print(
                f"round {round_}: {timings['prompt_n']} prompt tokens at"
                f" {prompt_speeds[-1]:.1f}/s, {timings['predicted_n']} generated at"
                f" {generation_speeds[-1]:.1f}/s",
                flush=True,
            )
    print(
        f"median over {args.rounds} rounds: prompt {statistics.median(prompt_speeds):.1f}"
        f" tokens/s, generation {statistics.median(generation_speeds):.1f} tokens/s"
    )


NEW = " ".join(f"Then P{n % 12 + 1:02d} said point {n} again." for n in range(60))


def after_cached(binary: Path | None, model: Path | None, cached: list[int]) -> None:
    """The rates of a call whose first `cached` characters its slot already holds."""
    with (
        LocalServer(binary=binary, model_path=model) as server,
        httpx.Client(base_url=server.root_url, timeout=900) as client,
    ):
        for round_, chars in enumerate(cached):
            start = f"Round {round_}. {(RULES * (chars // len(RULES) + 1))[:chars]}"
            ask = {"max_tokens": 1, "id_slot": 0}
            client.post("/v1/chat/completions", json={"messages": [user(start)], **ask})
            body = {"messages": [user(start + NEW)], "max_tokens": 40, "ignore_eos": True}
            timings = client.post("/v1/chat/completions", json={**body, "id_slot": 0}).json()[
                "timings"
            ]
            print(
                f"{timings['cache_n']} tokens cached: {timings['prompt_n']} new prompt tokens"
                f" at {timings['prompt_per_second']:.1f}/s, {timings['predicted_n']} generated"
                f" at {timings['predicted_per_second']:.1f}/s",
                flush=True,
            )


def user(text: str) -> dict[str, str]:
    return {"role": "user", "content": text}


if __name__ == "__main__":
    main()
