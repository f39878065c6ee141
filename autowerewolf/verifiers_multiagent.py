"""The Werewolf board in verifiers' multi-agent API (verifiers 0.4, `verifiers.v1`;
docs/training.md, "verifiers"): one episode is one game, every seat is an agent of the
environment, each agent's trace is marked trainable or not, and each is paid its own reward.

    python -m autowerewolf.verifiers_multiagent --env.taskset.board 9-standard \\
        --env.seats P01,P02,P03,P04 --env.trainable camp:wolf \\
        -m MODEL --client.base-url http://127.0.0.1:8000/v1 --client.api-key-var KEY_VARIABLE -n 8

runs verifiers' own `vf-eval` (its `main`, its runner `run_eval`) on the plugin id
`autowerewolf-werewolf`: verifiers imports a plugin by its id as a top-level module (a
dotted id fails: it looks for `verifiers.v1.tasksets.<id>`), so this module registers
itself under that name, `autowerewolf_werewolf`, before handing vf-eval its arguments.

The environment's config (`vf.EnvConfig`) declares one agent per seat of the largest board,
`p01` ... `p12`, each a tool-less chat loop (verifiers' `null` harness) in a local
subprocess; `--env.p03.model` gives a seat a model of its own. `seats` names the seats the
agents play (`all`, `camp:wolf`, `role:seer` or a list of seats, resolved against each
deal: trainer_seats.py); every other seat is a built-in player (`opponents`: random,
heuristic, or llm from the `models` file). `trainable` names which of the agents' traces
are training data: the others still play and are scored, as frozen opponents are.

A seat's agent opens at its first question and stays open until the game ends; what it is
asked and how its answers are read is the verifiers seat's (verifiers_seat.py: the LLM
seat's question from prompts/, the project's one reply parser). When the game ends each
agent's trace gets its rewards: `camp_won` (1 when its camp won) and `invalid_share`
(weighted by -`invalid_penalty`), the `repaired_share` metric, and in `info` the seat, its
role, camp and the outcome.

Needs the `verifiers-next` extra (verifiers 0.4); the chat loop's own dependencies are
installed by `uv` from the package index at its first start.
"""

import asyncio
import contextlib
import importlib.util
import sys
from typing import Any, Literal, cast

from autowerewolf.extras import MissingExtra, require

require("verifiers-next", "verifiers")
if importlib.util.find_spec("verifiers.v1") is None:  # verifiers 0.2, the classic extra's
    raise MissingExtra("this needs verifiers 0.4: pip install 'autowerewolf[verifiers-next]'")

import verifiers.v1 as vf  # noqa: E402
from pydantic import BaseModel, Field, create_model  # noqa: E402

from autowerewolf import verifiers_seat as seating  # noqa: E402
from autowerewolf.players.seating import PlayerKind, Seating  # noqa: E402
from autowerewolf.rules.config import BOARDS  # noqa: E402
from autowerewolf.table import Table  # noqa: E402
from autowerewolf.trainer_seats import Controlled, check_controlled, controlled_seats  # noqa: E402

TASKSET_ID = "autowerewolf-werewolf"
PLUGIN_MODULE = "autowerewolf_werewolf"  # the module verifiers imports for TASKSET_ID
SEATS = tuple(f"P{i + 1:02d}" for i in range(max(len(b.roles) for b in BOARDS.values())))


class WerewolfData(vf.TaskData):  # type: ignore[misc]
    """One game: a board, its rule flags and the seed of its deal; a seat's own task names
    its seat too."""

    board: str
    variants: dict[str, Any] = Field(default_factory=dict)
    seed: int
    seat: str | None = None


class WerewolfTask(vf.Task[WerewolfData, vf.State, vf.TaskConfig]):  # type: ignore[misc]
    pass


class WerewolfTasksetConfig(vf.TasksetConfig):  # type: ignore[misc]
    board: str = "12-A"
    """A preset board of rules/config.py (`BOARDS`)."""
    variants: dict[str, Any] = Field(default_factory=dict)
    games: int = 50
    seed_start: int = 0


class WerewolfTaskset(vf.Taskset[WerewolfTask, WerewolfTasksetConfig]):  # type: ignore[misc]
    """Games of seeds seed_start.. on one board."""

    def load(self) -> Any:
        config = self.config
        if config.board not in BOARDS:
            raise ValueError(f"unknown board {config.board!r} ({', '.join(BOARDS)})")
        for seed in range(config.seed_start, config.seed_start + config.games):
            data = WerewolfData(name=f"{config.board}#{seed}", board=config.board,
                                variants=config.variants, seed=seed)  # fmt: skip
            yield WerewolfTask(data, config.task)


class Knobs(vf.EnvConfig):  # type: ignore[misc]
    seats: str = "all"
    """The seats the agents play (a spec of trainer_seats.py, a list as `P01,P04`); the
    others are `opponents`."""
    trainable: str = "all"
    """Which of the agents' seats are training data (a spec as `seats`)."""
    opponents: Literal["random", "heuristic", "llm"] = "heuristic"
    models: str | None = None
    """A models file for llm opponents."""
    invalid_penalty: float = 0.5


def _seat_agent() -> Any:
    return vf.AgentConfig(harness={"id": "null"}, runtime=vf.SubprocessConfig())


# One agent per seat of the largest board: verifiers addresses an agent by its field name.
_agents: dict[str, Any] = {seat.lower(): (vf.AgentConfig, _seat_agent()) for seat in SEATS}
WerewolfEnvConfig: Any = create_model(
    "WerewolfEnvConfig",
    __base__=cast("type[BaseModel]", Knobs),
    __doc__="The game's knobs and one agent per seat (`p01`...): `--env.p03.model`.",
    **_agents,
)


class SeatRun:
    """A seat's open interaction, the count of events it was told, and its tally."""

    def __init__(self, interaction: Any) -> None:
        self.interaction = interaction
        self.seen = 0
        self.notes: list[str] = []
        self.over = False  # its run ended (a limit, an error): the table answers for it
        self.result = seating.new_result()

    async def ask(self, text: str) -> str:
        """The agent's reply to `text` ("" once its run has ended)."""
        if self.over:
            return ""
        segment = await self.interaction.turn("\n\n".join([*self.notes, text]))
        self.notes = []
        self.over = segment.terminated
        return "" if segment.terminated else str(segment.last_reply)


class WerewolfEnv(vf.Env[WerewolfEnvConfig]):  # type: ignore[misc]
    """One game per episode, each seat of `seats` an agent."""

    async def run(self, task: Any, agents: Any) -> None:
        config = self.config
        data: WerewolfData = task.data
        players = seating.opponent_players(config.opponents, config.models)
        table = Table(data.board, variants=data.variants, controlled=as_spec(config.seats),
                      seating=Seating(default=config.opponents), players=players)  # fmt: skip
        check_controlled(as_spec(config.trainable), table.seats)
        # Opponents may wait on their models: in a worker thread, other episodes go on.
        await asyncio.to_thread(table.reset, data.seed)
        if not table.controlled:
            raise ValueError(f"seats {config.seats!r} name no seat of {data.name}")
        trainable = set(controlled_seats(as_spec(config.trainable), table.game, table.seats))
        runs: dict[str, SeatRun] = {}
        async with contextlib.AsyncExitStack() as stack:
            while not table.over:
                asks = []
                for seat in table.asked:
                    run = runs.get(seat)
                    question = seating.question(table, seat, run.seen if run else 0)
                    if run is None:
                        agent = getattr(agents, seat.lower())
                        agent.trainable = seat in trainable  # stamped on the trace it opens
                        mine = task.with_data(seat=seat, system_prompt=question.system)
                        opened = await stack.enter_async_context(agent.interaction(mine))
                        run = runs[seat] = SeatRun(opened)
                        asks.append(run.ask(question.first))
                    else:
                        asks.append(run.ask(question.later))
                    run.seen = len(table.events)
                replies = await asyncio.gather(*asks)
                for seat, reply in zip(table.asked, replies, strict=True):
                    runs[seat].notes = seating.play_reply(table, seat, reply, runs[seat].result)
                await asyncio.to_thread(table.advance)
        for seat, run in runs.items():
            score(run, table, seat, config.invalid_penalty)


def score(run: SeatRun, table: Table, seat: str, invalid_penalty: float) -> None:
    """The seat's rewards and record on its trace, once its game is over."""
    result = run.result
    outcome = seating.game_over(table, seat, result)
    trace = run.interaction.trace
    trace.record_reward("camp_won", seating.camp_won(result), 1.0)
    trace.record_reward("invalid_share", seating.invalid_share(result), -invalid_penalty)
    trace.record_metric("repaired_share", seating.repaired_share(result))
    me = table.game.seat(seat)
    trace.info["werewolf"] = {"seat": seat, "role": me.role.value, "camp": me.camp.value,
                              "outcome": outcome, **result}  # fmt: skip


def as_spec(value: str) -> Controlled:
    """A spec of the config (`camp:wolf`, `P03`, `P01,P04`) as trainer_seats reads it."""
    return tuple(value.split(",")) if "," in value else value


def spec_text(spec: Controlled) -> str:
    return spec if isinstance(spec, str) else ",".join(spec)


def load_environment(
    board: str = "12-A",
    variants: dict[str, Any] | None = None,
    seats: Controlled = "all",
    trainable: Controlled = "all",
    opponents: PlayerKind = "heuristic",
    models: str | None = None,
    games: int = 50,
    seed_start: int = 0,
    invalid_penalty: float = 0.5,
    **agents: Any,
) -> Any:
    """The environment `python -m autowerewolf.verifiers_multiagent` runs, built in Python:
    games of seeds seed_start.. on `board`; `agents` overrides a seat's agent config
    (`p03={"model": "other"}`)."""
    taskset = {"id": TASKSET_ID, "board": board, "variants": dict(variants or {}),
               "games": games, "seed_start": seed_start}  # fmt: skip
    config = WerewolfEnvConfig(taskset=taskset, seats=spec_text(seats),
                               trainable=spec_text(trainable),
                               opponents=opponents, models=models,
                               invalid_penalty=invalid_penalty, **agents)  # fmt: skip
    return WerewolfEnv(config)


def eval_main(argv: list[str]) -> None:
    """verifiers' `vf-eval` on this environment: `argv` are its options."""
    from verifiers.v1.cli.eval.main import main

    main([TASKSET_ID, *argv])


__all__ = ["WerewolfEnv", "WerewolfTaskset", "load_environment"]

if __name__ == "__main__":
    # The plugin is the imported module, not this copy run as __main__.
    from autowerewolf.verifiers_multiagent import eval_main as run

    run(sys.argv[1:])
else:
    sys.modules.setdefault(PLUGIN_MODULE, sys.modules[__name__])
