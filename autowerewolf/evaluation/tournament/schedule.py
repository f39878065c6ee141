"""Which contestant sits where in each tournament game.

Games come in blocks that share one game seed and one deal, so that the games of a block
differ only in who holds which seat (common random numbers: luck of the deal cancels out).

* A *team* block pits two contestants camp against camp: A holds every wolf seat and B
  every good seat, then the reverse. These games carry most of the rating signal.
* A *mixed* block labels the seats evenly among all K contestants (seeded shuffle) and
  plays K games, rotating the labels, so each contestant holds every seat, hence every
  role, exactly once per block.

Pairs of team blocks cycle through all pairs of contestants (or, with a baseline, every
contestant against it). A schedule is balanced when it ends at the end of a block and its
team blocks met every pair equally often; `balanced_size` finds the smallest such size at
or above a game count, and the tournament command warns when the file's is not one.
"""

from dataclasses import dataclass
from itertools import combinations
from typing import Literal

import numpy as np

from autowerewolf.backends.config import PlayerModels
from autowerewolf.evaluation.tournament.config import Contestant, TournamentConfig, scaffold_name
from autowerewolf.players.agents.choice import AgentChoice
from autowerewolf.players.factory import DEFAULT_MODELS
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameConfig, GameSetup, make_config
from autowerewolf.rules.roles import Camp, camp_of

BlockKind = Literal["team", "mixed"]


@dataclass(frozen=True)
class PlannedGame:
    index: int
    game_id: str
    block: int
    block_kind: BlockKind
    setup: GameSetup
    seating: Seating
    models: PlayerModels | None  # for the game's LLM seats; live settings, never checkpointed


def game_id(tournament: str, index: int) -> str:
    return f"{tournament}-{index:05d}"


def _seat_ids(n: int) -> list[str]:
    return [f"P{i + 1:02d}" for i in range(n)]


def _seating(
    config: TournamentConfig, holders: list[Contestant], seats: list[str], tournament: str = ""
) -> tuple[Seating, PlayerModels | None]:
    models = None
    llm_seats = {s: c for s, c in zip(seats, holders, strict=True) if c.kind == "llm"}
    if llm_seats:
        base = config.models or DEFAULT_MODELS
        overrides = {s: c.model for s, c in llm_seats.items() if c.model is not None}
        models = PlayerModels.model_validate(
            {**base.model_dump(exclude_unset=True), "seats": {**base.seats, **overrides}}
        )
    seating = Seating(
        default="random",
        seats={s: c.kind for s, c in zip(seats, holders, strict=True)},
        contestants={s: c.name for s, c in zip(seats, holders, strict=True)},
        tournament=tournament or config.name,
        probes=tuple(config.probes),
        agents=AgentChoice(seats={s: c.agent for s, c in llm_seats.items()}),
    )
    return seating, models


def _pairs(config: TournamentConfig) -> list[tuple[int, int]]:
    pairs = list(combinations(range(len(config.contestants)), 2))
    if config.baseline is not None:
        base_index = [c.name for c in config.contestants].index(config.baseline)
        pairs = [p for p in pairs if base_index in p]
    return pairs


def _is_mixed(config: TournamentConfig, mixed_so_far: int, planned: int) -> bool:
    # Error diffusion: keeps the running share of mixed games close to `mixed_share`.
    return config.mixed_share > 0 and mixed_so_far <= config.mixed_share * planned


BALANCE_SEARCH = 100_000  # games: beyond, no balanced size is reported


def balanced_size(config: TournamentConfig) -> int | None:
    """The smallest number of games, at or above `config.games`, whose schedule ends at
    the end of a block with every pair of team blocks played equally often (None if none
    up to BALANCE_SEARCH games)."""
    k, pairs = len(config.contestants), len(_pairs(config))
    planned = mixed_so_far = team_blocks = 0
    while planned < BALANCE_SEARCH:
        if _is_mixed(config, mixed_so_far, planned):
            planned += k
            mixed_so_far += k
        else:
            planned += 2
            team_blocks += 1
        if planned >= config.games and team_blocks % pairs == 0:
            return planned
    return None


def plan(config: TournamentConfig) -> list[PlannedGame]:
    """Every game of the tournament, in playing order; the same config gives the same plan."""
    base: GameConfig = make_config(config.board, variants=config.variants, seed=config.seed)
    seats = _seat_ids(base.n_seats)
    k = len(config.contestants)
    rng = np.random.default_rng(config.seed)
    pairs = _pairs(config)
    pair_order = [pairs[i] for i in rng.permutation(len(pairs))]
    games: list[PlannedGame] = []
    mixed_so_far = 0
    block = 0
    while len(games) < config.games:
        deal = [base.roles[i] for i in rng.permutation(base.n_seats)]
        setup = GameSetup(
            board=config.board,
            variants=config.variants,
            seed=config.seed + block,
            max_days=config.max_days,
            deal=tuple(r.value for r in deal),
            secret=config.secret,
        )
        mixed = _is_mixed(config, mixed_so_far, len(games))
        if mixed:
            labels = rng.permutation(np.arange(base.n_seats) % k)
            layouts = [[int((label + r) % k) for label in labels] for r in range(k)]
            mixed_so_far += k
        else:
            a, b = pair_order[(block - mixed_so_far // k) % len(pair_order)]
            wolf = [camp_of(role) is Camp.WOLF for role in deal]
            layouts = [[a if w else b for w in wolf], [b if w else a for w in wolf]]
        for layout in layouts:
            holders = [config.contestants[i] for i in layout]
            seating, models = _seating(config, holders, seats)
            index = len(games)
            games.append(
                PlannedGame(
                    index=index,
                    game_id=game_id(config.name, index),
                    block=block,
                    block_kind="mixed" if mixed else "team",
                    setup=setup,
                    seating=seating,
                    models=models,
                )
            )
        block += 1
    return games[: config.games]


def scaffold_plan(config: TournamentConfig) -> list[PlannedGame]:
    """For each LLM contestant, `config.scaffold_games` games in which it holds every seat
    with a random answerer in place of its model (PlayerModels.random_answerer), on the
    tournament's first deals: what its harness scores with no skill behind it, offline and
    at no cost (docs/evaluation.md, Scaffold baselines)."""
    n = config.scaffold_games
    llm = [c for c in config.contestants if c.kind == "llm"]
    if not n or not llm:
        return []
    deals = plan(config.model_copy(update={"games": n * max(2, len(config.contestants))}))
    setups = list({g.block: g.setup for g in deals}.values())[:n]  # one per block
    seats = _seat_ids(make_config(config.board, variants=config.variants).n_seats)
    tournament = scaffold_name(config.name)
    games: list[PlannedGame] = []
    for contestant in llm:
        seating, models = _seating(config, [contestant] * len(seats), seats, tournament)
        assert models is not None  # every seat is an LLM's
        models = models.model_copy(update={"random_answerer": True})
        for index, setup in enumerate(setups):
            games.append(
                PlannedGame(
                    index=index,
                    game_id=f"{tournament}:{contestant.name}-{index:05d}",
                    block=index,
                    block_kind="mixed",
                    setup=setup,
                    seating=seating,
                    models=models,
                )
            )
    return games
