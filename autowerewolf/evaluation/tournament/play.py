"""Playing a tournament: the planned games not yet finished, on the asynchronous runner.

Re-running continues where it stopped: a game with a result row is skipped, a game with
checkpoints but no row is resumed (or, if it already finished, just gets its row). A rerun
with another design is refused, more games extend it (fingerprint.py).
"""

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from autowerewolf.backends.gate import check_rate_limits
from autowerewolf.backends.recorded import AnswerBook, activate
from autowerewolf.batch.local import run_batch
from autowerewolf.batch.runner import BatchGame, Outcome
from autowerewolf.errors import SettingsError
from autowerewolf.evaluation.tournament.config import TournamentConfig, scaffold_name
from autowerewolf.evaluation.tournament.fingerprint import check_design, recorded
from autowerewolf.evaluation.tournament.results import connect, finished_ids, row_of, save_row
from autowerewolf.evaluation.tournament.schedule import PlannedGame, plan, scaffold_plan
from autowerewolf.evaluation.tournament.startup import start_models
from autowerewolf.players.agents.pool import ExperiencePool, pool_config
from autowerewolf.players.factory import check_models
from autowerewolf.runner import GameRecord
from autowerewolf.storage.target import Database


def experience_pool(config: TournamentConfig, db: Database) -> ExperiencePool:
    settings = config.experience
    return ExperiencePool(pool_config(db, settings.pool, settings.frozen))


@dataclass(frozen=True)
class Pending:
    todo: list[PlannedGame]  # planned games still to play
    done: int  # planned games with a result
    note: str | None  # about the design record: a first record over old games, a resize
    runs: list[int]  # the planned games of each run that changed the size (fingerprint.py)


def pending(config: TournamentConfig, db: Database) -> Pending:
    """The planned games still to play, and how many are already done, after checking the
    file's design against the one recorded in `db` (SettingsError if it changed)."""
    if config.humans:
        # Nobody here can answer for them: their seats get links in the web app.
        raise SettingsError(
            f"contestant {config.humans[0]!r} is human: a tournament with human contestants "
            "is played in the web app (`autowerewolf serve`, then start it in the lobby), "
            "and `autowerewolf report DB --tournament NAME` rates it"
        )
    games = plan(config)
    for game in games:
        if game.models is not None:
            check_rate_limits(game.models)
            llm_seats = [s for s, kind in game.seating.seats.items() if kind == "llm"]
            check_models(game.models, llm_seats, game.setup.build().roles)
    store = connect(db, create=True)
    try:
        done = finished_ids(store, config.name)
        note = check_design(store, config, done)
        found = recorded(store, config.name)
    finally:
        store.close()
    todo = [g for g in games if g.game_id not in done]
    return Pending(todo, len(games) - len(todo), note, found.runs if found else [config.games])


def run_tournament(
    config: TournamentConfig,
    db: Database,
    concurrency: int | None = None,
    console: Console | None = None,
    replay_from: Path | None = None,
) -> Counter[str]:
    """Play every unfinished game of the tournament; returns outcome counts.

    On a SQLite database every model call's request and answer is kept in it
    (backends/recorded.py); `replay_from`: a database whose recorded answers answer the
    calls they hold, the others go to the model. The book lives in this process, so games
    with model seats are then played in one (their calls still overlap on its event loop)."""
    if replay_from is not None and not isinstance(db, Path):
        raise SettingsError("--replay-from needs the games in a SQLite file (--db PATH)")
    if replay_from is not None and not replay_from.is_file():
        raise SettingsError(f"--replay-from {replay_from}: no such database")
    book = AnswerBook(db, replay_from) if isinstance(db, Path) else None
    activate(book)
    try:
        return _run(config, db, concurrency, console, book)
    finally:
        activate(None)
        if book is not None:
            book.close()
            if replay_from is not None and console is not None:
                hits, misses = book.tally["hits"], book.tally["misses"]
                console.print(f"Recorded answers: {hits} hits, {misses} misses (asked).")


def _run(
    config: TournamentConfig,
    db: Database,
    concurrency: int | None,
    console: Console | None,
    book: AnswerBook | None,
) -> Counter[str]:
    todo, done = (found := pending(config, db)).todo, found.done
    outcomes: Counter[str] = Counter({"already finished": done})
    started = start_models(todo)
    if started and console is not None:
        names = ", ".join(sorted({c.model for c in started}))
        console.print(f"Started {len(started)} model configs ({names}).", highlight=False)
    rows = connect(db)
    experience = experience_pool(config, db)

    def save(record: GameRecord) -> None:
        save_row(rows, row_of(record, config.prices), config.name)

    def save_scaffold(record: GameRecord) -> None:
        save_row(rows, row_of(record, config.prices), scaffold_name(config.name))

    def play(
        games: list[PlannedGame],
        finished: Callable[[GameRecord], None],
        pool: ExperiencePool,
    ) -> list[Outcome]:
        jobs = [BatchGame(g.game_id, g.setup, g.seating, g.models) for g in games]
        return run_batch(
            db, jobs, concurrency=concurrency or config.concurrency, console=console,
            experience=pool, finished=finished,
            processes=1 if book is not None and any(j.models for j in jobs) else None,
        )  # fmt: skip

    # A random answerer's games must not teach the pool anything.
    frozen = config.experience.model_copy(update={"frozen": True})
    scaffold_experience = experience_pool(config.model_copy(update={"experience": frozen}), db)

    try:
        played = play(todo, save, experience)
        twins_done = finished_ids(rows, scaffold_name(config.name))
        scaffold = [g for g in scaffold_plan(config) if g.game_id not in twins_done]
        if scaffold:
            if console is not None:
                console.print(
                    f"Scaffold baselines: {len(scaffold)} games of random answerers through "
                    "the LLM contestants' harnesses (no model calls).",
                    highlight=False,
                )
            play(scaffold, save_scaffold, scaffold_experience)
    finally:
        rows.close()
    for outcome in played:
        outcomes[outcome.winner or "draw" if outcome.status == "finished" else outcome.status] += 1
    return outcomes
