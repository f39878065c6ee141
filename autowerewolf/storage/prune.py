"""Keeping only the final state of finished games (`autowerewolf db prune`).

A finished game's checkpoints hold every step, so it can be inspected and forked at any
step; analysis (reports, `replay`, `games`) needs only the final state, whose transcript
and decision records hold the whole game. Pruning copies a finished game's final values
into a new thread of one checkpoint (`update_state(..., as_node="game_over")`: it reads as
finished) and deletes the old thread, then moves the copy back under the game's id.
LangGraph's own `prune(keep_latest)` refuses threads with delta channels, which the game
uses for its transcript.

The copy is written before anything is deleted: if the process dies in between, the next
prune finds the `GAME.pruning` copy and finishes the move.
"""

from collections.abc import Callable
from dataclasses import dataclass

from autowerewolf.runner import Games
from autowerewolf.storage.target import Postgres

COPY = ".pruning"


@dataclass
class Pruned:
    games: int = 0
    skipped: int = 0  # not finished, or already a single checkpoint


def _steps(games: Games, game_id: str) -> int:
    rows = games.store.query("SELECT count(*) FROM checkpoints WHERE thread_id = ?", (game_id,))
    return int(rows[0][0])


def _move(games: Games, source: str, target: str) -> None:
    values = games.graph.get_state(games.run_config(source)).values
    games.graph.update_state(games.run_config(target), values, as_node="game_over")
    games.store.saver.delete_thread(source)


def _recover(games: Games, ids: list[str]) -> set[str]:
    """Finish the moves a killed prune left half done; returns the games it finished."""
    finished = set()
    for copy in (i for i in ids if i.endswith(COPY)):
        game_id = copy.removesuffix(COPY)
        if game_id in ids:
            games.store.saver.delete_thread(copy)  # the original was not deleted yet
        else:
            _move(games, copy, game_id)
            finished.add(game_id)
    return finished


def prune(games: Games, keep: Callable[[str], bool] = lambda _: False) -> Pruned:
    """Prune every finished game of `games` for which `keep(game_id)` is false."""
    games.writable()
    recovered = _recover(games, games.ids())
    done = Pruned(games=len(recovered))
    for game_id in games.ids():
        if game_id in recovered:
            continue
        record = None if keep(game_id) else games.peek(game_id)
        if record is None or record.status != "finished" or _steps(games, game_id) <= 1:
            done.skipped += 1
            continue
        _move(games, game_id, game_id + COPY)
        _move(games, game_id + COPY, game_id)
        done.games += 1
    if not isinstance(games.db, Postgres):
        games.store.execute("VACUUM")  # give the space back to the file system
    return done
