"""An OpenEnv server over the AEC environment (docs/training.md, "OpenEnv server"): one
WebSocket session plays one game in which the client answers one seat and the built-in
players answer the others. `reset`, `step` and `state` carry pydantic models: the client
sees only what its seat may know (its prompt, its legal options, its features), never the
deal. Needs the `openenv` extra (and `train`)."""

import socket
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from autowerewolf.extras import require

require("openenv", "openenv", "fastapi", "uvicorn")

import uvicorn  # noqa: E402
from fastapi import FastAPI  # noqa: E402
from openenv.core.client_types import StepResult  # noqa: E402
from openenv.core.env_client import EnvClient  # noqa: E402
from openenv.core.env_server import (  # noqa: E402
    Action,
    Environment,
    Observation,
    State,
    create_fastapi_app,
)
from openenv.core.env_server.types import EnvironmentMetadata  # noqa: E402
from pydantic import Field  # noqa: E402
from starlette.types import ASGIApp, Receive, Scope, Send  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from autowerewolf.env.aec import raw_env  # noqa: E402
from autowerewolf.players.seating import PlayerKind  # noqa: E402

DEFAULT_BOARD = "12-A"
DEFAULT_SEAT = "P01"
DEFAULT_OPPONENTS: PlayerKind = "heuristic"
OPPONENT_KINDS = ("random", "scripted", "heuristic")
DEFAULT_MAX_SESSIONS = 8


class WerewolfAction(Action):  # type: ignore[misc]
    """The seat's answer: one of the observation's `options`, by name or by its index in
    the action space (an index whose `action_mask` entry is 1); `text` is the speech or
    whisper of a step that takes text (ignored elsewhere)."""

    option: str | int = Field(description="An option name from `options`, or its action index.")
    text: str = Field("", description="Free text for a speech or a wolves' whisper.")


class WerewolfObservation(Observation):  # type: ignore[misc]
    """What the seat sees when it is asked (or when its game ends): `done` and `reward`
    (the step's reward; at the end, the game's result for the seat) come from Observation."""

    seat: str = Field(description="The seat the client plays (P01 ...).")
    agent: str = Field(description="The seat's agent id in the AEC environment.")
    day: int = Field(0, description="The game day.")
    step: str | None = Field(None, description="The decision asked (None when the game is over).")
    text: str = Field("", description="The seat's whole question, as an LLM seat reads it.")
    options: list[str] = Field(default_factory=list, description="Legal action names now.")
    action_mask: list[int] = Field(default_factory=list, description="1 for each legal index.")
    features: list[float] = Field(default_factory=list, description="The seat's feature vector.")
    winner: str | None = Field(None, description="The winning camp once the game is over.")
    win_reason: str | None = Field(None, description="Why the game ended.")


class WerewolfState(State):  # type: ignore[misc]
    """The session's state as the seat may know it (never the deal): OpenEnv's
    `episode_id` and `step_count` (the seat's answers this game) and the seat's own."""

    board: str = DEFAULT_BOARD
    seat: str = ""
    day: int = 0
    step: str | None = None
    done: bool = False
    total_reward: float = 0.0


class WerewolfEnvironment(Environment):  # type: ignore[misc]
    """One game per `reset`, played by one seat: the client's actions answer that seat's
    decisions; the table's built-in players answer every other seat in between."""

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(
        self,
        board: str = DEFAULT_BOARD,
        seat: str = DEFAULT_SEAT,
        opponents: PlayerKind = DEFAULT_OPPONENTS,
    ) -> None:
        super().__init__()
        self.defaults: dict[str, Any] = {"board": board, "seat": seat, "opponents": opponents}
        self._aec: raw_env | None = None
        self._agent = ""
        self._state = WerewolfState(board=board, seat=seat)

    def reset(
        self,
        seed: int | None = None,
        episode_id: str | None = None,
        **kwargs: Any,
    ) -> WerewolfObservation:
        """A new game. Keyword options: `board`, `seat` (a seat id, or `role:seer` on a
        board with one Seer), `opponents` (random, scripted, heuristic) and `steps` (the
        decision steps the client answers; its seat's other steps go to the opponents' kind)."""
        unknown = sorted(set(kwargs) - {"board", "seat", "opponents", "steps"})
        if unknown:
            raise ValueError(f"unknown reset option {unknown[0]!r} (board, seat, opponents, steps)")
        board = str(kwargs.get("board") or self.defaults["board"])
        seat = str(kwargs.get("seat") or self.defaults["seat"])
        opponents = kwargs.get("opponents") or self.defaults["opponents"]
        if opponents not in OPPONENT_KINDS:
            raise ValueError(f"opponents must be one of {', '.join(OPPONENT_KINDS)}")
        steps: Sequence[str] | None = kwargs.get("steps")
        if self._aec is not None:
            self._aec.close()
        aec = raw_env(board, agents=seat, opponents=opponents, text_observations=True, steps=steps)
        if len(aec.possible_agents) != 1:
            raise ValueError(f"seat {seat!r} names {len(aec.possible_agents)} seats, not one")
        aec.reset(seed=seed)
        self._aec, self._agent = aec, aec.possible_agents[0]
        self._state = WerewolfState(
            episode_id=episode_id or uuid.uuid4().hex, step_count=0, board=board, seat=self._seat()
        )
        return self._observe(0.0)

    def step(
        self, action: WerewolfAction, timeout_s: float | None = None, **kwargs: Any
    ) -> WerewolfObservation:
        aec = self._aec
        if aec is None:
            raise RuntimeError("no game: reset first")
        if self._state.done:
            raise ValueError("the game is over: reset for a new one")
        seat = self._seat()
        legal = aec.table.legal(seat)
        option = action.option
        if isinstance(option, int):
            names = aec.table.actions.names
            name = names[option] if 0 <= option < len(names) else None
        else:
            name = option
        if name not in legal:
            raise ValueError(
                f"{seat} at {self._state.step}: {option!r} is not legal (legal: {', '.join(legal)})"
            )
        aec.step({"option": name, "text": action.text})
        self._state.step_count += 1
        return self._observe(float(aec.rewards.get(self._agent, 0.0)))

    @property
    def state(self) -> WerewolfState:
        return self._state

    def get_metadata(self) -> EnvironmentMetadata:
        return EnvironmentMetadata(
            name="autowerewolf",
            description="One seat of a Werewolf board; built-in players answer the others.",
            version="0",
        )

    def close(self) -> None:
        if self._aec is not None:
            self._aec.close()
            self._aec = None

    def _seat(self) -> str:
        assert self._aec is not None
        return self._aec.ids.seat_of[self._agent]

    def _observe(self, reward: float) -> WerewolfObservation:
        aec, agent = self._aec, self._agent
        assert aec is not None
        seat = self._seat()
        done = bool(aec.terminations[agent] or aec.truncations[agent])
        info = aec.infos.get(agent, {})
        obs = aec.observe(agent)
        step = None if done else info.get("step")
        state = self._state
        state.day, state.step, state.done = aec.table.game.day, step, done
        state.total_reward += reward
        return WerewolfObservation(
            done=done,
            reward=reward,
            seat=seat,
            agent=agent,
            day=aec.table.game.day,
            step=step,
            text=obs["text"],
            options=[] if done else list(info.get("options", ())),
            action_mask=[int(x) for x in obs["action_mask"]],
            features=[float(x) for x in obs["observation"]],
            winner=info.get("winner") if done else None,
            win_reason=info.get("win_reason") if done else None,
        )


class WerewolfClient(EnvClient):  # type: ignore[misc]
    """OpenEnv's WebSocket client with this server's models: `step` takes a WerewolfAction,
    results hold WerewolfObservations and `state()` a WerewolfState (async; `.sync()`)."""

    def _step_payload(self, action: WerewolfAction) -> dict[str, Any]:
        payload: dict[str, Any] = action.model_dump(exclude={"metadata"})
        return payload

    def _parse_result(self, payload: dict[str, Any]) -> StepResult:
        observation = WerewolfObservation(
            **payload.get("observation", {}),
            reward=payload.get("reward"),
            done=payload.get("done", False),
        )
        return StepResult(observation=observation, reward=observation.reward, done=observation.done)

    def _parse_state(self, payload: dict[str, Any]) -> WerewolfState:
        return WerewolfState(**payload)


class QuietClose:
    """ASGI middleware: a WebSocket session whose client left first ends quietly (OpenEnv
    closes the socket after the client's `close` message even when the client is gone)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.app(scope, receive, send)
        except WebSocketDisconnect:
            if scope["type"] != "websocket":
                raise


def create_app(
    board: str = DEFAULT_BOARD,
    seat: str = DEFAULT_SEAT,
    opponents: PlayerKind = DEFAULT_OPPONENTS,
    max_sessions: int = DEFAULT_MAX_SESSIONS,
) -> FastAPI:
    """The OpenEnv FastAPI app; each WebSocket session (`/ws`) has its own game. A bad
    board or seat fails here, before the server listens."""
    WerewolfEnvironment(board, seat, opponents).reset(seed=0)
    app: FastAPI = create_fastapi_app(
        lambda: WerewolfEnvironment(board, seat, opponents),
        WerewolfAction,
        WerewolfObservation,
        max_concurrent_envs=max_sessions,
    )
    app.add_middleware(QuietClose)
    return app


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to (host, port); port 0 takes a free one."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    return sock


def serve(app: FastAPI, host: str, port: int) -> None:
    """Serve `app` until interrupted (the CLI's `env serve`)."""
    uvicorn.run(app, host=host, port=port, log_level="warning")


@contextmanager
def served(app: FastAPI, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve `app` in a thread for the block; yields its base URL (http://host:port)."""
    sock = listening_socket(host, port)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the OpenEnv server did not start")
            time.sleep(0.02)
        bound = sock.getsockname()
        name = f"[{bound[0]}]" if ":" in bound[0] else bound[0]
        yield f"http://{name}:{bound[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


__all__ = [
    "WerewolfAction",
    "WerewolfClient",
    "WerewolfEnvironment",
    "WerewolfObservation",
    "WerewolfState",
    "create_app",
    "served",
]
