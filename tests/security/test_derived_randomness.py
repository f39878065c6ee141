"""Nothing a spectator or a player sees can be traced back to the game's seed (issue:
hidden information for every audience; docs/security.md). Display names and every
player's own seed are drawn from the seed blended with a per-game secret of 128 bits, so
searching the seeds a person types or a batch counts through finds nothing; the controls
show that the same search finds the seed of a game without a secret."""

from pathlib import Path

import pytest

from autowerewolf.graph.builder import RECURSION_LIMIT, build_graph
from autowerewolf.graph.context import GameContext
from autowerewolf.players.base import Answer, DecisionRequest, plain_record
from autowerewolf.players.seating import Seating
from autowerewolf.rules.config import GameSetup, make_config
from autowerewolf.rules.engine import new_game
from autowerewolf.rules.random_play import random_action
from autowerewolf.rules.views import SeatView
from autowerewolf.runner import GameRecord, Games
from autowerewolf.web.lobby import parse_form
from tests.fixed import HEX_SECRET
from tests.graph.graph_helpers import cli
from tests.security.attacker import seeds_with_names, seeds_with_seat_seed

# Hand-typed and batch seeds live here; the long run searches all 24-bit seeds.
SMALL_SEEDS = range(0, 100_000)


def names(record: GameRecord) -> list[str]:
    return [s.name for s in record.game.seats]


def played(db: Path, *args: object) -> GameRecord:
    result = cli("play", "--players", "random", "--narration", "off", "--db", db,
                 "--game-id", "g", *args)  # fmt: skip
    assert result.exit_code == 0, result.stderr
    games = Games(db)
    try:
        return games.load("g")
    finally:
        games.close()


def test_a_hand_typed_seed_cannot_be_found_from_the_names(tmp_path: Path) -> None:
    record = played(tmp_path / "a.db", "--seed", 7)
    assert record.game.config.seed == 7 and len(record.game.config.secret) >= 32
    assert seeds_with_names(names(record), SMALL_SEEDS) == []
    # Control: the same search finds a game drawn from its seed alone.
    legacy = played(tmp_path / "b.db", "--seed", 7, "--secret", "")
    assert seeds_with_names(names(legacy), SMALL_SEEDS) == [7]


def test_batch_seeds_cannot_be_found_from_the_names(tmp_path: Path) -> None:
    db = tmp_path / "batch.db"
    result = cli("batch", "--games", 3, "--seed-start", 0, "--players", "random", "--db", db)
    assert result.exit_code == 0, result.stderr
    games = Games(db)
    try:
        records = [games.load(f"batch-{seed}") for seed in range(3)]
    finally:
        games.close()
    secrets = {r.game.config.secret for r in records}
    assert len(secrets) == 1 and len(secrets.pop()) == 32  # one fresh secret per batch
    for record in records:
        assert seeds_with_names(names(record), SMALL_SEEDS) == []


def test_default_seeds_are_63_bits_and_every_game_has_a_fresh_secret(tmp_path: Path) -> None:
    first, second = played(tmp_path / "a.db"), played(tmp_path / "b.db")
    configs = [first.game.config, second.game.config]
    assert all(c.seed >= 2**32 for c in configs)  # 2**-31 odds of a false failure
    assert configs[0].secret != configs[1].secret
    form_setup, _ = parse_form({})
    assert form_setup.seed >= 2**32 and form_setup.secret and len(form_setup.secret) == 32
    assert parse_form({"seed": 7})[0].secret != parse_form({"seed": 7})[0].secret


class SeedKeeper:
    """A random player that keeps what an agent would hold: its own request's seed."""

    kind = "random"

    def __init__(self, seen: dict[str, int]) -> None:
        self.seen = seen

    def decide(self, request: DecisionRequest) -> Answer:
        self.seen[request.seat] = request.seed
        action = random_action(request.seed, request.key, request.options, request.seat)
        return Answer(action, plain_record(request, self.kind, action))


def seat_seeds(secret: str | None, seed: int) -> dict[str, int]:
    seen: dict[str, int] = {}

    def factory(seat: str, kind: str, seating: Seating, view: SeatView) -> SeedKeeper:
        return SeedKeeper(seen)

    build_graph().compile().invoke(
        {"setup": GameSetup(board="8-arena", seed=seed, secret=secret), "seating": Seating()},
        {"recursion_limit": RECURSION_LIMIT},
        context=GameContext(player_factory=factory),
    )
    return seen


# Each seed is a search of a million seeds; the long run adds a second game.
@pytest.mark.parametrize("seed", [7, pytest.param(1_000, marks=pytest.mark.long)])
def test_an_agent_cannot_find_the_game_seed_from_its_own_seed(seed: int) -> None:
    held = seat_seeds(None, seed)
    assert len(held) == 8
    for seat, observed in list(held.items())[:2]:
        assert seeds_with_seat_seed(seat, observed, range(0, 1_000_000)) == []
    # Control: without a secret the same search finds the game seed at once.
    legacy = seat_seeds("", seed)
    assert seeds_with_seat_seed("P01", legacy["P01"], range(0, 1_000_000)) == [seed]


def test_seed_and_secret_replay_the_same_deal_and_names() -> None:
    first = new_game(make_config("12-A", seed=7, secret=HEX_SECRET))[0]
    again = new_game(make_config("12-A", seed=7, secret=HEX_SECRET))[0]
    other = new_game(make_config("12-A", seed=7, secret="ab" * 16))[0]
    assert first.seats == again.seats
    assert [s.name for s in first.seats] != [s.name for s in other.seats]


@pytest.mark.parametrize("secret", ["xyz", "ab" * 8, "AB" * 16, "ab" * 65])
def test_a_malformed_secret_is_one_error_line(tmp_path: Path, secret: str) -> None:
    result = cli("play", "--players", "random", "--secret", secret, "--db", tmp_path / "g.db")
    assert result.exit_code == 2 and result.stderr.startswith("error: "), result.stderr
    assert "secret" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "g.db").exists()


def test_a_fork_and_a_resume_of_a_game_with_a_fresh_secret_replay_it(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    original = played(db, "--board", "9-standard")
    assert len(original.game.config.secret) == 32
    games = Games(db)
    try:
        # No change: the draws come from the checkpoint. Halfway, as a fresh deal can end
        # within a few dozen steps.
        branch = games.fork("g", original.game.ply // 2, "same")
        assert branch.game.config.secret == original.game.config.secret
        done = games.resume("same")
    finally:
        games.close()
    assert done.events == original.events and done.records == original.records
