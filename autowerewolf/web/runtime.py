"""What the web app keeps for the life of the server: the secret, the game database
reader, the collected human answers and the models LLM seats play on."""

import os

from autowerewolf.players.factory import ModelPool, PlayerBuilder, load_models
from autowerewolf.web.graph import server_players, use_players
from autowerewolf.web.humans import AnswerBox
from autowerewolf.web.links import book
from autowerewolf.web.reader import GameReader
from autowerewolf.web.run_queue import wake_on_new_runs
from autowerewolf.web.settings import database_path, models_path
from autowerewolf.web.tokens import SECRET_ENV, new_secret


class Runtime:
    def __init__(self) -> None:
        self.box = AnswerBox()
        self.pool = ModelPool()
        self._reader: GameReader | None = None

    def start(self) -> None:
        # Tokens die with the server unless the user fixed the secret: it is never saved.
        os.environ.setdefault(SECRET_ENV, new_secret())
        use_players(PlayerBuilder(load_models(models_path()), self.pool))
        # The server's checkpointer has created the database before our app starts.
        self._reader = GameReader(database_path())
        book()  # read now, not by the first request on the server's loop
        wake_on_new_runs()

    @property
    def players(self) -> PlayerBuilder:
        return server_players()

    @property
    def reader(self) -> GameReader:
        assert self._reader is not None, "Runtime.start() opens the database"
        return self._reader

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
        self.pool.close()
