"""Playing a tournament: the planned games not yet finished, one process per game slot.

Re-running continues where it stopped: a game with a result row is skipped, a game with
checkpoints but no row is resumed (or, if it already finished, just gets its row).
"""

from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from autowerewolf.evaluation.config import TournamentConfig
from autowerewolf.evaluation.results import connect, finished_ids, row_of, save_row
from autowerewolf.evaluation.schedule import PlannedGame, plan
from autowerewolf.graph.context import GameContext
from autowerewolf.players.agents.pool import ExperiencePool, PoolConfig, harvest, pool_beside
from autowerewolf.players.factory import ModelPool, PlayerBuilder, check_models
from autowerewolf.runner import Games

Progress = Callable[[str, str], None]


def experience_pool(config: TournamentConfig, db: Path) -> ExperiencePool:
    settings = config.experience
    return ExperiencePool(PoolConfig(settings.pool or pool_beside(db), settings.frozen))


def play_one(db: str, config: TournamentConfig, game: PlannedGame) -> tuple[str, str]:
    """Play (or resume) one game and store its result row; returns (game id, outcome)."""
    pool = ModelPool()
    experience = experience_pool(config, Path(db))
    context = GameContext(player_factory=PlayerBuilder(game.models, pool, experience))
    games = Games(Path(db), create=True, context=context)
    try:
        if games.exists(game.game_id):
            record = games.resume(game.game_id)
        else:
            record = games.start(game.game_id, game.setup, game.seating)
        if record.status == "finished":
            harvest(experience, record.game_id, record.events, record.records)
    finally:
        games.close()
        pool.close()
    if record.status != "finished":
        return game.game_id, record.status
    conn = connect(Path(db), create=True)
    try:
        save_row(conn, row_of(record, config.prices), config.name)
    finally:
        conn.close()
    return game.game_id, record.game.winner.value if record.game.winner else "draw"


def pending(config: TournamentConfig, db: Path) -> tuple[list[PlannedGame], int]:
    """The planned games still to play, and how many are already done."""
    games = plan(config)
    for game in games:
        if game.models is not None:
            llm_seats = [s for s, kind in game.seating.seats.items() if kind == "llm"]
            check_models(game.models, llm_seats, game.setup.build().roles)
    # Creates the checkpoint tables once, before worker processes race to do it.
    Games(db, create=True).close()
    conn = connect(db, create=True)
    try:
        done = finished_ids(conn, config.name)
    finally:
        conn.close()
    todo = [g for g in games if g.game_id not in done]
    return todo, len(games) - len(todo)


def run_tournament(
    config: TournamentConfig,
    db: Path,
    concurrency: int | None = None,
    progress: Progress | None = None,
) -> Counter[str]:
    """Play every unfinished game of the tournament; returns outcome counts."""
    todo, done = pending(config, db)
    outcomes: Counter[str] = Counter({"already finished": done})
    workers = concurrency or config.concurrency
    if workers == 1:
        for game in todo:
            game_id, outcome = play_one(str(db), config, game)
            outcomes[outcome] += 1
            if progress is not None:
                progress(game_id, outcome)
        return outcomes
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play_one, str(db), config, game) for game in todo]
        for future in as_completed(futures):
            game_id, outcome = future.result()
            outcomes[outcome] += 1
            if progress is not None:
                progress(game_id, outcome)
    return outcomes
