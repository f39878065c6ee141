"""How fast the embedded llama.cpp server computes a prompt and generates, on this machine
now: one uncached prompt of about 2,100 tokens and 60 generated tokens, asked `--rounds`
times on the server as the local backend starts it (backends/local_server.py).

    flock /tmp/autowerewolf-model.lock python benchmarks/server_speed.py --rounds 3
    flock /tmp/autowerewolf-model.lock python benchmarks/server_speed.py \\
        --binary /path/to/llama-server   # another build of the server, same flags
    flock /tmp/autowerewolf-model.lock python benchmarks/server_speed.py \\
        --model /path/to/model.gguf      # another GGUF (another quantization), same flags

Prints each round's prompt and generation tokens per second as the server itself times
them, then their medians. A game's time is about its prompt tokens computed over the first
figure plus its generated tokens over the second (`embedded_models.py profile`).
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
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()
