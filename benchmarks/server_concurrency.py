"""How many calls the embedded llama.cpp server should compute at once: twelve seats'
calls (each about 400 new prompt tokens on a warm slot of its own, 48 generated tokens)
sent all at once, two at a time and one at a time, in turns, so a load change touches all.

    flock /tmp/autowerewolf-model.lock python benchmarks/server_concurrency.py --rounds 2

Prints the wall seconds of each turn with the prompt tokens computed and tokens generated.
The server runs as the local backend runs it (a slot per seat, backends/local_server.py);
the first turn also fills every slot with its seat's rules and is left out of the median.
"""

import argparse
import statistics
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

import httpx

from autowerewolf.backends.local_server import LocalServer

SEATS = 12
RULES = "You play Werewolf. " + " ".join(
    f"Rule {n}: every player follows rule {n}." for n in range(60)
)


def messages(seat: int, turn: int) -> list[dict[str, str]]:
    said = " ".join(
        f"Day {turn}: P{(seat + k) % SEATS + 1:02d} says P{(k * 7 + turn) % SEATS + 1:02d} lied."
        for k in range(24)
    )
    return [
        {"role": "system", "content": f"{RULES} You are seat P{seat + 1:02d}."},
        {"role": "user", "content": f"{said} Whom do you suspect, and why?"},
    ]


def call(client: httpx.Client, seat: int, turn: int) -> tuple[int, int]:
    body = {"messages": messages(seat, turn), "max_tokens": 48, "ignore_eos": True, "id_slot": seat}
    timings = client.post("/v1/chat/completions", json=body).json()["timings"]
    return int(timings["prompt_n"]), int(timings["predicted_n"])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    walls: dict[int, list[float]] = defaultdict(list)
    with LocalServer() as server, httpx.Client(base_url=server.root_url, timeout=900) as client:
        widths = [SEATS] + [w for _ in range(args.rounds) for w in (SEATS, 2, 1)]
        for turn, width in enumerate(widths):
            began = time.monotonic()
            with ThreadPoolExecutor(width) as threads:
                done = list(threads.map(call, [client] * SEATS, range(SEATS), [turn] * SEATS))
            wall = time.monotonic() - began
            if turn:
                walls[width].append(wall)
            prompt, generated = sum(p for p, _ in done), sum(g for _, g in done)
            print(
                f"turn {turn}: {width:2d} at once: {wall:6.1f} s,"
                f" {prompt} prompt tokens computed, {generated} generated",
                flush=True,
            )
    for width, seconds in sorted(walls.items()):
        print(
            f"{width:2d} at once: median {statistics.median(seconds):.1f} s"
            f" over {len(seconds)} turns"
        )


if __name__ == "__main__":
    main()
