"""The report's agent-design table: per (model, agent design), over the LLM seats that
played it, the win rate (and per camp), Strategy Adaptation's Est, the blunder rates
(games/design_rows.py says what each seat's row holds) and the share of speeches and wolf
messages out of character (games/speeches.py), each with an interval over games.

The win rate counts teams, not seats: the seats of one camp in one game share one outcome,
so counting them one by one would narrow the interval as if a game of four villagers were
four games. A team is the design's seats of one camp in one game (a design seated in both
camps of a game fields two teams, one of which lost). Its interval, like every other,
resamples whole games (bootstrap.py)."""

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from autowerewolf.evaluation.bootstrap import Sums, Values, bump, chance_ratio, proportion
from autowerewolf.evaluation.games.facts import GameRow

HEADLINE_BLUNDERS = ("wolf_self_kill", "witch_poisons_good", "overall")
DESIGN = "design"


def game_columns(row: GameRow, values: Values) -> None:
    """A game's columns per (model, agent design) of its LLM seats."""
    camps: dict[tuple[str, str], set[str]] = defaultdict(set)
    for seat in row["seats"].values():
        if seat.get("agent") is None:
            continue
        model, agent = seat.get("model") or "?", seat["agent"] or "?"
        key = (DESIGN, model, agent)
        camps[(model, agent)].add(seat["camp"])
        bump(values, (*key, "seats"), 1)
        est = seat["est"]
        bump(values, (*key, "est"), est[0])
        bump(values, (*key, "est_rounds"), est[1])
        if len(est) > 2:
            bump(values, (*key, "est_chance"), est[2])
            bump(values, (*key, "est_chance_den"), est[1])
        said = seat.get("out_of_character") or [0, 0]  # none in rows before version 5
        bump(values, (*key, "out_of_character"), said[0])
        bump(values, (*key, "texts"), said[1])
        for metric, cell in seat["blunders"].items():
            bump(values, (*key, "blunders", metric), cell[0])
            bump(values, (*key, "opportunities", metric), cell[1])
            if len(cell) > 2:
                bump(values, (*key, "blunder_chance", metric), cell[2])
                bump(values, (*key, "blunder_chance_den", metric), cell[3])
    for (model, agent), held in camps.items():
        key = (DESIGN, model, agent)
        values[(*key, "games")] = 1.0
        for camp in held:
            won = float(row["winner"] == camp)
            bump(values, (*key, "teams"), 1)
            bump(values, (*key, "won"), won)
            values[(*key, "camp_teams", camp)] = 1.0
            bump(values, (*key, "camp_won", camp), won)


def design_table(sums: Sums, camp_win: Mapping[str, float]) -> list[dict[str, Any]]:
    """One entry per (model, agent design) over LLM seats: games, seats, win rate over
    teams (and per camp), Est, speeches out of character and blunder rates, each a cell
    with its interval and chance (for win rates: the camps' rates over every game of the
    report; none for speeches out of character)."""
    designs = sorted(
        {
            k[1:3]
            for k in sums.index
            if isinstance(k, tuple) and k[0] == DESIGN and k[3:] == ("games",)
        }
    )
    table = []
    for model, agent in designs:
        key = (DESIGN, model, agent)
        camps = sorted(
            k[4] for k in sums.index if isinstance(k, tuple) and k[:4] == (*key, "camp_teams")
        )
        teams = sums.get((*key, "teams"))[0]
        expected = sum(sums.get((*key, "camp_teams", c))[0] * camp_win[c] for c in camps)
        metrics = sorted(
            {k[4] for k in sums.index if isinstance(k, tuple) and k[:4] == (*key, "opportunities")}
        )
        table.append(
            {
                "model": model,
                "agent": agent,
                "games": int(sums.get((*key, "games"))[0]),
                "seats": int(sums.get((*key, "seats"))[0]),
                "win": proportion(sums, (*key, "won"), (*key, "teams"), expected / teams),
                "win_by_camp": {
                    c: proportion(sums, (*key, "camp_won", c), (*key, "camp_teams", c), camp_win[c])
                    for c in camps
                },
                "est": proportion(
                    sums,
                    (*key, "est"),
                    (*key, "est_rounds"),
                    chance_ratio(sums, (*key, "est_chance"), (*key, "est_chance_den")),
                ),
                # No chance level: a random player writes no text.
                "out_of_character": proportion(
                    sums, (*key, "out_of_character"), (*key, "texts"), None
                ),
                "blunders": {
                    m: proportion(
                        sums,
                        (*key, "blunders", m),
                        (*key, "opportunities", m),
                        chance_ratio(
                            sums, (*key, "blunder_chance", m), (*key, "blunder_chance_den", m)
                        ),
                    )
                    for m in metrics
                },
            }
        )
    return table
