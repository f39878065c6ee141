"""The report's agent-design table: per (model, agent design), over the LLM seats that
played it, the win rate with its Wilson interval (and per camp), Strategy Adaptation's Est
and the blunder rates (designs.py says what each seat's row holds).

The win rate counts teams, not seats: the seats of one camp in one game share one outcome,
so counting them one by one would narrow the interval as if a game of four villagers were
four games. A team is the design's seats of one camp in one game (a design seated in both
camps of a game fields two teams, one of which lost)."""

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from autowerewolf.evaluation.facts import GameRow
from autowerewolf.evaluation.metrics import wilson

HEADLINE_BLUNDERS = ("wolf_self_kill", "witch_poisons_good", "overall")


def design_table(rows: Iterable["GameRow"]) -> list[dict[str, Any]]:
    """One entry per (model, agent design) over LLM seats: games, seats, win rate over teams
    with its Wilson interval (and per camp), Est, and blunder rates."""
    cells: dict[tuple[str, str], dict[str, Any]] = {}
    for row in rows:
        for seat in row["seats"].values():
            if seat.get("agent") is None:
                continue
            key = (seat.get("model") or "?", seat["agent"] or "?")
            cell = cells.setdefault(
                key,
                {
                    "games": set(),
                    "seats": 0,
                    "teams": {},
                    "est": [0.0, 0.0],
                    "blunders": defaultdict(lambda: [0, 0]),
                },
            )
            cell["games"].add(row["game_id"])
            cell["seats"] += 1
            cell["teams"][(row["game_id"], seat["camp"])] = row["winner"] == seat["camp"]
            cell["est"][0] += seat["est"][0]
            cell["est"][1] += seat["est"][1]
            for metric, (count, chances) in seat["blunders"].items():
                cell["blunders"][metric][0] += count
                cell["blunders"][metric][1] += chances
    table = []
    for (model, agent), cell in sorted(cells.items()):
        teams: dict[tuple[str, str], bool] = cell["teams"]
        won = sum(teams.values())
        lo, hi = wilson(won, len(teams))
        by_camp: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for (_, camp), team_won in teams.items():
            by_camp[camp][0] += team_won
            by_camp[camp][1] += 1
        table.append(
            {
                "model": model,
                "agent": agent,
                "games": len(cell["games"]),
                "seats": cell["seats"],
                "win": {
                    "rate": won / len(teams),
                    "lo": lo,
                    "hi": hi,
                    "n": len(teams),
                },
                "win_by_camp": {c: w / n for c, (w, n) in sorted(by_camp.items())},
                "est": cell["est"][0] / cell["est"][1] if cell["est"][1] else None,
                "blunders": {m: list(v) for m, v in sorted(cell["blunders"].items())},
            }
        )
    return table
