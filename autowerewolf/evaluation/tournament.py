"""Playing a tournament: the planned games not yet finished, on the asynchronous runner.

Re-running continues where it stopped: a game with a result row is skipped, a game with
checkpoints but no row is resumed (or, if it already finished, just gets its row).
"""

from collections import Counter

from rich.console import Console

from autowerewolf.backends.gate import check_rate_limits
from autowerewolf.batch.local import run_batch
from autowerewolf.batch.runner import BatchGame
from autowerewolf.evaluation.config import TournamentConfig
from autowerewolf.evaluation.results import connect, finished_ids, row_of, save_row
from autowerewolf.evaluation.schedule import PlannedGame, plan
from autowerewolf.players.agents.pool import ExperiencePool, pool_config
from autowerewolf.players.factory import check_models
from autowerewolf.runner import GameRecord
from autowerewolf.storage.target import Database


def experience_pool(config: TournamentConfig, db: Database) -> ExperiencePool:
    settings = config.experience
    return ExperiencePool(pool_config(db, settings.pool, settings.frozen))


def pending(config: TournamentConfig, db: Database) -> tuple[list[PlannedGame], int]:
    """The planned games still to play, and how many are already done."""
    games = plan(config)
    for game in games:
        if game.models is not None:
            check_rate_limits(game.models)
            llm_seats = [s for s, kind in game.seating.seats.items() if kind == "llm"]
            check_models(game.models, llm_seats, game.setup.build().roles)
    store = connect(db, create=True)
    try:
        done = finished_ids(store, config.name)
    finally:
        store.close()
    todo = [g for g in games if g.game_id not in done]
    return todo, len(games) - len(todo)


def run_tournament(
    config: TournamentConfig,
    db: Database,
    concurrency: int | None = None,
    console: Console | None = None,
) -> Counter[str]:
    """Play every unfinished game of the tournament; returns outcome counts."""
    todo, done = pending(config, db)
    outcomes: Counter[str] = Counter({"already finished": done})
    rows = connect(db)
    experience = experience_pool(config, db)

    def save(record: GameRecord) -> None:
        save_row(rows, row_of(record, config.prices), config.name)

    jobs = [BatchGame(g.game_id, g.setup, g.seating, g.models) for g in todo]
    try:
        played = run_batch(
            db, jobs, concurrency=concurrency or config.concurrency, console=console,
            experience=experience, finished=save,
        )  # fmt: skip
    finally:
        rows.close()
    for outcome in played:
        outcomes[outcome.winner or "draw" if outcome.status == "finished" else outcome.status] += 1
    return outcomes
